"""Fixtures that open repositories on each storage backend.

`opener` is parametrised: every test using it runs on SQLite and on PostgreSQL (when a
server is there: see tests/conftest.py's `postgres_url`; else that half is skipped).
`opener(same=True)` opens a second connection to the database the first call opened, as a
second bot process would. `sqlite_opener(path)` is SQLite only. `db` is the database the
first call opens (its repositories: `db.tables`, `db.results`, ...), and `service` the table
service on it.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Database, open_database
from bot.tables import TableService

Opener = Callable[..., Awaitable[Database]]


async def _opening(first_target: Callable[[], Any]) -> AsyncIterator[Opener]:
    """Every database opened is closed at the end, even when a test fails (an open
    aiosqlite connection keeps its thread, and so the test run, alive)."""
    opened: list[Database] = []
    target: list[Any] = []

    async def open_(path: Any = ..., same: bool = False) -> Database:
        if same:
            where = target[0]
        elif path is ...:
            where = first_target()
        else:
            where = path
        target.append(where)
        opened.append(await open_database(where))
        return opened[-1]

    yield open_
    for db in opened:
        await db.close()


@pytest.fixture
async def sqlite_opener(tmp_path: Path) -> AsyncIterator[Opener]:
    async for opener in _opening(lambda: tmp_path / "bot.sqlite3"):
        yield opener


@pytest.fixture(params=["sqlite", "postgresql"])
def backend_target(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """Where a test's database lives: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return tmp_path / "bot.sqlite3"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def opener(backend_target: Any) -> AsyncIterator[Opener]:
    async for open_ in _opening(lambda: backend_target):
        yield open_


@pytest.fixture
async def db(opener: Opener) -> Database:
    return await opener()


@pytest.fixture
def service(db: Database) -> TableService:
    """The table service on `db`; it draws chance with a seeded Random."""
    return TableService(db, rng=random.Random(7))
