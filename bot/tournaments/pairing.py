"""The rules of tournament formats, pure (standard library only).

Players are ints (Discord user ids; computers negative). A *game* of a round is a tuple of
players in seat order; a one-player game is a bye. A *result* is a game with the points each
player scored: a win is 1, a loss 0, a draw ½ (a bye counts as a win); at a multi-player
table, first place is 1, last 0 and the places between evenly spread, players who share a
place share its points (`points_for_ranks`).

Formats:
- **swiss**: N rounds; each round pairs players of equal score where it can, never twice the
  same pair (unless no other pairing exists), the bye going to the lowest-ranked player who
  has not had one. Tie-breaks: Buchholz (the sum of the opponents' scores), then
  Sonneborn-Berger (the scores of opponents beaten, plus half of those drawn).
- **round_robin**: everyone meets everyone once (circle method; a bye each round for an odd
  count).
- **elimination**: single elimination seeded by rating, in the standard bracket order (seed 1
  meets the lowest seed, 1 and 2 can only meet in the final); missing seats are byes for the
  top seeds; a drawn game sends the higher seed through.
- **tables**: multi-table rounds for games of 3+ players: balanced tables (sizes differ by at
  most one, within the game's range), seated by standing each round (leaders together).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

FORMATS: tuple[str, ...] = ("swiss", "round_robin", "elimination", "tables")
TWO_PLAYER_FORMATS: tuple[str, ...] = ("swiss", "round_robin", "elimination")
BYE_POINTS = 1.0
MAX_SEARCH = 200_000  # pairing attempts before allowing a repeat pairing


@dataclass(frozen=True)
class Result:
    """A finished game of a round: its players and the points each scored."""

    players: tuple[int, ...]
    points: tuple[float, ...]

    @property
    def bye(self) -> bool:
        return len(self.players) == 1


@dataclass(frozen=True)
class Standing:
    player: int
    points: float
    buchholz: float
    sonneborn: float
    games: int
    rank: int = 0


def points_for_ranks(ranks: Sequence[int]) -> tuple[float, ...]:
    """Points of each seat from its rank (1 = best; shared ranks are ties)."""
    n = len(ranks)
    if n == 1:
        return (BYE_POINTS,)
    by_place = [(n - 1 - place) / (n - 1) for place in range(n)]
    out = []
    for rank in ranks:
        tied = sum(1 for r in ranks if r == rank)
        places = by_place[rank - 1: rank - 1 + tied]
        out.append(round(sum(places) / len(places), 6))
    return tuple(out)


def bye(player: int) -> Result:
    return Result((player,), (BYE_POINTS,))


# -- standings ------------------------------------------------------------------------------


def scores(results: Iterable[Result]) -> dict[int, float]:
    total: dict[int, float] = {}
    for result in results:
        for player, points in zip(result.players, result.points, strict=True):
            total[player] = total.get(player, 0.0) + points
    return total


def standings(players: Sequence[int], results: Sequence[Result],
              seeds: Sequence[int] | None = None) -> list[Standing]:
    """Best first: points, then Buchholz, then Sonneborn-Berger, then seed order."""
    score = scores(results)
    buchholz = dict.fromkeys(players, 0.0)
    sonneborn = dict.fromkeys(players, 0.0)
    games = dict.fromkeys(players, 0)
    for result in results:
        for player, points in zip(result.players, result.points, strict=True):
            games[player] = games.get(player, 0) + 1
            for other, their in zip(result.players, result.points, strict=True):
                if other == player:
                    continue
                buchholz[player] = buchholz.get(player, 0.0) + score.get(other, 0.0)
                if points > their:
                    sonneborn[player] = sonneborn.get(player, 0.0) + score.get(other, 0.0)
                elif points == their:
                    sonneborn[player] = sonneborn.get(player, 0.0) + score.get(other, 0.0) / 2
    order = {p: i for i, p in enumerate(seeds if seeds is not None else players)}
    rows = [Standing(p, score.get(p, 0.0), buchholz.get(p, 0.0), sonneborn.get(p, 0.0),
                     games.get(p, 0)) for p in players]
    rows.sort(key=lambda s: (-s.points, -s.buchholz, -s.sonneborn, order.get(s.player, 0)))
    ranked, previous = [], None
    for index, row in enumerate(rows):
        key = (row.points, row.buchholz, row.sonneborn)
        rank = ranked[-1].rank if previous == key else index + 1
        ranked.append(Standing(row.player, row.points, row.buchholz, row.sonneborn,
                               row.games, rank))
        previous = key
    return ranked


# -- swiss ----------------------------------------------------------------------------------


def swiss_rounds(players: int) -> int:
    """The usual number of Swiss rounds: enough for one unbeaten winner (ceil log2 n)."""
    return max(1, math.ceil(math.log2(max(players, 2))))


def met(results: Iterable[Result]) -> set[frozenset[int]]:
    return {frozenset(r.players) for r in results if len(r.players) == 2}


def had_bye(results: Iterable[Result]) -> set[int]:
    return {r.players[0] for r in results if r.bye}


def swiss_round(players: Sequence[int], results: Sequence[Result],
                seeds: Sequence[int] | None = None) -> list[tuple[int, ...]]:
    """The next round's pairings (and a one-player bye) for `players` still in."""
    ranked = [s.player for s in standings(players, results, seeds)]
    games: list[tuple[int, ...]] = []
    if len(ranked) % 2:
        byes = had_bye(results)
        lucky = next((p for p in reversed(ranked) if p not in byes), ranked[-1])
        ranked.remove(lucky)
        games.append((lucky,))
    order = _fold(ranked, scores(results))
    pairs = _pair(order, met(results), [0]) or _pair(order, set(), [0]) or []
    return [*pairs, *games]


