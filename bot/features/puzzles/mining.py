"""Mining a finished table's puzzles in the background.

When a table's final board is posted (the Publisher's `on_finished`), its game — if the
game's spec has a puzzle maker — is mined in the background lane of the worker processes,
never in front of a board: a full lane skips the table politely (its puzzles are a bonus,
not a promise). The puzzles found are stored for the table's server with their source: the
table, its players' names at the time, the ply.
"""

from __future__ import annotations

import asyncio
import logging

from bot import workers
from bot.features.puzzles.service import PuzzleService
from bot.tables import Table
from bot.tables.takeback import played
from engines.ai.puzzles import has_puzzles
from engines.ai.puzzles import mine as mine_puzzles

log = logging.getLogger(__name__)


class Miner:
    def __init__(self, service: PuzzleService) -> None:
        self.service = service
        self._tasks: set[asyncio.Task[int]] = set()

    async def finished(self, table: Table, message_id: int) -> None:
        """The Publisher's on_finished hook: queue the table's mining and return at once."""
        if not has_puzzles(table.game) or not table.log:
            return
        task = asyncio.create_task(self.mine(table), name=f"puzzles-{table.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def mine(self, table: Table) -> int:
        """Mine and store the table's puzzles; returns how many were new for its server."""
        try:
            found = await workers.run("background", mine_puzzles, table.game,
                                      dict(table.options), len(table.seats), played(table.log),
                                      seed=0)
        except workers.Busy:
            log.info("table %s: the background lane is full; its puzzles are skipped", table.id)
            return 0
        except Exception:
            log.exception("table %s: its puzzles could not be mined", table.id)
            return 0
        if not found:
            return 0
        players = [(seat.user_id, seat.name) for seat in table.seats]
        try:
            added = await self.service.store_mined(table.guild_id, table.id, players, found)
        except Exception as err:  # the database is down: these puzzles are lost, no harm
            log.warning("table %s: its puzzles could not be stored (%r)", table.id, err)
            return 0
        log.info("table %s: %d new puzzle(s)", table.id, added)
        return added

    async def idle(self) -> None:
        """Wait for the mining under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
