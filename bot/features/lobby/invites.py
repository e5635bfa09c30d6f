"""Invitations as members see them: /play's invite options checked, the lobby's line that
mentions each invited member once (Accept / Decline), and the polite refusals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

import discord

from bot.features.common.badges import clean_name
from bot.i18n import N_, t
from bot.storage.lobbies import InvitationRow
from bot.tables import Table
from bot.tables.invitations import InvitationError
from engines import get_engine

INVITE_OPTIONS = ("invite1", "invite2", "invite3")  # /play's options: members to invite
INVITE_HELP = N_("A member to invite: their seat is held until they accept or decline")

REFUSALS: dict[str, str] = {
    "not_invited": N_("This invitation isn't for you. To play, press **Join** if a seat "
                      "is free."),
    "seats_held": N_("The free seats are held for invited players ({names}). If they "
                     "decline, a seat opens."),
    "side_held": N_("That side is held for an invited player ({names}). Try another one."),
    "pending": N_("Waiting for {names} to answer the invitation. Press **Withdraw "
                  "invitations** to start without them."),
    "not_player": N_("Only the players of this game can ask for a rematch."),
    "rematch_exists": N_("A rematch of this game was opened already: table {table_id}."),
    "not_finished": N_("A rematch can be asked for once the game is over."),
}


def refusal_text(error: InvitationError, locale: object) -> str:
    params = dict(error.params)
    if "names" in params:
        params["names"] = ", ".join(clean_name(name) for name in params["names"])
    return t(locale, REFUSALS[error.code], **params)


def invite_problem(locale: object, game: str, host: discord.abc.User,
                   members: Sequence[discord.abc.User]) -> str | None:
    """Why /play's invitations can't be sent (None: they can): a bot, the host, or more
    members than the game has free seats."""
    for member in members:
        if member.bot:
            return t(locale, "I can't invite {name}: bots don't play here. Add a computer "
                     "player in the lobby instead.", name=clean_name(member.display_name))
        if member.id == host.id:
            return t(locale, "You are the host, so your seat is taken already: invite other "
                     "members.")
    free = get_engine(game).max_players - 1
    if len(members) > free:
        return t(locale, "This game seats {max} players: you can invite at most {free}.",
                 max=free + 1, free=free)
    return None


def unique_members(members: Sequence[discord.abc.User | None]) -> list[discord.abc.User]:
    """The members given, once each, in order."""
    seen: dict[int, discord.abc.User] = {}
    for member in members:
        if member is not None and member.id not in seen:
            seen[member.id] = member
    return list(seen.values())


def invitation_line(table: Table, held: Sequence[InvitationRow], locale: object,
                    rematch_of: int | None = None) -> str | None:
    """The lobby message's text while seats are held: each invited member mentioned (they
    are notified once, when the lobby is posted). None when no seat is held."""
    if not held or table.status != "lobby":
        return None
    who = " ".join(f"<@{row.user_id}>" for row in held)
    host = next((clean_name(s.name) for s in table.seats if s.user_id == table.host_id), "")
    if rematch_of is not None:
        return t(locale, "{who}: {host} asks for a rematch of table {old}. Your seat is held "
                 "for you: press **Accept** to play again, or **Decline**.", who=who, host=host,
                 old=rematch_of)
    return t(locale, "{who}: {host} invites you to this table. Your seat is held for you: "
             "press **Accept** or **Decline**.", who=who, host=host)


class LineText(TypedDict, total=False):
    """The text of a lobby message: the invitation line while seats are held, none else."""

    content: str


class LineEdit(TypedDict, total=False):
    """An edit of a lobby message's text: `content` None removes the invitation line."""

    content: str | None


def line_text(line: str | None) -> LineText:
    """`invitation_line` as a message's text (nothing when there is none)."""
    return {"content": line} if line else {}


def invited_mentions(held: Sequence[InvitationRow]) -> discord.AllowedMentions:
    """Only the invited members are notified."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(row.user_id) for row in held])
