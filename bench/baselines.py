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

from engines import get_engine
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


def _best(scored: list[tuple[float, str]], rng: random.Random) -> str:
    top = max(v for v, _ in scored)
    return rng.choice([m for v, m in scored if v == top])


def _row_cost(row: list[int]) -> int:
    return sum(bullheads(c) for c in row)


def _six_nimmt(view: dict, seat: int, legal: list[str], rng: random.Random) -> str:
    rows: list[list[int]] = view["rows"]
    if legal[0].startswith("play"):
        scored = []
        for m in legal:
            card = int(m.split()[1])
            below = [r for r in rows if r[-1] < card]
            if not below:
                cost = min(_row_cost(r) for r in rows)
            else:
                row = max(below, key=lambda r: r[-1])
                cost = _row_cost(row) if len(row) >= 5 else 0
            scored.append((-cost, m))
        return _best(scored, rng)
    if legal[0].startswith("take"):
        return _best([(-_row_cost(rows[int(m.split()[1]) - 1]), m) for m in legal], rng)
    if legal[0].startswith("place"):
        return _best([(-_row_cost(rows[int(m.split()[1]) - 1]), m) for m in legal], rng)
    return rng.choice(legal)  # drafting: no one-ply preference


def _senet(view: dict, seat: int, legal: list[str], rng: random.Random) -> str:
    eng = get_engine("senet")
    state = eng.load(view)
    me, opp = "WB"[seat], "WB"[1 - seat]
    board = view["board"]
    scored = []
    for m in legal:
        after = eng.dump(eng.apply(state, seat, m))
        new = after["board"]
        score = 0.0
        if after["off"][seat] > view["off"][seat]:
            score += 1000
        # A swap sends an opponent's stone back: their stones' squares sum drops.
        theirs = sum(i for i, c in enumerate(board) if c == opp)
        if sum(i for i, c in enumerate(new) if c == opp) < theirs:
            score += 100
        landed = [i for i, c in enumerate(new) if c == me and board[i] != me]
        if any(new[j] == me for i in landed for j in (i - 1, i + 1) if 0 <= j < len(new)):
            score += 10
        # Otherwise move the rearmost stone furthest (it has the longest way to go).
        score += sum(i for i, c in enumerate(new) if c == me) / 100
        scored.append((score, m))
    return _best(scored, rng)


def _cows_leopards(view: dict, seat: int, legal: list[str], rng: random.Random) -> str:
    eng = get_engine("cows_leopards")
    state = eng.load(view)
    scored = []
    for m in legal:
        after = eng.apply(state, seat, m)
        gained = eng.dump(after)["captured"] - view["captured"]
        exposed = 0
        if eng.outcome(after) is None:
            actors = eng.to_act(after)
            if actors and actors[0] != seat:
                replies = eng.legal_moves(after, actors[0])
                exposed = len({r.split("x")[1] for r in replies if "x" in r})
        # Leopards gain by capturing; cows by never leaving a cow to be jumped.
        scored.append((gained * 100 - (exposed if seat == 0 else 0), m))
    return _best(scored, rng)


def _varanasi(view: dict, seat: int, legal: list[str], rng: random.Random) -> str:
    eng = get_engine("varanasi")
    state = eng.load(view)
    scored = []
    for m in legal:
        if not m.startswith("take"):
            scored.append((0.0, m))
            continue
        after = eng.dump(eng.apply(state, seat, m))
        gained = len(after["taken"][seat]) - len(view["taken"][seat]) if after.get(
            "taken") else 0
        ended = after.get("set") != view["set"] or not any(after.get("towers", [""]))
        scored.append((1000.0 * ended + gained, m))
    return _best(scored, rng)


GREEDY: dict[str, Callable[[dict, int, list[str], random.Random], str]] = {
    "six_nimmt": _six_nimmt, "senet": _senet, "cows_leopards": _cows_leopards,
    "varanasi": _varanasi,
}


def greedy_move(game: str, view: dict, seat: int, rng: random.Random) -> str:
    legal = legal_moves(game, view, seat)
    if len(legal) == 1:
        return legal[0]
    return GREEDY[game](view, seat, legal, rng)


def baseline_move(name: str, game: str, view: dict, seat: int, seed: int) -> str:
    rng = random.Random(seed)
    return (random_move if name == "random" else greedy_move)(game, view, seat, rng)
