"""Apply the numbered SQL files of `migrations/` once each, recorded in `schema_version`."""

from __future__ import annotations

import fcntl
import re
import sqlite3
from datetime import UTC, datetime
from importlib import resources

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def available(package: str = "bot.storage.migrations") -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every migration file of a backend, in version order."""
    found = []
    for entry in resources.files(package).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"two migration files share a number: {versions}")
    return found


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


def apply_migrations(db: sqlite3.Connection) -> list[int]:
    """Bring a SQLite schema up to date (on the database thread); returns the versions
    applied now (empty if none)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    done = {row[0] for row in db.execute("SELECT version FROM schema_version")}
    newer = sorted(done - {v for v, _, _ in available()})
    if newer:
        raise RuntimeError(f"the database has schema version {newer[-1]}, newer than this bot")
    applied = []
    for version, name, sql in available():
        if version in done:
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
