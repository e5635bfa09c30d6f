"""`python -m bot`: run the bot (token from DISCORD_TOKEN or .env).

Operator commands: `python -m bot migrate-db --from PATH --to URL` (SQLite to PostgreSQL)
and `python -m bot backup PATH` (an online copy of the SQLite database).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.config import NO_TOKEN_HELP, Config

if TYPE_CHECKING:
    from bot.client import TableBot


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
                                     title="operator commands (without one: run the bot)")
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
    if args.command is not None:
        from bot.storage.tools import run_command

        return run_command(args, config.database)
    if args.no_sync:
        config = replace(config, sync_commands=False)
    if not config.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2

    import discord

    from bot.client import create_bot  # imported late: the no-token path stays fast

    discord.utils.setup_logging(level=logging.INFO, root=True)
    try:
        asyncio.run(serve(create_bot(config), config.token))
    except KeyboardInterrupt:
        pass
    except discord.LoginFailure:
        print("Discord refused the token in DISCORD_TOKEN: copy it again from the Developer "
              "Portal (Bot → Reset Token).", file=sys.stderr)
        return 1
    except OSError as err:  # aiohttp's connection errors are OSErrors
        print(f"Cannot reach Discord: {err}", file=sys.stderr)
        return 1
    return 0


async def serve(bot: TableBot, token: str) -> None:
    """Run until closed; SIGTERM (docker stop) closes the bot and its database cleanly."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(token)


if __name__ == "__main__":
    sys.exit(main())
