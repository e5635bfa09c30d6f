"""Persistence: SQLite through aiosqlite, schema migrations, one repository method per query.

`open_database(path)` opens (creating the parent folder if needed) and migrates a database.
Production takes the path from the `BOT_DATABASE` environment variable
(default `data/bot.sqlite3`); tests pass ":memory:" or a temporary file.
"""

from __future__ import annotations

import os
from pathlib import Path

import aiosqlite

from bot.storage.migrate import apply_migrations
from bot.storage.repository import (
    PlaceTaken,
    Repository,
    ResultRow,
    SeatRow,
    StandingRow,
    TableRow,
    TimerRow,
)

DEFAULT_DATABASE = "data/bot.sqlite3"


def database_path() -> str:
    """The production database path: $BOT_DATABASE, else data/bot.sqlite3."""
    return os.environ.get("BOT_DATABASE") or DEFAULT_DATABASE


async def open_database(path: str | os.PathLike[str] | None = None) -> Repository:
    """Open the database at `path` (default: `database_path()`) with migrations applied."""
    target = str(path) if path is not None else database_path()
    in_memory = target == ":memory:" or target.startswith("file::memory:")
    if not in_memory:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: autocommit, with explicit BEGIN in Repository.transaction().
    db = await aiosqlite.connect(target, isolation_level=None)
    try:
        db.row_factory = aiosqlite.Row
        if not in_memory:
            # WAL: readers never block the writer; the default synchronous=FULL keeps every
            # committed move across a power cut, not only a crash of the process.
            async with db.execute("PRAGMA journal_mode=WAL"):
                pass  # closing the cursor lets the migrations commit
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        await apply_migrations(db)
    except BaseException:
        await db.close()
        raise
    return Repository(db)


__all__ = [
    "DEFAULT_DATABASE",
    "PlaceTaken",
    "Repository",
    "ResultRow",
    "SeatRow",
    "StandingRow",
    "TableRow",
    "TimerRow",
    "database_path",
    "open_database",
]
