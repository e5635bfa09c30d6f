"""Computer players for Senet (docs/rules/senet.md). Nothing is hidden, so the view is
loaded as the position and searched with the engine's own moves.

- easy: a random legal move, but a stone that can bear off does.
- normal: greedy: the move whose resulting position evaluates best (see `evaluate`).
- hard: normal improved by playouts: each legal move is played out many times by normal for
  HORIZON decisions, every move meeting the same throws (common random numbers: the dice,
  which dominate one game, largely cancel between moves), and the end positions are scored
  as a chance of winning (`evaluate`, squashed). It plays that move only where its playouts
  beat normal's move by more than SURE standard errors (round by round, the same throws),
  else normal's move: the playouts take the opponent to be normal, and the best of several
  noisy means is biased upwards, so a small lead may be noise, or a gain only against a
  careful opponent (against random and greedy tables, bench/arena.py --tables, about half
  of old hard's departures from normal went). It is bounded by a count of decisions played
  (never the clock), so a budget fixes the move under any load.

The expectimax over the throws that hard used before (`_Search`, with `evaluate` at the leaves,
one to three throws deep) won about 54% against normal; the playouts reach a dozen decisions
further, and did as well on a tenth of the budget (bench/arena.py, --budget 0.1). The dice
decide most of a game (bench/senet_predict.py). `_Search` still serves normal (one move deep)
and the review.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from engines import CHANCE, get_engine

if TYPE_CHECKING:
    from engines.senet import SenetState

ENG = get_engine("senet")
FIELDS = ("game", "options", "board", "off", "turn", "phase", "throw")
COLOURS = "WB"
BEAUTY = 26

# The share of easy's decisions that are normal's (engines/ai/__init__.py), between the
# one-ply greedy baseline and normal (bench/arena.py).
EASY_SKILL = 0.7
# Decisions played out per second of budget (normal's choice + apply, throws included),
# measured on the 2-core build machine under load with about 2x headroom.
PLIES_PER_SECOND = 8_000
HORIZON = 12  # decisions in one playout before its end position is scored
# Hard leaves normal's move only for one whose playouts beat it by more than SURE standard
# errors: the playouts model the opponent as normal and pick the best of several noisy
# means, so a small lead is as likely noise, or a gain only against a careful opponent.
SURE = 2.0
SCALE = 40.0  # evaluation points per logistic unit (as engines/ai/review.py's SENET_SCALE)
WIN = 10_000.0

# What a stone is worth by square: progress, with the houses priced by how they bear off.
# 27 sends the stone back to about 15; 28 and 29 need an exact throw and can drown.
SQUARE = [0.0] + [float(s) for s in range(1, 26)] + [27.0, 13.0, 28.0, 29.5, 31.0]
OFF = 33.0
PROTECT = 1.5  # a stone next to a friend (both on 1..26) cannot be swapped
TEMPO = 3.0  # the side about to throw moves about three squares first
THREAT = 0.5  # weight of what the side to throw can expect to win by a swap
P = (0.0, 4 / 16, 6 / 16, 4 / 16, 1 / 16, 1 / 16)  # throw 1..5


def _side(board: str, ch: str) -> float:
    value = 0.0
    i = board.find(ch)
    while i >= 0:
        s = i + 1
        value += SQUARE[s]
        if s <= BEAUTY and ((s >= 2 and board[s - 2] == ch) or (s < BEAUTY and board[s] == ch)):
            value += PROTECT
        i = board.find(ch, s)
    return value


def _threat(board: str, me: str, opp: str) -> float:
    """Expected gain of the best swap `me` can make with the next throw."""
    best = [0.0] * 6
    i = board.find(me)
    while i >= 0:
        s = i + 1
        if s < BEAUTY:
            for k in range(1, 6):
                t = s + k
                if t > BEAUTY:
                    break
                if board[t - 1] == opp and not (
                    board[t - 2] == opp or (t < BEAUTY and board[t] == opp)
                ):
                    best[k] = max(best[k], 2.0 * k)
        elif s == BEAUTY:
            for k in (2, 3, 4):  # a stone on 28..30 swapped from 26 drowns
                if board[BEAUTY + k - 1] == opp:
                    best[k] = max(best[k], SQUARE[BEAUTY + k] - SQUARE[27] + k)
        i = board.find(me, s)
    return sum(P[k] * best[k] for k in range(1, 6))


def _points(state: SenetState, seat: int) -> float:
    """`evaluate` of a loaded position."""
    if state.phase == "over":
        return WIN if state.turn == seat else -WIN
    board = state.board
    off = state.off
    me, opp = COLOURS[seat], COLOURS[1 - seat]
    score = _side(board, me) - _side(board, opp) + OFF * (off[seat] - off[1 - seat])
    mover = state.turn
    lead = TEMPO + THREAT * _threat(board, COLOURS[mover], COLOURS[1 - mover])
    return score + lead if mover == seat else score - lead


def evaluate(position: dict, seat: int) -> float:
    """How good the position is for `seat`: material (stones off), progress, safety, tempo."""
    return _points(_load(position), seat)


def win_chance(state: SenetState, seat: int) -> float:
    """`evaluate` as a chance of winning for `seat`: 1 or 0 once the game is over."""
    if state.phase == "over":
        return 1.0 if state.turn == seat else 0.0
    return 1.0 / (1.0 + math.exp(-_points(state, seat) / SCALE))


class _Abort(Exception):
    """The node budget ran out mid-search."""


class _Search:
    """Expectimax over the throws for `seat`, leaves scored by `evaluate`."""

    def __init__(self, seat: int, limit: int) -> None:
        self.seat = seat
        self.limit = limit
        self.nodes = 0
        self.cache: dict[tuple, float] = {}

    def child(self, state: SenetState, actor: int, move: str) -> SenetState:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _Abort
        return ENG.apply(state, actor, move)

    def value(self, state: SenetState, depth: int) -> float:
        """Expectimax value for `seat`; depth counts the throws still expanded."""
        phase = state.phase
        if phase == "over":
            return _points(state, self.seat)
        if phase == "throw" or phase == "try":
            # A water try is always expanded (it decides between two very different states);
            # an ordinary throw at depth 0 is a leaf.
            if phase == "throw" and depth <= 0:
                return _points(state, self.seat)
            key = (state.board, state.off, state.turn, phase, depth)
            cached = self.cache.get(key)
            if cached is not None:
                return cached
            nxt = depth - 1 if phase == "throw" else depth
            total = 0.0
            for move, p in ENG.chance_odds(state).items():
                total += p * self.value(self.child(state, CHANCE, move), nxt)
            self.cache[key] = total
            return total
        turn = state.turn
        values = [self.value(self.child(state, turn, m), depth)
                  for m in ENG.legal_moves(state, turn)]
        return max(values) if turn == self.seat else min(values)

    def best(self, state: SenetState, moves: list[str], depth: int) -> tuple[str, float]:
        scored = [(self.value(self.child(state, self.seat, m), depth), m) for m in moves]
        # Highest value; ties go to the first move in sorted order.
        top = max(v for v, _ in scored)
        return next(m for v, m in scored if v == top), top


def _normal(state: SenetState, seat: int, legal: list[str]) -> str:
    return legal[0] if len(legal) == 1 else _Search(seat, 10**9).best(state, legal, 0)[0]


def _playout(state: SenetState, seat: int, dice: random.Random) -> tuple[float, int]:
    """Normal plays both sides for HORIZON decisions: `seat`'s chance then, and the count."""
    played = 0
    while state.phase != "over":
        phase = state.phase
        if phase == "throw" or phase == "try":
            if phase == "throw" and played >= HORIZON:
                break
            state = ENG.apply(state, CHANCE, ENG.sample_chance(state, dice))
            continue
        played += 1
        turn = state.turn
        state = ENG.apply(state, turn, _normal(state, turn, ENG.legal_moves(state, turn)))
    return win_chance(state, seat), played


