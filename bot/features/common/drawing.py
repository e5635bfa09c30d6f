"""Pictures are drawn off the event loop, in the boards lane of the worker processes
(bot/workers.py): `draw(render, *args)` with a picklable top-level `render` and plain data;
`render` lives in a module without discord.py (the feature's `pictures.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bot import workers

T = TypeVar("T")


def _plain(value: object) -> object:
    """discord.py's enum values (a Locale) do not pickle: send their value instead (they are
    not `enum.Enum`s, so they are known by their module)."""
    return getattr(value, "value", value) if type(value).__module__ == "discord.enums" else value


async def draw(render: Callable[..., T], *args: object) -> T:
    """`render(*args)` in a board worker; returns what it returns (the picture's bytes, or
    the picture and its alt text)."""
    return await workers.run("boards", render, *(_plain(a) for a in args))
