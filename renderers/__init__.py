"""Board pictures (Pillow): one module per game plus the shared theme; views in, PNG bytes out.

`render(game_id, view, events)` and `render_game_over(game_id, view, outcome)` dispatch to the
game's renderer module's `render_board` / `render_game_over` (each takes a keyword `gettext`:
the words of the picture in the caller's language, see renderers.theme.tr). A game with
private decisions (engine info) also has `render_hand(view, seat, gettext=...)`, and a module
names its own sample pictures for renderers.gallery (its spec's `samples`).

Every picture has alt text (what a screen reader says, Discord's attachment description, at
most 1024 characters): `alt_text(game_id, view, events)` and `alt_text_game_over(game_id, view,
outcome)` dispatch to the module's functions of those names, in the language of `gettext`,
naming seats by `names` (display names by seat index; default "Player 1", ...). A module
without them gets a plain description (who is to move; the ranking).

Each game's spec (engines/registry.py) names its renderer: for the built-in games the module
`renderers.<game_id>`, imported only when asked, so one missing or broken module never breaks
the others. A game registered with `engines.register` brings its own.
"""

from __future__ import annotations

from typing import Any, Protocol

from engines import game_ids
from engines.registry import part
from renderers import theme
from renderers.theme import Gettext, Names


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


def alt_text(game_id: str, view: dict[str, Any], events: list[dict] | None = None,
             gettext: Gettext | None = None, names: Names = None) -> str:
    """The board picture of `render(game_id, view, events)` in words: who is to move, what
    the last move changed, the scores or counts; at most 1024 characters."""
    describe = getattr(module(game_id), "alt_text", None)
    if describe is None:
        with theme.translating(gettext):
            return theme.alt(theme.alt_to_move(view, names))
    return describe(view, list(events or []), names=names, gettext=gettext)


def alt_text_game_over(game_id: str, view: dict[str, Any], outcome: dict[str, Any],
                       gettext: Gettext | None = None, names: Names = None) -> str:
    """The final picture of `render_game_over` in words: the ranking and its scores."""
    describe = getattr(module(game_id), "alt_text_game_over", None)
    if describe is None:
        scores = list(outcome.get("scores") or [])
        ranks = list(outcome.get("ranks") or [1] * len(scores))
        with theme.translating(gettext):
            return theme.alt(theme.alt_ranking(scores, ranks, names,
                                               theme.N_("{rank}: {name}, points: {score}")))
    return describe(view, outcome, names=names, gettext=gettext)


__all__ = ["Renderer", "alt_text", "alt_text_game_over", "available", "module", "render",
           "render_game_over", "render_hand"]
