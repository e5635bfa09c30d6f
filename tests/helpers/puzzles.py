"""Puzzles written by hand in the format of engines/ai/puzzles (see its docs), from real
positions: a Senet game played with seeded moves up to a decision with several choices.
The judge's values here are test data (chances that make `best` the answer), not a judge."""

from __future__ import annotations

import hashlib
import json
import random

from engines import CHANCE, get_engine
from engines.base import Record


def senet_puzzle(seed: int = 3, plies: int = 12, difficulty: float = 25.0) -> Record:
    """A Senet decision reached by seeded play: the seat to move, its legal moves, the one
    "played" (the first) and a different "best" (the last)."""
    eng = get_engine("senet")
    options = eng.default_options(2)
    state = eng.new(2, options)
    rng = random.Random(seed)
    log: list[list[object]] = []
    while True:
        actors = eng.to_act(state)
        actor = actors[0]
        if actor == CHANCE:
            move = eng.sample_chance(state, rng)
        else:
            moves = sorted(eng.legal_moves(state, actor))
            if len(log) >= plies and len(moves) >= 3:
                break
            move = rng.choice(moves)
        log.append([actor, move])
        state = eng.apply(state, actor, move)
    view = eng.view(state, actor)
    key = hashlib.sha1(json.dumps([view, actor], sort_keys=True).encode()).hexdigest()
    values = {move: 0.30 + 0.1 * index for index, move in enumerate(moves)}
    return {
        "game": "senet", "options": options, "players": 2, "seat": actor, "log": log,
        "key": key, "legal": moves, "played": moves[0], "best": moves[-1],
        "accepted": [moves[-1]], "unit": "chance", "values": values, "line": [],
        "difficulty": difficulty,
    }


def distinct_senet_puzzles(count: int) -> list[Record]:
    """`count` Senet puzzles of different positions."""
    found: dict[str, Record] = {}
    seed = 1
    while len(found) < count:
        puzzle = senet_puzzle(seed, difficulty=20.0 + seed)
        found.setdefault(puzzle["key"], puzzle)
        seed += 1
    return list(found.values())
