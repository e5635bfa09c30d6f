"""What the board workers draw for tournaments (bot/workers.py). No discord.py here (a
worker process would load it to find this)."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import picture_words
from engines.base import Record


def localised(render: Callable[..., bytes], view: Record, locale: object) -> bytes:
    """In the board worker: the picture with the words of `locale`."""
    return render(view, gettext=picture_words(locale))
