"""Starting the bot for `python -m bot` (bot/__main__.py, once the settings are read): the
database commands, `sync`, and the bot itself on uvloop's event loop, with its logging,
metrics and where its Discord requests go."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import logging
import os
import signal
import sys
from collections.abc import Coroutine
from dataclasses import replace
from typing import TypeVar
from urllib.parse import urlsplit

import discord
import discord.gateway
import discord.http
import yarl

from bot import collector, metrics
from bot.client import TableBot, create_bot, sync_only
from bot.config import NO_TOKEN_HELP, Config
from bot.storage.check import DatabaseProblem, check_database
from bot.storage.tools import run_command
from engines import varanasi_grundy

T = TypeVar("T")


def start(args: argparse.Namespace, config: Config) -> int:
    """What `python -m bot` does past the health check: a database command, `sync`, or
    running the bot until it is stopped; the exit status."""
    if args.command in ("migrate-db", "backup"):
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
        try:
            check_database(config.database)
        except DatabaseProblem as err:
            print(f"error: {err}", file=sys.stderr)
            return 1

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
    discord.http.Route.BASE = f"http://{parts.hostname}:{parts.port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        f"ws://{parts.hostname}:{parts.port}/gateway")
    logging.getLogger(__name__).warning("using the test Discord server at %s", url)


def use_api_base(base: str | None) -> None:
    """Send every REST call (interaction answers and webhooks included) to `base` instead of
    Discord, e.g. a rate-limit proxy that the cluster's processes share (BOT_DISCORD_API)."""
    if base is None:
        return
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


