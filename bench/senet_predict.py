"""How well Senet's evaluation predicts a game of dice: `python bench/senet_predict.py
[--games N] [--seed K]`.

Plays N seeded games of normal against itself and, at every position where a side is about to
throw, compares `win_chance` (engines/ai/senet.py: the evaluation as a chance of winning) with
whether that side went on to win. Prints the log-loss and Brier score against a coin toss, and
the calibration by decile of the predicted chance: how much of the outcome the position decides.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import CHANCE, get_engine  # noqa: E402
from engines.ai import senet as ai  # noqa: E402

ENG = get_engine("senet")


def game(seed: int) -> list[tuple[float, int]]:
    """(predicted chance of the side about to throw, 1 if it won) for one game."""
    rng = random.Random(seed)
    state = ENG.new(2)
    seen: list[tuple[float, int]] = []
    while actors := ENG.to_act(state):
        actor = actors[0]
        if actor == CHANCE:
            if state.phase == "throw":
                seen.append((ai.win_chance(state, state.turn), state.turn))
            move = ENG.sample_chance(state, rng)
        else:
            move = ai.choose(ENG.view(state, actor), actor, "normal", rng)
        state = ENG.apply(state, actor, move)
    return [(p, int(mover == state.turn)) for p, mover in seen]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    data = [x for g in range(args.games) for x in game(args.seed * 1_000_003 + g)]
    n = len(data)
    logloss = -sum(math.log(p if y else 1.0 - p) for p, y in data) / n
    brier = sum((p - y) ** 2 for p, y in data) / n
    print(f"{args.games} games, {n} positions: log-loss {logloss:.4f} (coin {math.log(2):.4f}), "
          f"Brier {brier:.4f} (coin 0.2500)")
    print("predicted  won   positions")
    for d in range(10):
        bucket = [y for p, y in data if d / 10 <= p < (d + 1) / 10]
        if bucket:
            won = sum(bucket) / len(bucket)
            print(f"{d / 10:.1f}-{(d + 1) / 10:.1f}   {won:.3f}  {len(bucket)}")


if __name__ == "__main__":
    main()
