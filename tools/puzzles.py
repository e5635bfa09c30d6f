"""Make the starter puzzles from computer self-play: `python -m tools.puzzles OUTDIR [--games N]
[--seed S] [--target T] [GAME ...]`.

Each game (every game with a puzzle maker, or those named) is played N times by the computer
levels, weaker seats (easy or normal in turn; in Senet and Cows and Leopards a beginner's
random moves or easy) against one at hard, so that there are mistakes to find; each finished
log is mined (engines.ai.puzzles.mine, judged at the hard level) and the puzzles are merged by
key until T are found. Everything is seeded from S, so the same arguments write the same
files: OUTDIR/<game>.json, {"game", "seed", "games", "puzzles"}.
The shipped set lives in engines/data/puzzles/ (`python -m tools.puzzles engines/data/puzzles`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from engines import CHANCE, game_ids, get_engine
from engines.ai import choose_move
from engines.ai.puzzles import has_puzzles, mine

# (seats, options, the weaker seats' levels in turn) of the games played. In Senet and Cows and
# Leopards easy and normal rarely lose a clear 10 points or a cow, so there a beginner (a
# seeded random legal move, "random") takes turns with easy.
Table = tuple[int, dict[str, Any], tuple[str, ...]]
TABLES: dict[str, Table] = {
    "varanasi": (2, {}, ("easy", "normal")),
    "six_nimmt": (4, {"rounds": 2}, ("easy", "normal")),
    "senet": (2, {}, ("random", "easy")),
    "cows_leopards": (2, {}, ("random", "easy")),
}
DEFAULT_TABLE: Table = (2, {}, ("easy", "normal"))
BUDGET = 0.1  # seconds of budget per computer move (a count: engines/ai)
MAX_PLIES = 600  # a game still going after this many moves is cut there


def self_play(game: str, table: Table, seed: int) -> list[tuple[int, str]]:
    """The log of one seeded game: one seat (which, by `seed`) at hard, the others at one of
    the table's weaker levels (which, by `seed`)."""
    players, options, levels = table
    eng = get_engine(game)
    rng = random.Random(seed)
    weaker = levels[seed % len(levels)]
    strong = {(seed // 2) % players}
    state = eng.new(players, dict(options))
    log: list[tuple[int, str]] = []
    while eng.outcome(state) is None and len(log) < MAX_PLIES:
        actor = eng.to_act(state)[0]
        if actor == CHANCE:
            move = eng.sample_chance(state, rng)
        else:
            level = "hard" if actor in strong else weaker
            if level == "random":
                move = rng.choice(sorted(eng.legal_moves(state, actor)))
            else:
                move = choose_move(game, eng.view(state, actor), actor, level,
                                   seed=rng.getrandbits(32), budget=BUDGET)
        state = eng.apply(state, actor, move)
        log.append((actor, move))
    return log


def generate(game: str, games: int, seed: int = 0, target: int = 30, verbose: bool = False
             ) -> list[dict[str, Any]]:
    """The puzzles of up to `games` seeded self-play games, merged by key, at most `target`."""
    table = TABLES.get(game, DEFAULT_TABLE)
    players, options, _ = table
    found: dict[str, dict[str, Any]] = {}
    for index in range(games):
        log = self_play(game, table, seed * 100_003 + index)
        for puzzle in mine(game, options, players, log, seed=seed):
            found.setdefault(puzzle["key"], puzzle)
        if verbose:
            print(f"{game}: game {index + 1}, {len(log)} moves, {len(found)} puzzles",
                  file=sys.stderr)
        if len(found) >= target:
            break
    return list(found.values())[:target]


def dumps(game: str, seed: int, games: int, puzzles: list[dict[str, Any]]) -> str:
    """The file's text: one puzzle a line, keys sorted (stable diffs)."""
    head = json.dumps({"game": game, "seed": seed, "games": games}, sort_keys=True)[:-1]
    lines = ",\n".join(json.dumps(p, sort_keys=True, separators=(",", ":")) for p in puzzles)
    return f'{head}, "puzzles": [\n{lines}\n]}}\n'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.puzzles", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("games", nargs="*", help="game ids (default: every game with puzzles)")
    parser.add_argument("--games", dest="count", type=int, default=200,
                        help="self-play games at most per game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=30, help="puzzles per game")
    args = parser.parse_args(argv)
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    for game in args.games or [g for g in game_ids() if has_puzzles(g)]:
        puzzles = generate(game, args.count, args.seed, args.target, verbose=True)
        path = out / f"{game}.json"
        path.write_text(dumps(game, args.seed, args.count, puzzles), encoding="utf-8")
        print(f"{path}: {len(puzzles)} puzzles, {path.stat().st_size // 1024} KB",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
