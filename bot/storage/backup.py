"""`python -m bot backup PATH`: a consistent copy of the SQLite database while the bot runs.

SQLite's online backup API copies the database page by page, a few pages at a time, so the
running bot's writes are never blocked for long; the copy is written beside its target and
renamed into place only when complete and checked, so PATH is never a half-written file.
PostgreSQL is backed up with its own tool, pg_dump.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

PAGES_PER_STEP = 1024  # 4 MiB at the default page size between the writer's turns
PG_DUMP_HELP = (
    "BOT_DATABASE is a PostgreSQL database: back it up with pg_dump, for example\n"
    "  pg_dump --format=custom --file=bot.dump 'postgresql://user@host:5432/db'\n"
    "and restore with pg_restore --dbname=URL bot.dump"
)


class BackupError(RuntimeError):
    """The source is missing or the copy failed its check; the message says why."""


def backup_sqlite(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> int:
    """Copy the SQLite database `source` to `target` (replaced atomically if it exists);
    returns the size of the copy in bytes."""
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupError(f"no SQLite database at {source}")
    if target.resolve() == source.resolve():
        raise BackupError("the backup must go to another file than the database")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True)  # rw: never creates
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst, pages=PAGES_PER_STEP)
            check = dst.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise BackupError(f"the copy failed SQLite's check: {check}")
        finally:
            dst.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    os.replace(partial, target)
    return target.stat().st_size
