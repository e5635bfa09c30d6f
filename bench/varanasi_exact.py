"""Does Varanasi's hard level ever miss a win? `python bench/varanasi_exact.py [--positions N]
[--colours C …] [--budget S] [--seed K] [--grundy-discs D] [--needs CAP]`.

Two-player, normal-play positions with 3, 4 and 5 colours (the default sizes go up to 5
colours for 4 players; 2 players default to 3): a third are set starts, a third positions
reached by random play from a start, a third random towers with some discs already taken.
For each, hard's move at the bot's budget is checked against an exact reference: the
position is won exactly when its Grundy value is not 0, and a winning move leaves a Grundy-0
position. The reference is `engines.varanasi_grundy`: its win/loss solver without hard's
bound (Grundy values of the biggest positions take minutes), and where the position is small
also its Grundy value, which must agree. Prints the misses (hard left a won position for a
won one), the agreement counts and hard's decision times.

`--needs CAP` asks instead how big the exact proofs are: for each position, the count of
positions a fresh search (hard's own order, at most CAP) visits to settle it, as multiples of
hard's count, per kind of position. Hard's search does not settle a position that needs more
than its count, though the move it plays when the count runs out may still win.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import get_engine  # noqa: E402
from engines.ai import choose_move  # noqa: E402
from engines.ai import varanasi as ai  # noqa: E402
from engines.varanasi_grundy import NATIVE, grundy  # noqa: E402
from tests.helpers.varanasi import played_towers, position, random_towers  # noqa: E402

ENG = get_engine("varanasi")
REFERENCE_NODES = 20_000_000  # about 15 s compiled: the reference's own bound per position
REFERENCE_MEMO = 10_000_000  # positions the reference remembers (0.5 GB compiled) before it forgets
REFERENCE = ai.Solver(False, False, 0)


KINDS = ("set starts", "after random play", "random towers")  # sample()'s kinds, i % 3


def sample(rng: random.Random, colours: int, kind: int) -> list[str]:
    if kind == 2:
        return random_towers(rng, colours, rng.randrange(2, 4 * colours + 1))
    return played_towers(rng, colours, 1, 14) if kind == 1 else played_towers(rng, colours, 0, 0)


def exact_wins(towers: list[str], grundy_discs: int, tally: dict) -> bool | None:
    """Is the side to move winning? By the win/loss solver of `engines.varanasi_grundy`, run
    without a bound per position but with one memo for the whole run (positions repeat); where
    the position has at most `grundy_discs` discs, also by its Grundy value, which must agree.
    None when the solver has not finished within REFERENCE_NODES."""
    codes = tuple(sorted(c for c in (ai.parse_code(t) for t in towers) if c))
    if not codes:
        return False  # the last disc is gone: the mover did not take it
    if REFERENCE.remembered() > REFERENCE_MEMO:
        REFERENCE.forget()
    REFERENCE.limit = REFERENCE.nodes + REFERENCE_NODES
    try:
        won = REFERENCE.wins(codes)
    except ai.OutOfBudget:
        tally["unresolved"] += 1
        return None
    tally["solver"] += 1
    if sum(map(len, towers)) // 2 <= grundy_discs:
        g = grundy(towers)
        tally["grundy"] += 1
        if (g != 0) != won:
            tally["disagree"] += 1
            print("solver and Grundy disagree:", "|".join(towers), g, won)
    return won


def needs(args: argparse.Namespace) -> None:
    """How many positions a fresh exact search visits to settle each sampled position, against
    hard's count at `args.budget` (the same positions as the main report)."""
    hard = ai.solver_nodes(args.budget)
    factors = (1, 2, 4, 10)
    print(f"hard's count at {args.budget} s: {hard:,} positions; search: "
          + ("compiled" if NATIVE else "Python"))
    for colours in args.colours:
        rng = random.Random(args.seed * 100 + colours)
        over = {kind: [0] * len(factors) for kind in KINDS}
        won = dict.fromkeys(KINDS, 0)
        unsettled = dict.fromkeys(KINDS, 0)
        for i in range(args.positions):
            kind = KINDS[i % 3]
            towers = sample(rng, colours, i % 3)
            codes = tuple(sorted(c for c in (ai.parse_code(t) for t in towers) if c))
            if not codes:
                continue
            search = ai.Solver(False, False, args.needs)
            try:
                result: bool | None = search.wins(codes)
            except ai.OutOfBudget:
                result = None
                unsettled[kind] += 1
            if result is False:
                continue  # lost: hard has no win to miss
            won[kind] += 1
            for n, factor in enumerate(factors):
                over[kind][n] += search.nodes > factor * hard
            if search.nodes > hard:
                print(f"  {'|'.join(towers)} ({kind}): {search.nodes:,} positions"
                      + ("" if result is not None else " and not settled"), flush=True)
        print(f"{colours} colours, {args.positions} positions; won (or not settled) positions "
              f"needing more than N x hard's count, and not settled within {args.needs:,}:")
        print("  " + " " * 24 + "".join(f"{f:>8}x" for f in factors) + "  not settled")
        for kind in KINDS:
            print(f"  {kind + f' ({won[kind]})':<24}" + "".join(f"{n:>9}" for n in over[kind])
                  + f"{unsettled[kind]:>13}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=700, help="per colour count")
    parser.add_argument("--colours", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--grundy-discs", type=int, default=10)
    parser.add_argument("--needs", type=int, metavar="CAP",
                        help="report the size of each position's exact proof instead")
    args = parser.parse_args()
    if args.needs:
        needs(args)
        return
    tally = {"grundy": 0, "solver": 0, "disagree": 0, "unresolved": 0}
    REFERENCE.forget()
    rows = []
    for colours in args.colours:
        rng = random.Random(args.seed * 100 + colours)
        won = misses = 0
        times: list[float] = []
        for i in range(args.positions):
            towers = sample(rng, colours, i % 3)
            view = position(towers, colours=colours)
            gc.freeze()  # the references' memos are big: keep collecting them out of the timing
            t0 = time.perf_counter()
            move = choose_move("varanasi", view, 0, "hard", seed=i, budget=args.budget)
            times.append(time.perf_counter() - t0)
            if not exact_wins(towers, args.grundy_discs, tally):
                continue  # lost (or the reference did not finish: counted as unresolved)
            won += 1
            after = ENG.apply(ENG.load(view), 0, move)
            rest = ENG.dump(after)["towers"]
            if ENG.outcome(after) is None and any(rest) and \
                    exact_wins(rest, args.grundy_discs, tally) is not False:
                misses += 1
                print(f"miss: {'|'.join(towers)} seat 0 plays {move}")
            if (i + 1) % 50 == 0:
                print(f"  {colours} colours: {i + 1} positions, {won} won, {misses} missed",
                      flush=True)
        rows.append((colours, args.positions, won, misses, times))
    print("search: " + ("compiled" if NATIVE else "Python (engines/_varanasi_search.c not built)"))
    print(f"hard budget {args.budget} s; references: solver {tally['solver']}, also Grundy "
          f"{tally['grundy']}, disagreements {tally['disagree']}, "
          f"unresolved {tally['unresolved']} (a won position whose answer is unresolved "
          "counts as a miss)")
    for colours, n, won, misses, times in rows:
        print(f"{colours} colours: {n} positions, {won} won for the mover, {misses} missed wins;"
              f" hard move median {1000 * statistics.median(times):.0f} ms,"
              f" mean {1000 * statistics.fmean(times):.0f} ms, max {1000 * max(times):.0f} ms")


if __name__ == "__main__":
    main()
