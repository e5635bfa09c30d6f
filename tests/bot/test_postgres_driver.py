"""The PostgreSQL driver on a real server: placeholders, row counts, conflicts, rollback,
times, outages, and the two concurrency guarantees the bot relies on across processes."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone

import asyncpg
import pytest

from bot.storage import Database
from bot.storage.driver import (
    Conflict,
    Execute,
    ExecuteMany,
    Fetch,
    Saturated,
    Unavailable,
    player_answered,
)
from bot.storage.postgres import (
    PostgresDriver,
    PostgresSettings,
    PostgresUnreachable,
    apply_pg_migrations,
    available_pg,
    numbered,
    open_postgres,
    rowcount,
)

SETTINGS = PostgresSettings(min_size=1, max_size=4)
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def driver(postgres_url: str) -> AsyncIterator[PostgresDriver]:
    db = await open_postgres(postgres_url, SETTINGS)
    yield db
    await db.close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when we leave: nobody listens there


def new_table(place: int = 10, status: str = "running"):
    return (yield Fetch(
        "INSERT INTO game_tables (guild_id, channel_id, place_id, game, options, host_id,"
        " status, created_at) VALUES (?, ?, ?, 'senet', '{}', ?, ?, ?) RETURNING id",
        (1, place, place, 100, status, T0),
    ))[0]["id"]


def test_placeholders_are_numbered_outside_quotes_and_comments() -> None:
    assert numbered("SELECT a FROM t WHERE b = ? AND c IN (?, ?)") == \
        "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"
    assert numbered("SELECT '?', \"x?\" FROM t WHERE a = ? -- why?\nAND b = ?") == \
        "SELECT '?', \"x?\" FROM t WHERE a = $1 -- why?\nAND b = $2"
    assert numbered("SELECT 'it''s ?' /* ? */ , ?") == "SELECT 'it''s ?' /* ? */ , $1"


def test_rowcounts_are_read_from_command_status() -> None:
    assert [rowcount(s) for s in ("UPDATE 3", "INSERT 0 1", "DELETE 2", "CREATE TABLE")] == \
        [3, 1, 2, 0]


async def test_units_see_rows_as_dicts_and_changed_row_counts(driver: PostgresDriver) -> None:
    def unit():
        table = yield from new_table()
        yield ExecuteMany(
            "INSERT INTO seats (table_id, position, user_id, name) VALUES (?, ?, ?, ?)",
            [(table, i, 2**40 + i, f"P{i}") for i in range(3)],  # snowflakes need BIGINT
        )
        changed = yield Execute("UPDATE seats SET misses = misses + 1 WHERE table_id = ?",
                                (table,))
        none = yield Execute("DELETE FROM seats WHERE table_id = ? AND position > ?",
                             (table, 10))
        rows = yield Fetch("SELECT position, user_id, name, misses FROM seats"
                           " WHERE table_id = ? ORDER BY position", (table,))
        return changed, none, rows

    changed, none, rows = await driver.run(unit)
    assert (changed, none) == (3, 0)
    assert rows[2] == {"position": 2, "user_id": 2**40 + 2, "name": "P2", "misses": 1}
    assert driver.dialect == "postgresql"


async def test_unique_violation_is_thrown_into_the_unit_and_rolled_back(
    driver: PostgresDriver,
) -> None:
    table = await driver.run(new_table)
    seen = []

    def twice():
        yield Execute("UPDATE game_tables SET posted_ply = 5 WHERE id = ?", (table,))
        for ply in (0, 0):
            try:
                yield Execute("INSERT INTO moves (table_id, ply, actor, move, created_at)"
                              " VALUES (?, ?, 0, 'm', ?)", (table, ply, T0))
            except Conflict:
                seen.append(ply)
                return "stale"
        return "applied"

    assert await driver.run(twice) == "stale"
    assert seen == [0]

    def state():
        moves = yield Fetch("SELECT count(*) AS n FROM moves")
        posted = yield Fetch("SELECT posted_ply FROM game_tables WHERE id = ?", (table,))
        return moves[0]["n"], posted[0]["posted_ply"]

    assert await driver.run(state) == (0, -1)  # the unit returned, yet nothing stayed

    def second_active_table():
        yield from new_table(place=10)

    with pytest.raises(Conflict):  # the partial unique index: one active table per place
        await driver.run(second_active_table)


async def test_a_unit_may_not_go_on_after_a_conflict(driver: PostgresDriver) -> None:
    def stubborn():
        table = yield from new_table(place=20)
        try:
            yield from new_table(place=20)
        except Conflict:
            yield Fetch("SELECT 1 AS one")
        return table

    with pytest.raises(RuntimeError, match="after Conflict"):
        await driver.run(stubborn)


async def test_an_exception_in_the_unit_rolls_everything_back(driver: PostgresDriver) -> None:
    def failing():
        yield from new_table(place=30)
        raise ValueError("engine refused")

    with pytest.raises(ValueError, match="engine refused"):
        await driver.run(failing)

    def count():
        return (yield Fetch("SELECT count(*) AS n FROM game_tables"))[0]["n"]

    assert await driver.run(count) == 0


async def test_times_round_trip_as_aware_utc(driver: PostgresDriver) -> None:
    tokyo = timezone(timedelta(hours=9))
    at = datetime(2026, 3, 1, 21, 30, 15, 123456, tzinfo=tokyo)

    def unit():
        table = yield from new_table(place=40)
        yield Execute("UPDATE game_tables SET started_at = ? WHERE id = ?", (at, table))
        row = (yield Fetch("SELECT started_at, created_at FROM game_tables WHERE id = ?"
                           " AND started_at > created_at", (table,)))[0]
        return row

    row = await driver.run(unit)
    assert row["started_at"] == at
    assert row["started_at"].utcoffset() == timedelta(0)
    assert row["started_at"].hour == 12  # 21:30 in Tokyo is 12:30 UTC


async def test_numeric_aggregates_come_back_as_sqlite_would(driver: PostgresDriver) -> None:
    def unit():
        table = yield from new_table(place=50)
        yield ExecuteMany("INSERT INTO seats (table_id, position, user_id, name) VALUES"
                          " (?, ?, ?, 'x')", [(table, i, 2**35 + i) for i in range(2)])
        return (yield Fetch("SELECT sum(user_id) AS total, avg(position) AS mean FROM seats"))[0]

    row = await driver.run(unit)
    assert row == {"total": 2 * 2**35 + 1, "mean": 0.5}
    assert type(row["total"]) is int


async def test_an_unreachable_server_is_unavailable_not_a_crash() -> None:
    url = f"postgresql://postgres@127.0.0.1:{closed_port()}/postgres"
    with pytest.raises(PostgresUnreachable, match="cannot connect to PostgreSQL at postgres@"):
        await open_postgres(url, SETTINGS)
    pool = await asyncpg.create_pool(url, min_size=0, max_size=1)
    driver = PostgresDriver(pool, SETTINGS)

    def unit():
        yield Fetch("SELECT 1")

    with pytest.raises(Unavailable):
        await driver.run(unit)
    await driver.close()


async def test_a_connection_lost_mid_unit_is_unavailable(driver: PostgresDriver) -> None:
    def killed():
        yield from new_table(place=60)
        yield Fetch("SELECT pg_terminate_backend(pg_backend_pid())")
        return "unreachable"

    with pytest.raises(Unavailable):
        await driver.run(killed)

    def count():
        return (yield Fetch("SELECT count(*) AS n FROM game_tables"))[0]["n"]

    assert await driver.run(count) == 0  # the pool replaced the connection; nothing kept


async def test_a_row_locked_too_long_is_unavailable(postgres_url: str) -> None:
    settings = PostgresSettings(min_size=1, max_size=2, lock_timeout_ms=200)
    driver = await open_postgres(postgres_url, settings)
    table = await driver.run(new_table)
    holding, release = asyncio.Event(), asyncio.Event()

    async def holder() -> None:
        async with driver.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT 1 FROM game_tables WHERE id = $1 FOR UPDATE", table)
            holding.set()
            await release.wait()

    task = asyncio.create_task(holder())
    await holding.wait()

    def bump():
        return (yield Execute("UPDATE game_tables SET ply = ply + 1 WHERE id = ?", (table,)))

    with pytest.raises(Unavailable):
        await driver.run(bump)
    release.set()
    await task
    assert await driver.run(bump) == 1
    await driver.close()


async def test_only_one_of_racing_optimistic_updates_wins(driver: PostgresDriver) -> None:
    table = await driver.run(new_table)

    def advance(expected: int, hold: float):
        changed = yield Execute("UPDATE game_tables SET ply = ply + 1 WHERE id = ? AND ply = ?",
                                (table, expected))
        yield Fetch("SELECT pg_sleep(?)", (hold,))  # keep the row locked a moment
        return changed

    results = await asyncio.gather(*(driver.run(advance, 0, 0.05) for _ in range(4)))
    assert sorted(results) == [0, 0, 0, 1]

    def ply():
        return (yield Fetch("SELECT ply FROM game_tables WHERE id = ?", (table,)))[0]["ply"]

    assert await driver.run(ply) == 1


async def test_skip_locked_claims_never_overlap(driver: PostgresDriver) -> None:
    def setup():
        tables = []
        for place in range(25):
            tables.append((yield from new_table(place=1000 + place)))
        yield ExecuteMany(
            "INSERT INTO timers (table_id, seat, since_ply, started_at, deadline_at)"
            " VALUES (?, ?, 0, ?, ?)",
            [(t, seat, T0, T0 + timedelta(minutes=t % 7)) for t in tables for seat in (0, 1)],
        )

    await driver.run(setup)

    def claim(owner: str):
        rows = yield Fetch(
            "UPDATE timers SET claimed_until = now() + interval '30 seconds', claimed_by = ?"
            " WHERE (table_id, seat) IN (SELECT table_id, seat FROM timers"
            "  WHERE deadline_at <= now() AND (claimed_until IS NULL OR claimed_until < now())"
            "  ORDER BY deadline_at LIMIT 20 FOR UPDATE SKIP LOCKED)"
            " RETURNING table_id, seat", (owner,))
        yield Fetch("SELECT pg_sleep(0.1)")  # hold the locks while the other one claims
        return {(r["table_id"], r["seat"]) for r in rows}

    a, b, c = await asyncio.gather(*(driver.run(claim, name) for name in "abc"))
    assert not (a & b or b & c or a & c)
    assert len(a | b | c) == 50  # every timer claimed once: the others were skipped, not lost

    def owners():
        return (yield Fetch("SELECT claimed_by, count(*) AS n FROM timers GROUP BY claimed_by"
                            " ORDER BY claimed_by"))

    assert {r["claimed_by"]: r["n"] for r in await driver.run(owners)} == \
        {"a": len(a), "b": len(b), "c": len(c)}


async def test_migrations_run_once_even_when_processes_start_together(
    postgres_url: str,
) -> None:
    conns = [await asyncpg.connect(postgres_url) for _ in range(3)]
    try:
        applied = await asyncio.gather(*(apply_pg_migrations(c) for c in conns))
        versions = await conns[0].fetch("SELECT version FROM schema_version ORDER BY version")
    finally:
        for conn in conns:
            await conn.close()
    newest = [v for v, _, _ in available_pg()]
    assert sorted(applied, key=len) == [[], [], newest]
    assert [r["version"] for r in versions] == newest


async def test_a_cancelled_unit_leaves_nothing_and_the_pool_works(
    driver: PostgresDriver,
) -> None:
    started = asyncio.Event()

    def slow():
        yield from new_table(place=70)
        started.set()  # the row is written, not committed
        yield Fetch("SELECT pg_sleep(5)")

    task = asyncio.create_task(driver.run(slow))
    await started.wait()
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    def count():
        return (yield Fetch("SELECT count(*) AS n FROM game_tables"))[0]["n"]

    for _ in range(SETTINGS.max_size + 1):  # every pooled connection still usable
        assert await driver.run(count) == 0


async def test_a_unit_survives_a_migration_under_its_cached_statements(
    postgres_url: str,
) -> None:
    driver = await open_postgres(postgres_url, PostgresSettings(min_size=1, max_size=1))

    def everything():
        return (yield Fetch("SELECT * FROM guild_settings"))

    try:
        assert await driver.run(everything) == []
        admin = await asyncpg.connect(postgres_url)  # a newer bot's migration
        await admin.execute("ALTER TABLE guild_settings ADD COLUMN theme TEXT")
        await admin.close()
        assert await driver.run(everything) == []
    finally:
        await driver.close()


async def test_a_busy_pool_answers_unavailable_instead_of_queueing(postgres_url: str) -> None:
    settings = PostgresSettings(min_size=1, max_size=1, acquire_timeout=0.1)
    driver = await open_postgres(postgres_url, settings)

    def one():
        return (yield Fetch("SELECT 1 AS one"))[0]["one"]

    try:
        async with driver.pool.acquire():  # every connection is busy
            with pytest.raises(Unavailable):
                await driver.run(one)
        assert await driver.run(one) == 1
    finally:
        await driver.close()


async def test_a_busy_pool_is_not_reported_as_an_outage(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """In a burst every connection may be in use: work that cannot wait is refused, but
    the operator is not warned that the database is unavailable (it is not), while an
    unreachable server still is an outage."""
    settings = PostgresSettings(min_size=1, max_size=1, acquire_timeout=0.1)
    db = Database(await open_postgres(postgres_url, settings))
    async with db.driver.pool.acquire():  # every connection is busy
        with pytest.raises(Saturated):
            await db.tables._rows("SELECT 1 AS one")
    assert not db.health.down
    assert not [r for r in caplog.records if r.levelname == "WARNING"]
    assert await db.tables._rows("SELECT 1 AS one") == [{"one": 1}]
    await db.close()  # now the pool is gone: an outage
    with pytest.raises(Unavailable) as refused:
        await db.tables._rows("SELECT 1 AS one")
    assert not isinstance(refused.value, Saturated)
    assert db.health.down


async def test_work_for_an_answered_player_queues_for_a_busy_pool(postgres_url: str) -> None:
    settings = PostgresSettings(min_size=1, max_size=1, acquire_timeout=0.1, answered_wait=30)
    driver = await open_postgres(postgres_url, settings)

    def one():
        return (yield Fetch("SELECT 1 AS one"))[0]["one"]

    busy = await driver.pool.acquire()  # every connection is busy ...
    try:
        with player_answered():  # ... but this move was deferred: it waits its turn
            waiting = asyncio.ensure_future(driver.run(one))
            await asyncio.sleep(0.3)  # longer than acquire_timeout
            assert not waiting.done()
        await driver.pool.release(busy)
        busy = None
        assert await waiting == 1
    finally:
        if busy is not None:
            await driver.pool.release(busy)
        await driver.close()


async def test_an_interaction_is_patient_only_once_acknowledged() -> None:
    from types import SimpleNamespace

    from bot.features.common.faults import defer
    from bot.storage.driver import is_player_answered

    async def acknowledge(**options: object) -> None:
        assert not is_player_answered()  # before the answer: refuse fast, within 3 seconds

    interaction = SimpleNamespace(response=SimpleNamespace(defer=acknowledge))

    async def handle() -> bool:
        await defer(interaction, ephemeral=True)
        return is_player_answered()

    assert await asyncio.create_task(handle())
    assert not is_player_answered()  # another interaction's task is not affected
