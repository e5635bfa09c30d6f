"""Migrations: the numbered SQL files of `migrations/`, one numbering for both backends,
each applied once and recorded in `schema_version`.

`available(dialect)` lists a backend's files (a shared `NNNN_name.sql`, or its own
`NNNN_name.sqlite.sql` / `NNNN_name.postgres.sql`); `apply_migrations` brings a SQLite
database up to date (PostgreSQL's: `bot.storage.postgres.apply_pg_migrations`).

PostgreSQL once had a numbering of its own (0001-0003). `renumbered` maps a database still
recorded in it to the shared numbering, once, before anything newer is applied
(`OLD_POSTGRES`).
"""

from __future__ import annotations

import fcntl
import re
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import resources
from typing import TypeVar

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)(?:\.(sqlite|postgres))?\.sql$")
PACKAGE = "bot.storage.migrations"
# The driver's dialect -> the suffix of its own files.
SUFFIX = {"sqlite": "sqlite", "postgresql": "postgres"}

# PostgreSQL's old numbering: old version -> (its file name, the shared versions it held).
# Its 0001 created at once what SQLite's 0001-0004 had built up.
OLD_POSTGRES: dict[int, tuple[str, tuple[int, ...]]] = {
    1: ("0001_initial.sql", (1, 2, 3, 4)),
    2: ("0002_faults.sql", (5,)),
    3: ("0003_tournaments.sql", (6,)),
}

When = TypeVar("When")


def available(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every migration of a backend ("sqlite" or "postgresql"),
    in version order. RuntimeError if the folder breaks the rules (two files for one version
    of a dialect, a version one backend lacks, one version under two names)."""
    if dialect not in SUFFIX:
        raise ValueError(f"no migrations for {dialect!r}")
    files: dict[int, dict[str | None, str]] = {}
    names: dict[int, set[str]] = {}
    for entry in resources.files(PACKAGE).iterdir():
        match = _NAME.match(entry.name)
        if not match:
            continue
        version = int(match.group(1))
        kinds = files.setdefault(version, {})
        if match.group(3) in kinds:
            raise RuntimeError(f"two migration files share the number {version}")
        kinds[match.group(3)] = entry.name
        names.setdefault(version, set()).add(match.group(2))
    found = []
    for version, kinds in sorted(files.items()):
        if len(names[version]) > 1:
            raise RuntimeError(f"migration {version} has several names: {sorted(names[version])}")
        if None in kinds and len(kinds) > 1:
            raise RuntimeError(f"migration {version} is both shared and per dialect: "
                               f"{sorted(kinds.values())}")
        if None not in kinds and set(kinds) != set(SUFFIX.values()):
            raise RuntimeError(f"migration {version} lacks a file for a dialect: "
                               f"{sorted(kinds.values())}")
        name = kinds.get(None) or kinds[SUFFIX[dialect]]
        found.append((version, name, resources.files(PACKAGE).joinpath(name)
                      .read_text(encoding="utf-8")))
    return found


def renumbered(
    recorded: Sequence[tuple[int, str, When]],
) -> list[tuple[int, str, When]] | None:
    """The `schema_version` rows (version, name, applied at) of a PostgreSQL database in the
    shared numbering, if `recorded` is still in PostgreSQL's old one (else None: nothing to
    do). Each old version becomes the shared versions it held, applied when it was."""
    old = [row for row in recorded if OLD_POSTGRES.get(row[0], ("",))[0] == row[1]]
    if not old:
        return None
    if len(old) != len(recorded):
        raise RuntimeError("schema_version mixes PostgreSQL's old and shared numbering: "
                           f"{sorted((v, n) for v, n, _ in recorded)}")
    names = {version: name for version, name, _ in available("postgresql")}
    return [(new, names[new], at) for version, _, at in sorted(old, key=lambda r: r[0])
            for new in OLD_POSTGRES[version][1]]


def apply_migrations_locked(db: sqlite3.Connection, path: str) -> list[int]:
    """`apply_migrations`, one process at a time: two bots starting together on a new file
    must not both create the schema (a lock file beside the database)."""
    if path == ":memory:" or path.startswith("file::memory:"):
        return apply_migrations(db)
    with open(f"{path}.migrate-lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return apply_migrations(db)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def apply_migrations(db: sqlite3.Connection, upto: int | None = None) -> list[int]:
    """Bring a SQLite schema up to date (on the database thread), or up to version `upto`;
    returns the versions applied now (empty if none)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    done = {row[0] for row in db.execute("SELECT version FROM schema_version")}
    known = available("sqlite")
    newer = sorted(done - {v for v, _, _ in known})
    if newer:
        raise RuntimeError(f"the database has schema version {newer[-1]}, newer than this bot")
    applied = []
    for version, name, sql in known:
        if version in done or (upto is not None and version > upto):
            continue
        now = datetime.now(UTC).isoformat()
        # One script = one transaction: a failing migration leaves nothing half-applied.
        script = (
            f"BEGIN IMMEDIATE;\n{sql}\n;"
            f"INSERT INTO schema_version (version, name, applied_at)"
            f" VALUES ({version}, '{name}', '{now}');\nCOMMIT;"
        )
        try:
            db.executescript(script)
        except Exception:
            if db.in_transaction:
                db.rollback()
            raise
        applied.append(version)
    return applied