def _fold(ranked: list[int], score: dict[int, float]) -> list[int]:
    """Within each score group, the top half meets the bottom half (1-3, 2-4 of four):
    ordered so that pairing neighbours gives that, an odd one out floating down."""
    out: list[int] = []
    start = 0
    while start < len(ranked):
        end = start
        while end < len(ranked) and score.get(ranked[end], 0.0) == score.get(ranked[start], 0.0):
            end += 1
        group = ranked[start:end]
        half = len(group) // 2
        for top, bottom in zip(group[:half], group[half:2 * half], strict=True):
            out += [top, bottom]
        out += group[2 * half:]
        start = end
    return out


def _pair(order: list[int], played: set[frozenset[int]],
          budget: list[int]) -> list[tuple[int, ...]] | None:
    """Pair `order` top down (each with the best-ranked opponent it has not met), backing
    up when the rest cannot be paired; None if impossible (or the search is too long)."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for index, other in enumerate(rest):
        budget[0] += 1
        if budget[0] > MAX_SEARCH:
            return None
        if frozenset((first, other)) in played:
            continue
        tail = _pair(rest[:index] + rest[index + 1:], played, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


# -- round robin ----------------------------------------------------------------------------


def round_robin(players: Sequence[int]) -> list[list[tuple[int, ...]]]:
    """Every round of a round robin (circle method): n-1 rounds for even n, n for odd n,
    where each round one player has a bye (a one-player game, listed last)."""
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    for number in range(n - 1):
        games, byes = [], []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
                assert bye is not None  # the ring holds one None at most
                byes.append((bye,))
            else:
                games.append((a, b) if (number + i) % 2 == 0 else (b, a))
        rounds.append([*games, *byes])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


# -- single elimination ---------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a power-of-two `size`: 1, 8, 4, 5, 2, 7, 3, 6."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def elimination_rounds(players: int) -> int:
    return max(1, math.ceil(math.log2(max(players, 2))))


def first_bracket(seeded: Sequence[int]) -> list[tuple[int, ...]]:
    """Round 1 of a bracket of `seeded` players (best first): games, and one-player byes
    for the top seeds where the bracket has empty places."""
    size = 2 ** elimination_rounds(len(seeded))
    order = bracket_order(size)
    games = []
    for i in range(0, size, 2):
        pair = [seeded[s - 1] for s in order[i:i + 2] if s <= len(seeded)]
        games.append(tuple(pair))
    return games


def winner(result: Result, seeds: Sequence[int]) -> int:
    """Who goes through: the most points; on a draw the higher seed."""
    rank = {p: i for i, p in enumerate(seeds)}
    return min(zip(result.players, result.points, strict=True),
               key=lambda pp: (-pp[1], rank.get(pp[0], 0)))[0]


def next_bracket(previous: Sequence[Result], seeds: Sequence[int]) -> list[tuple[int, ...]]:
    """The next round from the previous round's results, kept in bracket order."""
    winners = [winner(r, seeds) for r in previous]
    return [tuple(winners[i:i + 2]) for i in range(0, len(winners), 2)]


# -- multi-table rounds ---------------------------------------------------------------------


def table_sizes(players: int, low: int, high: int) -> list[int]:
    """Balanced table sizes (largest first) within low..high; ValueError if impossible."""
    if players < low:
        raise ValueError(f"{players} players are too few for a table of {low}")
    count = math.ceil(players / high)
    if players // count < low:
        raise ValueError(f"{players} players cannot sit at tables of {low}–{high}")
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def tables_round(players: Sequence[int], results: Sequence[Result], low: int, high: int,
                 rng: random.Random | None = None,
                 seeds: Sequence[int] | None = None) -> list[tuple[int, ...]]:
    """A multi-table round: tables by standing (the first round in seed order, or shuffled
    with `rng`), each table's seat order shuffled with `rng` if given."""
    if results:
        order = [s.player for s in standings(players, results, seeds)]
    else:
        order = list(seeds if seeds is not None else players)
        order = [p for p in order if p in set(players)]
    tables, start = [], 0
    for size in table_sizes(len(order), low, high):
        table = order[start:start + size]
        if rng is not None:
            rng.shuffle(table)
        tables.append(tuple(table))
        start += size
    return tables
