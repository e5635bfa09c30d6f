"""Private decisions (engine info `private`, e.g. 6 nimmt!'s picks): the hand picture (the
renderer's `render_hand`) and a select of the seat's moves, for one seat.

Sent by DM at each pick turn, and as an ephemeral reply to "Pick privately". Only ever built
from `table.view(seat)` and sent to that seat's player. A DM hand's select carries its table
and ply (`ms:<table>:<ply>:h`): after a restart, the hands still open are read back from the
players' DMs (`dm_hands`) to be closed once picked.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TypedDict

import discord
from discord import ui

from bot.features.common.badges import game_title
from bot.features.common.components import Item, view_of
from bot.features.common.drawing import draw
from bot.features.common.places import Places
from bot.features.table.components import MoveSelect
from bot.features.table.controls import natural
from bot.features.table.labels import labels_of
from bot.features.table.layout import walk
from bot.features.table.pictures import render_hand_png
from bot.i18n import t
from bot.tables import Table

log = logging.getLogger(__name__)

LOOK_BACK = 10  # a player's last DMs read back for the hands sent before a restart
HAND_ID = re.compile(r"^ms:(\d+):(\d+):h$")

# Where a hand is shown: a DM, or the interaction whose ephemeral reply shows it.
HandPlace = discord.Message | discord.Interaction


class HandMessage(TypedDict, total=False):
    """A hand as sent: its text, its select and (when it could be drawn) its picture."""

    content: str
    view: ui.View
    file: discord.File


async def hand_file(table: Table, seat: int, locale: object = None) -> discord.File | None:
    """The hand picture in `locale`'s language, drawn in a worker thread; None if it cannot
    be drawn."""
    try:
        png = await draw(render_hand_png, table.game, table.view(seat), seat, locale)
    except Exception:
        log.exception("table %s: the hand of seat %s could not be drawn", table.id, seat)
        return None
    return discord.File(io.BytesIO(png), filename="hand.png",
                        description=hand_alt(table, seat, locale))


def hand_alt(table: Table, seat: int, locale: object) -> str:
    """The hand picture in words (its alt text): the moves it offers, in readable words."""
    labels = labels_of(table, seat, locale)
    moves = natural(table.game, table.legal_moves(seat)) if table.status == "running" else []
    return t(locale, "Your hand: {cards}", cards=", ".join(labels[m] for m in moves))[:1024]


def hand_items(table: Table, seat: int, moves: list[str], locale: object) -> list[Item]:
    if not moves:
        return []
    labels = labels_of(table, seat, locale)
    options = [discord.SelectOption(label=labels[m], value=m)
               for m in natural(table.game, moves)[:25]]
    return [MoveSelect(table.id, table.ply, "h", options,
                       placeholder=t(locale, "Pick a card (face down)…"))]


def hand_text(table: Table, seat: int, locale: object, where: str) -> str:
    view = table.view(seat)
    return t(locale, "**{game}** · table {table} in {place} · round {round}\n"
             "Your hand: pick one card face down. Nobody else sees it until all have picked.",
             game=game_title(locale, table.game), table=table.id, place=where,
             round=view.get("round", "?"))


async def hand_message(table: Table, seat: int, moves: list[str], locale: object,
                       where: str) -> HandMessage:
    """The hand of `seat` offering `moves`, its words in `locale`; `where` names the
    table's place."""
    message: HandMessage = {"content": hand_text(table, seat, locale, where),
                            "view": view_of(hand_items(table, seat, moves, locale))}
    file = await hand_file(table, seat, locale)
    if file is not None:
        message["file"] = file
    return message


def own_pick(table: Table, seat: int) -> int | None:
    """The card `seat` has picked face down this turn (visible only to that seat)."""
    picked = table.view(seat).get("picked") or []
    value = picked[seat] if seat < len(picked) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def hand_ply(message: discord.Message, table_id: int) -> int | None:
    """The ply at which `message` offered a hand of `table_id` whose menu is still there;
    None for any other message (or a hand already closed)."""
    for child in walk(message.components):
        match = HAND_ID.match(getattr(child, "custom_id", None) or "")
        if match and int(match[1]) == table_id:
            return int(match[2])
    return None


async def dm_hands(client: discord.Client, places: Places, user_id: int,
                   table_id: int) -> list[tuple[int, discord.Message]]:
    """The hands of `table_id` still open among the bot's last DMs to `user_id`, with the ply
    each was sent at: the DM is the only record of a hand sent before a restart. [] when the
    DMs cannot be read (the hand then stays open; its menu refuses a late pick)."""
    found: list[tuple[int, discord.Message]] = []
    me = client.user.id if client.user is not None else None
    try:
        channel = await places.direct(user_id)
        async for message in channel.history(limit=LOOK_BACK):
            ply = hand_ply(message, table_id) if message.author.id == me else None
            if ply is not None:
                found.append((ply, message))
    except discord.HTTPException as err:
        log.info("table %s: the DMs of %s could not be read back (%s)", table_id, user_id, err)
    return found
