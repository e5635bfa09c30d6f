"""Turn deadlines, reminders and absent players. No Discord here.

- **Timers**: every seat in `table.to_act()` of a running table has one timer (table `timers`),
  keyed by (table, seat) and tied to the ply at which its decision began (`Table.since`).
  Every change of a table (start, play with its chance moves, expire, resign, cancel) re-syncs
  them in the same transaction as the move: a seat whose decision is new gets a fresh
  deadline (`now + deadline_seconds`) and reminder; a seat still deciding keeps its own (a
  6 nimmt! pick is not reset by another seat's pick); seats that need not act lose theirs.
- **Reminder**: once per decision, `max(25 % of the deadline, 30 s)` before it
  (`reminder_time`); `reminders_due(now)` hands each out once (it marks them sent first: a
  crash may lose a reminder but never sends two).
- **Expiry** (`expire`): the normal computer player's move (`engines.ai.choose_move`; a
  seeded random legal move if the game has no computer player yet, or if it fails or answers
  an illegal move) is played for the seat through the same path as `play` (one transaction:
  log, chance moves, results), and counts a miss. Moving yourself resets the count. At
  `max_misses` misses in a row the table's absence rule applies: **takeover** plays that
  miss's move and from then on the seat is played at once, inside whichever call made it
  have to act (no more deadlines for it); **forfeit** ends the table instead, as a resign of
  that seat (ranked last; the outcome also has `"forfeited": [seat]`).
- **No table stalls**: a seat that never moves is taken over or forfeits after at most
  `max_misses` deadlines; when every seat is taken over, the last expiry plays the game to
  its end.
- **Many processes**: a due timer is first *claimed* with a lease (`claim_timers`; on
  PostgreSQL `FOR UPDATE SKIP LOCKED`), so each fires in one process only; if that process
  dies, the lease runs out and another takes the timer over. The expiry itself commits only
  if the table's ply is unchanged, so a player who moves meanwhile wins.
- **Restarts**: everything is in the database. `DeadlineDispatcher` (one asyncio task)
  re-syncs the timers of all running tables when it starts, then sleeps until the next
  deadline or reminder, or until the service says the timers changed. Deadlines that passed
  while the bot was down expire at once.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import random
import socket
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, ParamSpec

from bot.storage import TableRepository, TimerRow
from bot.tables import pipeline
from bot.tables.errors import TableError
from bot.tables.models import MoveResult, Table
from bot.tables.pipeline import AI_LEVEL, auto_levels
from bot.tables.store import TableStore
from bot.tables.thinking import ComputerMoves

log = logging.getLogger(__name__)
P = ParamSpec("P")

LEASE = timedelta(seconds=60)  # how long a claimed timer is ours before others may take it

Timer = TimerRow  # table_id, seat, since_ply, started_at, deadline_at, remind_at, reminded


def process_name() -> str:
    """This process's name on the timers it claims (host, pid and a random part)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Reminder:
    """Seats of one table whose deadline is near (`reminders_due`)."""

    table: Table
    seats: list[int]
    deadlines: dict[int, datetime]


@dataclass(frozen=True)
class Expiry:
    """What `expire` did: `result` is the table after it, as `play` returns it; its first
    step is the move played for `seat` (`move`, None when the seat forfeited)."""

    result: MoveResult
    seat: int
    user_id: int
    move: str | None
    misses: int  # deadlines this seat has missed in a row, this one included
    missed: bool  # a deadline was missed (False: a taken-over seat played at once)
    taken_over: bool  # this miss made the computer take the seat over
    forfeited: bool  # this miss ended the table with the seat ranked last


def merge_reminders(reminders: list[Reminder]) -> list[Reminder]:
    """One reminder per table (the latest Table read), its seats in order."""
    by_table: dict[int, Reminder] = {}
    for r in reminders:
        old = by_table.get(r.table.id)
        if old is not None:
            r = Reminder(r.table, sorted({*old.seats, *r.seats}), {**old.deadlines, **r.deadlines})
        by_table[r.table.id] = r
    return list(by_table.values())


