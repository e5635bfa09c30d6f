"""What every game's puzzle maker shares: the verdict a finder gives at one decision, the
maker a game's spec names, and the puzzle's key.

A finder looks at one decision, seeing only `eng.view(state, seat)`, and says whether it makes
a puzzle: the move played must be clearly worse than the best, and every move counted correct
clearly better than the move played (each game's module states its margins).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engines.base import View


@dataclass(frozen=True)
class Verdict:
    """A decision that makes a puzzle: the best move, every move counted correct (the best
    included, the move played never), each legal move's value (higher is better, in the
    maker's unit), a line of play starting with the best move where the game has one, and
    `size`: how big the mistake was (in the unit; ranks a game's puzzles, biggest first)."""

    best: str
    accepted: tuple[str, ...]
    values: dict[str, float]
    size: float
    line: tuple[str, ...] = field(default=())


# (view of the seat, seat, its legal moves sorted, the move played, rng seeded from the
# puzzle's key) -> a Verdict, or None where the decision makes no puzzle.
Finder = Callable[[View, int, list[str], str, random.Random], Verdict | None]


@dataclass(frozen=True)
class PuzzleMaker:
    """One game's puzzles: `new_finder()` makes the finder of one game's log (it may keep what
    it learnt from one decision for the next, as the Varanasi solver does), `unit` names the
    values' unit ("win", "cows", "chance", "bullheads"); a value at least `decisive` from 0
    is a won (or lost) game rather than an amount (a search's win score)."""

    new_finder: Callable[[], Finder]
    unit: str
    decisive: float = math.inf


def puzzle_key(view: View, seat: int) -> str:
    """The sha1 of what `seat` sees (and the seat): the same position, the same key; nothing
    the seat could not see can change it."""
    text = json.dumps({"seat": seat, "view": view}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode()).hexdigest()


def key_rng(key: str, seed: int, purpose: str = "judge") -> random.Random:
    """A random stream fixed by the puzzle's key (so by the seat's view alone) and the seed."""
    return random.Random(f"{purpose}:{seed}:{key}")
