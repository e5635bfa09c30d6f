"""Answers that wait for a post in the channel wait at most POST_BUDGET seconds.

A move's reply and /board's reply follow the board's post. When Discord is slow or failing
on the channel (discord.py retries a 5xx with 1–9 s sleeps), the member is told after
POST_BUDGET that the board will appear shortly, and the post goes on in the
background (the sweeper retries it if it fails). The move itself was committed before: only
its picture in the channel is late.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

from bot.health import is_outage
from bot.i18n import N_

log = logging.getLogger(__name__)

T = TypeVar("T")

POST_BUDGET = 2.0  # seconds a reply waits for the channel post (Discord allows 3 to answer)
# Said whether Discord is failing or only busy (a burst of moves): either way the board comes.
SLOW_POST = N_("The board is taking longer than usual to post; it will appear here shortly.")


class InTime:
    """Runs work that an answer waits for, at most `budget` seconds; work that takes longer
    finishes in the background (kept here until done; its failure is logged once)."""

    def __init__(self, budget: float = POST_BUDGET) -> None:
        self.budget = budget
        self._background: set[asyncio.Future[object]] = set()

    async def wait(self, work: Awaitable[T]) -> tuple[bool, T | None]:
        """(True, its result) when `work` ended within the budget (its exception raised
        here), else (False, None) while it goes on."""
        task = asyncio.ensure_future(work)
        try:
            await self.glance(task, self.budget)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if task.done():
            return True, task.result()
        self._background.add(task)  # type: ignore[arg-type]
        task.add_done_callback(self._finished)
        return False, None

    @staticmethod
    async def glance(task: asyncio.Future[T], seconds: float) -> None:
        """Wait for `task` at most `seconds`, leaving it running (0: only what it does
        before its first wait)."""
        if seconds > 0:
            await asyncio.wait({task}, timeout=seconds)
        else:
            await asyncio.sleep(0)

    def _finished(self, task: asyncio.Future[T]) -> None:
        self._background.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is None:
            return
        if is_outage(error):  # the database's Health has warned; the sweeper posts it
            log.debug("a late post was refused: %r", error)
        else:
            log.error("a late post failed", exc_info=error)

    @property
    def pending(self) -> int:
        """Posts still going on in the background."""
        return len(self._background)

    def stop(self) -> None:
        """Cancel the background posts (the bot is closing; the sweeper of the next start
        posts what they left)."""
        for task in list(self._background):
            task.cancel()

    async def drain(self) -> None:
        """Wait for the background posts (closing, tests)."""
        while self._background:
            await asyncio.wait(set(self._background))