class TurnTimers:
    """The deadlines of running tables: reminders, expiries and the absence rule."""

    def __init__(self, store: TableStore, repo: TableRepository, rng: random.Random,
                 computer_moves: ComputerMoves) -> None:
        self.store, self._repo, self._rng = store, repo, rng
        self.computer_moves = computer_moves
        self.now = store.now

    def add_listener(self, listener: Callable[[], None]) -> None:
        """`listener()` is called after every committed change of the timers."""
        self.store.add_timer_listener(listener)

    def remove_listener(self, listener: Callable[[], None]) -> None:
        self.store.remove_timer_listener(listener)

    async def _resync(self, table: Table) -> MoveResult:
        """Commit no move, only the timers the table should have (a timer left over)."""
        return await self.store.commit(pipeline.change(table, self.now()), [])

    async def of_table(self, table_id: int) -> dict[int, Timer]:
        """The pending deadlines of a table by seat (to show them on the board)."""
        return {t.seat: t for t in await self._repo.get_timers(table_id)}

    async def next_due(self, now: datetime | None = None) -> datetime | None:
        """The earliest deadline or unsent reminder of any table (None: nothing pending).
        It may be before `now` (then something is due at once)."""
        return await self._repo.next_timer_time()

    async def claim_due(self, owner: str, now: datetime | None = None,
                        lease: timedelta = LEASE,
                        shards: tuple[int, tuple[int, ...]] | None = None) -> list[Timer]:
        """Due timers (deadline passed or reminder due), claimed for `owner` for `lease`:
        no other process gets them meanwhile. Pass each to `remind` or `expire`. `shards`:
        (count, ids) to take only the timers of tables in guilds of those shards."""
        now = now if now is not None else self.now()
        return await self._repo.claim_timers(now, now + lease, owner, shards=shards)

    async def release(self, timer: Timer, owner: str, retry_at: datetime | None = None) -> None:
        """Give a claimed timer back (not due again before `retry_at`, if given)."""
        await self._repo.release_timer(timer.table_id, timer.seat, owner, retry_at)
        self.store.timers_changed()

    async def remind(self, timer: Timer) -> Reminder | None:
        """Mark the reminder of a claimed timer sent (once per decision) and say whom to
        remind; None if it was sent already or the decision is over."""
        if timer.reminded or timer.remind_at is None:
            return None
        if not await self._repo.mark_reminded(timer.table_id, timer.seat, timer.since_ply):
            return None
        try:
            table = await self.store.get(timer.table_id)
        except TableError:
            return None
        if timer.seat not in table.to_act() or table.since.get(timer.seat) != timer.since_ply:
            return None
        return Reminder(table, [timer.seat], {timer.seat: timer.deadline_at})

    async def reminders_due(self, now: datetime | None = None) -> list[Reminder]:
        """Reminders due now, one per table, each handed out once (marked sent here)."""
        now = now if now is not None else self.now()
        owner = process_name()
        reminders = []
        for timer in await self.claim_due(owner, now):
            if timer.deadline_at > now:
                reminder = await self.remind(timer)
                if reminder is not None:
                    reminders.append(reminder)
            await self.release(timer, owner)
        return merge_reminders(reminders)

    async def expired(self, now: datetime | None = None) -> list[Timer]:
        """Timers whose deadline has passed, earliest first (not claimed: for tests and
        tools; the dispatcher claims them)."""
        now = now if now is not None else self.now()
        rows = []
        for table_id in await self._repo.running_table_ids():
            rows += [t for t in await self._repo.get_timers(table_id) if t.deadline_at <= now]
        return sorted(rows, key=lambda t: (t.deadline_at, t.table_id, t.seat))

    async def restore_timers(self, now: datetime | None = None,
                             shards: tuple[int, tuple[int, ...]] | None = None) -> int:
        """At startup: give every running table's acting seats a timer if they lack one
        (tables from before deadlines existed, or a crash). With `shards` (count, ids), only
        the tables of this process's guilds: each process of a cluster restores its own.
        Returns the running tables looked at."""
        table_ids = await self._repo.running_table_ids(shards)
        for table_id in table_ids:
            try:
                table = await self.store.get(table_id)
                if set(table.timers) != set(table.to_act()):
                    await self.store.changing(table_id, self._resync)
            except Exception:
                log.exception("timers of table %s could not be restored", table_id)
        self.store.timers_changed()
        return len(table_ids)

    # -- absent players --------------------------------------------------------------------

    async def expire(
        self, table_id: int, seat: int, now: datetime | None = None
    ) -> Expiry | None:
        """The deadline of `seat` passed: play for it and apply the absence rule (module
        docstring). None if that deadline is not (or no longer) due: the seat moved, the
        table ended, or the timer was already handled."""
        now = now if now is not None else self.now()
        try:
            table = await self.store.get(table_id)
        except TableError:
            return None
        timer = table.timers.get(seat)
        if timer is None or timer.deadline_at > now:
            return None
        if table.status != "running" or seat not in table.to_act() or \
                timer.since_ply != table.since.get(seat):
            await self.store.changing(table_id, self._resync)  # a timer left over
            return None
        auto = auto_levels(table)
        was_taken = seat in auto
        misses = table.misses.get(seat, 0) + (0 if was_taken else 1)
        limit = not was_taken and misses >= table.max_misses
        forfeit = limit and table.absence_rule == "forfeit"
        # the computer thinks before the lock is taken, from the seat's view only
        move = None if forfeit else await self.computer_moves.move(
            table, seat, auto.get(seat, AI_LEVEL))

        async def build(current: Table) -> MoveResult | None:
            if current.ply != table.ply or current.status != "running":
                return None  # the player (or another process) moved first
            absence = {seat: (misses, was_taken or (limit and not forfeit))}
            if forfeit:
                outcome = current.engine.resigned_outcome(current.state, seat)
                outcome["forfeited"] = [seat]
                made = pipeline.change(current, self.now(), outcome=outcome, absence=absence)
                return await self.store.commit(made, [])
            assert move is not None
            moved = pipeline.advance(current, seat, current.engine.read_move(move), self._rng,
                                     auto=True)
            made = pipeline.change(current, self.now(), steps=moved.steps, state=moved.state,
                                   since=moved.since, absence=absence)
            return await self.store.commit(made, moved.steps)

        result = await self.store.changing(table_id, build)
        if result is None:
            return None
        user_id = table.seats[seat].user_id
        return Expiry(result, seat, user_id, move, misses, not was_taken, limit, forfeit)


