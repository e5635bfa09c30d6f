"""Pictures are drawn off the event loop, in worker threads, a few at a time.

Rendering is CPU-bound Python and Pillow: more threads than cores only make every thread
(and the event loop, which must answer interactions within 3 s) wait longer for the GIL.
So at most RENDER_SLOTS pictures are drawn at once; the others queue, in order.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Callable
from typing import Any

from bot.i18n import t

RENDER_SLOTS = 2

_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _slot() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    slot = _slots.get(loop)
    if slot is None:
        slot = _slots[loop] = asyncio.Semaphore(RENDER_SLOTS)
    return slot


async def draw(render: Callable[..., bytes], *args: Any) -> bytes:
    """`render(*args)` in a worker thread (asyncio.to_thread), at most RENDER_SLOTS at once."""
    async with _slot():
        return await asyncio.to_thread(render, *args)


def render_slot() -> asyncio.Semaphore:
    """The render slots themselves, for work that starts its own worker thread (a replay):
    `async with render_slot(): ...`."""
    return _slot()


def picture_words(locale: object) -> Callable[[str], str]:
    """The `gettext` a renderer takes: the words of a picture in `locale`'s language (a channel's
    language for public pictures, the player's for private ones)."""
    return functools.partial(t, locale)
