"""Tables that never block a channel, and limits per server .

- **Limits** (`check_can_open`): at most one open lobby per member per server, and at most
  the server's `max_tables` lobbies and running tables at once. Both are checked again as
  the lobby is written (`open_table(..., one_per_host=True)`), atomically: racing /play
  commands, even in two processes, never open two lobbies for one member nor go past the
  server's limit.
- **Cancel** (`cancel`): the host cancels a lobby; a running game only by a member allowed
  to moderate (Manage Messages, or the server's cancel role). A cancelled game is unrated;
  its seats and move log are kept. `lobby_only` is for the lobby's own Cancel button, so an
  old lobby message can never end the game that followed it.
- **Broken tables**: a table whose log no longer replays is marked broken (no timer or sweep
  touches it again), refused politely with TableError("broken"), and can still be cancelled
  (by its host too: a broken game cannot go on, so it is no way out of a loss).
- **Expiry** (`expire_lobbies`): a lobby not started within the server's `lobby_minutes`
  is cancelled, once across processes (only the writer whose UPDATE changed the row reports
  it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from bot.storage import TableRepository
from bot.tables import pipeline
from bot.tables.errors import TableError
from bot.tables.models import MoveResult, Seat, Table
from bot.tables.settings import LOBBY_MINUTES, ServerSettings
from bot.tables.store import TableStore

log = logging.getLogger(__name__)

MAX_MOVE_LENGTH = 100  # characters of a typed move; every move of every game is far shorter


def check_move_text(move: str) -> None:
    """TableError("too_long") for typed text no move can be (before anything parses it)."""
    if len(move) > MAX_MOVE_LENGTH:
        raise TableError("too_long", max=MAX_MOVE_LENGTH)


class Upkeep:
    """Limits, cancelling, broken tables and lobby expiry."""

    def __init__(self, store: TableStore, repo: TableRepository, settings: ServerSettings) -> None:
        self.store, self._repo, self.settings = store, repo, settings
        self.now = store.now

    async def check_can_open(self, guild_id: int, user_id: int) -> None:
        """Refuse a new lobby: TableError("lobby_limit") or ("server_full")."""
        mine = await self._repo.open_lobby_of(guild_id, user_id)
        if mine is not None:
            raise await self.lobby_limit(mine)
        settings = await self.settings.get(guild_id)
        if await self._repo.active_count(guild_id) >= settings.max_tables:
            raise TableError("server_full", max=settings.max_tables)

    async def lobby_limit(self, lobby_id: int) -> TableError:
        """The refusal of a second lobby, naming where the member's open one is."""
        row = await self._repo.get_table(lobby_id)
        place = row.thread_id or row.channel_id if row is not None else None
        return TableError("lobby_limit", table_id=lobby_id, place=f"<#{place}>")

    async def open_counts(self) -> dict[str, int]:
        """Lobbies and running tables, over all servers (for metrics)."""
        return await self._repo.open_counts()

    async def set_lobby_message(self, table_id: int, channel_id: int, message_id: int) -> None:
        await self._repo.set_lobby_message(table_id, channel_id, message_id)

    async def cancel(self, table_id: int, user_id: int, can_manage: bool = False,
                     lobby_only: bool = False) -> Table:
        """Cancel a table (module docstring). TableError: not_found, finished, not_running,
        not_lobby (lobby_only and it started), not_allowed."""
        row = await self._repo.get_table(table_id)
        if row is None:
            raise TableError("not_found", table_id=table_id)
        if row.status == "finished":
            raise TableError("finished")
        if row.status == "cancelled":
            raise TableError("not_running")
        if lobby_only and row.status != "lobby":
            raise TableError("not_lobby")
        # the host alone may end a lobby, or a broken game (it cannot go on anyway)
        if not can_manage and (user_id != row.host_id or (row.status != "lobby"
                                                           and not row.broken)):
            raise TableError("not_allowed")
        if row.broken:
            if not await self._repo.end_table(table_id, self.now(), ("lobby", "running")):
                raise TableError("not_running")
            log.info("table %s cancelled (broken) by %s", table_id, user_id)
            self.store.forget(table_id)
            self.store.timers_changed()
            return await self._cancelled_shell(table_id)

        async def build(table: Table) -> MoveResult:
            if table.status not in ("lobby", "running") or (
                    lobby_only and table.status != "lobby"):
                raise TableError("not_lobby" if table.status == "running" else "not_running")
            if not can_manage and table.status != "lobby":
                raise TableError("not_allowed")
            return await self.store.commit(pipeline.change(table, self.now(), cancel=True), [])

        result = await self.store.changing(table_id, build)
        assert result is not None
        log.info("table %s cancelled by %s (%s, ply %s)", table_id, user_id, row.status,
                 result.table.ply)
        return result.table

    async def _cancelled_shell(self, table_id: int) -> Table:
        """A cancelled broken table: its row and seats, without replaying its log."""
        row = await self._repo.get_table(table_id)
        assert row is not None
        seats = [Seat(s.user_id, s.name, s.side) for s in await self._repo.get_seats(table_id)]
        return Table(
            id=row.id, guild_id=row.guild_id, channel_id=row.channel_id,
            thread_id=row.thread_id, game=row.game, options=row.options, chosen_options={},
            host_id=row.host_id, status=row.status, seats=seats, state=None, log=[],
            posted_ply=row.posted_ply, posted_final=row.posted_final,
            message_id=row.message_id, created_at=row.created_at, started_at=row.started_at,
            finished_at=row.finished_at, outcome=None,
            lobby_channel_id=row.lobby_channel_id, lobby_message_id=row.lobby_message_id)

    async def expire_lobbies(self, guilds: Callable[[int], bool] | None = None) -> list[
            tuple[Table, int]]:
        """Cancel the lobbies older than their server's `lobby_minutes` (of the guilds for
        which `guilds(id)` is true); returns (table, minutes) for each this call ended."""
        now = self.now()
        candidates = await self._repo.old_lobbies(now - timedelta(minutes=LOBBY_MINUTES[0]))
        ended: list[tuple[Table, int]] = []
        for table_id, guild_id, created_at, minutes in candidates:
            if guilds is not None and not guilds(guild_id):
                continue
            if created_at + timedelta(minutes=minutes) > now:
                continue
            if await self._repo.end_table(table_id, now, ("lobby",)):
                log.info("table %s cancelled: the lobby expired after %s minutes", table_id,
                         minutes)
                try:
                    ended.append((await self.store.get(table_id), minutes))
                except TableError:
                    continue
        return ended
