"""The table store: a table loaded once per change and kept by this process, and every change
committed only if the table's ply is unchanged.

The move log is the truth: a table's `state` is rebuilt by replaying its log; the store
keeps the replay of each running table and, on the next load, reads and applies only the
moves added since (the log is append-only; an accepted take-back is an entry of its own
that returns to the position before the move it takes back: takeback.py).
`changing(table_id, build)` loads the table under its lock, lets `build` make the change
and `commit` it; a commit refused because another process moved first is retried from a
fresh load, where the usual refusals (stale button, not your turn) apply. A table whose
log no longer replays is marked broken.

In a cluster, every process hears each table change committed by any process (ChangeFeed,
bot/storage/changes.py): a copy made old is dropped, and read again at once where members
type /move here; while the process cannot hear, it trusts no copy and reads the database.

The commit of a move also claims the posting of its board for this process (`owner`, for
POSTING_LEASE), in the same statement; the store remembers the claims it holds, so the
board of a move committed here is posted without another round trip (`claim_posting`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.storage import LoadedTable, TableRepository
from bot.storage.driver import ChangeFeed, from_row, player_answered
from bot.tables import pipeline, takeback
from bot.tables.errors import TableError, reason_params
from bot.tables.models import MoveResult, Seat, Step, Table
from engines import Engine, get_engine
from engines.base import Options

log = logging.getLogger(__name__)

COMMIT_ATTEMPTS = 5  # reloads after another process moved first, before giving up
# How long a claim to post a table's board is this process's: far beyond a post's few
# seconds; a process that dies holding it delays that board by at most this (the sweeper).
POSTING_LEASE = timedelta(seconds=30)


class _Moved(Exception):
    """The table's ply changed between load and commit (another writer won)."""


@dataclass(frozen=True)
class _Replay:
    """A position reached by replaying the first `ply` moves, and the decision starts."""

    ply: int
    state: object
    since: dict[int, int]


def engine_of(game: str) -> Engine:
    try:
        return get_engine(game)
    except ValueError as err:
        raise TableError("bad_options", **reason_params(err)) from err


