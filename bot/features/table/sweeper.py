"""Upkeep without anyone asking, every INTERVAL seconds, for this process's guilds.

- Boards left unposted: Discord failed (5xx, a 429 beyond discord.py's retries), or the
  process died between the commit and the post. Boards behind that have been quiet for
  QUIET are posted (a fresher board is still being posted by the process that made the
  move); a table whose board keeps failing waits longer each time (Publisher's backoff).
- Lobbies that waited longer than their server's `lobby_minutes` are cancelled (once across
  processes) and their message says so.
- The heartbeat file (BOT_HEARTBEAT_FILE) is touched, for Docker's HEALTHCHECK; the open
  tables gauge is refreshed when metrics are on.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

from discord.ext import tasks

from bot import metrics
from bot.features.table.publish import Publisher
from bot.storage import Unavailable
from bot.storage.driver import player_answered
from bot.tables import TableService

log = logging.getLogger(__name__)


def heartbeat_path() -> Path | None:
    raw = (os.environ.get("BOT_HEARTBEAT_FILE") or "").strip()
    return Path(raw) if raw else None


class Sweeper:
    INTERVAL = 15.0
    QUIET = timedelta(seconds=10)

    def __init__(self, service: TableService, publisher: Publisher) -> None:
        self.service, self.publisher = service, publisher
        self._chores: list[Callable[[], Awaitable[object]]] = []

    def add_chore(self, chore: Callable[[], Awaitable[object]]) -> None:
        """Run `chore` in each sweep (another feature's upkeep: expiring lobbies)."""
        self._chores.append(chore)

    def start(self) -> None:
        if not self.sweep.is_running():
            self.sweep.start()

    def stop(self) -> None:
        if self.sweep.is_running():
            self.sweep.cancel()

    @tasks.loop(seconds=INTERVAL)
    async def sweep(self) -> None:
        self.beat()
        try:
            with player_answered():  # background work: a busy pool is waited for
                posted = await self.publisher.recover(quiet_for=self.QUIET, backoff=True)
        except Unavailable as err:  # an outage: its Health warned once (bot/health.py)
            log.debug("posting the boards left behind refused (%r)", err)
        except Exception as err:
            log.warning("posting the boards left behind failed (%r); trying again later", err)
        else:
            if posted:
                log.info("posted %d board(s) left behind", posted)
        try:
            for chore in self._chores:
                await chore()
            if metrics.enabled():
                metrics.open_tables(await self.service.upkeep.open_counts())
        except Unavailable as err:
            log.debug("expiring lobbies refused (%r)", err)
        except Exception as err:
            log.warning("expiring lobbies failed (%r); trying again later", err)

    @staticmethod
    def beat() -> None:
        """Touch the heartbeat file: the event loop is alive and the sweeper runs."""
        path = heartbeat_path()
        if path is None:
            return
        try:
            path.touch()
        except OSError as err:
            log.warning("heartbeat file %s: %s", path, err)
