"""The tournament service on SQLite and PostgreSQL (no Discord): sign-up refusals, the start
timer, rounds driven exactly once by two processes sharing one database, round robin and a
single-elimination bracket played to the end, results counted for ratings."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.storage.tournaments import GameRow
from bot.tables import TableError, TableService
from bot.tournaments.service import Tournament, TournamentError, TournamentService, parse_start
from tests.bot.backends import Opener
from tests.helpers.clock import Clock

GUILD, CHANNEL, ORGANISER = 1, 10, 999
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


pytestmark = pytest.mark.usefixtures("quick_computers")


class Host:
    """The Discord side, recorded: a new thread id per table, announcements in order."""

    threads = iter(range(5000, 10_000))

    def __init__(self) -> None:
        self.said: list[tuple[str, int]] = []
        self.started: list[int] = []

    async def place(self, tournament: Tournament, game: GameRow) -> tuple[int, int | None]:
        return CHANNEL, next(self.threads)

    async def table_started(self, tournament: Tournament, game: GameRow, result: Any) -> None:
        self.started.append(result.table.id)

    async def announce(self, tournament: Tournament, what: str) -> None:
        self.said.append((what, tournament.row.round))


async def process(opener: Opener, clock: Clock, seed: int, same: bool) -> TournamentService:
    """One bot process: its own connection, table service and tournament service."""
    db = await opener(same=same)
    tables = TableService(db, rng=random.Random(seed), now=clock)
    tournaments = TournamentService(db.tournaments, db.results, tables, rng=random.Random(seed))
    tournaments.host = Host()
    return tournaments


async def finish_tables(tournaments: TournamentService, tournament_id: int,
                        rng: random.Random) -> None:
    """Play every table of the current round to its end with random legal moves."""
    tables = tournaments.tables
    tournament = await tournaments.get(tournament_id)
    for game in tournament.round_games():
        if game.table_id is None:
            continue
        table = await tables.get(game.table_id)
        while table.status == "running":
            await tables.computers_play(table.id)
            table = await tables.get(table.id)
            if table.status != "running":
                break
            user = table.seats[table.to_act()[0]].user_id
            table = (await tables.play(table.id, user,
                                       rng.choice(tables.legal_moves_for(table, user)))).table


async def test_sign_up_refusals_and_the_start_time(opener: Opener) -> None:
    clock = Clock(START)
    one = await process(opener, clock, 1, same=False)
    created = await one.create(GUILD, CHANNEL, ORGANISER, "senet", "swiss", {},
                               clock.t + timedelta(minutes=30), 3, 3600)
    tid = created.id
    with pytest.raises(TournamentError) as err:
        await one.create(GUILD, CHANNEL, ORGANISER, "senet", "tables", {}, clock.t, 4, 3600)
    assert err.value.code == "bad_format"  # Senet is for two: no multi-table rounds
    with pytest.raises(TournamentError):
        await one.create(GUILD, CHANNEL, ORGANISER, "six_nimmt", "tables", {}, clock.t, 2,
                         3600)  # tables of 3-6 need at least 3
    with pytest.raises(TableError):
        await one.create(GUILD, CHANNEL, ORGANISER, "six_nimmt", "tables", {"points": 0},
                         clock.t, 8, 3600)
    for user in (1, 2, 3):
        await one.join(tid, user, f"p{user}")
    with pytest.raises(TournamentError) as err:
        await one.join(tid, 4, "p4")
    assert err.value.code == "full"
    with pytest.raises(TournamentError) as err:
        await one.join(tid, 1, "p1")
    assert err.value.code == "already"
    assert await one.run_due() == 0  # not yet
    clock.t += timedelta(minutes=31)
    assert await one.run_due() == 1
    started = await one.get(tid)
    assert started.row.status == "running" and started.row.rounds == 2  # ceil(log2 3)
    games = started.round_games()
    assert sorted(len(g.players) for g in games) == [1, 2]  # three players: one bye
    with pytest.raises(TournamentError) as err:
        await one.join(tid, 5, "p5")
    assert err.value.code == "started"
    with pytest.raises(TournamentError) as err:
        await one.leave(tid, 1)
    assert err.value.code == "started_leave"


async def test_racing_sign_ups_never_go_over_the_seat_limit(opener: Opener) -> None:
    clock = Clock(START)
    one = await process(opener, clock, 1, same=False)
    two = await process(opener, clock, 2, same=True)
    created = await one.create(GUILD, CHANNEL, ORGANISER, "senet", "swiss", {},
                               clock.t + timedelta(minutes=30), 4, 3600)

    async def join(service: TournamentService, user: int) -> str:
        try:
            await service.join(created.id, user, f"p{user}")
        except TournamentError as err:
            return err.code
        return "ok"

    answers = await asyncio.gather(*(join((one, two)[user % 2], user) for user in range(12)))
    assert answers.count("ok") == 4 and answers.count("full") == 8
    assert len((await one.get(created.id)).row.entrants) == 4


def test_start_times_organisers_type() -> None:
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    assert parse_start("90", now) == now + timedelta(minutes=90)
    assert parse_start("2h", now) == now + timedelta(hours=2)
    assert parse_start("<t:1772370000:F>", now) == datetime.fromtimestamp(1772370000, UTC)
    assert parse_start("2026-03-02 20:00", now) == datetime(2026, 3, 2, 20, tzinfo=UTC)
    for bad in ("tomorrow-ish", "2025-01-01 10:00", "400d"):
        with pytest.raises(TournamentError):
            parse_start(bad, now)


async def test_two_processes_drive_each_round_exactly_once(opener: Opener) -> None:
    clock = Clock(START)
    one = await process(opener, clock, 1, same=False)
    two = await process(opener, clock, 2, same=True)
    created = await one.create(GUILD, CHANNEL, ORGANISER, "senet", "round_robin", {},
                               clock.t, 8, 3600)
    for user in range(1, 5):
        await one.join(created.id, user, f"p{user}")
    rng = random.Random(3)
    for _ in range(10):
        # both processes look at the same moment: each step runs in one of them only
        await asyncio.gather(one.run_due(), two.run_due())
        tournament = await one.get(created.id)
        if tournament.row.status == "finished":
            break
        await finish_tables(one, created.id, rng)
        await asyncio.sleep(0.05)  # the end listeners mark the tournament due
    assert tournament.row.status == "finished" and tournament.row.rounds == 3
    said = one.host.said + two.host.said  # type: ignore[union-attr]
    assert sorted(said) == sorted([("started", 1), ("round", 1), ("round", 2),
                                   ("finished", 3)])
    opened = one.host.started + two.host.started  # type: ignore[union-attr]
    assert len(opened) == len(set(opened)) == 6  # 4 players: 3 rounds of 2 tables
    pairs = [frozenset(g.players) for g in tournament.row.games]
    assert len(set(pairs)) == 6
    assert sum(s.points for s in tournament.standings) == 6
    board = await one.tables.leaderboard(GUILD, "senet")
    assert sorted(s.games for s in board) == [3, 3, 3, 3]  # rated like any table


async def test_single_elimination_with_byes_and_a_computer(opener: Opener) -> None:
    clock = Clock(START)
    one = await process(opener, clock, 4, same=False)
    created = await one.create(GUILD, CHANNEL, ORGANISER, "cows_leopards", "elimination", {},
                               clock.t, 8, 3600)
    for user in range(1, 5):
        await one.join(created.id, user, f"p{user}")
    await one.add_computer(created.id, "easy")
    rng = random.Random(9)
    tournament = await one.get(created.id)
    for _ in range(10):
        await one.run_due()
        tournament = await one.get(created.id)
        if tournament.row.status == "finished":
            break
        await finish_tables(one, created.id, rng)
        await asyncio.sleep(0.05)
    assert tournament.row.status == "finished" and tournament.row.rounds == 3
    first = tournament.round_games(1)
    assert sum(len(g.players) == 1 for g in first) == 3  # 5 players in 8 places
    final = tournament.round_games(3)
    assert len(final) == 1 and len(final[0].players) == 2
    assert tournament.standings[0].points == max(s.points for s in tournament.standings)


async def test_cancel_cancels_the_open_tables(opener: Opener) -> None:
    clock = Clock(START)
    one = await process(opener, clock, 5, same=False)
    created = await one.create(GUILD, CHANNEL, ORGANISER, "senet", "swiss", {}, clock.t, 8,
                               3600)
    for user in range(1, 5):
        await one.join(created.id, user, f"p{user}")
    await one.run_due()
    tournament = await one.cancel(created.id)
    assert tournament.row.status == "cancelled"
    for game in tournament.round_games():
        assert (await one.tables.get(game.table_id)).status == "cancelled"
    with pytest.raises(TournamentError):
        await one.cancel(created.id)
