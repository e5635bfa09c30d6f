"""Generic computer players, for a game whose spec names no player of its own: a spec names
one of them explicitly (engines/registry.py: `PLAYOUT_PLAYER`, `RANDOM_PLAYER`). The generic
review judge (engines/ai/review.py: `PLAYOUTS`) measures moves with the same playouts.

They find the engine by the view's "game" key (every position names its game: the engine
contract) and rebuild the position with `eng.load` from the view without its "to_act", so
they suit games whose views hide nothing; a view that does not load raises ValueError (the
bot then plays a random legal move, and the review does not judge that decision).

- `RANDOM`: a seeded random legal move, at every level.
- `PLAYOUTS`: flat Monte Carlo. Each legal move is followed by seeded random playouts to the
  end of the game (the same random numbers after every move) and the move with the best mean
  result for the seat is played. The levels differ in the number of playouts: a count, never
  the clock, so a seed and a budget fix the move.
"""

from __future__ import annotations

import random
from typing import Any

from engines import CHANCE, Engine, get_engine

PLAYOUT_PLIES = 1000  # a playout longer than this counts as a draw (0.5)
PLAYOUTS_PER_MOVE = {"easy": 3, "normal": 24, "hard": 96}


def position(view: dict[str, Any]) -> tuple[Engine, Any]:
    """The engine and the position of a view of a game whose views hide nothing."""
    eng = get_engine(view["game"])
    return eng, eng.load({k: v for k, v in view.items() if k != "to_act"})


def result(outcome: dict[str, Any], seat: int) -> float:
    """The seat's result from 0 (last) to 1 (first)."""
    ranks = outcome["ranks"]
    return 1.0 if len(ranks) < 2 else (len(ranks) - ranks[seat]) / (len(ranks) - 1)


def playout(eng: Engine, state: Any, seat: int, rng: random.Random) -> float:
    """The seat's result after random moves (and chance) from `state` to the end."""
    for _ in range(PLAYOUT_PLIES):
        outcome = eng.outcome(state)
        if outcome is not None:
            return result(outcome, seat)
        actor = eng.to_act(state)[0]
        move = (eng.sample_chance(state, rng) if actor == CHANCE
                else rng.choice(eng.legal_moves(state, actor)))
        state = eng.apply(state, actor, move)
    return 0.5


def move_values(eng: Engine, state: Any, seat: int, moves: list[str], playouts: int,
                rng: random.Random) -> dict[str, float]:
    """Each move's mean playout result for `seat`, every move with the same seeds."""
    seeds = [rng.getrandbits(32) for _ in range(playouts)]
    values = {}
    for move in moves:
        after = eng.apply(state, seat, move)
        values[move] = sum(playout(eng, after, seat, random.Random(s)) for s in seeds) / playouts
    return values


class RandomPlayer:
    """A seeded random legal move at every level: a game's spec names it where nothing
    better suits the game."""

    def choose(self, view: dict, seat: int, level: str, rng: random.Random,
               budget: float = 1.0) -> str:
        eng, state = position(view)
        return rng.choice(eng.legal_moves(state, seat))


class PlayoutPlayer:
    """Flat Monte Carlo with `playouts[level]` playouts per legal move (times the budget)."""

    EASY_SKILL = 0.0  # easy is its own level already: fewer playouts

    def __init__(self, playouts: dict[str, int] | None = None) -> None:
        self.playouts = dict(playouts or PLAYOUTS_PER_MOVE)

    def choose(self, view: dict, seat: int, level: str, rng: random.Random,
               budget: float = 1.0) -> str:
        eng, state = position(view)
        legal = eng.legal_moves(state, seat)
        if len(legal) == 1:
            return legal[0]
        count = max(1, round(self.playouts[level] * budget))
        values = move_values(eng, state, seat, legal, count, rng)
        return max(legal, key=lambda m: values[m])  # the first of the best (legal is sorted)


RANDOM = RandomPlayer()
PLAYOUTS = PlayoutPlayer()
