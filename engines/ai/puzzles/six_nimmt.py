"""6 nimmt! puzzles: a pick whose card takes clearly more bullheads than the best one.

Judged from the picker's own view only, like the hard level and the review: each sample deals
the cards the seat has not seen to the others consistently with the view (the others' picks
by the normal policy), then every card in hand is played from that same deal to the end of the
round (everyone on the noised normal policy), SAMPLES times; a card's value is minus its mean
bullheads. The samples are drawn from a random stream seeded by the puzzle's key, so by the
seat's view alone: the puzzle does not change when the others' hidden hands do.

A pick makes a puzzle when the best card takes at least GAP (1.5) bullheads fewer than the
card played; every card within ACCEPT (0.5 bullheads) of the best is counted correct (at most
half of the hand). To bound the work, a pick is first screened by the normal level's one-turn
risk model (the card played must expect SCREEN bullheads more than the best this turn), and
a seat gets at most SEAT_PICKS simulated picks of samples over a game (each sample costs
cards x cards left x seats picks), the first screened picks first.
"""

from __future__ import annotations

import random

from engines.ai import six_nimmt as sx
from engines.ai.puzzles.base import PuzzleMaker, Verdict
from engines.base import View

SAMPLES = 64
GAP = 1.5  # bullheads: the best card below the card played
ACCEPT = 0.5  # bullheads: a card this close to the best is counted correct
SCREEN = 0.5  # bullheads this turn by the normal level's risk model
SEAT_PICKS = 80_000  # simulated picks per seat and game


def card_of(move: str) -> int:
    return int(move.split()[1])


def bullheads(view: View, seat: int, legal: list[str], rng: random.Random,
              samples: int = SAMPLES) -> dict[str, float]:
    """Each card's mean bullheads for `seat` to the end of the round, over `samples` deals
    drawn with `rng` (every card played from the same deals)."""
    t = sx.Table(view, seat)
    total = dict.fromkeys(legal, 0.0)
    for _ in range(samples):
        seed = rng.getrandbits(32)
        world, picks = sx._sample(t, rng)
        picks = sx._others_picks(world, t, picks, random.Random(seed ^ 0x5EED))
        for m in legal:
            sim = world.copy()
            sx._run_pick(sim, t, picks, card_of(m), random.Random(seed))
            total[m] += sim.loss[seat]
    return {m: total[m] / samples for m in legal}


def screened(view: View, seat: int, legal: list[str], played: str) -> bool:
    """Does the normal level's risk model expect the card played to cost clearly more this
    turn than the best card?"""
    t = sx.Table(view, seat)
    k = t.knowledge()
    cost = {m: sx._card_cost(t.rows, card_of(m), t.pro, k, t.hand)[0] for m in legal}
    return cost[played] - min(cost.values()) >= SCREEN


class Finder:
    """One log's finder: it counts each seat's simulated picks."""

    def __init__(self) -> None:
        self.spent: dict[int, int] = {}

    def __call__(self, view: View, seat: int, legal: list[str], played: str,
                 rng: random.Random) -> Verdict | None:
        if view["phase"] != "pick" or not screened(view, seat, legal, played):
            return None
        cost = SAMPLES * len(legal) * len(legal) * view["options"]["players"]
        if self.spent.get(seat, 0) + cost > SEAT_PICKS:
            return None
        self.spent[seat] = self.spent.get(seat, 0) + cost
        values = {m: -b for m, b in bullheads(view, seat, legal, rng).items()}
        best = max(legal, key=lambda m: (values[m], m != played))
        gap = values[best] - values[played]
        if gap < GAP:
            return None
        accepted = tuple(m for m in legal if values[m] >= values[best] - ACCEPT)
        if 2 * len(accepted) > len(legal):
            return None
        return Verdict(best, accepted, values, gap)


MAKER = PuzzleMaker(Finder, "bullheads")
