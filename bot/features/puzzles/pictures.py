"""What the board workers draw for puzzles (bot/workers.py): a puzzle's position and the
board after an answer. No discord.py here (a worker process would load it to find these)."""

from __future__ import annotations

from bot.i18n import picture_words
from engines.base import Record
from renderers import puzzle as pictures


def puzzle_png(puzzle: Record, locale: object) -> bytes:
    """The puzzle's position in `locale`'s words (runs in a board worker)."""
    return pictures.render_puzzle(puzzle, gettext=picture_words(locale))


def answer_png(puzzle: Record, answer: str, locale: object) -> bytes:
    """The board after the answer (and after the best move when wrong)."""
    return pictures.render_answer(puzzle, answer, gettext=picture_words(locale))
