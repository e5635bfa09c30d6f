"""The components a player to act gets on a board, built from the service's legal moves.

- Senet: one button per movable stone, plus return / try / pass.
- 6 nimmt!: "take row" buttons, "row end" buttons for a professional tie, a select for a
  Logical draft (the pool is public); picks are private (see bot.ui.hands).
- Varanasi: take-colour buttons and a select of moves.
- Cows and Leopards: a select of moves.
A select holds at most 25 options: with more moves the select lists groups first (piece →
destination; drops by column; draft cards by tens) and the chosen group opens an ephemeral
select of its moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from bot.i18n import t
from bot.ui.components import GroupSelect, MoveButton, MoveSelect

MAX_OPTIONS = 25
MAX_ROWS = 5
BUTTONS_PER_ROW = 5

COLOUR_EMOJI = {"r": "🟥", "b": "🟦", "g": "🟩", "y": "🟨", "w": "⬜", "k": "⬛"}


def natural_key(move: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key reading numbers as numbers: "play 9" before "play 10"."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in move.split())


def natural(moves: Sequence[str]) -> list[str]:
    return sorted(moves, key=natural_key)


def is_button(game: str, move: str) -> bool:
    """Whether `move` is drawn as a button (else it goes into a select)."""
    kind = move.split(" ", 1)[0]
    if game == "senet":
        return True
    if game == "six_nimmt":
        return kind in ("take", "place")
    if game == "varanasi":
        return kind == "take"
    return False


def button_emoji(game: str, move: str) -> str | None:
    if game == "varanasi" and move.startswith("take "):
        return COLOUR_EMOJI.get(move[5:])
    return None


def group_of(game: str, move: str, locale: object = None) -> tuple[str, str]:
    """(key, label) of the group `move` belongs to when a select must be split."""
    if game == "cows_leopards":
        if move.startswith("drop "):
            column = move[5:6]
            return f"d{column}", t(locale, "Drop in column {column}", column=column)
        start = move.replace("x", "-").split("-", 1)[0]
        return f"p{start}", t(locale, "Piece on {point}", point=start)
    if game == "varanasi" and move.startswith("move "):
        spot = move.split()[1]
        return f"s{spot}", t(locale, "From spot {spot}", spot=spot)
    if game == "six_nimmt" and move.split(" ", 1)[0] in ("draft", "play"):
        card = int(move.split()[1])
        low = (card - 1) // 10 * 10 + 1
        return f"c{low}", t(locale, "Cards {low}–{high}", low=low, high=low + 9)
    return "all", t(locale, "Moves")


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
) -> list[ui.Item[Any]]:
    """Up to `rows` selects of the moves, 25 per select (custom ids c1, c2 … when split)."""
    parts = chunks(moves)[:rows]
    items: list[ui.Item[Any]] = []
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
) -> list[ui.Item[Any]]:
    """Buttons and selects for one seat's legal `moves` on a channel board."""
    moves = natural(moves)
    buttons = [m for m in moves if is_button(game, m)]
    others = [m for m in moves if not is_button(game, m)]
    items: list[ui.Item[Any]] = []
    button_rows = min(len(chunks(buttons, BUTTONS_PER_ROW)), MAX_ROWS - (1 if others else 0))
    for index, move in enumerate(buttons[: button_rows * BUTTONS_PER_ROW]):
        style = discord.ButtonStyle.secondary if move == "pass" else discord.ButtonStyle.primary
        items.append(MoveButton(table_id, ply, move, label=labels.get(move, move), style=style,
                                emoji=button_emoji(game, move), row=index // BUTTONS_PER_ROW))
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
                description=t(locale, "{count} moves", count=len(group))
                if len(group) != 1 else t(locale, "1 move"),
            )
            for key, (label, group) in grouped.items()
        ]
        items.append(GroupSelect(table_id, ply, options,
                                 placeholder=t(locale, "Choose a piece or group…"),
                                 row=button_rows))
        return items
    return items + move_selects(table_id, ply, others, labels, "c", placeholder, button_rows,
                                rows_left)
