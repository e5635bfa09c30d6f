"""The table service: lobbies, seats, turns, chance draws and persistence; no Discord here.

The move log is the truth: a table's `state` is rebuilt by replaying its log through the engine
(`get`, `running_tables`); an in-memory replay is reused only while the stored log still starts
with the log it was built from. Each change is one database transaction, committed before the
method returns. Moves on one table run one at a time (an asyncio.Lock per table id).

Decisions (see also CONTRACT.md):
- **Staleness** and **resign**: see `bot/tables/turns.py`.
- **Lobby options**: the lobby keeps only the options the host set (never "players"); they
  must suit at least one allowed seat count. At start they are merged over
  `default_options(n)` (defaults like Varanasi's colours depend on n) and checked again with
  `eng.new(n, options)`; the table's `options` is then the engine's full option dict.
- **Sides**: only for games with a fixed seat count (min = max players: cows_leopards, senet):
  `side` asks for that seat (cows_leopards: 0 cows, 1 leopards). If any seat chose a side, start
  keeps the chosen seats and fills the others in join order instead of shuffling.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.storage import PlaceTaken, Repository, ResultRow, SeatRow, StandingRow, TableRow
from bot.tables import computers, ratings, turns
from bot.tables.deadlines import AI_BUDGET, DeadlineMixin, auto_levels, computer_move, move_seed
from bot.tables.errors import TableError, reason_params
from bot.tables.models import MoveResult, PlayerStats, Seat, Standing, Step, Table
from engines import CHANCE, Engine, get_engine

log = logging.getLogger(__name__)

_MAX_CHANCE_STEPS = 10_000  # a runaway engine must not hang the bot


@dataclass(frozen=True)
class _Replay:
    """A position reached by replaying `log`, and the seats' decision starts there."""

    log: tuple[tuple[int, str], ...]
    state: Any
    since: dict[int, int]


def _now() -> datetime:
    return datetime.now(UTC)


def _engine(game: str) -> Engine:
    try:
        return get_engine(game)
    except ValueError as err:
        raise TableError("bad_options", **reason_params(err)) from err


