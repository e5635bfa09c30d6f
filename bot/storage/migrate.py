"""Apply the numbered SQL files of `migrations/` once each, recorded in `schema_version`."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from importlib import resources

import aiosqlite

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def available() -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every migration file, in version order."""
    found = []
    for entry in resources.files("bot.storage.migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"two migration files share a number: {versions}")
    return found


async def apply_migrations(db: aiosqlite.Connection) -> list[int]:
    """Bring the schema up to date; returns the versions applied now (empty if none)."""
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    async with db.execute("SELECT version FROM schema_version") as cursor:
        done = {row[0] for row in await cursor.fetchall()}
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
            await db.executescript(script)
        except Exception:
            if db.in_transaction:
                await db.rollback()
            raise
        applied.append(version)
    return applied
