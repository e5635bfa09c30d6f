"""Persistence: a repository per aggregate, of units of work over SQLite (aiosqlite) or
PostgreSQL (asyncpg).

`open_database(target)` opens and migrates a database and returns a `Database`: the driver,
its health and the repositories `tables`, `results`, `settings`, `tournaments` and
`history` (database.py). `target` is a PostgreSQL URL (`postgresql://user@host:port/db`) or
a SQLite path (its folder is created). Production takes the target from `BOT_DATABASE`
(default `data/bot.sqlite3`); tests pass ":memory:", a temporary file or a test server's URL.
"""

from __future__ import annotations

import os

from bot.storage.database import Database
from bot.storage.driver import Conflict, Row, Unavailable
from bot.storage.history import FinishedTable, HistoryPlayer, HistoryRepository
from bot.storage.migrate import apply_migrations_locked
from bot.storage.postgres import open_postgres
from bot.storage.results import Finish, ResultRepository, ResultRow, StandingRow
from bot.storage.settings import SeasonMarker, SettingsRepository
from bot.storage.sqlite import connect
from bot.storage.tables import (
    Commit,
    HostBusy,
    LoadedTable,
    PlaceTaken,
    SeatRow,
    ServerFull,
    TableRepository,
    TableRow,
    TimerRow,
)
from bot.storage.tournaments import TournamentRepository

DEFAULT_DATABASE = "data/bot.sqlite3"


def database_path() -> str:
    """The production database: $BOT_DATABASE, else data/bot.sqlite3."""
    return os.environ.get("BOT_DATABASE") or DEFAULT_DATABASE


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


async def open_database(target: str | os.PathLike[str] | None = None) -> Database:
    """Open the database at `target` (default: `database_path()`) with migrations applied."""
    where = str(target) if target is not None else database_path()
    if is_postgres(where):
        return Database(await open_postgres(where))
    driver = await connect(where)
    try:
        await driver.call(apply_migrations_locked, where)
    except BaseException:
        await driver.close()
        raise
    return Database(driver)


__all__ = [
    "DEFAULT_DATABASE",
    "Commit",
    "Conflict",
    "Database",
    "Finish",
    "FinishedTable",
    "HistoryPlayer",
    "HistoryRepository",
    "HostBusy",
    "LoadedTable",
    "PlaceTaken",
    "ResultRepository",
    "ResultRow",
    "Row",
    "SeasonMarker",
    "SeatRow",
    "ServerFull",
    "SettingsRepository",
    "StandingRow",
    "TableRepository",
    "TableRow",
    "TimerRow",
    "TournamentRepository",
    "Unavailable",
    "database_path",
    "is_postgres",
    "open_database",
]
