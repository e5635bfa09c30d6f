"""The tournament formats' rules on known examples (bot/tournaments/pairing.py)."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.tournaments import pairing as p
from bot.tournaments.pairing import Result


def win(a: int, b: int) -> Result:
    return Result((a, b), (1.0, 0.0))


def draw(a: int, b: int) -> Result:
    return Result((a, b), (0.5, 0.5))


def test_points_for_ranks_spread_and_share_ties() -> None:
    assert p.points_for_ranks([1, 2]) == (1.0, 0.0)
    assert p.points_for_ranks([1, 1]) == (0.5, 0.5)
    assert p.points_for_ranks([2, 1, 3]) == (0.5, 1.0, 0.0)
    assert p.points_for_ranks([1, 1, 3, 4]) == (pytest.approx(5 / 6),) * 2 + (
        pytest.approx(1 / 3), 0.0)


def test_swiss_first_round_top_half_meets_bottom_half_and_bye_to_the_last() -> None:
    assert p.swiss_round([1, 2, 3, 4, 5, 6], []) == [(1, 4), (2, 5), (3, 6)]
    assert p.swiss_round([1, 2, 3, 4, 5], []) == [(1, 3), (2, 4), (5,)]


def test_swiss_pairs_by_score_without_repeats() -> None:
    results = [win(1, 3), win(2, 4)]  # 1 and 2 lead, 3 and 4 have nothing
    assert p.swiss_round([1, 2, 3, 4], results) == [(1, 2), (3, 4)]
    results += [win(1, 2), win(3, 4)]  # 1: 2, 2: 1, 3: 1, 4: 0
    # 1-2, 2-4 and 1-3 were played: the only new pairing is 1-4 and 2-3
    assert sorted(map(sorted, p.swiss_round([1, 2, 3, 4], results))) == [[1, 4], [2, 3]]


def test_swiss_bye_goes_to_the_lowest_ranked_without_one() -> None:
    results = [win(1, 3), win(2, 4), p.bye(5)]
    games = p.swiss_round([1, 2, 3, 4, 5], results)
    byes = [g for g in games if len(g) == 1]
    # 3 and 4 have 0 points, 5 had the bye: the lowest ranked of 3 and 4 sits out
    assert byes == [(4,)]
    assert all(len(g) == 2 for g in games if g != (4,))


@pytest.mark.parametrize("count", [5, 7, 8, 9, 12])
def test_swiss_whole_events_never_repeat_and_everyone_plays(count: int) -> None:
    rng = random.Random(count)
    players = list(range(1, count + 1))
    results: list[Result] = []
    for _ in range(p.swiss_rounds(count)):
        games = p.swiss_round(players, results)
        seated = [x for g in games for x in g]
        assert sorted(seated) == players
        assert sum(len(g) == 1 for g in games) == count % 2
        for game in games:
            if len(game) == 1:
                results.append(p.bye(game[0]))
            else:
                assert frozenset(game) not in p.met(results), game
                results.append(rng.choice([win(*game), win(*game[::-1]), draw(*game)]))
    assert len(p.had_bye(results)) == (count % 2) * p.swiss_rounds(count)


def test_tie_breaks_buchholz_then_sonneborn_berger() -> None:
    # Round 1: A beats B, C beats D. Round 2: A draws C, B beats D. Round 3: D beats A,
    # C beats B. Scores: A 1.5, B 1, C 2.5, D 1.
    a, b, c, d = 1, 2, 3, 4
    results = [win(a, b), win(c, d), draw(a, c), win(b, d), win(d, a), win(c, b)]
    table = {s.player: s for s in p.standings([a, b, c, d], results)}
    assert table[a].points == 1.5 and table[c].points == 2.5
    assert table[a].buchholz == 1 + 2.5 + 1  # B, C, D
    assert table[b].buchholz == 1.5 + 1 + 2.5  # A, D, C
    assert table[d].buchholz == 2.5 + 1 + 1.5  # C, B, A
    # B and D: 1 point and Buchholz 5 each; Sonneborn-Berger: B beat D (1), D beat A (1.5)
    assert table[b].sonneborn == 1 and table[d].sonneborn == 1.5
    order = [s.player for s in p.standings([a, b, c, d], results)]
    assert order == [c, a, d, b]
    ranks = [s.rank for s in p.standings([a, b, c, d], results)]
    assert ranks == [1, 2, 3, 4]


def test_equal_everything_shares_the_rank() -> None:
    ranked = p.standings([1, 2, 3], [draw(1, 2)])
    assert [s.rank for s in ranked] == [1, 1, 3]


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 10])
def test_round_robin_everyone_meets_everyone_once(count: int) -> None:
    players = list(range(count))
    rounds = p.round_robin(players)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    pairs = [frozenset(g) for r in rounds for g in r if len(g) == 2]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, itertools.combinations(players, 2)))
    for games in rounds:
        assert sorted(x for g in games for x in g) == players
        assert sum(len(g) == 1 for g in games) == count % 2
    if count % 2:
        assert sorted(g[0] for r in rounds for g in r if len(g) == 1) == players


def test_round_robin_four_players_schedule() -> None:
    # the first player stays put, the others turn round; seats alternate who starts
    assert p.round_robin([1, 2, 3, 4]) == [
        [(1, 4), (3, 2)],
        [(3, 1), (4, 2)],
        [(1, 2), (4, 3)],
    ]


def test_bracket_order_keeps_top_seeds_apart() -> None:
    assert p.bracket_order(2) == [1, 2]
    assert p.bracket_order(4) == [1, 4, 2, 3]
    assert p.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_bracket_with_byes_for_the_top_seeds() -> None:
    seeded = [10, 20, 30, 40, 50, 60]  # best first: 6 players in a bracket of 8
    games = p.first_bracket(seeded)
    assert games == [(10,), (40, 50), (20,), (30, 60)]
    results = [p.bye(10), win(50, 40), p.bye(20), draw(30, 60)]
    # 50 beat 40; the draw sends the higher seed (30) through
    assert p.next_bracket(results, seeded) == [(10, 50), (20, 30)]
    final = p.next_bracket([win(50, 10), win(20, 30)], seeded)
    assert final == [(50, 20)]
    assert p.elimination_rounds(6) == 3 and p.elimination_rounds(8) == 3


@pytest.mark.parametrize("low, high", [(3, 6), (2, 4)])
def test_tables_of_seven_to_twenty_three_are_balanced(low: int, high: int) -> None:
    for count in range(7, 24):
        sizes = p.table_sizes(count, low, high)
        assert sum(sizes) == count
        assert all(low <= s <= high for s in sizes), (count, sizes)
        assert max(sizes) - min(sizes) <= 1
        assert len(sizes) == -(-count // high)  # as few tables as fit
    assert p.table_sizes(7, 3, 6) == [4, 3]
    assert p.table_sizes(13, 3, 6) == [5, 4, 4]
    assert p.table_sizes(23, 2, 4) == [4, 4, 4, 4, 4, 3]


def test_too_few_for_a_table_is_refused() -> None:
    with pytest.raises(ValueError):
        p.table_sizes(2, 3, 6)


def test_tables_are_reseated_by_standing() -> None:
    players = list(range(1, 8))
    first = p.tables_round(players, [], 3, 6)
    assert first == [(1, 2, 3, 4), (5, 6, 7)]
    results = [Result((1, 2, 3, 4), p.points_for_ranks([4, 3, 2, 1])),
               Result((5, 6, 7), p.points_for_ranks([1, 2, 3]))]
    second = p.tables_round(players, results, 3, 6)
    # winners (4 and 5, 1 point each) now sit with the next best (3, 6: about ½)
    assert set(second[0]) == {4, 5, 3, 6}
    assert set(second[1]) == {2, 7, 1}
    shuffled = p.tables_round(players, results, 3, 6, rng=random.Random(1))
    assert [set(t) for t in shuffled] == [set(t) for t in second]
