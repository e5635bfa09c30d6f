"""Varanasi positions for tests and bench/varanasi_exact.py."""

from __future__ import annotations

import random

from engines import CHANCE, get_engine

ENG = get_engine("varanasi")


def random_towers(rng: random.Random, colours: int, discs: int) -> list[str]:
    """`discs` random discs of the first `colours` colours as random towers (each disc onto a
    tower with a larger top or onto a spot of its own, largest first), maybe an empty spot."""
    pool = [(s, c) for c in "rbgywk"[:colours] for s in (1, 2, 3, 4)]
    chosen = sorted(rng.sample(pool, discs), reverse=True)  # large first
    towers: list[list[tuple[int, str]]] = []
    for s, c in chosen:
        open_towers = [t for t in towers if t[-1][0] > s]
        if open_towers and rng.random() < 0.5:
            rng.choice(open_towers).append((s, c))
        else:
            towers.append([(s, c)])
    texts = ["".join(f"{c}{s}" for s, c in t) for t in towers] + [""] * rng.randrange(2)
    rng.shuffle(texts)
    return texts


def played_towers(rng: random.Random, colours: int, fewest: int, most: int) -> list[str]:
    """The towers of a 2-player set start after `fewest`..`most` random moves (none drawn when
    `most` is 0), stopping before a move that would end the set."""
    state = ENG.new(2, {"colours": colours, "sets": 1})
    state = ENG.apply(state, CHANCE, ENG.sample_chance(state, rng))
    for _ in range(rng.randrange(fewest, most + 1) if most else 0):
        seat = ENG.to_act(state)[0]
        after = ENG.apply(state, seat, rng.choice(ENG.legal_moves(state, seat)))
        if ENG.outcome(after) is not None or not any(ENG.dump(after)["towers"]):
            break
        state = after
    return ENG.dump(state)["towers"]


def position(towers: list[str], turn: int = 0, players: int = 2, **options: object) -> dict:
    """A set in play; the discs in use that are on no tower were taken by the last seat."""
    opts = ENG.default_options(players)
    opts.update(options)
    on_board = {t[i : i + 2] for t in towers for i in range(0, len(t), 2)}
    colours = "rbgywk"[: opts["colours"]]
    taken: list[list[str]] = [[] for _ in range(players)]
    in_use = [c + str(s) for c in colours for s in (1, 2, 3, 4)]
    taken[-1] = sorted(d for d in in_use if d not in on_board)
    return {
        "game": "varanasi", "options": opts, "set": 1, "phase": "play", "towers": towers,
        "turn": turn, "taken": taken, "scores": [0] * players,
    }
