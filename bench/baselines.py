"""Baseline players for the arena, independent of engines/ai: a uniform random player and a
one-ply greedy player per game. Both see only `eng.view(state, seat)`, like the computers.

Greedy, per game (ties broken at random):
- 6 nimmt!: plays the card that takes the fewest bullheads now (as if it were placed alone),
  takes the row with the fewest bullheads, places on the cheaper end;
- Senet: bears off if it can, else swaps an opponent's stone back, else lands where its stone
  is safe (next to a friend), else moves its rearmost stone the furthest;
- Cows and Leopards: captures the most it can now and, among those moves, leaves the fewest
  of its pieces open to an immediate capture;
- Varanasi: a take that ends the set in its favour, else the take of the most discs.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engines import Engine, get_engine
from engines.ai.six_nimmt import Table as SixTable
from engines.six_nimmt import bullheads

BASELINES = ("random", "greedy")


def legal_moves(game: str, view: dict, seat: int) -> list[str]:
    """The seat's legal moves from its view. A 6 nimmt! view hides the others' hands, so it
    cannot be loaded as a position; its moves are read from the view (engines/ai's reading,
    which its tests check against the engine)."""
    if game == "six_nimmt":
        return SixTable(view, seat).legal()
    eng = get_engine(game)
    return eng.legal_moves(eng.load(view), seat)


def random_move(game: str, view: dict, seat: int, rng: random.Random) -> str:
    return rng.choice(legal_moves(game, view, seat))


def _row_cost(row: list[int]) -> int:
    return sum(bullheads(c) for c in row)


def _six_nimmt(view: dict, move: str) -> float:
    rows: list[list[int]] = view["rows"]
    verb, number = move.split()[:2]
    if verb == "play":
        card = int(number)
        below = [r for r in rows if r[-1] < card]
        if not below:
            return -min(_row_cost(r) for r in rows)
        row = max(below, key=lambda r: r[-1])
        return -_row_cost(row) if len(row) >= 5 else 0
    if verb in ("take", "place"):
        return -_row_cost(rows[int(number) - 1])
    return 0  # drafting: no one-ply preference


def _senet(eng: Engine, view: dict, seat: int, move: str, after: Any) -> float:
    me, opp = "WB"[seat], "WB"[1 - seat]
    board = view["board"]
    position = eng.dump(after)
    new = position["board"]
    score = 0.0
    if position["off"][seat] > view["off"][seat]:
        score += 1000
    # A swap sends an opponent's stone back: their stones' squares sum drops.
    theirs = sum(i for i, c in enumerate(board) if c == opp)
    if sum(i for i, c in enumerate(new) if c == opp) < theirs:
        score += 100
    landed = [i for i, c in enumerate(new) if c == me and board[i] != me]
    if any(new[j] == me for i in landed for j in (i - 1, i + 1) if 0 <= j < len(new)):
        score += 10
    # Otherwise move the rearmost stone furthest (it has the longest way to go).
    return score + sum(i for i, c in enumerate(new) if c == me) / 100


def _cows_leopards(eng: Engine, view: dict, seat: int, move: str, after: Any) -> float:
    gained = eng.dump(after)["captured"] - view["captured"]
    exposed = 0
    if eng.outcome(after) is None:
        actors = eng.to_act(after)
        if actors and actors[0] != seat:
            replies = eng.legal_moves(after, actors[0])
            exposed = len({r.split("x")[1] for r in replies if "x" in r})
    # Leopards gain by capturing; cows by never leaving a cow to be jumped.
    return gained * 100 - (exposed if seat == 0 else 0)


def _varanasi(eng: Engine, view: dict, seat: int, move: str, after: Any) -> float:
    if not move.startswith("take"):
        return 0.0
    position = eng.dump(after)
    gained = len(position["taken"][seat]) - len(view["taken"][seat]) if position.get(
        "taken") else 0
    ended = position.get("set") != view["set"] or not any(position.get("towers", [""]))
    return 1000.0 * ended + gained


# The greedy player's score of a move, higher is better: from the position the move leads to
# (the seat's view loaded as a position) or, for 6 nimmt!, whose view cannot be loaded, from
# the view alone.
SCORE_AFTER: dict[str, Callable[[Engine, dict, int, str, Any], float]] = {
    "senet": _senet, "cows_leopards": _cows_leopards, "varanasi": _varanasi,
}
SCORE_IN_VIEW: dict[str, Callable[[dict, str], float]] = {"six_nimmt": _six_nimmt}


def greedy_move(game: str, view: dict, seat: int, rng: random.Random) -> str:
    """The best scored legal move, ties broken at random."""
    legal = legal_moves(game, view, seat)
    if len(legal) == 1:
        return legal[0]
    if game in SCORE_IN_VIEW:
        scores = [SCORE_IN_VIEW[game](view, m) for m in legal]
    else:
        eng = get_engine(game)
        state = eng.load(view)
        scores = [SCORE_AFTER[game](eng, view, seat, m, eng.apply(state, seat, m))
                  for m in legal]
    top = max(scores)
    return rng.choice([m for m, score in zip(legal, scores, strict=True) if score == top])


def baseline_move(name: str, game: str, view: dict, seat: int, seed: int) -> str:
    rng = random.Random(seed)
    return (random_move if name == "random" else greedy_move)(game, view, seat, rng)
