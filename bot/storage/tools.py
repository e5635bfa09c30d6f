"""The operator commands of `python -m bot`: migrate-db and backup."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.storage import is_postgres
from bot.storage.backup import PG_DUMP_HELP, BackupError, backup_sqlite
from bot.storage.copy import CopyError, copy_sqlite_to_postgres
from bot.storage.driver import Unavailable
from bot.storage.postgres import SchemaTooNew, describe


def run_command(args: argparse.Namespace, database: str) -> int:
    """Run `args.command`; returns the process exit status."""
    if args.command == "migrate-db":
        return migrate_db(args.source, args.target)
    if args.command == "backup":
        return backup(database, args.path)
    raise ValueError(f"unknown command {args.command}")


def migrate_db(source: str, target: str) -> int:
    if not is_postgres(target):
        print("error: --to must be a postgresql://user@host:port/database URL", file=sys.stderr)
        return 2
    print(f"copying {source} to {describe(target)}")
    try:
        counts = asyncio.run(copy_sqlite_to_postgres(source, target, report=print))
    except (CopyError, BackupError, Unavailable, SchemaTooNew) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"done: {sum(c.target for c in counts)} rows in {len(counts)} tables, counts match. "
          f"Now set BOT_DATABASE=postgresql://{describe(target)} (with its password, if any) "
          "and restart the bot.")
    return 0


def backup(database: str, path: str) -> int:
    if is_postgres(database):
        print(PG_DUMP_HELP, file=sys.stderr)
        return 2
    try:
        size = backup_sqlite(database, path)
    except (BackupError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"backed up {database} to {path} ({size:,} bytes)")
    return 0
