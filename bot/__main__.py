"""`python -m bot`: run the bot (token from DISCORD_TOKEN or .env).

Settings besides the token: BOT_DATABASE, BOT_LOG_LEVEL (DEBUG/INFO/WARNING/ERROR),
BOT_METRICS_PORT (Prometheus metrics), BOT_HEARTBEAT_FILE (for Docker's HEALTHCHECK),
BOT_DISCORD_API (a REST rate-limit proxy shared by the cluster), BOT_UVLOOP=0 (asyncio's own
event loop instead of uvloop).

Commands: `python -m bot health` (exit 0 if the heartbeat file is fresh),
`python -m bot sync` (register the slash commands and exit), `python -m bot
migrate-db --from PATH --to URL` (SQLite to PostgreSQL) and `python -m bot backup PATH` (an
online copy of the SQLite database).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import logging
import os
import signal
import sys
import time
from collections.abc import Coroutine
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import urlsplit

from bot import collector, metrics
from bot.config import NO_TOKEN_HELP, Config

if TYPE_CHECKING:
    from bot.client import TableBot


T = TypeVar("T")
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
    if args.command in ("migrate-db", "backup"):
        from bot.storage.tools import run_command

        return run_command(args, config.database)
    if args.no_sync:
        config = replace(config, sync_commands=False)
    if not config.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    try:
        level = log_level(os.environ.get("BOT_LOG_LEVEL", ""))
        metrics_port = metrics.port_from_env()
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.command != "sync":
        from bot.storage.check import DatabaseProblem, check_database

        try:
            check_database(config.database)
        except DatabaseProblem as err:
            print(f"error: {err}", file=sys.stderr)
            return 1

    import discord

    from bot.client import create_bot, sync_only  # imported late: the no-token path stays fast

    discord.utils.setup_logging(level=level, root=True)
    warn_without_compiled_search()
    if metrics_port is not None and args.command != "sync":
        metrics.start(metrics_port)
    try:
        use_test_server(os.environ.get(TEST_SERVER_VARIABLE, ""))
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    use_api_base(config.api_base)
    try:
        if args.command == "sync":
            count = run(sync_only(config))
            where = f"server {config.dev_guild_id}" if config.dev_guild_id else "all servers"
            print(f"Registered {count} slash commands for {where}.")
            return 0
        run(serve(create_bot(config), config.token))
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


SLOW_SEARCH = ("engines/_varanasi_search.c was not compiled when the bot was installed (no C "
               "compiler): hard Varanasi plays the same moves, but a move can take many seconds; "
               "install gcc and run the install again")


def warn_without_compiled_search() -> None:
    """Say at start-up when hard Varanasi runs on the slow Python search."""
    from engines import varanasi_grundy

    if not varanasi_grundy.NATIVE:
        logging.getLogger(__name__).warning(SLOW_SEARCH)


def log_level(name: str) -> int:
    """BOT_LOG_LEVEL (DEBUG, INFO, WARNING, ERROR; default INFO) as a logging level."""
    name = name.strip().upper() or "INFO"
    level = logging.getLevelName(name)
    if not isinstance(level, int):
        raise ValueError(f"BOT_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {name!r}")
    return level


# Tests only (tests/wire): point discord.py at a fake Discord server on this machine. Anything
# but a loopback address is refused, so a stray setting can never send the token elsewhere.
TEST_SERVER_VARIABLE = "BOT_TEST_DISCORD_URL"


def use_test_server(url: str) -> None:
    """Send REST calls to `url`/api/v10 and open the gateway at ws://…/gateway ("" = Discord)."""
    if not url:
        return
    parts = urlsplit(url)
    try:
        loopback = parts.scheme == "http" and ipaddress.ip_address(parts.hostname or "").is_loopback
    except ValueError:
        loopback = False
    if not loopback or parts.port is None:
        raise ValueError(f"{TEST_SERVER_VARIABLE} is for tests only and must look like "
                         f"http://127.0.0.1:PORT (got {url!r})")
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = f"http://{parts.hostname}:{parts.port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        f"ws://{parts.hostname}:{parts.port}/gateway")
    logging.getLogger(__name__).warning("using the test Discord server at %s", url)


def use_api_base(base: str | None) -> None:
    """Send every REST call (interaction answers and webhooks included) to `base` instead of
    Discord, e.g. a rate-limit proxy that the cluster's processes share (BOT_DISCORD_API)."""
    if base is None:
        return
    import discord.http

    discord.http.Route.BASE = base
    logging.getLogger(__name__).info("Discord's REST API through %s", base)


def run(main: Coroutine[object, object, T]) -> T:
    """`asyncio.run(main)` on uvloop's event loop where uvloop is installed (not on Windows)
    and not turned off with BOT_UVLOOP=0, else on asyncio's own."""
    log = logging.getLogger(__name__)
    collector.tune()
    if os.environ.get("BOT_UVLOOP", "").strip().lower() not in ("0", "false", "no", "off"):
        try:
            import uvloop
        except ImportError:
            log.info("event loop: asyncio (uvloop is not installed)")
        else:
            log.info("event loop: uvloop %s", uvloop.__version__)
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                return runner.run(main)
    else:
        log.info("event loop: asyncio (BOT_UVLOOP=0)")
    return asyncio.run(main)


async def serve(bot: TableBot, token: str) -> None:
    """Run until closed; SIGTERM (docker stop) closes the bot and its database cleanly."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(token)


if __name__ == "__main__":
    sys.exit(main())