class TableService(DeadlineMixin):
    """The API of CONTRACT.md. `rng` draws chance moves and seat shuffles; `now` is the
    clock (UTC datetimes; tests inject simulated time). Deadlines: deadlines.py."""

    def __init__(
        self,
        repo: Repository,
        rng: random.Random | None = None,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self._repo = repo
        self._rng = rng if rng is not None else random.Random()
        self._clock = now if now is not None else _now
        self._locks: dict[int, asyncio.Lock] = {}
        self._replays: dict[int, _Replay] = {}
        self._timer_listeners: list[Callable[[], None]] = []

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    # -- loading ---------------------------------------------------------------------------

    async def get(self, table_id: int) -> Table:
        """The table with its state rebuilt from the stored log; TableError("not_found")."""
        loaded = await self._repo.load_table(table_id)
        if loaded is None:
            raise TableError("not_found", table_id=table_id)
        row, seat_rows, moves = loaded
        seats = [Seat(s.user_id, s.name, s.side) for s in seat_rows]
        eng = get_engine(row.game)
        state, since, options = None, {}, row.options
        if row.started_at is None:
            options = self._preview_options(eng, row.options, len(seats))
        else:
            replay = self._replay(row, eng, len(seats), moves)
            state, since = replay.state, dict(replay.since)  # a copy: callers may not share
        return Table(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            thread_id=row.thread_id,
            game=row.game,
            options=options,
            chosen_options=row.options if row.started_at is None else {},
            host_id=row.host_id,
            status=row.status,
            seats=seats,
            state=state,
            log=list(moves),
            posted_ply=row.posted_ply,
            posted_final=row.posted_final,
            message_id=row.message_id,
            created_at=row.created_at,
            started_at=row.started_at,
            finished_at=row.finished_at,
            outcome=row.outcome,
            since=since,
            deadline_seconds=row.deadline_seconds or 86400,
            absence_rule=row.absence_rule or "takeover",
            max_misses=row.max_misses or 3,
            misses={s.position: s.misses for s in seat_rows if s.misses},
            taken_over=frozenset(s.position for s in seat_rows if s.taken_over),
            hints=row.hints,
        )

    def _replay(
        self, row: TableRow, eng: Engine, players: int, moves: Sequence[tuple[int, str]]
    ) -> _Replay:
        moves = tuple(moves)
        cached = self._replays.get(row.id)
        if cached is not None and moves[: len(cached.log)] == cached.log:
            state, since, done = cached.state, cached.since, len(cached.log)
        else:
            state = eng.new(players, row.options)
            since, done = turns.next_since(eng, state, {}, 0, None), 0
        for ply, (actor, move) in enumerate(moves[done:], start=done + 1):
            state = eng.apply(state, actor, move)
            since = turns.next_since(eng, state, since, ply, actor)
        replay = _Replay(moves, state, since)
        if row.status == "running":  # only running tables change; keep memory to those
            self._replays[row.id] = replay
        else:
            self._replays.pop(row.id, None)
        return replay

    @staticmethod
    def _preview_options(eng: Engine, chosen: dict[str, Any], seats: int) -> dict[str, Any]:
        """A lobby's full options as they would be if it started with `seats` (clamped)."""
        players = min(max(seats, eng.min_players), eng.max_players)
        return {**eng.default_options(players), **chosen, "players": players}

    async def active_in_channel(self, channel_id: int) -> Table | None:
        """The lobby or running table in that channel or thread, or None."""
        table_id = await self._repo.active_table_id(channel_id)
        return await self.get(table_id) if table_id is not None else None

    async def _rebuild_all(self, table_ids: list[int]) -> list[Table]:
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
        return await self._rebuild_all(await self._repo.running_table_ids())

    @staticmethod
    def refusal(table: Table, user_id: int, turn: int | None = None) -> TableError | None:
        """Why `play(table.id, user_id, <move>, turn)` would be refused before the move
        itself is checked, or None: lets a component refuse before asking for a move."""
        return turns.refusal(table, user_id, turn)

    async def unposted_tables(self, finished_within: timedelta = timedelta(days=1)) -> list[Table]:
        """Tables whose latest board is committed but not posted (`needs_post`): for restart
        recovery, including games that finished (by a move or a resign) shortly before."""
        ids = await self._repo.unposted_table_ids(self.now() - finished_within)
        return [table for table in await self._rebuild_all(ids) if table.needs_post]

    def legal_moves_for(self, table: Table, user_id: int) -> list[str]:
        """The moves that user may make now; [] if they need not act."""
        seat = table.seat_of(user_id)
        if seat is None or seat not in table.to_act():
            return []
        return table.engine.legal_moves(table.state, seat)

    # -- lobby -----------------------------------------------------------------------------

    @staticmethod
    def _check_side(eng: Engine, side: int | None) -> None:
        if side is None:
            return
        fixed = eng.min_players == eng.max_players
        if not fixed or isinstance(side, bool) or side not in range(eng.max_players):
            raise TableError("bad_side", side=side)

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        options: dict[str, Any] | None,
        host_id: int,
        host_name: str,
        thread_id: int | None = None,
        side: int | None = None,
        deadline_seconds: int | None = None,
        absence_rule: str | None = None,
        hints: bool = False,
    ) -> Table:
        """A new lobby with the host seated (optionally on `side`). `deadline_seconds` (one
        of deadlines.PRESETS) and `absence_rule` ("takeover"/"forfeit"): None = the
        server's /settings; TableError("bad_setting")."""
        eng = _engine(game)
        rules = await self._table_rules(guild_id, deadline_seconds, absence_rule)
        chosen = {k: v for k, v in (options or {}).items() if k != "players"}
        problems = []
        for players in range(eng.min_players, eng.max_players + 1):
            try:
                eng.new(players, chosen)
                break
            except ValueError as err:
                problems.append(err)
        else:
            raise TableError("bad_options", **reason_params(problems[0]))
        self._check_side(eng, side)
        try:  # a unique index keeps one active table per place, even across processes
            async with self._repo.transaction():
                table_id = await self._repo.insert_table(
                    guild_id, channel_id, thread_id, game, chosen, host_id, self.now()
                )
                await self._repo.set_table_absence_rules(table_id, *rules)
                if hints:
                    await self._repo.set_table_hints(table_id, True)
                await self._repo.add_seat(table_id, host_id, host_name, side)
        except PlaceTaken as err:
            raise TableError("channel_busy") from err
        return await self.get(table_id)

    async def _lobby(self, table_id: int) -> Table:
        table = await self.get(table_id)
        if table.status != "lobby":
            raise TableError("not_lobby")
        return table

    async def join(
        self, table_id: int, user_id: int, name: str, side: int | None = None
    ) -> Table:
        """Seat a user; a seated user may pass `side` again to change it."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            eng = table.engine
            self._check_side(eng, side)
            seat = table.seat_of(user_id)
            if seat is not None and (side is None or side == table.seats[seat].side):
                raise TableError("already_seated")
            if seat is None and len(table.seats) >= eng.max_players:
                raise TableError("table_full", max=eng.max_players)
            if side is not None and any(
                s.side == side and s.user_id != user_id for s in table.seats
            ):
                raise TableError("side_taken", side=side)
            if seat is None:
                await self._repo.add_seat(table_id, user_id, name, side)
            else:
                await self._repo.set_seat_side(table_id, user_id, side)
            return await self.get(table_id)

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Leave a lobby; the host leaving cancels it."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is None:
                raise TableError("not_seated")
            if user_id == table.host_id:
                await self._repo.cancel_table(table_id, self.now())
            else:
                await self._repo.remove_seat(table_id, user_id)
            return await self.get(table_id)

    @staticmethod
    def _result_name(seat: Seat) -> str:
        level = computers.computer_level(seat.user_id)
        return seat.name if level is None else computers.computer_name(level)

    async def add_computer(
        self, table_id: int, user_id: int, level: str, side: int | None = None
    ) -> Table:
        """Seat a computer player of `level` (host only, in the lobby; optionally on a
        `side`). TableError: not_host, not_lobby, bad_level, table_full, bad_side,
        side_taken."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            if user_id != table.host_id:
                raise TableError("not_host")
            if level not in computers.LEVELS:
                raise TableError("bad_level", level=level)
            eng = table.engine
            self._check_side(eng, side)
            if len(table.seats) >= eng.max_players:
                raise TableError("table_full", max=eng.max_players)
            if side is not None and any(s.side == side for s in table.seats):
                raise TableError("side_taken", side=side)
            taken = {s.user_id for s in table.seats}
            await self._repo.add_seat(table_id, computers.seat_user_id(level, taken),
                                      computers.computer_name(level), side)
            return await self.get(table_id)

    async def remove_computer(
        self, table_id: int, user_id: int, level: str | None = None
    ) -> Table:
        """Remove the last computer seat added (of `level` if given): host only, in the
        lobby. TableError: not_host, not_lobby, not_seated (no such computer)."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            if user_id != table.host_id:
                raise TableError("not_host")
            found = [s.user_id for s in table.seats
                     if computers.computer_level(s.user_id) is not None
                     and (level is None or computers.computer_level(s.user_id) == level)]
            if not found:
                raise TableError("not_seated")
            await self._repo.remove_seat(table_id, found[-1])
            return await self.get(table_id)

    async def hint(self, table_id: int, user_id: int, turn: int | None = None) -> str:
        """The hard computer player's suggestion for the user's seat, from that seat's view
        only. TableError("no_hints") unless the table allows hints; else the refusals of
        `play` (not_running, finished, not_seated, not_your_turn, stale)."""
        table = await self.get(table_id)
        if table.status == "running" and not table.hints:
            raise TableError("no_hints")
        refusal = self.refusal(table, user_id, turn)
        if refusal is not None:
            raise refusal
        if not table.hints:
            raise TableError("no_hints")
        seat = table.seat_of(user_id)
        assert seat is not None
        level = computers.HINT_LEVEL
        seed = move_seed(table.id, table.ply, seat) + 7  # not the same draw as an auto move
        budget = computers.BUDGETS.get(level, AI_BUDGET)
        return await asyncio.to_thread(computer_move, table.engine, table.state, seat, seed,
                                       level, budget)

    async def cancel(self, table_id: int, user_id: int, can_manage: bool = False) -> Table:
        """Cancel a lobby or a running game (no results): the host, or Manage Messages."""
        async with self._lock(table_id):
            table = await self.get(table_id)
            if table.status == "finished":
                raise TableError("finished")
            if table.status == "cancelled":
                raise TableError("not_running")
            if user_id != table.host_id and not can_manage:
                raise TableError("not_allowed")
            now = self.now()
            async with self._repo.transaction():
                await self._repo.cancel_table(table_id, now)
                await self._sync_timers(table_id, now)
            self._timers_changed()
            return await self.get(table_id)

    def _turn_order(self, seats: list[Seat], shuffle: bool) -> list[Seat]:
        if any(s.side is not None for s in seats):
            order: list[Seat | None] = [None] * len(seats)
            for s in seats:
                if s.side is not None:
                    order[s.side] = s
            rest = iter(s for s in seats if s.side is None)
            return [s if s is not None else next(rest) for s in order]
        order = list(seats)
        if shuffle:
            self._rng.shuffle(order)
        return order

    async def start(self, table_id: int, user_id: int, shuffle: bool = True) -> MoveResult:
        """Start a lobby (host only), drawing the opening chance moves."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            if user_id != table.host_id:
                raise TableError("not_host")
            eng, players = table.engine, len(table.seats)
            if not eng.min_players <= players <= eng.max_players:
                raise TableError(
                    "bad_seat_count", min=eng.min_players, max=eng.max_players, seats=players
                )
            options = {**eng.default_options(players), **table.chosen_options, "players": players}
            try:
                state = eng.new(players, options)
            except ValueError as err:
                raise TableError("bad_options", **reason_params(err)) from err
            seats = self._turn_order(table.seats, shuffle)
            steps, state = self._draw_chance(eng, state)
            now = self.now()
            started = replace(
                table,
                options=eng.dump(state)["options"],
                chosen_options={},
                status="running",
                seats=seats,
                started_at=now,
            )
            # computer seats that must act play at once (computers.py)
            more, state = await self._auto_steps(started, state, len(steps),
                                                 auto_levels(started))
            steps += more
            outcome = eng.outcome(state)
            async with self._repo.transaction():
                await self._repo.replace_seats(
                    table_id,
                    [SeatRow(i, s.user_id, s.name, s.side) for i, s in enumerate(seats)],
                )
                await self._repo.start_table(table_id, started.options, now)
                await self._record(started, steps, outcome, now)
                await self._sync_timers(table_id, now)
            self._timers_changed()
            return await self._result(table_id, steps)

    # -- play ------------------------------------------------------------------------------

    def _draw_chance(self, eng: Engine, state: Any) -> tuple[list[Step], Any]:
        """Apply chance moves while chance must act; returns them as steps."""
        steps = []
        while eng.to_act(state) == [CHANCE]:
            if len(steps) >= _MAX_CHANCE_STEPS:
                raise RuntimeError(f"{eng.id}: chance keeps acting")
            move = eng.sample_chance(state, self._rng)
            state, events = eng.apply_events(state, CHANCE, move)
            steps.append(Step(CHANCE, move, events))
        return steps, state

    async def play(
        self, table_id: int, user_id: int, move: str, turn: int | None = None
    ) -> MoveResult:
        """Apply one move for the user's seat, then the chance moves that follow."""
        async with self._lock(table_id):
            table = await self.get(table_id)
            refusal = self.refusal(table, user_id, turn)
            if refusal is not None:
                raise refusal
            eng, seat = table.engine, table.seat_of(user_id)
            move = turns.clean_move(move)
            try:
                state, events = eng.apply_events(table.state, seat, move)
            except ValueError as err:  # IllegalMove, or a move string the engine cannot read
                raise TableError("illegal", move=move, **reason_params(err)) from err
            chance, state = self._draw_chance(eng, state)
            steps = [Step(seat, move, events), *chance]
            # seats the computer has taken over play at once when they must act (deadlines.py)
            more, state = await self._auto_steps(
                table, state, table.ply + len(steps), auto_levels(table)
            )
            steps += more
            now = self.now()
            async with self._repo.transaction():
                if table.misses.get(seat):  # moving yourself resets the missed deadlines
                    await self._repo.set_seat_absence(
                        table_id, seat, 0, seat in table.taken_over
                    )
                await self._record(table, steps, eng.outcome(state), now)
                await self._sync_timers(table_id, now)
            self._timers_changed()
            return await self._result(table_id, steps)

    async def resign(self, table_id: int, user_id: int) -> MoveResult:
        """Resign: the table ends with the resigner last (module docstring, "Resign")."""
        async with self._lock(table_id):
            table = await self._running(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            outcome = turns.resigned_outcome(table.engine, table.state, seat, len(table.seats))
            now = self.now()
            async with self._repo.transaction():
                await self._record(table, [], outcome, now)
                await self._sync_timers(table_id, now)
            self._timers_changed()
            return await self._result(table_id, [])

    async def _running(self, table_id: int) -> Table:
        table = await self.get(table_id)
        if table.status == "finished":
            raise TableError("finished")
        if table.status != "running":
            raise TableError("not_running")
        return table

    async def _result(self, table_id: int, steps: list[Step]) -> MoveResult:
        table = await self.get(table_id)
        return MoveResult(table, steps, table.to_act(), table.status == "finished")

    async def _record(
        self, table: Table, steps: list[Step], outcome: dict[str, Any] | None, now: datetime
    ) -> None:
        """Inside a transaction: append the steps; if the game is over, finish and rate it."""
        if steps:
            moves = [(s.actor, s.move) for s in steps]
            await self._repo.append_moves(table.id, table.ply, moves, now)
        if outcome is None:
            return
        outcome = {**outcome, "resigned": list(outcome.get("resigned", []))}
        await self._repo.finish_table(table.id, outcome, now)
        scores = outcome.get("scores") or [None] * len(table.seats)
        await self._repo.insert_results(
            [
                ResultRow(
                    table_id=table.id,
                    seat=i,
                    guild_id=table.guild_id,
                    game=table.game,
                    user_id=computers.result_user_id(s.user_id),
                    name=self._result_name(s),
                    rank=outcome["ranks"][i],
                    score=scores[i],
                    resigned=i in outcome["resigned"],
                    finished_at=now,
                )
                for i, s in enumerate(table.seats)
            ]
        )
        if table.hints:  # a table with hints is unrated
            return
        users = [computers.result_user_id(s.user_id) for s in table.seats]
        before = await self._repo.get_ratings(table.guild_id, table.game, users)
        after = ratings.rate([before.get(u) for u in users], outcome["ranks"])
        new = dict(zip(users, after, strict=True))
        await self._repo.put_ratings(table.guild_id, table.game, new, now)

    async def mark_posted(self, table_id: int, ply: int, message_id: int | None) -> None:
        """The board for `ply` is posted as `message_id`; `posted_ply` never goes back."""
        await self._repo.mark_posted(table_id, ply, message_id)

    # -- standings -------------------------------------------------------------------------

    @staticmethod
    def _standing(row: StandingRow) -> Standing:
        rating = ratings.ordinal(row.mu, row.sigma) if row.mu is not None else None
        return Standing(
            user_id=row.user_id,
            name=row.name,
            game=row.game,
            games=row.games,
            wins=row.wins,
            average_rank=row.average_rank,
            rating=rating,
            mu=row.mu,
            sigma=row.sigma,
        )

    async def leaderboard(
        self, guild_id: int, game: str | None = None, limit: int = 10
    ) -> list[Standing]:
        """Best first: by rating for one game; over all games by wins, then games played."""
        if game is None:
            rows = await self._repo.overall_standings(guild_id, limit)
            return [self._standing(row) for row in rows]
        rows = [self._standing(row) for row in await self._repo.game_standings(guild_id, game)]
        rows.sort(key=lambda r: (-(r.rating or 0.0), -r.wins, r.average_rank, r.user_id))
        return rows[:limit]

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A player's record in the guild, per game and in total (zeros if none)."""
        by_game = [self._standing(r) for r in await self._repo.user_standings(guild_id, user_id)]
        games = sum(s.games for s in by_game)
        return PlayerStats(
            user_id=user_id,
            name=by_game[0].name if by_game else None,
            games=games,
            wins=sum(s.wins for s in by_game),
            average_rank=(
                sum(s.average_rank * s.games for s in by_game) / games if games else None
            ),
            by_game=by_game,
        )
