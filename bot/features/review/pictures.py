"""What the board workers draw for /review (bot/workers.py): the evaluation graph and a
mistake's boards. No discord.py here (a worker process would load it to find these)."""

from __future__ import annotations

from bot.i18n import picture_words
from engines.base import Options, Record
from renderers import review as pictures


def evaluation_png(result: Record, locale: object) -> bytes:
    """The evaluation picture in `locale`'s words (runs in a board worker)."""
    return pictures.render_evaluation(result, gettext=picture_words(locale))


def mistake_png(game: str, options: Options, players: int, log_: list[tuple[int, str]],
                mistake: Record, seat: int, locale: object) -> bytes:
    """A mistake's two boards in `locale`'s words (runs in a board worker)."""
    return pictures.render_mistake(game, options, players, log_, mistake, seat,
                                   gettext=picture_words(locale))
