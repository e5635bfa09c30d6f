"""Computer players against each other: `python bench/arena.py [--game ID] [--games N]
[--budget S] [--jobs J] [--seed K]`.

Each game's matchups are one entry of ARENAS: the seat count, the options, the pairs of levels
to set against each other and how a game is scored. Seats alternate between the two levels
(game i gives seat s to the first level when s + i is even), so over two games every seat is
played by each level. Every chance move and every decision is seeded from (game, matchup,
index), and every search is bounded by counts, so a run is reproducible on any machine.
A "level" may also be a baseline of bench/baselines.py ("random", "greedy").
Games 2k and 2k+1 are played from the same chance seed with the seats swapped, and the
confidence intervals are computed over these pairs.

Scores, per game:
- "win": 1 if the first level ranks better than the second, 0.5 on a tie, else 0 (2 players);
- "points_lost": the mean points lost by the seats of each level (lower is better), and the
  difference first minus second, paired within a game.
Every number is printed with a 95% confidence interval (normal approximation).

`--tables` prints instead one level against another *at tables of* other players
(`python bench/arena.py --tables --game six_nimmt --games 150`): in deal i one seat
(i mod the seat count) is played by the first level, every other seat by the table's level
(random, greedy, easy, normal, hard); the same deal is then played again with that seat
given to the second level, the other seats' decisions seeded exactly as before. Per table it
prints the first and the second level's result (6 nimmt!: points lost by the seat; other
games: the seat's win rate) and their difference, paired by deal, each with a 95% interval.
`--first`/`--second` choose the two levels (default hard and normal), `--table-levels` the
tables.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.baselines import BASELINES, baseline_move  # noqa: E402
from engines import get_engine  # noqa: E402
from engines.ai import choose_move  # noqa: E402
from tests.helpers.playout import play_with  # noqa: E402


@dataclass(frozen=True)
class Arena:
    players: int
    options: dict
    matchups: tuple[tuple[str, str], ...]  # (first level, second level)
    metric: str  # "win" or "points_lost"


# Each level against the next one down, and every level against both baselines.
LADDER = (("hard", "normal"), ("normal", "easy"), ("hard", "greedy"), ("normal", "greedy"),
          ("easy", "greedy"), ("hard", "random"), ("normal", "random"), ("easy", "random"))

ARENAS: dict[str, Arena] = {
    "senet": Arena(2, {}, LADDER, "win"),
    # One round per game keeps a run short; points lost per round is what a level controls.
    "six_nimmt": Arena(5, {"rounds": 1}, LADDER, "points_lost"),
    # A match of the default 3 sets, 2 players (3 colours).
    "varanasi": Arena(2, {}, LADDER, "win"),
    # Seats alternate, so each level plays the cows in one game of a pair, the leopards in
    # the other; a draw (quiet limit) scores 0.5.
    "cows_leopards": Arena(2, {}, LADDER, "win"),
}


def seat_levels(players: int, first: str, second: str, index: int) -> list[str]:
    return [first if (s + index) % 2 == 0 else second for s in range(players)]


def decide(game: str, view: dict, seat: int, level: str, seed: int, budget: float) -> str:
    if level in BASELINES:
        return baseline_move(level, game, view, seat, seed)
    # The bot's budgets: hard gets `budget`, normal and easy a fixed share (BUDGETS).
    return choose_move(game, view, seat, level, seed=seed, budget=budget * BUDGETS[level])


BUDGETS = {"hard": 1.0, "normal": 0.3, "easy": 0.1}  # as in bot/tables/computers.py


def play_one(game: str, first: str, second: str, index: int, budget: float,
             seed: int, options: dict | None = None) -> dict:
    """One seeded game; returns per-level results and decision times."""
    arena = ARENAS[game]
    eng = get_engine(game)
    levels = seat_levels(arena.players, first, second, index)
    base = seed * 1_000_003 + index * 7_919 + zlib.crc32(f"{first}/{second}".encode()) % 1000
    # Games 2k and 2k+1 share their chance seed (the same deal, the same first throws) with
    # the levels' seats swapped, so the luck of the deal largely cancels within a pair.
    chance = random.Random(seed * 1_000_003 + index // 2)
    state = eng.new(arena.players, {**arena.options, **(options or {})})
    start = eng.view(state, None)
    times: dict[str, list[float]] = {first: [], second: []}

    def timed_decision(state: Any, actor: int, ply: int) -> str:
        level = levels[actor]
        t0 = time.perf_counter()
        move = decide(game, eng.view(state, actor), actor, level, base + ply, budget)
        times[level].append(time.perf_counter() - t0)
        return move

    out = eng.outcome(play_with(eng, state, chance, timed_decision))
    return {"levels": levels, "scores": out["scores"], "ranks": out["ranks"], "times": times,
            "start": start.get("points")}


def score(arena: Arena, first: str, second: str, result: dict) -> tuple[float, ...]:
    levels = result["levels"]
    if arena.metric == "win":
        a = min(r for lv, r in zip(levels, result["ranks"], strict=True) if lv == first)
        b = min(r for lv, r in zip(levels, result["ranks"], strict=True) if lv == second)
        return (1.0 if a < b else 0.5 if a == b else 0.0,)
    start = result["start"]
    lost = [p0 - p for p0, p in zip(start, result["scores"], strict=True)]
    la = statistics.fmean(x for lv, x in zip(levels, lost, strict=True) if lv == first)
    lb = statistics.fmean(x for lv, x in zip(levels, lost, strict=True) if lv == second)
    return la, lb, la - lb


def _by_seat(arena: Arena, first: str, results: list[dict],
             scores: list[tuple[float, ...]]) -> str:
    """Two players: the first level's score by the seat it held (in Cows and Leopards seat 0
    is the cows), with its interval over games."""
    if arena.players != 2 or arena.metric != "win":
        return ""
    parts = []
    for seat in (0, 1):
        mine = [s[0] for r, s in zip(results, scores, strict=True) if r["levels"][seat] == first]
        if mine:
            m, h = ci(mine)
            parts.append(f"seat {seat + 1}: {100 * m:.1f}% ± {100 * h:.1f}")
    return " (" + ", ".join(parts) + ")"


def ci(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def run(game: str, games: int, budget: float, jobs: int, seed: int,
        report: Callable[[str], None] = print, only: list[str] | None = None,
        options: dict | None = None) -> None:
    arena = ARENAS[game]
    for first, second in arena.matchups:
        if only and f"{first}-{second}" not in only:
            continue
        t0 = time.perf_counter()
        args = [(game, first, second, i, budget, seed, options) for i in range(games)]
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                results = list(pool.map(play_one, *zip(*args, strict=True)))
        else:
            results = [play_one(*a) for a in args]
        scores = [score(arena, first, second, r) for r in results]
        by_seat = _by_seat(arena, first, results, scores)
        # One sample per pair of games (see play_one), so the intervals count pairs.
        scores = [tuple(statistics.fmean(col) for col in zip(*scores[i:i + 2], strict=True))
                  for i in range(0, len(scores), 2)]
        times = {lv: [t for r in results for t in r["times"][lv]] for lv in (first, second)}
        timing = "  ".join(
            f"{lv} {1000 * statistics.fmean(ts):.0f}/{1000 * max(ts):.0f} ms"
            for lv, ts in times.items() if ts
        )
        head = f"{game:<14}{first + ' v ' + second:<18}{games:>6}"
        if arena.metric == "win":
            m, h = ci([s[0] for s in scores])
            body = f"{first} wins {100 * m:5.1f}% ± {100 * h:4.1f}{by_seat}"
        else:
            parts = []
            for k, name in ((0, first), (1, second)):
                m, h = ci([s[k] for s in scores])
                parts.append(f"{name} {m:5.2f} ± {h:4.2f}")
            m, h = ci([s[2] for s in scores])
            parts.append(f"diff {m:+5.2f} ± {h:4.2f}")
            body = "points lost: " + ", ".join(parts)
        report(f"{head}  {body}   [decision mean/max: {timing}; "
               f"{time.perf_counter() - t0:.0f} s]")


TABLE_LEVELS = ("random", "greedy", "easy", "normal", "hard")


def play_seat(game: str, tested: str, table: str, index: int, budget: float, seed: int,
              options: dict | None = None) -> dict:
    """Deal `index` with seat index % players played by `tested`, the others by `table`.

    The chance seed and every decision seed depend on (seed, index, table) only, so the same
    deal played by another `tested` level differs only where that seat's choices differ."""
    arena = ARENAS[game]
    eng = get_engine(game)
    me = index % arena.players
    levels = [tested if s == me else table for s in range(arena.players)]
    base = seed * 1_000_003 + index * 7_919 + zlib.crc32(f"table/{table}".encode()) % 1000
    chance = random.Random(seed * 1_000_003 + index)
    state = eng.new(arena.players, {**arena.options, **(options or {})})
    start = eng.view(state, None)
    times: list[float] = []

    def decision(state: Any, actor: int, ply: int) -> str:
        t0 = time.perf_counter()
        move = decide(game, eng.view(state, actor), actor, levels[actor], base + ply, budget)
        if actor == me:
            times.append(time.perf_counter() - t0)
        return move

    out = eng.outcome(play_with(eng, state, chance, decision))
    if arena.metric == "win":
        mine = out["ranks"][me]
        best_other = min(r for s, r in enumerate(out["ranks"]) if s != me)
        value = 1.0 if mine < best_other else 0.5 if mine == best_other else 0.0
    else:
        value = float(start["points"][me] - out["scores"][me])
    return {"value": value, "times": times}


