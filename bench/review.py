"""How long does a post-game review take? `python bench/review.py [--games N] [--seed K]`

Plays seeded games of every game (normal against easy, so that there are mistakes to find),
then times `engines.ai.review.review` on each log, on one core (this process). The target:
under 30 s for a 200-move Senet game; Senet games are played to the end and reported with
their number of moves (player decisions and throws, as in the log).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import CHANCE, get_engine  # noqa: E402
from engines.ai import choose_move  # noqa: E402
from engines.ai.review import review  # noqa: E402

GAMES = {"senet": (2, {}), "varanasi": (2, {}), "six_nimmt": (4, {}),
         "cows_leopards": (2, {})}


def game_log(game: str, seed: int) -> list[tuple[int, str]]:
    players, options = GAMES[game]
    eng = get_engine(game)
    rng = random.Random(seed)
    state = eng.new(players, dict(options))
    log: list[tuple[int, str]] = []
    while eng.to_act(state):
        actor = eng.to_act(state)[0]
        if actor == CHANCE:
            move = eng.sample_chance(state, rng)
        else:
            level = "normal" if actor % 2 else "easy"
            move = choose_move(game, eng.view(state, actor), actor, level,
                               seed=seed * 10_000 + len(log), budget=0.3)
        state = eng.apply(state, actor, move)
        log.append((actor, move))
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5, help="per game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game, (players, options) in GAMES.items():
        rows = []
        for i in range(args.games):
            log = game_log(game, args.seed * 100 + i)
            t0 = time.process_time()
            review(game, options, players, log)
            rows.append((len(log), time.process_time() - t0))
        per = [t / n * 200 for n, t in rows]
        print(f"{game:<14} {args.games} games, moves {min(n for n, _ in rows)}-"
              f"{max(n for n, _ in rows)}: review {statistics.fmean(t for _, t in rows):.1f} s"
              f" mean, {max(t for _, t in rows):.1f} s max (CPU time); per 200 moves "
              f"{statistics.fmean(per):.1f} s mean, {max(per):.1f} s max")


if __name__ == "__main__":
    main()
