"""Pictures are drawn off the event loop, in the boards lane of the worker processes
(bot/workers.py): `draw(render, *args)` with a picklable top-level `render` and plain data."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from bot import workers
from bot.i18n import t


def _plain(value: Any) -> Any:
    """discord.py's enum values (a Locale) do not pickle: send their value instead."""
    return value.value if type(value).__module__ == "discord.enums" else value


async def draw(render: Callable[..., bytes], *args: Any) -> bytes:
    """`render(*args)` in a board worker; returns the picture's bytes."""
    return await workers.run("boards", render, *(_plain(a) for a in args))


def picture_words(locale: object) -> Callable[[str], str]:
    """The `gettext` a renderer takes: the words of a picture in `locale`'s language (a channel's
    language for public pictures, the player's for private ones). Called in the worker: pass
    the locale, which pickles, not this function."""
    return functools.partial(t, locale)
