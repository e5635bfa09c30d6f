"""A cluster's processes hear each other's table changes (PostgreSQL LISTEN/NOTIFY): the copy a
process answers /move's autocomplete from is never older than another process's move, and
while a process cannot hear it reads the database instead."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

import asyncpg
import pytest

from bot.storage import Database, open_database
from bot.storage.changes import parse
from bot.storage.postgres import PostgresSettings, open_postgres
from bot.tables import Table, TableService

GUILD, CHANNEL, HOST, GUEST = 1, 10, 100, 101
WAIT_S = 20.0  # an upper bound for a notification to arrive, never a speed being measured


async def until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT_S
    while not await check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"{what} did not happen within {WAIT_S} s")
        await asyncio.sleep(0.02)


@pytest.fixture
async def two_processes(postgres_url: str):
    opened: list[Database] = []
    for _ in range(2):
        opened.append(await open_database(postgres_url))
    for db in opened:
        assert db.driver.changes is not None and await db.driver.changes.check()
    yield opened
    for db in opened:
        await db.close()


async def senet_table(service: TableService) -> Table:
    table = await service.open_table(GUILD, CHANNEL, "senet", None, HOST, "Host")
    await service.join(table.id, GUEST, "Guest")
    return (await service.start(table.id, HOST, shuffle=False)).table


async def play_one(service: TableService, table_id: int) -> Table:
    table = await service.get(table_id)
    (seat,) = table.to_act()
    user = table.seats[seat].user_id
    move = service.legal_moves_for(table, user)[0]
    return (await service.play(table_id, user, move, turn=table.ply)).table


async def test_a_move_elsewhere_reaches_the_other_process_copy(
        two_processes: list[Database]) -> None:
    first, second = (TableService(db, rng=random.Random(i)) for i, db in enumerate(two_processes))
    started = await senet_table(first)
    seen = await second.running_in_channel(CHANNEL)  # the second process now holds a copy
    assert seen is not None and seen.ply == started.ply

    moved = await play_one(first, started.id)

    async def current() -> bool:
        held = await second.running_in_channel(CHANNEL)
        return held is not None and held.ply == moved.ply
    await until(current, "the second process's autocomplete seeing the first's move")
    held = await second.running_in_channel(CHANNEL)
    assert held is not None and held.log == moved.log
    assert (await second.current(started.id)).log == moved.log  # what a button click reads
    # its own move after that is made on the current position, not refused as stale
    again = await play_one(second, started.id)
    assert again.ply > moved.ply


async def test_the_copy_is_read_again_before_anyone_asks(two_processes: list[Database]) -> None:
    """The process holding a table reads it again as soon as it hears of a change, so a
    member's next keystroke finds it current (a busy database then costs no suggestions)."""
    first, second = (TableService(db, rng=random.Random(i)) for i, db in enumerate(two_processes))
    started = await senet_table(first)
    await second.running_in_channel(CHANNEL)
    moved = await play_one(first, started.id)

    async def refreshed() -> bool:  # nothing of the second process's asks for the table
        held = second.store.held(started.id)
        return held is not None and held.ply == moved.ply
    await until(refreshed, "the second process reading the table again by itself")


async def test_a_process_that_cannot_hear_trusts_no_copy(
        two_processes: list[Database]) -> None:
    first, second = (TableService(db, rng=random.Random(i)) for i, db in enumerate(two_processes))
    changes = two_processes[1].driver.changes
    assert changes is not None
    started = await senet_table(first)
    await changes.close()  # deaf for good: as while its connection is down
    assert not changes.hearing
    for _ in range(2):  # the copy it reads is kept, and still not trusted the next time
        moved = await play_one(first, started.id)
        held = await second.running_in_channel(CHANNEL)
        assert held is not None and held.ply == moved.ply
        assert (await second.current(started.id)).ply == moved.ply


class Recording:
    def __init__(self) -> None:
        self.changed: list[tuple[int, int, str]] = []
        self.lost = 0

    def table_changed(self, table_id: int, ply: int, status: str) -> None:
        self.changed.append((table_id, ply, status))

    def lost_track(self) -> None:
        self.lost += 1


async def test_a_cut_listening_connection_forgets_every_copy_and_listens_again(
        two_processes: list[Database], postgres_url: str) -> None:
    first = TableService(two_processes[0], rng=random.Random(1))
    changes = two_processes[1].driver.changes
    assert changes is not None
    watcher = Recording()
    changes.add(watcher)
    started = await senet_table(first)

    admin = await asyncpg.connect(postgres_url)  # a restarted server, a network hiccup
    try:
        cut = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE application_name = 'tabletop-bot changes'")
    finally:
        await admin.close()
    assert cut >= 2  # both processes' listeners (at least)

    async def back() -> bool:
        return watcher.lost >= 2 and changes.hearing  # forgot when cut, and when back
    await until(back, "listening again after the cut")
    moved = await play_one(first, started.id)

    async def heard() -> bool:
        return (started.id, moved.ply, "running") in watcher.changed
    await until(heard, "the move after the cut being heard")


async def test_changes_are_heard_where_bot_pg_listen_url_says(postgres_url: str) -> None:
    """Behind PgBouncer's transaction mode the listener must go to the server itself: the
    setting is where it connects (here nowhere, so it never hears and trusts no copy)."""
    settings = PostgresSettings.from_env({"BOT_PG_LISTEN_URL": "postgresql://127.0.0.1:1/x"})
    assert settings.listen_url == "postgresql://127.0.0.1:1/x"
    driver = await open_postgres(postgres_url, settings)
    try:
        assert driver.changes is not None
        assert not await driver.changes.check()
    finally:
        await driver.close()
    default = await open_postgres(postgres_url, PostgresSettings.from_env({}))
    try:
        assert default.changes is not None and await default.changes.check()
    finally:
        await default.close()


def test_a_notification_is_read_or_refused() -> None:
    assert parse("12:40:running") == (12, 40, "running")
    assert parse("12:40:") == (12, 40, "")
    assert parse("twelve:40:running") is None
    assert parse("") is None
