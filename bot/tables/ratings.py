"""Skill ratings with openskill's Plackett-Luce model, one rating per guild, game and user.

Every seat is its own team (a doubles partner is rated as a player); ranks may tie. The
leaderboard sorts by the ordinal mu - 3 sigma, a conservative estimate that rewards both
winning and having played enough games to be sure of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()

Rating = tuple[float, float]  # (mu, sigma)


def initial() -> Rating:
    fresh = _MODEL.rating()
    return (fresh.mu, fresh.sigma)


def rate(before: Sequence[Rating | None], ranks: Sequence[int]) -> list[Rating]:
    """Ratings after one game: `before[i]` (None = new player) and `ranks[i]` per seat."""
    if len(before) != len(ranks):
        raise ValueError("one rank per rating")
    teams = [[_MODEL.rating(*(r or initial()))] for r in before]
    after = _MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in after]


def ordinal(mu: float, sigma: float) -> float:
    return _MODEL.rating(mu, sigma).ordinal()


def rate_answer(member: Rating | None, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """A puzzle answered as a 1-v-1 game of the member against the puzzle (solved: the
    member wins): (the member's rating, the puzzle's) after it."""
    mine, its = rate([member, puzzle], [1, 2] if solved else [2, 1])
    return mine, its
