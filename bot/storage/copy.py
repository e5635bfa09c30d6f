"""`python -m bot migrate-db --from PATH --to URL`: move a SQLite database to PostgreSQL.

The source is first copied with SQLite's online backup (so the bot may keep running on it
and the file is never changed) and that snapshot is brought up to the current schema. Every
table of the snapshot is then copied, column by column as both schemas name them, into an
empty PostgreSQL database migrated to the current schema, in one transaction (a failed copy
leaves the target empty): times turn from ISO text into timestamptz, ids are kept and the id
sequences moved past them. Finally the row counts of every table are compared.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import asyncpg

from bot.storage.backup import backup_sqlite
from bot.storage.migrate import apply_migrations
from bot.storage.postgres import PostgresSettings, open_postgres

CHUNK = 5000  # rows per COPY batch: bounded memory whatever the database size
SKIP = {"schema_version"}  # each backend keeps its own migration history
# What SQLite gives back for a column.
Stored = int | float | str | bytes | None


class CopyError(RuntimeError):
    """The copy was refused or did not match; the message says why."""


@dataclass(frozen=True)
class Counted:
    table: str
    source: int
    target: int


def _time(value: Stored | datetime) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    at = datetime.fromisoformat(str(value))
    return at if at.tzinfo else at.replace(tzinfo=UTC)  # old rows: naive meant UTC


def _int(value: Stored) -> int | None:
    return None if value is None else int(value)


def _float(value: Stored) -> float | None:
    return None if value is None else float(value)


def _text(value: Stored) -> str | None:
    return value if value is None or isinstance(value, str) else str(value)


CONVERT: dict[str, Callable[[Stored], object]] = {
    "timestamp with time zone": _time,
    "bigint": _int,
    "integer": _int,
    "smallint": _int,
    "double precision": _float,
    "real": _float,
    "text": _text,
}


def _ordered(source: sqlite3.Connection, tables: list[str]) -> list[str]:
    """Tables with every table before those whose foreign keys point at it."""
    parents = {
        t: {row[2] for row in source.execute(f'PRAGMA foreign_key_list("{t}")')} & set(tables)
        for t in tables
    }
    done: list[str] = []
    while len(done) < len(tables):
        ready = sorted(t for t in tables if t not in done and parents[t] <= set(done) | {t})
        if not ready:
            raise CopyError(f"foreign keys form a cycle among {sorted(set(tables) - set(done))}")
        done.extend(ready)
    return done


def _rows(source: sqlite3.Connection, table: str, columns: list[str],
          convert: list[Callable[[Stored], object]]) -> Iterator[list[tuple[object, ...]]]:
    names = ", ".join(f'"{c}"' for c in columns)
    cursor = source.execute(f'SELECT {names} FROM "{table}"')
    while batch := cursor.fetchmany(CHUNK):
        yield [tuple(f(v) for f, v in zip(convert, row, strict=True)) for row in batch]


async def _pg_columns(conn: asyncpg.Connection) -> dict[str, dict[str, asyncpg.Record]]:
    found: dict[str, dict[str, asyncpg.Record]] = {}
    for row in await conn.fetch(
        "SELECT c.table_name, c.column_name, c.data_type, c.is_identity, c.column_default"
        " FROM information_schema.columns c JOIN information_schema.tables t"
        "  ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
        " WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'"
        " ORDER BY c.ordinal_position"
    ):
        found.setdefault(row["table_name"], {})[row["column_name"]] = row
    return found


async def copy_sqlite_to_postgres(
    source: str | Path, url: str, settings: PostgresSettings | None = None,
    report: Callable[[str], None] = lambda _: None,
) -> list[Counted]:
    """Copy the SQLite database at `source` into the empty PostgreSQL database at `url`.

    Returns the row counts per table (source and target, equal); raises `CopyError` if the
    source is missing, the target is not empty, a table or column has no place in
    PostgreSQL's schema, or the counts differ.
    """
    if not Path(source).is_file():
        raise CopyError(f"no SQLite database at {source}")
    with tempfile.TemporaryDirectory(prefix="bot-migrate-") as tmp:
        snapshot = Path(tmp) / "snapshot.sqlite3"
        backup_sqlite(source, snapshot)
        db = sqlite3.connect(snapshot, isolation_level=None)
        try:
            applied = apply_migrations(db)
        finally:
            db.close()
        if applied:
            report(f"snapshot of {source} brought up to date with migrations {applied}")
        driver = await open_postgres(url, settings or PostgresSettings(min_size=1, max_size=1))
        try:
            with sqlite3.connect(snapshot) as src:
                async with driver.pool.acquire() as conn:
                    return await _copy(src, conn, report)
        finally:
            await driver.close()


async def _copy(src: sqlite3.Connection, conn: asyncpg.Connection,
                report: Callable[[str], None]) -> list[Counted]:
    await conn.execute("SET statement_timeout = 0; SET lock_timeout = 0")
    pg = await _pg_columns(conn)
    tables = [r[0] for r in src.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        if r[0] not in SKIP]
    for table in tables:
        if table not in pg:
            raise CopyError(f"PostgreSQL has no table {table}: its migrations are behind")
        missing = [c[1] for c in src.execute(f'PRAGMA table_info("{table}")')
                   if c[1] not in pg[table]]
        if missing:
            raise CopyError(f"PostgreSQL's {table} has no column {', '.join(missing)}")
    for table in pg:
        if table not in SKIP and await conn.fetchval(f'SELECT EXISTS (SELECT FROM "{table}")'):
            raise CopyError(f"the target is not empty ({table} has rows): refusing to copy "
                            "into it; give an empty database")
    ordered = _ordered(src, tables)
    async with conn.transaction():
        for table in ordered:
            columns = [c[1] for c in src.execute(f'PRAGMA table_info("{table}")')]
            convert = [CONVERT.get(pg[table][c]["data_type"], lambda v: v) for c in columns]
            for batch in _rows(src, table, columns, convert):
                await conn.copy_records_to_table(table, records=batch, columns=columns)
            for column, info in pg[table].items():
                if info["is_identity"] == "YES" or "nextval(" in (info["column_default"] or ""):
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence($1, $2),"
                        f' COALESCE((SELECT max("{column}") FROM "{table}"), 0) + 1, false)',
                        table, column)
    counts = []
    report(f"{'table':<16} {'SQLite':>10} {'PostgreSQL':>10}")
    for table in ordered:
        source_rows = src.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        counts.append(Counted(table, source_rows,
                              await conn.fetchval(f'SELECT count(*) FROM "{table}"')))
        report(f"{table:<16} {counts[-1].source:>10} {counts[-1].target:>10}")
    wrong = [c.table for c in counts if c.source != c.target]
    if wrong:
        raise CopyError(f"row counts differ in {', '.join(wrong)}")
    return counts
