"""Seats held for invited members, and rematches; no Discord here.

- **Invitations**: a lobby's host (at /play) invites members; each invited member holds a
  seat until they accept (they are seated, on the side kept for them if any), decline (the
  seat is free again) or the lobby ends. Nobody else can take a held seat or side, and the
  host cannot start while invitations are pending, unless they withdraw them.
- **Rematch** (`open_rematch`): any member who played a finished table opens a new lobby in
  the same place with the same options and rules; computers are seated again at once, and
  the other members of the game are invited (their seats and sides are held for them). One
  rematch per table: a second press points at the rematch there is.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.lobbies import InvitationRow, LobbyRepository
from bot.tables.computers import computer_level
from bot.tables.errors import TableError
from bot.tables.models import Table
from bot.tables.service import TableService
from engines.base import Record

# The refusals of this module (InvitationError codes), besides TableError's.
INVITATION_CODES = ("not_invited", "seats_held", "side_held", "pending", "not_player",
                    "rematch_exists", "not_finished")


class InvitationError(Exception):
    """A refusal about invitations or rematches: `code` (INVITATION_CODES) and `params`."""

    def __init__(self, code: str, **params: object) -> None:
        if code not in INVITATION_CODES:
            raise ValueError(f"unknown InvitationError code {code!r}")
        super().__init__(code)
        self.code = code
        self.params: Record = params  # the fields of its sentence


class Invitations:
    """The seats held at lobbies (table `invitations`) and rematches (`rematch_of`)."""

    def __init__(self, service: TableService, repo: LobbyRepository) -> None:
        self.service = service
        self._repo = repo

    async def pending(self, table_id: int) -> list[InvitationRow]:
        """The seats still held at a table, oldest invitation first."""
        return await self._repo.invitations(table_id)

    async def _lobby(self, table_id: int) -> Table:
        table = await self.service.get(table_id)
        if table.status != "lobby":
            raise TableError("not_lobby")
        return table

    async def invite(self, table_id: int, host_id: int,
                     members: Sequence[tuple[int, str, int | None]]) -> list[InvitationRow]:
        """Hold seats for (user id, name, side) at a lobby (host only); members seated or
        invited already are left as they are. TableError: not_lobby, not_host, table_full
        (more seats than the game has)."""
        async with self.service.store.lock(table_id):
            table = await self._lobby(table_id)
            if host_id != table.host_id:
                raise TableError("not_host")
            held = {row.user_id for row in await self._repo.invitations(table_id)}
            new = [m for m in members if table.seat_of(m[0]) is None and m[0] not in held]
            if len(table.seats) + len(held) + len(new) > table.engine.max_players:
                raise TableError("table_full", max=table.engine.max_players)
            await self._repo.add_invitations(table_id, new, self.service.now())
            return await self._repo.invitations(table_id)

    async def accept(self, table_id: int, user_id: int, name: str) -> Table:
        """Seat an invited member. TableError: not_lobby, table_full (never while their
        seat is held: see `check_join`); InvitationError("not_invited")."""
        async with self.service.store.lock(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is None and len(table.seats) >= table.engine.max_players:
                raise TableError("table_full", max=table.engine.max_players)
            if await self._repo.accept_invitation(table_id, user_id, name) is None:
                raise InvitationError("not_invited")
            return await self.service.get(table_id)

    async def decline(self, table_id: int, user_id: int) -> Table:
        """Free an invited member's seat. TableError("not_lobby");
        InvitationError("not_invited")."""
        async with self.service.store.lock(table_id):
            table = await self._lobby(table_id)
            if not await self._repo.drop_invitations(table_id, user_id):
                raise InvitationError("not_invited")
            return table

    async def withdraw(self, table_id: int, user_id: int) -> Table:
        """The host frees every held seat. TableError: not_lobby, not_host."""
        async with self.service.store.lock(table_id):
            table = await self._lobby(table_id)
            if user_id != table.host_id:
                raise TableError("not_host")
            await self._repo.drop_invitations(table_id)
            return table

    async def forget(self, table_id: int, user_id: int | None = None) -> None:
        """The lobby ended (expired, cancelled): its invitations go with it; or one member's
        invitation was used (they joined another way)."""
        await self._repo.drop_invitations(table_id, user_id)

    async def check_join(self, table: Table, user_id: int, side: int | None) -> None:
        """Refuse a member who was not invited a seat or side held for someone else:
        InvitationError seats_held or side_held."""
        held = [row for row in await self._repo.invitations(table.id) if row.user_id != user_id]
        if not held:
            return
        if side is not None and any(row.side == side for row in held):
            raise InvitationError("side_held", names=[row.name for row in held])
        seated = table.seat_of(user_id) is not None
        if not seated and len(table.seats) + len(held) >= table.engine.max_players:
            raise InvitationError("seats_held", names=[row.name for row in held])

    async def check_computer(self, table: Table) -> None:
        """Refuse a computer player a seat held for an invited member:
        InvitationError("seats_held")."""
        held = await self._repo.invitations(table.id)
        if held and len(table.seats) + len(held) >= table.engine.max_players:
            raise InvitationError("seats_held", names=[row.name for row in held])

    async def check_start(self, table_id: int) -> None:
        """InvitationError("pending") while seats are held."""
        held = await self._repo.invitations(table_id)
        if held:
            raise InvitationError("pending", names=[row.name for row in held])

    # -- rematch ---------------------------------------------------------------------------

    async def rematch_of(self, table_id: int) -> int | None:
        """The rematch opened for a table (not cancelled), if any."""
        return await self._repo.rematch_of(table_id)

    async def open_rematch(self, old: Table, user_id: int, name: str) -> tuple[
            Table, list[InvitationRow]]:
        """A new lobby in `old`'s place, hosted by `user_id` (a member who played it), with
        its options and rules, its computers seated and its other members invited.
        InvitationError: not_finished, not_player, rematch_exists (table_id); TableError
        from open_table (channel_busy, lobby_limit, server_full)."""
        if old.status != "finished":
            raise InvitationError("not_finished")
        seat = old.seat_of(user_id)
        if seat is None:
            raise InvitationError("not_player")
        existing = await self._repo.rematch_of(old.id)
        if existing is not None:
            raise InvitationError("rematch_exists", table_id=existing)
        eng, players = old.engine, len(old.seats)
        defaults = eng.default_options(players)
        chosen = {k: v for k, v in old.options.items()
                  if k != "players" and defaults.get(k) != v}
        table = await self.service.open_table(
            old.guild_id, old.channel_id, old.game, chosen, user_id, name,
            thread_id=old.thread_id, side=old.seats[seat].side,
            deadline_seconds=old.deadline_seconds, absence_rule=old.absence_rule,
            hints=old.hints, one_per_host=True)
        await self._repo.set_rematch_of(table.id, old.id)
        others: list[tuple[int, str, int | None]] = []
        for index, other in enumerate(old.seats):
            if index == seat:
                continue
            level = computer_level(other.user_id)
            if level is not None:
                table = await self.service.add_computer(table.id, user_id, level,
                                                        side=other.side)
            else:
                others.append((other.user_id, other.name, other.side))
        held = await self.invite(table.id, user_id, others) if others else []
        return table, held
