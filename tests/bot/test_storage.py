"""The storage layer: migrations, WAL, the database path, constraints and transactions."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime

import pytest

from bot.storage import PlaceTaken, Repository, database_path, open_database
from bot.storage.migrate import apply_migrations, available

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

Opener = Callable[..., Awaitable[Repository]]


@pytest.fixture
async def opener() -> AsyncIterator[Opener]:
    """open_database, with every connection closed at the end even when a test fails
    (an open aiosqlite connection keeps its thread, and so the test run, alive)."""
    opened: list[Repository] = []

    async def open_(path: object = ":memory:") -> Repository:
        opened.append(await open_database(path))
        return opened[-1]

    yield open_
    for repo in opened:
        await repo.close()  # closing twice is harmless

async def test_migrations_are_applied_once_and_recorded(tmp_path, opener: Opener) -> None:
    path = tmp_path / "deep" / "er" / "bot.sqlite3"  # parent folders are created
    repo = await opener(path)
    versions = [v for v, _, _ in available()]
    assert versions[0] == 1 and versions == sorted(versions)
    assert await repo.schema_versions() == versions
    assert await apply_migrations(repo._db) == []  # nothing left to apply
    await repo.close()

    repo = await opener(path)  # reopening applies nothing twice
    assert await repo.schema_versions() == versions
    await repo.close()
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT version, name FROM schema_version").fetchall()
        assert rows == [(v, name) for v, name, _ in available()]
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_database_path_comes_from_the_environment(monkeypatch) -> None:
    monkeypatch.delenv("BOT_DATABASE", raising=False)
    assert database_path() == "data/bot.sqlite3"
    monkeypatch.setenv("BOT_DATABASE", "/srv/bot/db.sqlite3")
    assert database_path() == "/srv/bot/db.sqlite3"


async def test_default_path_used_when_none_given(tmp_path, monkeypatch, opener: Opener) -> None:
    target = tmp_path / "env" / "bot.sqlite3"
    monkeypatch.setenv("BOT_DATABASE", str(target))
    await opener(None)
    assert target.exists()


async def test_one_active_table_per_place_is_a_constraint(opener: Opener) -> None:
    repo = await opener()
    first = await repo.insert_table(1, 10, None, "senet", {}, 100, NOW)
    with pytest.raises(PlaceTaken):
        await repo.insert_table(1, 10, None, "senet", {}, 101, NOW)
    threaded = await repo.insert_table(1, 10, 11, "senet", {}, 101, NOW)  # a thread is its own
    assert await repo.active_table_id(10) == first
    assert await repo.active_table_id(11) == threaded
    await repo.cancel_table(first, NOW)
    assert await repo.active_table_id(10) is None
    again = await repo.insert_table(1, 10, None, "six_nimmt", {"points": 5}, 100, NOW)
    row = await repo.get_table(again)
    assert (row.status, row.options, row.posted_ply, row.created_at) == (
        "lobby", {"points": 5}, -1, NOW)


async def test_seats_in_join_order(opener: Opener) -> None:
    repo = await opener()
    table = await repo.insert_table(1, 10, None, "six_nimmt", {}, 100, NOW)
    for uid in (100, 101, 102):
        await repo.add_seat(table, uid, f"U{uid}", None)
    await repo.remove_seat(table, 101)
    await repo.add_seat(table, 103, "U103", 1)
    seats = await repo.get_seats(table)
    assert [(s.user_id, s.side) for s in seats] == [(100, None), (102, None), (103, 1)]
    with pytest.raises(sqlite3.IntegrityError):
        await repo.add_seat(table, 100, "again", None)


async def test_a_ply_is_written_once_and_transactions_roll_back(opener: Opener) -> None:
    repo = await opener()
    table = await repo.insert_table(1, 10, None, "senet", {}, 100, NOW)
    await repo.append_moves(table, 0, [(-1, "throw 2"), (0, "move 9")], NOW)
    with pytest.raises(sqlite3.IntegrityError):
        await repo.append_moves(table, 1, [(0, "move 7")], NOW)
    with pytest.raises(RuntimeError):
        async with repo.transaction():
            await repo.append_moves(table, 2, [(-1, "throw 1")], NOW)
            await repo.finish_table(table, {"ranks": [1, 2]}, NOW)
            raise RuntimeError("crash before commit")
    assert await repo.get_moves(table) == [(-1, "throw 2"), (0, "move 9")]
    assert (await repo.get_table(table)).status == "lobby"


async def test_other_tasks_never_see_an_open_transaction(opener: Opener) -> None:
    repo = await opener()
    table = await repo.insert_table(1, 10, None, "senet", {}, 100, NOW)
    inside = asyncio.Event()

    async def writer() -> None:
        with pytest.raises(RuntimeError):
            async with repo.transaction():
                await repo.append_moves(table, 0, [(-1, "throw 3")], NOW)
                inside.set()
                await asyncio.sleep(0.02)  # the reader runs meanwhile and must wait
                raise RuntimeError("rolled back")

    async def reader() -> list:
        await inside.wait()
        return await repo.get_moves(table)

    _, seen = await asyncio.gather(writer(), reader())
    assert seen == []


async def test_mark_posted_never_goes_back(opener: Opener) -> None:
    repo = await opener()
    table = await repo.insert_table(1, 10, None, "senet", {}, 100, NOW)
    await repo.mark_posted(table, 5, 555)
    await repo.mark_posted(table, 3, 333)
    await repo.mark_posted(table, 6, None)  # a post without a new message keeps the old id
    row = await repo.get_table(table)
    assert (row.posted_ply, row.message_id) == (6, 555)
