"""Readable words for move strings, derived from the engine (never from our own rules).

Each game's presentation (bot/games/<game>.py, `label`) describes a move, mostly by the
events `eng.apply_events` reports for it on the current state, e.g. Senet "move 14" →
"14 → 17 ⇄" (the stone lands on 17 and swaps).
"""

from __future__ import annotations

from bot.games import presentation
from bot.tables import Table
from engines import Engine


def describe(engine: Engine, state: object, seat: int, move: str, locale: object = None) -> str:
    """Short readable words for `move` by `seat` in `state` (falls back to the move string)."""
    return presentation(engine.id).label(engine, state, seat, move, locale)[:100]


class Labels(dict[str, str]):
    """The labels of moves in one position, each described when first asked for: a board
    that groups its moves (more than a select holds) shows none of them."""

    def __init__(self, engine: Engine, state: object, seat: int, locale: object = None) -> None:
        super().__init__()
        self._position = engine, state, seat, locale

    def __missing__(self, move: str) -> str:
        engine, state, seat, locale = self._position
        label = self[move] = describe(engine, state, seat, move, locale)
        return label

    def get(self, move: str, default: object = None) -> str:
        return self[move]


def labels_of(table: Table, seat: int, locale: object = None) -> Labels:
    """The labels of `seat`'s moves at this position in `locale`, worked out once per
    position and language (kept with the Table): the board's buttons, autocomplete and the
    "Played: …" answer share them."""
    key = ("labels", seat, str(getattr(locale, "value", locale)))
    labels = table.memo.get(key)
    if not isinstance(labels, Labels):
        labels = table.memo[key] = Labels(table.engine, table.state, seat, locale)
    return labels
