"""A seed and a position fix every computer's move on any machine under any load: every search
is bounded by counts, never by the clock. The same seeded searches run twice, the second
time while other processes keep every core busy, and must choose the same moves."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from itertools import islice

from engines import CHANCE, get_engine
from engines.ai import LEVELS, choose_move
from tests.helpers.playout import random_steps

GAMES = {"senet": 2, "six_nimmt": 4, "cows_leopards": 2, "varanasi": 2}
BUDGET = 0.2  # small counts keep the test short; the bound is the same kind at any budget


def positions() -> list[tuple[str, dict, int]]:
    """A few positions of each game reached by seeded random play: seats' turns with a choice,
    every seventh move of the first 200."""
    out = []
    for game, players in GAMES.items():
        eng = get_engine(game)
        steps = random_steps(eng, eng.new(players, {}), random.Random(len(game)))
        chosen = ((game, eng.view(state, actor), actor)
                  for ply, (state, actor, _move) in zip(range(200), steps, strict=False)
                  if ply % 7 == 3 and actor != CHANCE and len(eng.legal_moves(state, actor)) > 1)
        out += islice(chosen, 3)
    return out


def decisions(cases: list[tuple[str, dict, int]]) -> list[str]:
    return [choose_move(game, view, seat, level, seed=11, budget=BUDGET)
            for game, view, seat in cases for level in LEVELS]


def test_the_same_seeded_searches_choose_the_same_moves_under_load() -> None:
    cases = positions()
    assert len(cases) >= 10
    quiet = decisions(cases)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
               for _ in range(os.cpu_count() or 2)]
    try:
        loaded = decisions(cases)
    finally:
        for p in burners:
            p.kill()
            p.wait()
    assert loaded == quiet
