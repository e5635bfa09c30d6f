"""Ratings (openskill Plackett-Luce), results, the leaderboard and player stats."""

from __future__ import annotations

import random

import pytest

from bot.tables import TableService, ratings
from tests.bot.test_tables import GUILD, HOST, play_random, started


def test_rate_moves_winners_up_and_ties_together() -> None:
    fresh = ratings.initial()
    after = ratings.rate([None, None, None], [1, 2, 2])
    assert after[0][0] > fresh[0] > after[1][0]
    assert after[1] == after[2]  # a shared rank is a tie
    assert all(sigma < fresh[1] for _, sigma in after)  # every game makes us surer
    assert ratings.ordinal(*after[0]) > ratings.ordinal(*after[1])
    with pytest.raises(ValueError):
        ratings.rate([None], [1, 2])



async def resigned_game(service: TableService, game: str, winner: int, loser: int) -> None:
    """A two-player game that `loser` resigns at once."""
    result = await started(service, game, 2, users=[winner, loser])
    await service.resign(result.table.id, loser)


async def test_a_consistent_winner_rises_to_the_top(service: TableService) -> None:
    champion, regular, newcomer = 500, 501, 502
    for _ in range(4):
        await resigned_game(service, "senet", champion, regular)
    await resigned_game(service, "senet", regular, newcomer)
    await resigned_game(service, "cows_leopards", newcomer, champion)

    board = await service.leaderboard(GUILD, "senet")
    assert [r.user_id for r in board] == [champion, regular, newcomer]
    top = board[0]
    assert (top.games, top.wins, top.average_rank, top.name) == (4, 4, 1.0, f"U{champion}")
    assert top.rating == pytest.approx(ratings.ordinal(top.mu, top.sigma))
    assert board[0].rating > board[1].rating > board[2].rating
    assert (board[1].games, board[1].wins, board[1].average_rank) == (5, 1, 1.8)
    assert [r.user_id for r in await service.leaderboard(GUILD, "senet", limit=1)] == [champion]

    overall = await service.leaderboard(GUILD)  # over all games: wins, then games played
    assert [(r.user_id, r.wins, r.games) for r in overall] == [
        (champion, 4, 5), (regular, 1, 5), (newcomer, 1, 2)]
    assert all(r.rating is None and r.game is None for r in overall)
    assert await service.leaderboard(GUILD + 1) == []  # ratings are per guild
    assert await service.leaderboard(GUILD, "varanasi") == []

    stats = await service.stats(GUILD, champion)
    assert (stats.games, stats.wins, stats.average_rank) == (5, 4, pytest.approx(6 / 5))
    by_game = {s.game: s for s in stats.by_game}
    assert set(by_game) == {"senet", "cows_leopards"}
    assert (by_game["cows_leopards"].games, by_game["cows_leopards"].wins) == (1, 0)
    assert by_game["senet"].rating == top.rating
    nobody = await service.stats(GUILD, 999)
    assert (nobody.games, nobody.wins, nobody.average_rank, nobody.by_game) == (0, 0, None, [])


async def test_played_games_update_ratings_with_ranks(service: TableService) -> None:
    users = [HOST + i for i in range(4)]
    result = await started(service, "six_nimmt", 4, users=users, options={"points": 10})
    result = await play_random(service, result, random.Random(5))
    ranks = result.table.outcome["ranks"]
    board = {r.user_id: r for r in await service.leaderboard(GUILD, "six_nimmt")}
    assert set(board) == set(users)
    for seat, s in enumerate(result.table.seats):
        assert board[s.user_id].average_rank == ranks[seat]
        assert board[s.user_id].wins == (ranks[seat] == 1)
    best = min(range(4), key=lambda i: ranks[i])
    worst = max(range(4), key=lambda i: ranks[i])
    assert board[result.table.seats[best].user_id].mu > board[result.table.seats[worst].user_id].mu


async def test_a_cancelled_game_is_not_rated(service: TableService) -> None:
    result = await started(service, "senet", 2)
    await service.cancel(result.table.id, HOST, can_manage=True)
    assert await service.leaderboard(GUILD) == []
    assert await service.leaderboard(GUILD, "senet") == []


async def test_results_and_ratings_commit_with_the_finish(
    service: TableService, monkeypatch
) -> None:
    """One transaction: if rating fails, the game is not finished and nothing is recorded."""
    result = await started(service, "cows_leopards", 2, options={"captures": 1})
    table = result.table

    def broken(*args: object) -> None:  # fails inside the unit, after the results are written
        raise RuntimeError("disk full")

    monkeypatch.setattr("bot.tables.ratings.rate", broken)
    with pytest.raises(RuntimeError):
        await service.resign(table.id, HOST)
    again = await service.get(table.id)
    assert again.status == "running" and again.outcome is None
    assert await service._results.get_results(table.id) == []
    monkeypatch.undo()
    assert (await service.resign(table.id, HOST)).finished
    assert len(await service._results.get_results(table.id)) == 2
