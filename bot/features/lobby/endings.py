"""Endings that reach the channel, and the rematch.

When the final board of a table opened in a lobby is posted (the Publisher's `on_finished`):
- its lobby message shows the result: the winner, the standings and a link to the final
  board (instead of "The game has started." forever);
- a game played in a thread posts one short result line in the parent channel, unless the
  server turned that off (/settings result_lines).
The final board offers **Rematch** (`RematchButton`): a new lobby in the same place with the
same options, its computers seated and its other players invited (bot/tables/invitations.py).
Tables without a lobby message (a tournament's) are left to their tournament.
"""

from __future__ import annotations

import logging

import discord

from bot.features.common.badges import game_title
from bot.features.common.components import Item, view_of
from bot.features.common.faults import defer
from bot.features.common.places import Places
from bot.features.common.replies import display_name, fit, refuse, tell
from bot.features.common.services import Services
from bot.features.lobby.components import RematchButton
from bot.features.lobby.invites import (
    invitation_line,
    invited_mentions,
    line_text,
    refusal_text,
)
from bot.features.lobby.lobbies import LobbyKeeper
from bot.features.lobby.lobby import lobby_embed, lobby_items
from bot.features.table.board import final_lines
from bot.i18n import t
from bot.tables import Table, TableError
from bot.tables.computers import computer_level
from bot.tables.invitations import InvitationError, Invitations

log = logging.getLogger(__name__)


def board_url(table: Table, message_id: int) -> str:
    """The link to a message of the table's place."""
    return f"https://discord.com/channels/{table.guild_id}/{table.place_id}/{message_id}"


def result_line(table: Table, locale: object, url: str) -> str:
    """One line for the parent channel: the game, the standings, the final board."""
    standings = " · ".join(final_lines(table, locale))
    return fit(t(locale, "🏁 **{game}** · table {table}: {standings} — [final board]({url})",
                 game=game_title(locale, table.game), table=table.id, standings=standings,
                 url=url))


def has_lobby(table: Table) -> bool:
    """Opened with /play or a rematch (not a tournament's table)."""
    return table.lobby_message_id is not None


class Endings:
    """The Publisher's end listener and final-board items, and the Rematch presses (its
    `RematchPresses`)."""

    def __init__(self, services: Services, places: Places, keeper: LobbyKeeper,
                 invitations: Invitations) -> None:
        self.service = services.tables
        self.languages = services.languages
        self.places = places
        self.keeper = keeper
        self.invitations = invitations

    # -- the end -----------------------------------------------------------------------------

    async def finished(self, table: Table, board_id: int) -> None:
        """The final board is posted as `board_id`: tell the lobby and the channel."""
        if not has_lobby(table):
            return
        url = board_url(table, board_id)
        await self.keeper.show_result(table, url)
        if table.thread_id is None:
            return  # played in the channel itself: the final board is there already
        settings = await self.service.settings.get(table.guild_id)
        if not settings.result_lines:
            return
        channel = await self.places.channel(table.channel_id)
        if channel is None:
            return
        try:
            await channel.send(result_line(table, self.places.locale_of(channel), url),
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as err:
            log.info("table %s: result line not posted (%s)", table.id, err)

    @staticmethod
    def final_items(table: Table, locale: object) -> list[Item]:
        """Rematch, on the final board of a lobby's table with members seated."""
        humans = [s for s in table.seats if computer_level(s.user_id) is None]
        if table.status != "finished" or not has_lobby(table) or not humans:
            return []
        return [RematchButton(table.id, label=t(locale, "Rematch"))]

    # -- rematch -----------------------------------------------------------------------------

    async def rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """A new lobby where the game was played, hosted by the member who pressed."""
        await defer(interaction)
        user = interaction.user
        try:
            old = await self.service.get(table_id)
            table, held = await self.invitations.open_rematch(old, user.id, display_name(user))
        except InvitationError as err:
            await tell(interaction, refusal_text(err, interaction.locale))
            return
        except TableError as err:
            await refuse(interaction, err)
            return
        loc = await self.languages.of_interaction(interaction)
        line = invitation_line(table, held, loc, rematch_of=old.id)
        text = line_text(line)
        try:
            lobby = await interaction.followup.send(
                embed=lobby_embed(table, loc, held=held),
                view=view_of(lobby_items(table, loc, held=held)),
                allowed_mentions=invited_mentions(held), wait=True, **text)
        except discord.HTTPException:  # nobody can see or join it: it must not block
            await self.keeper.discard(table)
            raise
        await self.keeper.remember(table, lobby)
