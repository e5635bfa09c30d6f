"""Board pictures (Pillow): one module per game plus the shared theme; views in, PNG bytes out.

`render(game_id, view, events)` and `render_game_over(game_id, view, outcome)` dispatch to the
game's renderer module's `render_board` / `render_game_over` (each takes a keyword `gettext`:
the words of the picture in the caller's language, see renderers.theme.tr). A game with
private decisions (engine info) also has `render_hand(view, seat, gettext=...)`, and a module
names its own sample pictures for renderers.gallery (its spec's `samples`).

Each game's spec (engines/registry.py) names its renderer: for the built-in games the module
`renderers.<game_id>`, imported only when asked, so one missing or broken module never breaks
the others. A game registered with `engines.register` brings its own.
"""

from __future__ import annotations

from typing import Any, Protocol

from engines import game_ids
from engines.registry import part
from renderers.theme import Gettext


class Renderer(Protocol):
    """A game's pictures (a module, usually); `render_hand` too where a decision is private."""

    def render_board(self, view: dict[str, Any], events: list[dict], *,
                     gettext: Gettext | None = None) -> bytes: ...

    def render_game_over(self, view: dict[str, Any], outcome: dict[str, Any], *,
                         gettext: Gettext | None = None) -> bytes: ...


def module(game_id: str) -> Any:
    """The `Renderer` of `game_id` (ValueError for an unknown game)."""
    return part(game_id, "renderer")


def available() -> list[str]:
    """The game ids whose renderer module imports."""
    found = []
    for game_id in game_ids():
        try:
            module(game_id)
        except (ImportError, AttributeError, ValueError):
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


def render_hand(game_id: str, view: dict[str, Any], seat: int,
                gettext: Gettext | None = None) -> bytes:
    """What `seat` alone may see for a private decision, from `eng.view(state, seat)`."""
    return module(game_id).render_hand(view, seat, gettext=gettext)


__all__ = ["Renderer", "available", "module", "render", "render_game_over", "render_hand"]
