"""The components a player to act gets on a board, built from the service's legal moves.

The game's presentation (bot/games/<game>.py) says which moves are buttons (Senet's stones,
6 nimmt!'s rows, Varanasi's colours, with an emoji) and how moves group; the rest go into a
select. Private decisions (6 nimmt!'s picks) never get channel components (hands.py).
A select holds at most 25 options: with more moves the select lists groups first (piece →
destination; drops by column; draft cards by tens) and the chosen group opens an ephemeral
select of its moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import discord

from bot.features.common.components import Item
from bot.features.table.components import GroupSelect, MoveButton, MoveSelect
from bot.games import presentation
from bot.i18n import t, tn
from engines import get_engine

MAX_OPTIONS = 25
MAX_ROWS = 5
BUTTONS_PER_ROW = 5


@lru_cache(maxsize=8192)
def natural_key(game: str, move: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key from the move's parts as its engine reads them, numbers as numbers: "play 9"
    before "play 10"."""
    try:
        parts = get_engine(game).read_move(move).parts
    except ValueError:
        return ((2, move),)
    return tuple((0, part) if isinstance(part, int) else (1, part) for part in parts)


def natural(game: str, moves: Sequence[str]) -> list[str]:
    return sorted(moves, key=lambda move: natural_key(game, move))


@lru_cache(maxsize=8192)  # the same moves come back board after board
def group_of(game: str, move: str, locale: object = None) -> tuple[str, str]:
    """(key, label) of the group `move` belongs to when a select must be split."""
    return presentation(game).group_of(move, locale)


def groups(
    game: str, moves: Sequence[str], locale: object = None
) -> dict[str, tuple[str, list[str]]]:
    """key → (label, moves), in the order the moves come."""
    out: dict[str, tuple[str, list[str]]] = {}
    for move in moves:
        key, label = group_of(game, move, locale)
        out.setdefault(key, (label, []))[1].append(move)
    return out


def chunks(moves: Sequence[str], size: int = MAX_OPTIONS) -> list[list[str]]:
    return [list(moves[i : i + size]) for i in range(0, len(moves), size)]


def select_options(moves: Sequence[str], labels: dict[str, str]) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=labels.get(m, m)[:100], value=m, description=m[:100])
        for m in moves
    ]


def move_selects(
    table_id: int, ply: int, moves: Sequence[str], labels: dict[str, str], where: str,
    placeholder: str, first_row: int, rows: int,
) -> list[Item]:
    """Up to `rows` selects of the moves, 25 per select (custom ids c1, c2 … when split)."""
    parts = chunks(moves)[:rows]
    items: list[Item] = []
    for index, part in enumerate(parts):
        tag = where if len(parts) == 1 else f"{where}{index + 1}"
        items.append(
            MoveSelect(table_id, ply, tag, select_options(part, labels),
                       placeholder=placeholder, row=first_row + index)
        )
    return items


def board_items(
    game: str, table_id: int, ply: int, moves: Sequence[str], labels: dict[str, str],
    locale: object = None,
) -> list[Item]:
    """Buttons and selects for one seat's legal `moves` on a channel board."""
    shown = presentation(game)
    moves = natural(game, moves)
    buttons = [m for m in moves if shown.is_button(m)]
    others = [m for m in moves if not shown.is_button(m)]
    items: list[Item] = []
    button_rows = min(len(chunks(buttons, BUTTONS_PER_ROW)), MAX_ROWS - (1 if others else 0))
    for index, move in enumerate(buttons[: button_rows * BUTTONS_PER_ROW]):
        style = discord.ButtonStyle.secondary if move == "pass" else discord.ButtonStyle.primary
        items.append(MoveButton(table_id, ply, move, label=labels.get(move, move), style=style,
                                emoji=shown.button_emoji(move), row=index // BUTTONS_PER_ROW))
    if not others:
        return items
    rows_left = MAX_ROWS - button_rows
    placeholder = t(locale, "Choose your move…")
    if len(others) <= MAX_OPTIONS:
        return items + move_selects(table_id, ply, others, labels, "c", placeholder,
                                    button_rows, 1)
    grouped = groups(game, others, locale)
    if 1 < len(grouped) <= MAX_OPTIONS:
        options = [
            discord.SelectOption(
                label=label[:100], value=key,
                description=tn(locale, "{count} move", "{count} moves", len(group),
                               count=len(group)),
            )
            for key, (label, group) in grouped.items()
        ]
        items.append(GroupSelect(table_id, ply, options,
                                 placeholder=t(locale, "Choose a piece or group…"),
                                 row=button_rows))
        return items
    return items + move_selects(table_id, ply, others, labels, "c", placeholder, button_rows,
                                rows_left)


def group_items(
    game: str, table_id: int, ply: int, moves: Sequence[str], labels: dict[str, str],
    chosen: str, locale: object = None,
) -> list[Item]:
    """The board's controls once the group `chosen` was picked in its group select: the same
    controls (that group shown as chosen) and, in the rows below, a select of the group's
    moves (a drop's points, a piece's destinations): the second press on the same message."""
    items = board_items(game, table_id, ply, moves, labels, locale)
    in_selects = [m for m in moves if not presentation(game).is_button(m)]
    grouped = groups(game, natural(game, in_selects), locale)
    label, members = grouped.get(chosen, ("", []))
    if not members:
        return items
    used = 0
    for item in items:
        if isinstance(item, GroupSelect):
            for option in item.item.options:
                option.default = option.value == chosen
        used = max(used, (item.row or 0) + 1)
    placeholder = t(locale, "{group}: where to?", group=label)[:150]
    return items + move_selects(table_id, ply, members, labels, "c", placeholder, used,
                                max(1, MAX_ROWS - used))
