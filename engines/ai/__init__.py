"""Computer players: one module per game, each choosing from what its seat may see.

A player is given `eng.view(state, seat)` (never the state itself), so it cannot peek at
hands or the undealt deck; where it needs a full position (search), it builds one by
sampling the hidden parts consistently with the view, then `eng.load`s it.

Decisions are deterministic for a given seed: searches are bounded by a node or playout
count calibrated to fit the time budget on a 2-core machine; the clock is only a safety net.
"""

from __future__ import annotations

import random
from importlib import import_module

LEVELS = ("easy", "normal", "hard")


def choose_move(
    game: str, view: dict, seat: int, level: str = "normal", *, seed: int = 0,
    budget: float = 1.0,
) -> str:
    """The move string `level` plays for `seat` in the position seen as `view`."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    player = import_module(f"engines.ai.{game}")
    return player.choose(view, seat, level, random.Random(seed), budget)
