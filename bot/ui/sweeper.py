"""Boards left unposted are posted without anyone asking.

A board can miss its post: Discord failed (5xx, a 429 beyond discord.py's retries), or the
process died between the commit and the post. Every INTERVAL seconds this process posts the
boards of its own guilds that are behind and have been quiet for QUIET (a fresher board is
still being posted by the process that made the move).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from discord.ext import tasks

if TYPE_CHECKING:
    from bot.client import TableBot

log = logging.getLogger(__name__)


class Sweeper:
    INTERVAL = 15.0
    QUIET = timedelta(seconds=10)

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    def start(self) -> None:
        if not self.sweep.is_running():
            self.sweep.start()

    def stop(self) -> None:
        if self.sweep.is_running():
            self.sweep.cancel()

    @tasks.loop(seconds=INTERVAL)
    async def sweep(self) -> None:
        try:
            posted = await self.bot.ui.publisher.recover(quiet_for=self.QUIET)
        except Exception:
            log.exception("posting the boards left behind failed; trying again later")
            return
        if posted:
            log.info("posted %d board(s) left behind", posted)