def _improved(state: SenetState, seat: int, legal: list[str], plies: int, seed: int) -> str:
    """Hard's move: the best mean over playouts, the same throws for every move, unless it is
    not clearly better than normal's move (see SURE)."""
    results: dict[str, list[float]] = {m: [] for m in legal}
    used = 0
    r = 0
    while used < plies:
        for m in legal:
            value, n = _playout(ENG.apply(state, seat, m), seat, random.Random(seed + r))
            results[m].append(value)
            used += n + 1
        r += 1
    total = {m: sum(values) for m, values in results.items()}
    top = max(total.values())
    best = next(m for m in legal if total[m] == top)  # ties to the first in sorted order
    fallback = _normal(state, seat, legal)
    return best if _clearly_better(results[best], results[fallback]) else fallback


def _clearly_better(mine: list[float], other: list[float]) -> bool:
    """Is the mean of `mine` above `other`'s by more than SURE standard errors of the paired
    differences (round by round: the same throws)?"""
    gains = [a - b for a, b in zip(mine, other, strict=True)]
    mean = sum(gains) / len(gains)
    if mean <= 0:
        return False
    if len(gains) < 2:
        return True
    spread = sum((g - mean) ** 2 for g in gains) / (len(gains) - 1)
    return mean > SURE * math.sqrt(spread / len(gains))


def _load(view: dict) -> SenetState:
    return ENG.load({k: view[k] for k in FIELDS})


def _bears_off(state: SenetState, seat: int, move: str) -> bool:
    before = ENG.dump(state)["off"][seat]
    return ENG.dump(ENG.apply(state, seat, move))["off"][seat] > before


def choose(view: dict, seat: int, level: str, rng: random.Random, budget: float = 1.0) -> str:
    """The move `level` plays for `seat`, seeing only `view`."""
    state = _load(view)
    legal = ENG.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no move to make now")
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        off = [m for m in legal if m.startswith("move") and _bears_off(state, seat, m)]
        return rng.choice(off or legal)
    if level == "normal":
        return _normal(state, seat, legal)
    plies = max(50, int(budget * PLIES_PER_SECOND))
    return _improved(state, seat, legal, plies, rng.getrandbits(32))
