"""Lobby queries (migration 0007 / PostgreSQL 0004), units of work like repository.py:
the seats held for invited members, and which table a rematch lobby repeats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.storage.base import Aggregate
from bot.storage.driver import Execute, Fetch, Unit, from_row


@dataclass(frozen=True)
class InvitationRow:
    """A seat held in a lobby for an invited member until they answer."""

    user_id: int
    name: str
    side: int | None
    invited_at: datetime


def _invite(table_id: int, rows: Sequence[tuple[int, str, int | None]],
            at: datetime) -> Unit[int]:
    added = 0
    for user_id, name, side in rows:
        added += yield Execute(
            "INSERT INTO invitations (table_id, user_id, name, side, invited_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO NOTHING",
            (table_id, user_id, name, side, at))
    return added


def _accept(table_id: int, user_id: int, name: str) -> Unit[InvitationRow | None]:
    """Drop the invitation and seat its member in one transaction; None if there was none.
    A seat taken meanwhile (another process) raises Conflict: nothing changes then."""
    rows = yield Fetch("SELECT user_id, name, side, invited_at FROM invitations"
                       " WHERE table_id = ? AND user_id = ?", (table_id, user_id))
    if not rows:
        return None
    yield Execute("DELETE FROM invitations WHERE table_id = ? AND user_id = ?",
                  (table_id, user_id))
    row = from_row(InvitationRow, rows[0])
    seated = yield Fetch("SELECT 1 AS x FROM seats WHERE table_id = ? AND user_id = ?",
                         (table_id, user_id))
    if not seated:
        yield Execute(
            "INSERT INTO seats (table_id, position, user_id, name, side) VALUES (?,"
            " (SELECT COALESCE(MAX(position) + 1, 0) FROM seats WHERE table_id = ?), ?, ?, ?)",
            (table_id, table_id, user_id, name, row.side))
    return row


class LobbyRepository(Aggregate):
    """Lobbies: the seats held for invited members, and which table a rematch repeats."""

    async def add_invitations(self, table_id: int, rows: Sequence[tuple[int, str, int | None]],
                              at: datetime) -> int:
        """Hold seats for (user id, name, side) at a lobby; returns how many were new."""
        return await self.run(_invite, table_id, list(rows), at)

    async def invitations(self, table_id: int) -> list[InvitationRow]:
        """The seats held at a table, oldest first."""
        rows = await self._rows(
            "SELECT user_id, name, side, invited_at FROM invitations WHERE table_id = ?"
            " ORDER BY invited_at, user_id", (table_id,))
        return [from_row(InvitationRow, row) for row in rows]

    async def accept_invitation(self, table_id: int, user_id: int,
                                name: str) -> InvitationRow | None:
        """Seat an invited member (on the side held for them); None if not invited."""
        return await self.run(_accept, table_id, user_id, name)

    async def drop_invitations(self, table_id: int, user_id: int | None = None) -> int:
        """Free one member's held seat (or all of the table's); returns how many."""
        if user_id is None:
            return await self._execute("DELETE FROM invitations WHERE table_id = ?",
                                       (table_id,))
        return await self._execute(
            "DELETE FROM invitations WHERE table_id = ? AND user_id = ?", (table_id, user_id))

    async def set_rematch_of(self, table_id: int, old_table_id: int) -> None:
        await self._execute("UPDATE game_tables SET rematch_of = ? WHERE id = ?",
                            (old_table_id, table_id))

    async def rematch_of(self, old_table_id: int) -> int | None:
        """The newest rematch of a table that was not cancelled (a lobby, a running or a
        finished game), if any."""
        rows = await self._rows(
            "SELECT id FROM game_tables WHERE rematch_of = ? AND status != 'cancelled'"
            " ORDER BY id DESC LIMIT 1", (old_table_id,))
        return rows[0]["id"] if rows else None
