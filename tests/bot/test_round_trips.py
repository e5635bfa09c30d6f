"""What a move costs the database, in statements, on both backends: the board's posted mark
is one statement without a transaction of its own (on PostgreSQL, two round trips fewer per
move), a move is one statement on PostgreSQL (one round trip instead of six), a move's timers
are written without being read first, and a unit marked as one statement can never run a
second one."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest

from bot.storage import Database
from bot.storage.driver import Execute, Fetch, SecondStatement, Unit, one_statement
from bot.storage.tables import Commit
from bot.tables import Table, TableService
from tests.bot.backends import Opener
from tests.helpers.clock import Clock

GUILD, CHANNEL, HOST = 5, 50, 500


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
async def db(opener: Opener) -> Database:
    return await opener()


@pytest.fixture
def service(db: Database, clock: Clock) -> TableService:
    return TableService(db, rng=random.Random(3), now=clock)


@pytest.fixture
async def statements(db: Database, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[list[str]]:
    """Every statement the database server is sent from now on, in order."""
    sent: list[str] = []
    if db.dialect == "sqlite":
        await db.driver.call(lambda conn: conn.set_trace_callback(sent.append))  # type: ignore[attr-defined]
    else:
        for name in ("execute", "fetch", "executemany"):
            real = getattr(asyncpg.Connection, name)

            def counted(self: Any, query: str, *args: Any, _real: Callable = real,
                        **kwargs: Any) -> Any:
                sent.append(query)
                return _real(self, query, *args, **kwargs)

            monkeypatch.setattr(asyncpg.Connection, name, counted)
    yield sent
    if db.dialect == "sqlite":
        await db.driver.call(lambda conn: conn.set_trace_callback(None))  # type: ignore[attr-defined]


def kinds(sent: list[str]) -> list[str]:
    """Each statement's first word, PRAGMAs left out (SQLite's durability setting)."""
    return [s.split()[0].rstrip(";").upper() for s in sent
            if not s.upper().startswith("PRAGMA")]


async def started(service: TableService, game: str, players: int, **rules: Any) -> Table:
    users = [HOST + i for i in range(players)]
    table = await service.open_table(GUILD, CHANNEL, game, None, users[0], "U0", **rules)
    for i, uid in enumerate(users[1:], start=1):
        await service.join(table.id, uid, f"U{i}")
    return (await service.start(table.id, users[0], shuffle=False)).table


async def test_a_board_marked_posted_is_one_statement(
    service: TableService, db: Database, statements: list[str]
) -> None:
    table = await started(service, "senet", 2)
    statements.clear()
    await service.mark_posted(table.id, table.ply, 4242)
    assert kinds(statements) == ["UPDATE"]  # no BEGIN, no COMMIT
    if db.dialect == "sqlite":  # its durability lowered for the mark, not read first
        assert [s for s in statements if s.upper().startswith("PRAGMA")] == [
            "PRAGMA synchronous=NORMAL", "PRAGMA synchronous=FULL"]
    stored = await service.get(table.id)
    assert (stored.posted_ply, stored.message_id) == (table.ply, 4242)


async def test_a_move_writes_its_timers_without_reading_them_first(
    service: TableService, statements: list[str], clock: Clock
) -> None:
    table = await started(service, "senet", 2, deadline_seconds=900)
    seat = table.to_act()[0]
    user = table.seats[seat].user_id
    clock.t += timedelta(seconds=60)
    statements.clear()
    after = (await service.play(table.id, user, service.legal_moves_for(table, user)[0])).table
    commit = kinds(statements)
    begin = max(i for i, s in enumerate(statements) if "SET ply = ply +" in s)
    move_unit = statements[begin:]
    assert not any("FROM timers" in s and s.upper().startswith("SELECT") for s in move_unit)
    assert commit.count("COMMIT") == commit.count("BEGIN")  # whole transactions only
    timers = await service.timers.of_table(table.id)
    (acting,) = after.to_act()
    assert set(timers) == {acting}
    assert timers[acting].since_ply == after.since[acting]
    assert timers[acting].deadline_at == clock.t + timedelta(seconds=900)


async def test_a_timer_whose_decision_goes_on_keeps_its_reminder(
    service: TableService, clock: Clock
) -> None:
    """6 nimmt!: seats pick at once; one seat's pick must not send the others' reminders
    again nor move their deadlines."""
    start = clock.t
    table = await started(service, "six_nimmt", 3, deadline_seconds=300)
    clock.t = start + timedelta(seconds=250)  # reminders at 75 %
    (reminder,) = await service.timers.reminders_due()
    assert reminder.seats == [0, 1, 2]
    user = table.seats[0].user_id
    table = (await service.play(table.id, user, service.legal_moves_for(table, user)[0])).table
    timers = await service.timers.of_table(table.id)
    assert set(timers) == {1, 2}
    assert all(t.deadline_at == start + timedelta(seconds=300) for t in timers.values())
    assert await service.timers.reminders_due() == []  # sent once, kept so


async def test_a_move_is_one_statement_on_postgresql(
    service: TableService, db: Database, statements: list[str]
) -> None:
    table = await started(service, "senet", 2, deadline_seconds=900)
    user = table.seats[table.to_act()[0]].user_id
    statements.clear()
    after = (await service.play(table.id, user, service.legal_moves_for(table, user)[0])).table
    move = [s for s in statements if "SET ply = ply +" in s]
    if db.dialect == "postgresql":  # log, timers and posting claim at once, in autocommit
        assert kinds(statements) == ["WITH"]
    else:
        assert kinds(statements)[0] == "BEGIN" and kinds(statements)[-1] == "COMMIT"
    assert len(move) == 1
    stored = await service.get(after.id)
    assert (stored.ply, stored.log) == (after.ply, after.log)
    assert set(await service.timers.of_table(table.id)) == set(after.to_act())


async def test_a_click_reads_the_table_this_process_holds(
    service: TableService, db: Database, statements: list[str]
) -> None:
    """A piece chosen on the board (its moves shown) needs the table as it is now: the copy
    the process committed is current, so the database is not asked again."""
    table = await started(service, "senet", 2)
    user = table.seats[table.to_act()[0]].user_id
    after = (await service.play(table.id, user, service.legal_moves_for(table, user)[0])).table
    statements.clear()
    assert (await service.current(table.id)).log == after.log
    assert kinds(statements) == []
    service.store.forget(table.id)  # not held (say, after a restart): read from the database
    assert (await service.current(table.id)).log == after.log
    assert "SELECT" in kinds(statements)


async def test_a_refused_move_writes_nothing(service: TableService, db: Database,
                                             clock: Clock) -> None:
    """Another writer moved the table first: neither the log nor the timers change."""
    table = await started(service, "senet", 2, deadline_seconds=900)
    timers = await db.tables.get_timers(table.id)
    late = Commit(table.id, table.ply + 1, clock.t, moves=[(0, "nothing")],
                  timers={0: (table.ply + 1, clock.t + timedelta(hours=1), None)},
                  posting=("another process", clock.t + timedelta(seconds=30)))
    assert await db.tables.commit(late) is None
    assert await db.tables.get_moves(table.id) == (await service.get(table.id)).log
    assert await db.tables.get_timers(table.id) == timers


async def test_a_new_decision_of_a_seat_frees_its_timer(
    service: TableService, db: Database, clock: Clock
) -> None:
    """A timer claimed by a process (its deadline being handled) and then replaced by the
    same seat's next decision is a fresh timer: unclaimed, its reminder not yet sent."""
    table = await started(service, "senet", 2, deadline_seconds=900)
    (seat,) = table.to_act()
    gone = clock.t + timedelta(seconds=900)
    claimed = await db.tables.claim_timers(gone, gone + timedelta(hours=1), "process A")
    assert [t.seat for t in claimed] == [seat]
    await db.tables.mark_reminded(table.id, seat, table.since[seat])
    deadline = clock.t + timedelta(seconds=1800)
    moved = Commit(table.id, table.ply, clock.t, moves=[(seat, "pass")],
                   timers={seat: (table.ply + 1, deadline, deadline - timedelta(seconds=60))})
    assert await db.tables.commit(moved) is not None
    (timer,) = await db.tables.get_timers(table.id)
    assert (timer.seat, timer.since_ply, timer.deadline_at, timer.reminded) == (
        seat, table.ply + 1, deadline, False)
    later = deadline + timedelta(seconds=1)
    assert [t.since_ply for t in await db.tables.claim_timers(
        later, later + timedelta(hours=1), "process B")] == [table.ply + 1]


@one_statement
def _two_statements(table_id: int) -> Unit[None]:
    yield Fetch("SELECT id FROM game_tables WHERE id = ?", (table_id,))
    yield Execute("DELETE FROM game_tables WHERE id = ?", (table_id,))


async def test_a_unit_of_one_statement_never_runs_a_second(
    db: Database, service: TableService
) -> None:
    table = await started(service, "senet", 2)
    with pytest.raises(SecondStatement):
        await db.tables.run(_two_statements, table.id)
    assert (await service.get(table.id)).id == table.id  # the DELETE never ran
