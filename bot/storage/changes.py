"""Tables changed by other processes, heard through PostgreSQL's LISTEN/NOTIFY.

Each process keeps the running tables it served in memory (bot/tables/store.py), so that
/move's autocomplete is answered without a database round trip. In a cluster another process
may change such a table meanwhile: migration 0010 makes PostgreSQL tell every listener of each
committed change of a table's ply or status, and the watchers forget their copy.

While the listening connection is down nothing may be trusted (`hearing` is False: the store
reads the database); once it is back the watchers forget everything they held, since changes
may have gone unheard in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import asyncpg

from bot.storage.driver import TableWatcher

log = logging.getLogger(__name__)

CHANNEL = "table_changes"
FIRST_RETRY_S, LAST_RETRY_S = 0.5, 30.0  # reconnecting: doubled from the first up to the last
CHECK_EVERY_S = 30.0  # a silent network closes no connection by itself: ask it this often


def parse(payload: str) -> tuple[int, int, str] | None:
    """(table id, ply, status) of a notification's "id:ply:status"; None if malformed."""
    table_id, _, rest = payload.partition(":")
    ply, _, status = rest.partition(":")
    try:
        return int(table_id), int(ply), status
    except ValueError:
        return None


class ChangeListener:
    """One connection of its own that LISTENs on `table_changes` for the process's watchers,
    reconnecting when it is lost."""

    def __init__(self, url: str, connect_timeout: float = 5.0) -> None:
        self._url = url
        self._connect_timeout = connect_timeout
        self._watchers: list[TableWatcher] = []
        self._task: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self.hearing = False  # listening now, and the watchers forgot what came before

    def add(self, watcher: TableWatcher) -> None:
        self._watchers.append(watcher)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._run())

    async def heard(self, timeout: float) -> bool:
        """Wait until listening (at start-up, for tests and tools); whether it is."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._connected.wait(), timeout)
        return self.hearing

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._deaf()

    def _deaf(self) -> None:
        self.hearing = False
        self._connected.clear()
        for watcher in list(self._watchers):
            watcher.lost_track()

    def _notified(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        change = parse(payload)
        if change is None:
            log.warning("a table change could not be read: %r", payload)
            return
        for watcher in list(self._watchers):
            watcher.table_changed(*change)

    async def _run(self) -> None:
        retry = FIRST_RETRY_S
        while True:
            try:
                await self._listen()
                retry = FIRST_RETRY_S  # it was up until now: reconnect at once
            except asyncio.CancelledError:
                raise
            except Exception as err:  # unreachable, refused, lost: the store reads meanwhile
                log.info("not hearing other processes' table changes (%r); again in %.1f s",
                         err, retry)
                await asyncio.sleep(retry)
                retry = min(retry * 2, LAST_RETRY_S)

    async def _listen(self) -> None:
        conn = await asyncpg.connect(
            self._url, timeout=self._connect_timeout, statement_cache_size=0,
            server_settings={"application_name": "tabletop-bot changes"})
        lost = asyncio.Event()
        conn.add_termination_listener(lambda _conn: lost.set())
        try:
            await conn.add_listener(CHANNEL, self._notified)
            for watcher in list(self._watchers):  # what changed before LISTEN went unheard
                watcher.lost_track()
            self.hearing = True
            self._connected.set()
            while not lost.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lost.wait(), CHECK_EVERY_S)
                if not lost.is_set():
                    await conn.fetchval("SELECT 1", timeout=self._connect_timeout)
            log.info("the connection hearing table changes was closed; reconnecting")
        finally:
            self._deaf()
            conn.terminate()
