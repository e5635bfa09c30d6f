"""The SQLite driver: each unit of work runs whole on aiosqlite's database thread.

aiosqlite gives every connection one thread that runs its calls in order. A unit is handed
to that thread as one call (aiosqlite's `_execute`), so a move's reads and writes are one
short synchronous transaction there: no other statement can interleave, and the event loop
waits for one answer instead of a round trip per statement. No Python lock is needed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TypeVar

import aiosqlite

from bot.storage.driver import (
    Conflict,
    Execute,
    ExecuteMany,
    Fetch,
    Params,
    Row,
    SecondStatement,
    Unavailable,
    Unit,
    stamp,
)

T = TypeVar("T")

BUSY_TIMEOUT_MS = 1000  # an interactive command never waits long for another writer


def _param(value: object) -> object:
    if isinstance(value, datetime):
        return stamp(value)
    if isinstance(value, bool):
        return int(value)
    return value


def _params(values: Params) -> tuple[object, ...]:
    return tuple(_param(v) for v in values)


def _drive(conn: sqlite3.Connection, unit: Unit[T], reads_only: bool = False,
           durable: bool = True, alone: bool = False) -> T:
    """Run a unit as one IMMEDIATE transaction (the write lock is taken up front, so two
    processes never deadlock upgrading a read lock); a read-only unit takes no write lock
    (WAL readers never wait for a writer); a unit that need not be durable commits without
    flushing the log to disk (the next durable commit flushes it too); a unit of one
    statement (`alone`) runs in autocommit, a transaction of its own."""
    if not durable:  # every connection is FULL otherwise (`connect`): no need to read it
        conn.execute("PRAGMA synchronous=NORMAL")
        try:
            return _drive(conn, unit, reads_only, alone=alone)
        finally:
            conn.execute("PRAGMA synchronous=FULL")
    if not alone:
        conn.execute("BEGIN" if reads_only else "BEGIN IMMEDIATE")
    try:
        reply: list[Row] | int | None = None
        error: BaseException | None = None
        ran = 0
        while True:
            try:
                statement = unit.throw(error) if error is not None else unit.send(reply)
            except StopIteration as done:
                if not alone:
                    conn.execute("COMMIT")
                return done.value
            if alone and ran:
                raise SecondStatement(f"one statement only: {statement!r}")
            ran += 1
            error, reply = None, None
            try:
                if isinstance(statement, Fetch):
                    cursor = conn.execute(statement.sql, _params(statement.params))
                    names = [c[0] for c in cursor.description or ()]
                    reply = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
                elif isinstance(statement, Execute):
                    reply = conn.execute(statement.sql, _params(statement.params)).rowcount
                elif isinstance(statement, ExecuteMany):
                    conn.executemany(statement.sql, [_params(r) for r in statement.rows])
                else:
                    raise TypeError(f"not a statement: {statement!r}")
            except sqlite3.IntegrityError as err:
                if "UNIQUE" not in str(err) and "PRIMARY KEY" not in str(err):
                    raise
                error = Conflict(str(err))
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        unit.close()


class SqliteDriver:
    dialect = "sqlite"
    changes = None  # one bot process per file: nobody else changes its tables

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path

    async def run(self, unit: Callable[..., Unit[T]], *args: object) -> T:
        generator = unit(*args)
        reads_only = bool(getattr(unit, "read_only", False))
        durable = bool(getattr(unit, "durable", True))
        alone = bool(getattr(unit, "one_statement", False))
        try:
            return await self._db._execute(_drive, self._db._conn, generator, reads_only,
                                           durable, alone)
        except sqlite3.OperationalError as err:  # locked, disk full, read-only, I/O error
            raise Unavailable(str(err)) from err
        except sqlite3.DatabaseError as err:
            if isinstance(err, sqlite3.IntegrityError):
                raise
            raise Unavailable(str(err)) from err

    async def call(self, fn: Callable[..., T], *args: object) -> T:
        """`fn(connection, *args)` on the database thread (migrations, checks, backups)."""
        return await self._db._execute(fn, self._db._conn, *args)

    async def close(self) -> None:
        await self._db.close()


async def connect(path: str) -> SqliteDriver:
    """Open (creating the folder) a SQLite database in autocommit mode with WAL."""
    in_memory = path == ":memory:" or path.startswith("file::memory:")
    if not in_memory:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: autocommit; units open their own transactions.
    db = await aiosqlite.connect(path, isolation_level=None)
    try:
        if not in_memory:
            # WAL: readers never block the writer; synchronous=FULL (SQLite's usual default,
            # set here whatever the build's is) keeps every committed move across a power
            # cut, not only a crash of the process.
            async with db.execute("PRAGMA journal_mode=WAL"):
                pass
            await db.execute("PRAGMA synchronous=FULL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    except BaseException:
        await db.close()
        raise
    return SqliteDriver(db, path)
