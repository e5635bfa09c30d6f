"""Random-playout speed of every engine: `python bench/engines.py [--seconds S] [--game ID]`.

A playout step lists the legal moves of one actor and applies one of them, as the computer
players will; chance moves are drawn with `sample_chance`. Targets (one core): Senet
100,000 moves/s, 6 nimmt! 1,000 whole 5-player rounds/s, Cows and Leopards 50,000 moves/s,
Varanasi 30,000 moves/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import CHANCE, GAME_IDS, get_engine  # noqa: E402

SETUPS = {
    "senet": (2, {}),
    "six_nimmt": (5, {"rounds": 1}),
    "cows_leopards": (2, {}),
    "varanasi": (2, {}),
}
TARGETS = {"senet": 100_000, "six_nimmt": 1_000, "cows_leopards": 50_000, "varanasi": 30_000}


def playout(eng, players: int, options: dict, rng: random.Random) -> tuple[int, float]:
    """One whole game; returns (steps, seconds spent inside apply)."""
    state = eng.new(players, options)
    steps = 0
    in_apply = 0.0
    clock = time.perf_counter
    while True:
        actors = eng.to_act(state)
        if not actors:
            return steps, in_apply
        actor = actors[0]
        if actor == CHANCE:
            move = eng.sample_chance(state, rng)
        else:
            move = rng.choice(eng.legal_moves(state, actor))
        started = clock()
        state = eng.apply(state, actor, move)
        in_apply += clock() - started
        steps += 1


def measure(game: str, seconds: float, seed: int = 1) -> dict:
    eng = get_engine(game)
    players, options = SETUPS[game]
    rng = random.Random(seed)
    games = steps = 0
    in_apply = 0.0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        n, t = playout(eng, players, options, rng)
        games += 1
        steps += n
        in_apply += t
    elapsed = time.perf_counter() - started
    return {
        "game": game,
        "games_per_s": games / elapsed,
        "moves_per_s": steps / elapsed,
        "apply_us": 1e6 * in_apply / max(steps, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", choices=GAME_IDS)
    args = parser.parse_args()
    games = [args.game] if args.game else list(GAME_IDS)
    print(f"{'game':<14}{'moves/s':>12}{'games/s':>10}{'apply µs':>10}{'target':>26}")
    for game in games:
        r = measure(game, args.seconds)
        if game == "six_nimmt":
            target = f"{r['games_per_s']:,.0f}/{TARGETS[game]:,} rounds/s"
        else:
            target = f"{r['moves_per_s']:,.0f}/{TARGETS[game]:,} moves/s"
        print(
            f"{game:<14}{r['moves_per_s']:>12,.0f}{r['games_per_s']:>10,.1f}"
            f"{r['apply_us']:>10.2f}{target:>26}"
        )


if __name__ == "__main__":
    main()
