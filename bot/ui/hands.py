"""Private hands (6 nimmt! picks): the hand picture and a select of its cards, for one seat.

Sent by DM at each pick turn, and as an ephemeral reply to "Pick privately". Only ever built
from `table.view(seat)` and sent to that seat's player.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import ui

from bot.i18n import t
from bot.tables import Table
from bot.ui.board import game_title
from bot.ui.components import MoveSelect
from bot.ui.drawing import draw, picture_words
from bot.ui.moves import natural

log = logging.getLogger(__name__)


def render_hand_png(view: dict[str, Any], seat: int, locale: object = None) -> bytes:
    from renderers import six_nimmt  # imported on use: renderers land independently

    return six_nimmt.render_hand(view, seat, gettext=picture_words(locale))


async def hand_file(table: Table, seat: int, locale: object = None) -> discord.File | None:
    """The hand picture in `locale`'s language, drawn in a worker thread; None if it cannot
    be drawn."""
    try:
        png = await draw(render_hand_png, table.view(seat), seat, locale)
    except Exception:
        log.exception("table %s: the hand of seat %s could not be drawn", table.id, seat)
        return None
    return discord.File(io.BytesIO(png), filename="hand.png")


def hand_items(table: Table, moves: list[str], locale: object) -> list[ui.Item[Any]]:
    if not moves:
        return []
    options = [
        discord.SelectOption(label=t(locale, "Card {card}", card=m.split()[1]), value=m)
        for m in natural(moves)[:25]
    ]
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
