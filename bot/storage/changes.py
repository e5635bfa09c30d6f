"""Tables changed by other processes, heard through PostgreSQL's LISTEN/NOTIFY.

Each process keeps the running tables it served in memory (bot/tables/store.py), so that
/move's autocomplete is answered without a database round trip. In a cluster another process
may change such a table meanwhile: migration 0010 makes PostgreSQL tell every listener of each
committed change of a table's ply or status, and the watchers set their copy aside.

While the listening connection is down nothing may be trusted (`hearing` is False: the store
reads the database); once it is back the watchers forget everything they held, since changes
may have gone unheard in between. No task of its own waits on the connection: asyncpg calls
back on a notification or a lost connection (then one reconnection is tried at once), and
the bot's sweeper calls `check` every few seconds (a silent network closes nothing by itself).
"""

from __future__ import annotations

import asyncio
import logging

import asyncpg

from bot.storage.driver import TableWatcher

log = logging.getLogger(__name__)

CHANNEL = "table_changes"


def parse(payload: str) -> tuple[int, int, str] | None:
    """(table id, ply, status) of a notification's "id:ply:status"; None if malformed."""
    table_id, _, rest = payload.partition(":")
    ply, _, status = rest.partition(":")
    try:
        return int(table_id), int(ply), status
    except ValueError:
        return None


class ChangeListener:
    """One connection of its own that LISTENs on `table_changes` for the process's watchers."""

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        self._url = url
        self._timeout = timeout
        self._watchers: list[TableWatcher] = []
        self._conn: asyncpg.Connection | None = None
        self._checking = asyncio.Lock()  # one connect or ping at a time
        self._reconnecting: asyncio.Future[bool] | None = None
        self._closed = False
        self.hearing = False  # listening now, and the watchers forgot what came before

    def add(self, watcher: TableWatcher) -> None:
        self._watchers.append(watcher)

    async def check(self) -> bool:
        """Listen if not listening yet (or any more), else make sure the connection still
        answers; whether changes are heard now. Never raises: a failure is logged."""
        if self._closed:
            return False
        async with self._checking:
            conn = self._conn
            try:
                if conn is None or conn.is_closed():
                    await self._listen()
                else:
                    await conn.fetchval("SELECT 1", timeout=self._timeout)
            except Exception as err:  # unreachable, refused, silent: the store reads meanwhile
                log.info("not hearing other processes' table changes (%r)", err)
                self._lost()
        return self.hearing

    async def close(self) -> None:
        self._closed = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        self._lost()

    async def _listen(self) -> None:
        self._lost()
        conn = await asyncpg.connect(
            self._url, timeout=self._timeout, statement_cache_size=0,
            server_settings={"application_name": "tabletop-bot changes"})
        try:
            await conn.add_listener(CHANNEL, self._notified)
        except BaseException:
            conn.terminate()
            raise
        conn.add_termination_listener(self._terminated)
        self._conn = conn
        self._deaf()  # what changed before LISTEN went unheard: forget it
        self.hearing = True

    def _notified(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        change = parse(payload)
        if change is None:
            log.warning("a table change could not be read: %r", payload)
            return
        for watcher in list(self._watchers):
            watcher.table_changed(*change)

    def _terminated(self, conn: object) -> None:
        if conn is not self._conn or self._closed:
            return
        log.info("the connection hearing table changes was lost; listening again")
        self._lost()
        if self._reconnecting is None or self._reconnecting.done():
            self._reconnecting = asyncio.ensure_future(self.check())  # once; then the sweeper

    def _lost(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            conn.terminate()
        self._deaf()

    def _deaf(self) -> None:
        self.hearing = False
        for watcher in list(self._watchers):
            watcher.lost_track()
