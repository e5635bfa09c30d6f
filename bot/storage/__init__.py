"""Persistence: one repository of units of work over SQLite (aiosqlite) or PostgreSQL (asyncpg).

`open_database(target)` opens and migrates a database: a PostgreSQL URL
(`postgresql://user@host:port/db`) or a SQLite path (its folder is created). Production takes
the target from `BOT_DATABASE` (default `data/bot.sqlite3`); tests pass ":memory:", a
temporary file or a test server's URL.
"""

from __future__ import annotations

import os

from bot.storage.driver import Conflict, Unavailable
from bot.storage.repository import (
    Commit,
    Finish,
    HostBusy,
    LoadedTable,
    PlaceTaken,
    Repository,
    ResultRow,
    SeatRow,
    ServerFull,
    StandingRow,
    TableRow,
    TimerRow,
)

DEFAULT_DATABASE = "data/bot.sqlite3"


def database_path() -> str:
    """The production database: $BOT_DATABASE, else data/bot.sqlite3."""
    return os.environ.get("BOT_DATABASE") or DEFAULT_DATABASE


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


async def open_database(target: str | os.PathLike[str] | None = None) -> Repository:
    """Open the database at `target` (default: `database_path()`) with migrations applied."""
    where = str(target) if target is not None else database_path()
    if is_postgres(where):
        from bot.storage.postgres import open_postgres

        return Repository(await open_postgres(where))
    from bot.storage.migrate import apply_migrations_locked
    from bot.storage.sqlite import connect

    driver = await connect(where)
    try:
        await driver.call(apply_migrations_locked, where)
    except BaseException:
        await driver.close()
        raise
    return Repository(driver)


__all__ = [
    "DEFAULT_DATABASE",
    "Commit",
    "Conflict",
    "Finish",
    "HostBusy",
    "LoadedTable",
    "PlaceTaken",
    "ServerFull",
    "Repository",
    "ResultRow",
    "SeatRow",
    "StandingRow",
    "TableRow",
    "TimerRow",
    "Unavailable",
    "database_path",
    "is_postgres",
    "open_database",
]
