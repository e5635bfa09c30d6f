"""What the board workers draw for the table (bot/workers.py): the board with its alt text,
and a seat's hand. Only the renderers and the message catalogues: no discord.py, which a
worker process would otherwise load (tens of MB each) just to find these functions."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial

import renderers
from bot.i18n import picture_words
from engines.base import Event, Outcome, View

log = logging.getLogger(__name__)


def render_board(game: str, view: View, outcome: Outcome | None, events: Sequence[Event],
                 locale: object, names: list[str]) -> tuple[bytes, str | None]:
    """The public picture (spectator view only): the board, or the final standings, with its
    words in `locale` (the channel's language); and the picture in words (its alt text, which
    a screen reader says), naming the seats by `names`, None if the renderer cannot describe
    it. Runs in a board worker: both are drawn from the same view."""
    words = picture_words(locale)
    if outcome is not None:
        png = renderers.render_game_over(game, view, outcome, gettext=words)
        describe = partial(renderers.alt_text_game_over, game, view, outcome)
    else:
        png = renderers.render(game, view, list(events), gettext=words)
        describe = partial(renderers.alt_text, game, view, list(events))
    try:
        alt = describe(gettext=words, names=names)
    except Exception:
        log.exception("%s: no alt text for its picture", game)
        return png, None
    return png, alt[:1024]


def render_hand_png(game: str, view: View, seat: int, locale: object = None) -> bytes:
    return renderers.render_hand(game, view, seat, gettext=picture_words(locale))