# Plain or async: what they return is awaited when it is awaitable.
OnExpire = Callable[[Expiry], object]
OnRemind = Callable[[Table, list[int]], object]


class DeadlineDispatcher:
    """One task over the timers table (RoboDanny's reminder dispatcher): sleeps until the
    next deadline or reminder, or until the service's timers change, then hands out due
    reminders (`on_remind(table, seats)`) and expires due deadlines (`on_expire(expiry)`).

    `now` (default: the service's clock) and `sleep` (default asyncio.sleep) are injected so
    tests run in simulated time. Callbacks may be plain functions or coroutines; an error in
    one is logged and the dispatcher goes on. A deadline whose expiry fails is retried after
    `retry` seconds, so one broken table cannot spin the loop.
    """

    def __init__(
        self,
        timers: TurnTimers,
        on_expire: OnExpire,
        on_remind: OnRemind,
        *,
        now: Callable[[], datetime] | None = None,
        sleep: Callable[[float], Awaitable[object]] | None = None,
        max_sleep: float = 3600.0,
        retry: float = 60.0,
        shards: tuple[int, tuple[int, ...]] | None = None,
    ) -> None:
        self._timers = timers
        self._on_expire = on_expire
        self._on_remind = on_remind
        self._now = now if now is not None else timers.now
        self._sleep = sleep if sleep is not None else asyncio.sleep
        self._max_sleep = max_sleep
        self._retry = timedelta(seconds=retry)
        self._owner = process_name()
        self.shards = shards  # (count, ids): only these shards' guilds (a shard cluster)
        self._woken = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> asyncio.Task[None]:
        """Start the task (it first restores the timers of every running table)."""
        if not self.running:
            self._timers.add_listener(self.wake)
            self._task = asyncio.create_task(self._run(), name="deadline-dispatcher")
        assert self._task is not None
        return self._task

    def wake(self) -> None:
        """Look at the timers again now (the service calls this when they change)."""
        self._woken.set()

    async def stop(self) -> None:
        self._timers.remove_listener(self.wake)
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass

    async def _call(self, callback: Callable[P, object], *args: P.args, **kwargs: P.kwargs
                    ) -> None:
        try:
            result = callback(*args, **kwargs)
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("deadline callback %r failed", callback)

    async def run_due(self) -> int:
        """One pass: claim the due timers, send their reminders, expire their deadlines.
        Returns the expiries. A claim is released when handled; a failed expiry is retried
        after `retry`."""
        now = self._now()
        done = 0
        claimed = await self._timers.claim_due(self._owner, now, shards=self.shards)
        reminders = []
        for timer in claimed:
            retry_at = None
            try:
                if timer.deadline_at > now:
                    reminder = await self._timers.remind(timer)
                    if reminder is not None:
                        reminders.append(reminder)
                else:
                    expiry = await self._timers.expire(timer.table_id, timer.seat, now)
                    if expiry is not None:
                        done += 1
                        await self._call(self._on_expire, expiry)
            except Exception:
                log.exception("deadline of table %s seat %s failed", timer.table_id, timer.seat)
                retry_at = now + self._retry
            await self._timers.release(timer, self._owner, retry_at)
        for reminder in merge_reminders(reminders):
            await self._call(self._on_remind, reminder.table, reminder.seats)
        return done

    async def _wait(self, delay: float | None) -> None:
        """Until `delay` seconds passed (None: forever) or someone calls wake()."""
        waker = asyncio.ensure_future(self._woken.wait())
        waits: set[asyncio.Future[Literal[True]] | asyncio.Future[object]] = {waker}
        if delay is not None:
            waits.add(asyncio.ensure_future(self._sleep(delay)))
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for each in waits:
                each.cancel()

    async def _run(self) -> None:
        await self._timers.restore_timers(self._now(), self.shards)
        while True:
            self._woken.clear()  # changes from here on wake the wait below
            try:
                await self.run_due()
                next_at = await self._timers.next_due()
            except Exception:
                log.exception("the deadline dispatcher failed; retrying")
                await self._wait(self._retry.total_seconds())
                continue
            if next_at is None:
                await self._wait(None)
                continue
            delay = (next_at - self._now()).total_seconds()
            if delay > 0:
                await self._wait(min(delay, self._max_sleep))
