"""`python -m bot`: run the bot (token from DISCORD_TOKEN or .env).

Settings besides the token: BOT_DATABASE, BOT_LOG_LEVEL (DEBUG/INFO/WARNING/ERROR),
BOT_METRICS_PORT (Prometheus metrics), BOT_HEARTBEAT_FILE (for Docker's HEALTHCHECK),
BOT_DISCORD_API (a REST rate-limit proxy shared by the cluster), BOT_UVLOOP=0 (asyncio's own
event loop instead of uvloop).

Commands: `python -m bot health` (exit 0 if the heartbeat file is fresh),
`python -m bot sync` (register the slash commands and exit), `python -m bot
migrate-db --from PATH --to URL` (SQLite to PostgreSQL) and `python -m bot backup PATH` (an
online copy of the SQLite database).

This module reads the command line and the settings and answers the health check, which
needs nothing more; bot/launch.py does the rest.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace

from bot.config import Config

HEARTBEAT_STALE = 90.0  # seconds: the sweeper touches the file every 15 s


def health() -> int:
    """0 if the heartbeat file was touched within HEARTBEAT_STALE seconds."""
    path = os.environ.get("BOT_HEARTBEAT_FILE", "").strip()
    if not path:
        print("BOT_HEARTBEAT_FILE is not set", file=sys.stderr)
        return 1
    try:
        age = time.time() - os.stat(path).st_mtime
    except OSError as err:
        print(f"no heartbeat: {err}", file=sys.stderr)
        return 1
    if age > HEARTBEAT_STALE:
        print(f"the heartbeat is {age:.0f} s old", file=sys.stderr)
        return 1
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the tabletop bot.")
    parser.add_argument("--dev-guild", type=int, metavar="ID",
                        help="sync slash commands to this server only (instant; for development)"
                             "; same as DEV_GUILD_ID")
    parser.add_argument("--database", metavar="PATH",
                        help="SQLite file (default: $BOT_DATABASE or data/bot.sqlite3)")
    parser.add_argument("--no-sync", action="store_true",
                        help="do not register the slash commands at start-up")
    parser.add_argument("--env-file", default=".env", metavar="PATH",
                        help="file with KEY=value settings (default: .env)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND",
                                     title="commands (without one: run the bot)")
    migrate = commands.add_parser(
        "migrate-db", help="copy a SQLite database into an empty PostgreSQL database",
        description="Copy every table of a SQLite database into an empty PostgreSQL "
                    "database (migrated first), then compare the row counts.")
    migrate.add_argument("--from", dest="source", required=True, metavar="PATH",
                         help="the SQLite file (the bot may keep running on it)")
    migrate.add_argument("--to", dest="target", required=True, metavar="URL",
                         help="postgresql://user@host:port/database, empty")
    backup = commands.add_parser(
        "backup", help="online backup of the SQLite database",
        description="Copy the SQLite database ($BOT_DATABASE or --database) to PATH while "
                    "the bot may be running. For PostgreSQL use pg_dump.")
    backup.add_argument("path", metavar="PATH", help="where to write the copy")
    commands.add_parser(
        "health", help="exit 0 if the running bot's heartbeat file (BOT_HEARTBEAT_FILE) is "
                       "fresh, 1 if not: for Docker's HEALTHCHECK")
    sync = commands.add_parser(
        "sync", help="register the slash commands with Discord and exit (without connecting "
                     "to the gateway; for clusters that run with BOT_SYNC_COMMANDS=0)")
    sync.add_argument("--dev-guild", type=int, metavar="ID", default=argparse.SUPPRESS,
                      help="register them in this server only (instant; for development)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        config = Config.load(dotenv=args.env_file)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.dev_guild is not None:
        config = replace(config, dev_guild_id=args.dev_guild)
    if args.database:
        config = replace(config, database=args.database)
    if args.command == "health":
        return health()
    # Here, not at the top: Docker's health check runs this module every 30 seconds and must
    # not load discord.py, the storage drivers and the games each time (0.6 s of CPU).
    from bot import launch

    return launch.start(args, config)


if __name__ == "__main__":
    sys.exit(main())
