"""Varanasi positions for tests and bench/varanasi_exact.py."""

from __future__ import annotations

import random


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
