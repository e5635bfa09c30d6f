"""Senet puzzles: a throw where the move played lost at least GAP of winning chance.

Each legal move's winning chance is the review's (engines/ai/review.py): the expectimax one
throw deep that normal plays by, mapped to a chance by the logistic curve fitted on self-play.
A decision makes a puzzle when the best move's chance is at least GAP (10 percentage points)
above the move played; every move within ACCEPT (3.5 points) of the best is counted correct.
"""

from __future__ import annotations

import random

from engines.ai.puzzles.base import PuzzleMaker, Verdict
from engines.ai.review import senet_chances as chances
from engines.base import View

GAP = 0.10  # the best move's chance above the move played
ACCEPT = 0.035  # a move this close to the best is counted correct


def find(view: View, seat: int, legal: list[str], played: str,
         rng: random.Random) -> Verdict | None:
    chance = chances(view, seat, legal)
    best = max(legal, key=lambda m: (chance[m], m != played))
    if chance[best] - chance[played] < GAP:
        return None
    accepted = tuple(m for m in legal if chance[m] >= chance[best] - ACCEPT)
    return Verdict(best, accepted, chance, 100 * (chance[best] - chance[played]))


MAKER = PuzzleMaker(lambda: find, "chance")
