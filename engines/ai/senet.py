"""Computer players for Senet (docs/rules/senet.md). Nothing is hidden, so the view is
loaded as the position and searched with the engine's own moves.

- easy: a random legal move, but a stone that can bear off does.
- normal: greedy: the move whose resulting position evaluates best (see `evaluate`).
- hard: expectimax over the stick throws with `chance_odds` (extra throws and House of Water
  tries are just more chance nodes; the water choice is a decision like any other), leaves
  scored by `evaluate`, iteratively deepened to 1, 3, 5... throws. It is bounded by a count
  of positions visited (never the clock), so a budget fixes the move under any load; the
  deepest search that finished gives the move.
"""

from __future__ import annotations

import random

from engines import CHANCE, get_engine

ENG = get_engine("senet")
FIELDS = ("game", "options", "board", "off", "turn", "phase", "throw")
COLOURS = "WB"
BEAUTY = 26

# Positions visited per second of budget (apply + legal moves + evaluation), measured on the
# 2-core build machine under load with about 2x headroom.
# The share of easy's decisions that are normal's (engines/ai/__init__.py), between the
# one-ply greedy baseline and normal (bench/arena.py).
EASY_SKILL = 0.7
NODES_PER_SECOND = 15_000
MAX_DEPTH = 7
GROWTH = 150  # nodes of depth d + 2 per node of depth d, measured on typical positions
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


def evaluate(position: dict, seat: int) -> float:
    """How good the position is for `seat`: material (stones off), progress, safety, tempo."""
    if position["phase"] == "over":
        return WIN if position["turn"] == seat else -WIN
    board = position["board"]
    off = position["off"]
    me, opp = COLOURS[seat], COLOURS[1 - seat]
    score = _side(board, me) - _side(board, opp) + OFF * (off[seat] - off[1 - seat])
    mover = position["turn"]
    lead = TEMPO + THREAT * _threat(board, COLOURS[mover], COLOURS[1 - mover])
    return score + lead if mover == seat else score - lead


class _Abort(Exception):
    """The node budget ran out mid-search."""


class _Search:
    def __init__(self, seat: int, limit: int, deadline: float | None = None) -> None:
        # `deadline` is ignored (kept for old callers): only the count bounds a search.
        self.seat = seat
        self.limit = limit
        self.nodes = 0
        self.cache: dict[tuple, float] = {}

    def child(self, state, actor: int, move: str):
        self.nodes += 1
        if self.nodes > self.limit:
            raise _Abort
        return ENG.apply(state, actor, move)

    def value(self, state, depth: int) -> float:
        """Expectimax value for `seat`; depth counts the throws still expanded."""
        pos = ENG.dump(state)
        phase = pos["phase"]
        if phase == "over":
            return evaluate(pos, self.seat)
        if phase == "throw" or phase == "try":
            # A water try is always expanded (it decides between two very different states);
            # an ordinary throw at depth 0 is a leaf.
            if phase == "throw" and depth <= 0:
                return evaluate(pos, self.seat)
            key = (pos["board"], pos["off"][0], pos["off"][1], pos["turn"], phase, depth)
            cached = self.cache.get(key)
            if cached is not None:
                return cached
            nxt = depth - 1 if phase == "throw" else depth
            total = 0.0
            for move, p in ENG.chance_odds(state).items():
                total += p * self.value(self.child(state, CHANCE, move), nxt)
            self.cache[key] = total
            return total
        turn = pos["turn"]
        values = [self.value(self.child(state, turn, m), depth)
                  for m in ENG.legal_moves(state, turn)]
        return max(values) if turn == self.seat else min(values)

    def best(self, state, moves: list[str], depth: int) -> tuple[str, float]:
        scored = [(self.value(self.child(state, self.seat, m), depth), m) for m in moves]
        # Highest value; ties go to the first move in sorted order.
        top = max(v for v, _ in scored)
        return next(m for v, m in scored if v == top), top


def _load(view: dict):
    return ENG.load({k: view[k] for k in FIELDS})


def _bears_off(state, seat: int, move: str) -> bool:
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
        return _Search(seat, 10**9).best(state, legal, 0)[0]
    move = _Search(seat, 10**9).best(state, legal, 0)[0]  # a handful of nodes
    limit = max(200, int(budget * NODES_PER_SECOND))
    search = _Search(seat, limit)
    # Odd depths only, so that the search ends on the opponent's reply: in the arena depth 2
    # did no better than depth 1 (about 52% against 55% versus normal).
    for depth in range(1, MAX_DEPTH + 1, 2):
        before = search.nodes
        try:
            move = search.best(state, legal, depth)[0]
        except _Abort:
            break
        used = search.nodes - before
        # Two more throws multiply the tree by about GROWTH: do not start a depth that cannot
        # finish (its work would be thrown away).
        if search.nodes + used * GROWTH > limit:
            break
    return move