class TableStore:
    def __init__(self, repo: TableRepository, clock: Callable[[], datetime],
                 owner: str, changes: ChangeFeed | None = None) -> None:
        self._repo, self._clock = repo, clock
        self._locks: dict[int, asyncio.Lock] = {}
        self._replays: dict[int, _Replay] = {}
        self._logs: dict[int, list[tuple[int, str]]] = {}
        # The newest running Table this process loaded or committed, and where it is played:
        # a move starts from it (the commit's check catches a table changed elsewhere).
        self._current: dict[int, Table] = {}
        self._places: dict[int, int] = {}
        self._timer_listeners: list[Callable[[], None]] = []
        self._end_listeners: list[Callable[[Table], None]] = []
        self.owner = owner  # this process's name, on the posting claims it takes
        self._posting: dict[int, datetime] = {}  # table -> until when its posting is ours
        self._changes = changes  # None: no other process changes the tables
        self._refreshing: dict[int, asyncio.Future[None]] = {}  # copies being read again
        self._typed_at: set[int] = set()  # tables whose place asked this process (/move)
        self._stale: dict[int, Table] = {}  # copies made old, until read again (last_seen_in)
        if changes is not None:
            changes.add(self)

    def now(self) -> datetime:
        """The tables' clock (injected in tests)."""
        return self._clock()

    def add_end_listener(self, listener: Callable[[Table], None]) -> None:
        """`listener(table)` is called once a table this process changed has ended."""
        self._end_listeners.append(listener)

    def add_timer_listener(self, listener: Callable[[], None]) -> None:
        """`listener()` is called after every committed change of the timers."""
        self._timer_listeners.append(listener)

    def remove_timer_listener(self, listener: Callable[[], None]) -> None:
        if listener in self._timer_listeners:
            self._timer_listeners.remove(listener)

    def timers_changed(self) -> None:
        for listener in list(self._timer_listeners):
            listener()

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def forget(self, table_id: int) -> None:
        self._replays.pop(table_id, None)
        self._typed_at.discard(table_id)
        self._stale.pop(table_id, None)
        self._logs.pop(table_id, None)
        table = self._current.pop(table_id, None)
        if table is not None and self._places.get(table.place_id) == table_id:
            del self._places[table.place_id]
        lock = self._locks.get(table_id)
        if lock is not None and not lock.locked():
            del self._locks[table_id]

    # -- other processes' changes ---------------------------------------------------------

    def table_changed(self, table_id: int, ply: int, status: str) -> None:
        """A change committed by some process: a copy older than it is forgotten, and read
        again at once, before a member types (only the moves added since: the log's replay
        is kept), so that a busy database does not leave /move without suggestions."""
        known = self._current.get(table_id)
        if known is not None and (ply > known.ply or ply == known.ply and status != known.status):
            self._stale[table_id] = self._current.pop(table_id)
            # Only where members type: a copy kept for a DM pick is read when one comes.
            if table_id in self._typed_at and table_id not in self._refreshing:
                self._refreshing[table_id] = asyncio.ensure_future(self._refresh(table_id))

    async def _refresh(self, table_id: int) -> None:
        try:
            async with self.lock(table_id):  # never over a commit of this process's
                if table_id not in self._current:
                    await self.get(table_id)
        except Exception as err:  # the database is busy or down: the next reader reads
            log.debug("table %s: not read again after a change elsewhere (%r)", table_id, err)
        finally:
            self._refreshing.pop(table_id, None)

    async def keep_hearing(self) -> None:
        """Upkeep of the feed of other processes' changes (the sweeper's chore)."""
        if self._changes is not None:
            await self._changes.check()

    def lost_track(self) -> None:
        """Changes may have gone unheard: no copy is current any more."""
        self._stale.update(self._current)
        self._current.clear()

    def last_seen_in(self, channel_id: int | None) -> Table | None:
        """The running table there as this process last saw it, current or not (no database
        round trip): suggestions when the database cannot answer in time (a commit checks)."""
        table_id = None if channel_id is None else self._places.get(channel_id)
        if table_id is None:
            return None
        return self._current.get(table_id) or self._stale.get(table_id)

    def held(self, table_id: int) -> Table | None:
        """This process's current copy of a running table, if it may be trusted."""
        if self._changes is not None and not self._changes.hearing:
            return None
        return self._current.get(table_id)

    # -- loading ---------------------------------------------------------------------------

    async def get(self, table_id: int) -> Table:
        """The table as stored now, its state rebuilt from the log; TableError("not_found")."""
        known = self._logs.get(table_id)
        loaded = await self._repo.load_table(table_id, len(known) if known else 0)
        if loaded is None:
            raise TableError("not_found", table_id=table_id)
        if loaded.row.broken:
            raise TableError("broken", table_id=table_id)
        try:
            return self._build(loaded, known or [])
        except Exception as err:  # an engine that no longer accepts the stored log
            if known:  # perhaps only our cached replay is off: once more from the start
                self.forget(table_id)
                return await self.get(table_id)
            raise await self._broken(table_id, err) from err

    def _build(self, loaded: LoadedTable, known: list[tuple[int, str]]) -> Table:
        row, seat_rows = loaded.row, loaded.seats
        log_ = [*known[: loaded.first_ply], *loaded.moves]
        seats = [Seat(s.user_id, s.name, s.side) for s in seat_rows]
        eng = get_engine(row.game)
        state, since, options = None, {}, row.options
        if row.started_at is None:
            options = self._preview_options(eng, row.options, len(seats))
        else:
            replay = self._replay(row.id, row.options, eng, len(seats), log_)
            state, since = replay.state, dict(replay.since)  # a copy: callers may not share
        table = from_row(  # the rest as stored: ids, status, times, outcome, lobby message
            Table, vars(row),
            options=options,
            chosen_options=row.options if row.started_at is None else {},
            seats=seats,
            state=state,
            log=log_,
            since=since,
            deadline_seconds=row.deadline_seconds or 86400,
            absence_rule=row.absence_rule or "takeover",
            max_misses=row.max_misses or 3,
            misses={s.position: s.misses for s in seat_rows if s.misses},
            taken_over=frozenset(s.position for s in seat_rows if s.taken_over),
            timers={t.seat: t for t in loaded.timers},
        )
        self._remember(table)
        return table

    def _remember(self, table: Table) -> None:
        """Keep the replay and log of running tables only (others change no more)."""
        if table.status == "running" and table.state is not None:
            self._stale.pop(table.id, None)
            self._replays[table.id] = _Replay(table.ply, table.state, dict(table.since))
            self._logs[table.id] = list(table.log)
            self._current[table.id] = table
            self._places[table.place_id] = table.id
        else:
            self.forget(table.id)

    def _replay(self, table_id: int, options: Options, eng: Engine, players: int,
                moves: Sequence[tuple[int, str]]) -> _Replay:
        cached = self._replays.get(table_id)
        known = (takeback.Position(cached.ply, cached.state, cached.since)
                 if cached is not None else None)
        done = takeback.replay(eng, players, options, moves, known)  # take-backs included
        return _Replay(done.ply, done.state, done.since)

    @staticmethod
    def _preview_options(eng: Engine, chosen: Options, seats: int) -> Options:
        """A lobby's full options as they would be if it started with `seats` (clamped)."""
        players = min(max(seats, eng.min_players), eng.max_players)
        return {**eng.default_options(players), **chosen, "players": players}

    async def active_in_channel(self, channel_id: int | None) -> Table | None:
        """The lobby or running table in that channel or thread, or None (None too for no
        channel: a direct message)."""
        if channel_id is None:
            return None
        table_id = await self._repo.active_table_id(channel_id)
        return await self.get(table_id) if table_id is not None else None

    async def running_in_channel(self, channel_id: int | None) -> Table | None:
        """The running table there as this process holds it, current (no database round
        trip), else as stored: autocomplete, a move's first attempt."""
        table_id = None if channel_id is None else self._places.get(channel_id)
        refreshing = None if table_id is None else self._refreshing.get(table_id)
        if refreshing is not None:  # being read again already: one read, not two
            await asyncio.shield(refreshing)
        known = None if table_id is None else self.held(table_id)
        if known is not None:
            self._typed_at.add(known.id)
            return known
        table = await self.active_in_channel(channel_id)
        if table is None or table.status != "running":
            return None
        self._typed_at.add(table.id)
        return table

    async def rebuild_all(self, table_ids: list[int]) -> list[Table]:
        """Those tables; one that cannot be rebuilt from its log is logged and left out,
        so that one broken table does not stop a restart."""
        tables = []
        for table_id in table_ids:
            try:
                tables.append(await self.get(table_id))
            except Exception:
                log.exception("table %s could not be rebuilt from its log", table_id)
        return tables

    async def running_tables(self) -> list[Table]:
        """Every running table, rebuilt from its log."""
        return await self.rebuild_all(await self._repo.running_table_ids())

    async def unposted_tables(
        self, finished_within: timedelta = timedelta(days=1),
        guilds: Callable[[int], bool] | None = None, quiet_for: timedelta | None = None,
    ) -> list[Table]:
        """Tables whose latest board is committed but not posted (`needs_post`), including
        games that finished shortly before; only guilds for which `guilds(id)` is true, and
        with `quiet_for`, only tables that have not changed for that long."""
        now = self.now()
        quiet = now - quiet_for if quiet_for is not None else None
        found = await self._repo.unposted_tables(now - finished_within, quiet,
                                                 free_for=(now, self.owner))
        ids = [t for t, guild in found if guilds is None or guilds(guild)]
        return [table for table in await self.rebuild_all(ids) if table.needs_post]

    # -- committing ------------------------------------------------------------------------

    async def commit(self, change: pipeline.Change, steps: list[Step]) -> MoveResult:
        """Commit a change built from a loaded table; _Moved if its ply moved meanwhile. A
        change with a board to post claims its posting (unless another process holds it)."""
        commit, table = change.commit, change.table
        if table.status in ("running", "finished"):
            commit = replace(commit, posting=(self.owner, commit.at + POSTING_LEASE))
        committed = await self._repo.commit(commit)
        if committed is None:
            self.forget(change.table.id)  # reload from the database next time
            raise _Moved
        if committed.posting:
            self._posting[table.id] = commit.at + POSTING_LEASE
        else:
            self._posting.pop(table.id, None)
        self._remember(table)
        self.timers_changed()
        self._log_status(change)
        if table.status in ("finished", "cancelled"):
            for listener in list(self._end_listeners):
                listener(table)  # tournaments: a round may be over
        return MoveResult(table, steps, table.to_act(), table.status == "finished")

    @staticmethod
    def _log_status(change: pipeline.Change) -> None:
        """One log line when a table starts or finishes (opened, cancelled: elsewhere)."""
        table = change.table
        if change.commit.start is not None:
            log.info("table %s started: %s with %s seats", table.id, table.game,
                     len(table.seats))
        if table.status == "finished":
            log.info("table %s finished: %s after %s moves, ranks %s", table.id, table.game,
                     table.ply, (table.outcome or {}).get("ranks"))

    async def changing(
        self, table_id: int, build: Callable[[Table], Awaitable[MoveResult | None]]
    ) -> MoveResult | None:
        """Build and commit a change under the table's lock, from the table this process
        knows (one pass: no load); when another process changed it first, or the change is
        refused on what may be an old position, load it and build again (so refusals see
        the stored position)."""
        # Every change is made after its interaction was deferred (or by a timer).
        with player_answered():
            for _ in range(COMMIT_ATTEMPTS):
                async with self.lock(table_id):
                    known = self.held(table_id)
                    table = known if known is not None else await self.get(table_id)
                    try:
                        return await build(table)
                    except _Moved:
                        continue
                    except TableError:
                        if known is None:
                            raise
                        self.forget(table_id)  # refused on our copy: ask the database
                        continue
        raise TableError("stale")

    async def active_id_in_channel(self, place_id: int | None) -> int | None:
        """The id of the lobby or running table there, broken or not (no replay)."""
        return None if place_id is None else await self._repo.active_table_id(place_id)

    async def _broken(self, table_id: int, err: BaseException) -> TableError:
        """Mark a table whose log does not replay; the refusal to raise."""
        log.warning("table %s is broken: its log does not replay (%r); marked, it can only "
                    "be cancelled now", table_id, err)
        self.forget(table_id)
        await self._repo.mark_broken(table_id)
        self.timers_changed()
        return TableError("broken", table_id=table_id)

    async def claim_posting(self, table_id: int) -> bool:
        """Whether this process may post the table's board now: its claim, taken by the
        commit here (no round trip) or now; False while another process holds one."""
        now = self.now()
        until = self._posting.get(table_id)
        if until is not None and now < until:
            return True
        with player_answered():
            claimed = await self._repo.claim_posting(table_id, self.owner, now,
                                                     now + POSTING_LEASE)
        if claimed:
            self._posting[table_id] = now + POSTING_LEASE
        else:
            self._posting.pop(table_id, None)
        return claimed

    async def release_postings(self) -> None:
        """Give up every posting claim of this process (it stops): another process posts
        those boards at once instead of after the lease. Best effort: the lease remains."""
        if not self._posting:
            return
        self._posting.clear()
        try:
            await self._repo.release_postings(self.owner)
        except Exception as err:  # the database is down: the leases run out by themselves
            log.info("posting claims not released (%r)", err)

    async def mark_posted(self, table_id: int, ply: int, message_id: int | None) -> int | None:
        """The board for `ply` is posted as `message_id`; `posted_ply` never goes back. The
        posting claim is released, unless the table moved past `ply` (a move of another
        process): then it is kept, and that newer ply returned, whose board is ours to post."""
        with player_answered():
            newer = await self._repo.mark_posted(table_id, ply, message_id, self.owner)
        if newer is None:
            self._posting.pop(table_id, None)
        known = self._current.get(table_id)
        if known is not None and ply > known.posted_ply:
            self._current[table_id] = known.marked(posted_ply=ply,
                                                   message_id=message_id or known.message_id)
        return newer
