"""Cows and Leopards puzzles: a move where the best one gains material (or wins) and stays
best by a margin when searched deeper.

Each legal move is valued by the hard level's alpha-beta search (its full evaluation, with the
capture quiescence), in cows (one capture = 1): first by the review's search, SCREEN_DEPTH
plies, then, where the best move is GAIN (1 cow) or more above the move played, again DEPTH
plies deep. The decision makes a puzzle when the best move is still GAIN above the move played
at that depth; every move within ACCEPT (half a cow) of the best there is counted correct, and
those must be at most a third of the legal moves (else there is nothing to find). A deep search
that runs out of its count makes no puzzle; a game's log gets at most DEEP_SEARCHES deep
searches and LOG_NODES positions in all (the first decisions first).
"""

from __future__ import annotations

import random

from engines.ai import cows_leopards as cl
from engines.ai.puzzles.base import PuzzleMaker, Verdict
from engines.base import View

GAIN = 1.0  # cows: the best move's value above the move played
ACCEPT = 0.5  # cows: a move this close to the best is counted correct
SCREEN_DEPTH = 2  # the review's search (engines/ai/review.py: CL_DEPTH)
SCREEN_NODES = 30_000
DEPTH = 4
DEEP_NODES = 60_000
DEEP_SEARCHES = 8
LOG_NODES = 150_000  # positions for one log's searches (about 4 s at the hard level's rate)
ACCEPTED_SHARE = 3  # at most a third of the legal moves are counted correct
MAX_SIZE = 20.0  # cows: a win ranks first, not a thousand times first


def values(view: View, depth: int, nodes: int, used: list[int] | None = None
           ) -> dict[str, float] | None:
    """Each legal move's value for the side to move, in cows, `depth` plies deep (a full
    window for every move, so each value is exact); None if the count runs out. The
    positions searched are added to `used[0]`."""
    game = cl.Game(view["options"], full=True)
    s = game.read(view)
    search = cl.Search(game, nodes)
    found: dict[str, float] = {}
    try:
        for m in game.moves(s):
            v = -search.negamax(game.play(s, m), depth - 1, -2 * cl.WIN, 2 * cl.WIN, 1)
            found[cl.move_str(m)] = v / cl.CAPTURE
    except cl.OutOfBudget:
        return None
    finally:
        if used is not None:
            used[0] += min(search.nodes, nodes)
    return found


class Finder:
    """One log's finder: it counts its deep searches."""

    def __init__(self) -> None:
        self.deep = 0
        self.used = [0]  # positions searched for this log

    def __call__(self, view: View, seat: int, legal: list[str], played: str,
                 rng: random.Random) -> Verdict | None:
        left = LOG_NODES - self.used[0]
        screen = values(view, SCREEN_DEPTH, min(SCREEN_NODES, left), self.used)
        if screen is None or played not in screen or max(screen.values()) - screen[played] < GAIN:
            return None
        if _too_many(screen, legal):
            return None  # not even at the screen's depth is there one move to find
        left = LOG_NODES - self.used[0]
        if self.deep >= DEEP_SEARCHES or left < DEEP_NODES:
            return None
        self.deep += 1
        deep = values(view, DEPTH, DEEP_NODES, self.used)
        if deep is None or set(deep) != set(legal):
            return None
        best = max(legal, key=lambda m: (deep[m], m != played))
        gap = deep[best] - deep[played]
        if gap < GAIN:
            return None
        if _too_many(deep, legal):
            return None  # most moves would do: nothing to find
        accepted = tuple(m for m in legal if deep[m] >= deep[best] - ACCEPT)
        return Verdict(best, accepted, deep, min(gap, MAX_SIZE))


def _too_many(values: dict[str, float], legal: list[str]) -> bool:
    """Are more than a third of the moves within ACCEPT of the best?"""
    top = max(values.values())
    return sum(v >= top - ACCEPT for v in values.values()) * ACCEPTED_SHARE > len(legal)


# Half the search's win score, in cows: values beyond it are wins and losses (quicker first).
MAKER = PuzzleMaker(Finder, "cows", decisive=cl.WIN / cl.CAPTURE / 2)
