"""Puzzles mined from finished games: a decision where the seat had a clearly better move.

`mine(game, options, players, log)` replays a finished game's move log as the review does
(engines/ai/review.py) and asks the game's puzzle maker — named by its spec's `puzzles`
(engines/registry.py), one module per game here — whether each decision makes a puzzle,
seeing only what that seat saw (`eng.view(state, seat)`). A puzzle is plain JSON-able data:

    {"game", "options", "players", "seat", "log" (every move before the decision, chance
     included: server-side only, to rebuild the position), "key" (sha1 of the seat's view
     and seat), "legal" (sorted), "played", "best", "accepted" (every answer counted correct,
     the best included, the move played never), "unit" ("win", "cows", "chance",
     "bullheads"), "values" (each legal move's value, higher is better), "line" (Varanasi: a
     winning line from the best move; else []), "difficulty" (an openskill mu estimate)}

A decision with fewer than MIN_CHOICES legal moves is no puzzle. The same view gives the
same key, so duplicates merge: `mine` returns unique keys, the
biggest mistakes first, at most MAX_PER_GAME. Every random choice is seeded from the key (so
from the seat's view alone) and the seed, and every search is bounded by counts, never the
clock: a log and a seed fix the puzzles.

The difficulty asks the computer levels: each level plays the position DIFFICULTY_SEEDS
times (seeded from the key), and the mu is 35 minus 5 for each level's share of answers
counted correct: found by easy, normal and hard every time -> 20 (easy), by normal and hard
-> 25, by hard only -> 30, by none -> 35 (higher is harder; 25 is an average player).

`starter(game)` is the shipped set (engines/data/puzzles/<game>.json, made by
`python -m tools.puzzles`), `check(puzzle, answer)` says whether an answer is counted correct.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from engines import CHANCE, OptionError, get_engine
from engines.ai import LEVELS, choose_move
from engines.ai.puzzles.base import PuzzleMaker, Verdict, key_rng, puzzle_key
from engines.base import Options, Record
from engines.registry import part

MAX_PER_GAME = 4
MIN_CHOICES = 3  # legal moves at least: with two, a puzzle is a coin's toss
DIFFICULTY_SEEDS = 2  # plays per computer level
DIFFICULTY_BUDGET = 0.25  # seconds of hard's budget (a count: engines/ai)
MU_NONE, MU_STEP = 35.0, 5.0
DATA = Path(__file__).resolve().parents[2] / "data" / "puzzles"

Log = list[tuple[int, str]] | list[list[Any]]


def maker(game: str) -> PuzzleMaker | None:
    """The puzzle maker the game's spec names (None: the game has no puzzles)."""
    found: PuzzleMaker | None = part(game, "puzzles")
    return found


def has_puzzles(game: str) -> bool:
    """Whether the game's spec names a puzzle maker (False for an unknown game)."""
    try:
        return maker(game) is not None
    except OptionError:
        return False


def decided(puzzle: Record, move: str) -> int:
    """1 if the judge found `move` wins the game outright, -1 if it loses it, else 0 (its value
    is an amount in the puzzle's unit)."""
    making = maker(puzzle["game"])
    value = float(puzzle["values"].get(move, 0.0))
    if making is None or abs(value) < making.decisive:
        return 0
    return 1 if value > 0 else -1


def check(puzzle: Record, answer: str) -> bool:
    """Whether `answer` is counted correct."""
    return answer in puzzle["accepted"]


def mine(game: str, options: Options, players: int, log: Log, seed: int = 0) -> list[Record]:
    """The puzzles of one game's move log (pairs (actor, move), chance moves with actor
    CHANCE, take-backs already removed): unique keys, the biggest mistakes first, at most
    MAX_PER_GAME; [] for a game without a puzzle maker."""
    making = maker(game)
    if making is None:
        return []
    eng = get_engine(game)
    find = making.new_finder()
    state = eng.new(players, dict(options))
    judged: dict[tuple[str, str], Verdict | None] = {}
    found: dict[str, tuple[int, Verdict]] = {}
    for index, (actor, move) in enumerate(log):
        if actor != CHANCE:
            legal = eng.legal_moves(state, actor)
            if len(legal) >= MIN_CHOICES and move in legal:
                view = eng.view(state, actor)
                key = puzzle_key(view, actor)
                if key not in found and (key, move) not in judged:
                    verdict = find(view, actor, sorted(legal), move, key_rng(key, seed))
                    judged[key, move] = verdict
                    if verdict is not None:
                        found[key] = (index, verdict)
        state = eng.apply(state, actor, move)
    ranked = sorted(found.items(), key=lambda e: (-e[1][1].size, e[1][0]))[:MAX_PER_GAME]
    puzzles = []
    for key, (index, verdict) in ranked:
        actor, move = log[index]
        puzzle = _puzzle(game, options, players, log[:index], int(actor), str(move), key,
                         verdict, making.unit)
        puzzle["difficulty"] = difficulty(puzzle, seed)
        puzzles.append(puzzle)
    return puzzles


def _puzzle(game: str, options: Options, players: int, before: Log, seat: int, played: str,
            key: str, verdict: Verdict, unit: str) -> Record:
    return {
        "game": game, "options": dict(options), "players": players, "seat": seat,
        "log": [[int(a), str(m)] for a, m in before], "key": key,
        "legal": sorted(verdict.values), "played": played, "best": verdict.best,
        "accepted": sorted(verdict.accepted), "unit": unit,
        "values": {m: round(v, 4) for m, v in sorted(verdict.values.items())},
        "line": list(verdict.line), "difficulty": MU_NONE,
    }


def position(puzzle: Record) -> tuple[Any, Any]:
    """(engine, state) at the puzzle's decision, rebuilt from its log."""
    eng = get_engine(puzzle["game"])
    state = eng.new(puzzle["players"], dict(puzzle["options"]))
    for actor, move in puzzle["log"]:
        state = eng.apply(state, actor, move)
    return eng, state


def difficulty(puzzle: Record, seed: int = 0) -> float:
    """The openskill mu the puzzle is worth: which computer levels find a correct answer
    (see the module's docstring), seeded from the key."""
    eng, state = position(puzzle)
    seat = puzzle["seat"]
    view = eng.view(state, seat)
    found = 0.0
    for level in LEVELS:
        for k in range(DIFFICULTY_SEEDS):
            rng_seed = key_rng(puzzle["key"], seed, f"{level}{k}").getrandbits(32)
            move = choose_move(puzzle["game"], view, seat, level, seed=rng_seed,
                               budget=DIFFICULTY_BUDGET)
            found += check(puzzle, move) / DIFFICULTY_SEEDS
    return round(MU_NONE - MU_STEP * found, 1)


@cache
def _shipped(game: str) -> tuple[str, ...]:
    path = DATA / f"{game}.json"
    if not path.is_file():
        return ()
    return tuple(json.dumps(p) for p in json.loads(path.read_text("utf-8"))["puzzles"])


def starter(game: str) -> list[Record]:
    """The shipped starter set of `game` ([] if none), each puzzle a fresh copy."""
    return [json.loads(p) for p in _shipped(game)]


__all__ = ["MAX_PER_GAME", "PuzzleMaker", "Verdict", "check", "decided", "difficulty",
           "has_puzzles", "maker", "mine", "position", "puzzle_key", "starter"]
