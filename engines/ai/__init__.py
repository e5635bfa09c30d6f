"""Computer players: each game's spec (engines/registry.py) names its own, usually the module
`engines.ai.<game>`, or explicitly a generic one (engines/ai/generic.py); each chooses from
what its seat may see.

A player is given `eng.view(state, seat)` (never the state itself), so it cannot peek at
hands or the undealt deck; where it needs a full position (search), it builds one by
sampling the hidden parts consistently with the view, then `eng.load`s it.

Decisions are deterministic for a given seed: searches are bounded by a node or playout
count calibrated to fit the time budget on a 2-core machine, never by the clock, so a seed
and a position fix the move under any load.

Easy plays normal's move on a share of its decisions (EASY_SKILL, per game where a module
sets it) and its own simple move otherwise, so that it is weaker than normal yet, unlike a
beginner's random play, better than the one-ply baselines of bench/baselines.py.
"""

from __future__ import annotations

import random
from typing import Protocol

from engines.registry import part

LEVELS = ("easy", "normal", "hard")
EASY_SKILL = 0.6  # the share of easy's decisions that are normal's (a player may set its own)


class Player(Protocol):
    """A computer player (a module or an object); it may also set `EASY_SKILL`."""

    def choose(self, view: dict, seat: int, level: str, rng: random.Random,
               budget: float = 1.0) -> str: ...


def player(game: str) -> Player:
    """The computer player of `game`, as its spec names it."""
    found: Player = part(game, "player")
    return found


def choose_move(
    game: str, view: dict, seat: int, level: str = "normal", *, seed: int = 0,
    budget: float = 1.0,
) -> str:
    """The move string `level` plays for `seat` in the position seen as `view`."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    chosen = player(game)
    rng = random.Random(seed)
    if level == "easy" and rng.random() < getattr(chosen, "EASY_SKILL", EASY_SKILL):
        level = "normal"
    return chosen.choose(view, seat, level, rng, budget)
