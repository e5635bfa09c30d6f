"""Private decisions (engine info `private`, e.g. 6 nimmt!'s picks): the hand picture (the
renderer's `render_hand`) and a select of the seat's moves, for one seat.

Sent by DM at each pick turn, and as an ephemeral reply to "Pick privately". Only ever built
from `table.view(seat)` and sent to that seat's player.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import ui

import renderers
from bot.features.common.badges import game_title
from bot.features.common.drawing import draw
from bot.features.table.components import MoveSelect
from bot.features.table.controls import natural
from bot.features.table.labels import labels_of
from bot.i18n import picture_words, t
from bot.tables import Table

log = logging.getLogger(__name__)


def render_hand_png(game: str, view: dict[str, Any], seat: int, locale: object = None) -> bytes:
    return renderers.render_hand(game, view, seat, gettext=picture_words(locale))


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


def hand_items(table: Table, seat: int, moves: list[str], locale: object) -> list[ui.Item[Any]]:
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


def own_pick(table: Table, seat: int) -> int | None:
    """The card `seat` has picked face down this turn (visible only to that seat)."""
    picked = table.view(seat).get("picked") or []
    value = picked[seat] if seat < len(picked) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None
