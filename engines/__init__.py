"""Pure rules engines, reached through one registry (engines/registry.py).

Every game is described once by a `GameSpec` (its engine, computer player, review, pictures
and presentation, as import paths); the four built-in ones are listed in `registry.BUILTIN`,
another game joins with `register(spec)`. `game_ids()` lists every game and
`get_engine(game_id)` gives its engine.
"""

from __future__ import annotations

from engines.base import CHANCE, Engine, ranks_from_scores
from engines.explained import IllegalMove, OptionError
from engines.info import Chance, Decision, GameInfo
from engines.options import Option
from engines.registry import GAME_IDS, GameSpec, game_ids, part, register, spec, unregister


def get_engine(game_id: str) -> Engine:
    """The engine of `game_id` (OptionError for an unknown game)."""
    engine: Engine = part(game_id, "engine")
    return engine


__all__ = [
    "CHANCE",
    "GAME_IDS",
    "Chance",
    "Decision",
    "Engine",
    "GameInfo",
    "GameSpec",
    "IllegalMove",
    "Option",
    "OptionError",
    "game_ids",
    "get_engine",
    "ranks_from_scores",
    "register",
    "spec",
    "unregister",
]
