"""Pure rules engines, reached through one registry.

The four games are built in (imported on first use). Another game (a test-only one, or a new
game before it is listed here) joins with `register(engine)`; `game_ids()` lists every game.
"""

from __future__ import annotations

from importlib import import_module

from engines.base import CHANCE, Engine, ranks_from_scores
from engines.explained import IllegalMove, OptionError
from engines.info import Chance, Decision, GameInfo
from engines.options import Option

GAME_IDS = ("varanasi", "six_nimmt", "senet", "cows_leopards")  # the built-in games

_engines: dict[str, Engine] = {}
_registered: dict[str, Engine] = {}


def register(engine: Engine) -> None:
    """Make `engine` reachable by `get_engine(engine.id)` (its `info` is required)."""
    if not engine.id or engine.id in GAME_IDS:
        raise ValueError(f"cannot register a game with id {engine.id!r}")
    if engine.info.id != engine.id:
        raise ValueError(f"{engine.id}: info.id is {engine.info.id!r}")
    _registered[engine.id] = engine


def unregister(game_id: str) -> None:
    """Forget a game added with `register` (tests clean up with it)."""
    _registered.pop(game_id, None)


def game_ids() -> tuple[str, ...]:
    """Every game: the built-in ones, then the registered ones in registration order."""
    return GAME_IDS + tuple(_registered)


def get_engine(game_id: str) -> Engine:
    """The engine for `game_id` ("varanasi", "six_nimmt", "senet", "cows_leopards", or one
    added with `register`)."""
    if game_id in _registered:
        return _registered[game_id]
    if game_id not in GAME_IDS:
        raise OptionError("unknown game {game!r}; games: {games}", game=game_id,
                          games=", ".join(game_ids()))
    if game_id not in _engines:
        _engines[game_id] = import_module(f"engines.{game_id}").ENGINE
    return _engines[game_id]


__all__ = [
    "CHANCE",
    "GAME_IDS",
    "Chance",
    "Decision",
    "Engine",
    "GameInfo",
    "IllegalMove",
    "Option",
    "OptionError",
    "game_ids",
    "get_engine",
    "ranks_from_scores",
    "register",
    "unregister",
]
