"""The start-up check: is the database usable? Touches nothing.

SQLite: the file (if it exists) must be readable and writable (with its folder: WAL keeps
two files beside it), be a SQLite database, pass `PRAGMA quick_check` and not come from a
newer bot. PostgreSQL: it must answer, and its migration version must not be newer than
this bot's. A problem is one line for the operator (`DatabaseProblem`); `python -m bot`
prints it and exits with status 1 before connecting to Discord.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import asyncpg

from bot.storage import is_postgres
from bot.storage.migrate import available
from bot.storage.postgres import PostgresSettings, describe


class DatabaseProblem(RuntimeError):
    """The database cannot be used; the message says what and what to do."""


def check_sqlite(path: str) -> None:
    """DatabaseProblem if the SQLite database at `path` is not usable (see module)."""
    if path == ":memory:" or path.startswith("file::memory:"):
        return
    file = Path(path)
    folder = file.parent if str(file.parent) else Path(".")
    if not file.exists():
        existing = next((p for p in (folder, *folder.parents) if p.exists()), Path("."))
        if not os.access(existing, os.W_OK):
            raise DatabaseProblem(f"cannot create the database {path}: {existing} is not "
                                  "writable")
        return  # created and migrated at start
    if not file.is_file():
        raise DatabaseProblem(f"the database {path} is not a file")
    if not os.access(file, os.R_OK):
        raise DatabaseProblem(f"cannot read the database {path}: check its owner and mode")
    if not os.access(file, os.W_OK) or not os.access(folder, os.W_OK):
        raise DatabaseProblem(f"the database {path} is read-only: the bot must be able to "
                              f"write it and its folder {folder}")
    try:
        db = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise DatabaseProblem(f"cannot open the database {path}: {err}") from err
    try:
        result = db.execute("PRAGMA quick_check").fetchall()
        if [row[0] for row in result] != ["ok"]:
            first = result[0][0] if result else "no answer"
            raise DatabaseProblem(f"the database {path} is damaged ({first}): restore a "
                                  "backup (python -m bot backup makes them)")
        _check_version(db, path)
    except sqlite3.DatabaseError as err:
        raise DatabaseProblem(f"{path} is not a usable SQLite database ({err}): restore a "
                              "backup or point BOT_DATABASE at the right file") from err
    finally:
        db.close()


def _check_version(db: sqlite3.Connection, path: str) -> None:
    known = {row[0] for row in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")}
    if not known:
        return  # a new database: migrated at start
    newest = db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0
    ours = max((v for v, _, _ in available("sqlite")), default=0)
    if newest > ours:
        raise DatabaseProblem(f"the database {path} was migrated by a newer version of the "
                              f"bot (schema {newest}, this bot knows {ours}): update the bot")


async def check_postgres(url: str) -> None:
    """DatabaseProblem if PostgreSQL does not answer or was migrated by a newer bot."""
    settings = PostgresSettings.from_env()
    try:
        conn = await asyncpg.connect(url, timeout=settings.connect_timeout)
    except (OSError, TimeoutError, asyncpg.PostgresError) as err:
        raise DatabaseProblem(f"cannot reach PostgreSQL at {describe(url)}: {err}") from err
    try:
        exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        newest = await conn.fetchval("SELECT MAX(version) FROM schema_version") if exists else 0
    except asyncpg.PostgresError as err:
        raise DatabaseProblem(f"PostgreSQL at {describe(url)} cannot be read: {err}") from err
    finally:
        await conn.close()
    ours = max((v for v, _, _ in available("postgresql")), default=0)
    if (newest or 0) > ours:
        raise DatabaseProblem(f"PostgreSQL at {describe(url)} was migrated by a newer version "
                              f"of the bot (schema {newest}, this bot knows {ours})")


def check_database(target: str) -> None:
    """DatabaseProblem if the database at `target` (a path or a PostgreSQL URL) is unusable."""
    if is_postgres(target):
        asyncio.run(check_postgres(target))
    else:
        check_sqlite(target)
