"""Every game, described once by a `GameSpec` and registered once.

A `GameSpec` says where each part of one game lives, as an import path ("package.module" for
a module, "package.module:NAME" for something in it), like a package's entry points:

- `engine`: the rules (an `engines.base.Engine`);
- `player`: the computer player, anything with `choose(view, seat, level, rng, budget)`
  (optionally `EASY_SKILL`, see engines.ai): the game's own (`engines.ai.<game>`), or
  explicitly a generic one: `PLAYOUT_PLAYER` (seeded random playouts, for games whose views
  hide nothing) or `RANDOM_PLAYER`;
- `reviewer`: how the post-game review judges its decisions (an `engines.ai.review.Reviewer`):
  the game's own, `PLAYOUT_REVIEWER` (the generic judge) or `NO_REVIEW`;
- `renderer`: the pictures, a module (or object) with `render_board`, `render_game_over` and,
  for private decisions, `render_hand` (renderers/__init__.py);
- `puzzles`: how puzzles are mined from its finished games (an
  `engines.ai.puzzles.PuzzleMaker`); "" (the default) for a game without puzzles;
- `samples`: a function yielding the game's gallery pictures, its review's included
  (renderers/gallery.py; "" for the standard ones: a board, the end, a review);
- `presentation`: how the bot words and shows it (a `bot.games.Presentation`; "" for the
  generic defaults).

Paths rather than the objects themselves, so that each layer imports only its own parts:
engines resolve `engine`, `player`, `reviewer` and `puzzles`; renderers `renderer` and
`samples`; the bot `presentation` (this module names the other layers' modules but never
imports them). A part is imported on first use, so a missing or broken module breaks its own
part only. And a spec is plain data that pickles: the worker processes get the registered
specs with their jobs (bot/workers.py) and find the same parts.

`BUILTIN` below is the one list of the built-in games. Another game joins with one call,
`register(spec)` (the bot's `bot.games.register`, which first checks that every part imports);
`game_ids()` lists every game, `spec(game_id)` finds one, `load(path)` imports a part.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from importlib import import_module
from typing import Any

from engines.explained import OptionError

PLAYOUT_PLAYER = "engines.ai.generic:PLAYOUTS"
RANDOM_PLAYER = "engines.ai.generic:RANDOM"
PLAYOUT_REVIEWER = "engines.ai.review:PLAYOUTS"
NO_REVIEW = ""
NO_PUZZLES = ""


@dataclass(frozen=True)
class GameSpec:
    """One game's parts as import paths (see the module's docstring); "" where a part is
    optional and the game has none of its own."""

    id: str
    engine: str
    player: str  # no default: a game without its own AI names a generic one
    reviewer: str  # no default: PLAYOUT_REVIEWER, or NO_REVIEW
    renderer: str
    samples: str = ""
    presentation: str = ""
    puzzles: str = ""  # NO_PUZZLES: the game's finished games give no puzzles

    def __post_init__(self) -> None:
        if not self.id.isidentifier():
            raise ValueError(f"a game id is a Python identifier, not {self.id!r}")
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, str):
                raise TypeError(f"{self.id}: {f.name} must be an import path, not {value!r}")
        for name in ("engine", "player", "renderer"):
            if not getattr(self, name):
                raise ValueError(f"{self.id}: the {name} is required")


PART_NAMES = tuple(f.name for f in fields(GameSpec) if f.name != "id")

BUILTIN = tuple(
    GameSpec(
        id=game,
        engine=f"engines.{game}:ENGINE",
        player=f"engines.ai.{game}",
        reviewer=f"engines.ai.review:{game.upper()}",
        renderer=f"renderers.{game}",
        samples=f"renderers.{game}:gallery_samples",
        presentation=f"bot.games.{game}:PRESENTATION",
        puzzles=f"engines.ai.puzzles.{game}:MAKER",
    )
    for game in ("varanasi", "six_nimmt", "senet", "cows_leopards")
)
GAME_IDS = tuple(s.id for s in BUILTIN)  # the built-in games

_builtin = {s.id: s for s in BUILTIN}
_registered: dict[str, GameSpec] = {}
_parts: dict[tuple[str, str], Any] = {}  # (game, part name) → the part: asked for per label


@cache
def load(path: str) -> Any:
    """The object at `path`: "package.module" (the module) or "package.module:NAME"."""
    module, _, name = path.partition(":")
    found: Any = import_module(module)
    for attribute in filter(None, name.split(".")):
        found = getattr(found, attribute)
    return found


def register(spec_: GameSpec) -> None:
    """Make the game of `spec_` known by its id (after the built-in ones). Its engine is
    imported here, and must have `info.id == spec_.id`."""
    if spec_.id in _builtin:
        raise ValueError(f"cannot register a game with id {spec_.id!r}: a built-in game")
    engine = load(spec_.engine)
    if engine.info.id != spec_.id:
        raise ValueError(f"{spec_.id}: the engine's info.id is {engine.info.id!r}")
    _registered[spec_.id] = spec_
    _parts.clear()


def unregister(game_id: str) -> None:
    """Forget a game added with `register` (tests clean up with it)."""
    _registered.pop(game_id, None)
    _parts.clear()


def registered() -> tuple[GameSpec, ...]:
    """The games added with `register`, in order: what a worker process must also know."""
    return tuple(_registered.values())


def sync(specs: tuple[GameSpec, ...]) -> None:
    """Make the registered games exactly `specs` (a worker, from the process it works for)."""
    if specs != registered():
        _registered.clear()
        _parts.clear()
        for s in specs:
            register(s)


def game_ids() -> tuple[str, ...]:
    """Every game: the built-in ones, then the registered ones in registration order."""
    return GAME_IDS + tuple(_registered)


def spec(game_id: str) -> GameSpec:
    """The spec of `game_id` (OptionError for an unknown game)."""
    found = _registered.get(game_id) or _builtin.get(game_id)
    if found is None:
        raise OptionError("unknown game {game!r}; games: {games}", game=game_id,
                          games=", ".join(game_ids()))
    return found


def part(game_id: str, name: str) -> Any:
    """The part `name` ("engine", "player", …) of `game_id`, imported; None where the spec
    leaves an optional part empty."""
    key = (game_id, name)
    try:
        return _parts[key]
    except KeyError:
        path = getattr(spec(game_id), name)
        found = _parts[key] = load(path) if path else None
        return found