def _play_pair(game: str, first: str, second: str, table: str, index: int, budget: float,
               seed: int, options: dict | None) -> tuple[dict, dict]:
    return (play_seat(game, first, table, index, budget, seed, options),
            play_seat(game, second, table, index, budget, seed, options))


def run_tables(game: str, deals: int, budget: float, jobs: int, seed: int,
               first: str = "hard", second: str = "normal",
               tables: tuple[str, ...] = TABLE_LEVELS, report: Callable[[str], None] = print,
               options: dict | None = None) -> None:
    arena = ARENAS[game]
    unit = "points lost" if arena.metric == "points_lost" else "win %"
    scale = 1.0 if arena.metric == "points_lost" else 100.0
    report(f"{game}: {first} against {second} at tables of other levels, {deals} deals "
           f"each, hard budget {budget} s ({unit}, mean ± 95% interval; diff paired by deal)")
    for table in tables:
        t0 = time.perf_counter()
        args = [(game, first, second, table, i, budget, seed, options) for i in range(deals)]
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                pairs = list(pool.map(_play_pair, *zip(*args, strict=True)))
        else:
            pairs = [_play_pair(*a) for a in args]
        a = [scale * p[0]["value"] for p in pairs]
        b = [scale * p[1]["value"] for p in pairs]
        d = [x - y for x, y in zip(a, b, strict=True)]
        parts = []
        for name, vals in ((first, a), (second, b)):
            m, h = ci(vals)
            parts.append(f"{name} {m:6.2f} ± {h:4.2f}")
        m, h = ci(d)
        parts.append(f"diff {m:+6.2f} ± {h:4.2f}")
        ta = [t for p in pairs for t in p[0]["times"]]
        timing = f"{first} {1000 * statistics.fmean(ta):.0f}/{1000 * max(ta):.0f} ms" if ta \
            else ""
        report(f"  {table + ' seats':<14}{deals:>5}  {', '.join(parts)}   "
               f"[{timing}; {time.perf_counter() - t0:.0f} s]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(ARENAS))
    parser.add_argument("--games", type=int, default=100, help="games per matchup")
    parser.add_argument("--budget", type=float, default=1.0,
                        help="hard level's seconds; normal and easy get 0.3 and 0.1 of it")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--matchups", nargs="+", help="e.g. hard-normal normal-greedy")
    parser.add_argument("--options", default="{}", help="engine options as JSON")
    parser.add_argument("--tables", action="store_true",
                        help="first against second level at tables of other levels")
    parser.add_argument("--first", default="hard")
    parser.add_argument("--second", default="normal")
    parser.add_argument("--table-levels", nargs="+", default=list(TABLE_LEVELS))
    args = parser.parse_args()
    if args.tables:
        for game in [args.game] if args.game else list(ARENAS):
            run_tables(game, args.games, args.budget, args.jobs, args.seed, args.first,
                       args.second, tuple(args.table_levels),
                       options=json.loads(args.options))
        return
    print(f"games per matchup {args.games}, hard budget {args.budget} s, jobs {args.jobs}")
    for game in [args.game] if args.game else list(ARENAS):
        run(game, args.games, args.budget, args.jobs, args.seed, only=args.matchups,
            options=json.loads(args.options))


if __name__ == "__main__":
    main()
