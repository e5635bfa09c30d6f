"""Board pictures (Pillow): one module per game plus the shared theme; views in, PNG bytes out.

`render(game_id, view, events)` and `render_game_over(game_id, view, outcome)` dispatch to
`renderers.<game_id>.render_board` / `render_game_over` (each takes a keyword `gettext`: the
words of the picture in the caller's language, see renderers.theme.tr), importing the module
only when asked, so one missing or broken module never breaks the others.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

from renderers.theme import Gettext

GAME_IDS = ("varanasi", "six_nimmt", "senet", "cows_leopards")


def module(game_id: str) -> ModuleType:
    """The renderer module of `game_id` (ValueError for an unknown id)."""
    if game_id not in GAME_IDS:
        raise ValueError(f"unknown game {game_id!r}; games: {', '.join(GAME_IDS)}")
    return import_module(f"renderers.{game_id}")


def available() -> list[str]:
    """The game ids whose renderer module imports."""
    found = []
    for game_id in GAME_IDS:
        try:
            module(game_id)
        except ImportError:
            continue
        found.append(game_id)
    return found


def render(game_id: str, view: dict[str, Any], events: list[dict] | None = None,
           gettext: Gettext | None = None) -> bytes:
    """The public board picture of `view` (from `eng.view(state, None)`) after `events`, its
    words translated by `gettext` (English msgid -> text; None: English)."""
    return module(game_id).render_board(view, list(events or []), gettext=gettext)


def render_game_over(game_id: str, view: dict[str, Any], outcome: dict[str, Any],
                     gettext: Gettext | None = None) -> bytes:
    """The final picture: the last position with scores and ranks from `eng.outcome`."""
    return module(game_id).render_game_over(view, outcome, gettext=gettext)


__all__ = ["GAME_IDS", "available", "module", "render", "render_game_over"]
