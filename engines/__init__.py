"""Pure rules engines for the four games, reached through one registry."""

from __future__ import annotations

from importlib import import_module

from engines.base import CHANCE, Engine, IllegalMove, Option, OptionError, ranks_from_scores

GAME_IDS = ("varanasi", "six_nimmt", "senet", "cows_leopards")

_engines: dict[str, Engine] = {}


def get_engine(game_id: str) -> Engine:
    """The engine for `game_id` ("varanasi", "six_nimmt", "senet", "cows_leopards")."""
    if game_id not in GAME_IDS:
        raise OptionError("unknown game {game!r}; games: {games}", game=game_id,
                          games=", ".join(GAME_IDS))
    if game_id not in _engines:
        _engines[game_id] = import_module(f"engines.{game_id}").ENGINE
    return _engines[game_id]


__all__ = [
    "CHANCE",
    "GAME_IDS",
    "Engine",
    "IllegalMove",
    "Option",
    "OptionError",
    "get_engine",
    "ranks_from_scores",
]
