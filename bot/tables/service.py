"""The table service: lobbies, seats, turns, chance draws and persistence; no Discord here.

Composed of the table store (store.py: loading, the replay cache, commits with the ply
check and retry), the server settings (settings.py), the turn timers (deadlines.py) and the
upkeep of lobbies and limits (upkeep.py). Every change goes through one pipeline
(pipeline.py): load once, apply, commit only if the table's ply is unchanged, and hand the
Table built in memory on to timers and publishing. Computer moves are their own steps
(`computer_step`): thought out of the lock from the seat's view, applied only if nobody
moved meanwhile.

Decisions (see also CONTRACT.md):
- **Staleness** and **resign**: see `bot/tables/turns.py`.
- **Lobby options**: the lobby keeps only the options the host set (never "players"); they
  must suit at least one allowed seat count. At start they are merged over
  `default_options(n)` and checked again with `eng.new(n, options)`.
- **Sides**: only for games with a fixed seat count; if any seat chose a side, start keeps
  the chosen seats and fills the others in join order instead of shuffling.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.storage import Database, HostBusy, PlaceTaken, SeatRow, ServerFull, StandingRow
from bot.tables import computers, pipeline, ratings, turns
from bot.tables.deadlines import TurnTimers, process_name
from bot.tables.errors import TableError, reason_params
from bot.tables.models import MoveResult, PlayerStats, Seat, Standing, Table
from bot.tables.settings import ServerSettings
from bot.tables.store import COMMIT_ATTEMPTS, TableStore, engine_of
from bot.tables.takebacks import TakeBacks
from bot.tables.thinking import ComputerMoves, Think
from bot.tables.upkeep import Upkeep, check_move_text
from engines import Engine
from engines.base import Options

log = logging.getLogger(__name__)


def _now() -> datetime:
    return datetime.now(UTC)


class TableService:
    """The API of CONTRACT.md over the database's tables, results, settings and history.
    `rng` draws chance moves and seat shuffles; `now` is the clock (UTC datetimes; tests
    inject simulated time); `think` runs the computer player (default: in a thread). Its
    parts: `store`, `settings`, `timers`, `upkeep`, `takebacks`."""

    def __init__(
        self,
        db: Database,
        rng: random.Random | None = None,
        now: Callable[[], datetime] | None = None,
        think: Think | None = None,
    ) -> None:
        self._repo = repo = db.tables
        self._results, self._history = db.results, db.history
        self._rng = rng if rng is not None else random.Random()
        self.store = TableStore(repo, now if now is not None else _now, process_name(),
                                db.driver.changes)
        self.settings = ServerSettings(db.settings, self.store.now)
        self.computer_moves = ComputerMoves(think)
        self.timers = TurnTimers(self.store, repo, self._rng, self.computer_moves)
        self.upkeep = Upkeep(self.store, repo, self.settings)
        self.takebacks = TakeBacks(self.store)

    def now(self) -> datetime:
        return self.store.now()

    def add_end_listener(self, listener: Callable[[Table], None]) -> None:
        """`listener(table)` is called once a table this process changed has ended."""
        self.store.add_end_listener(listener)

    async def cancel(self, table_id: int, user_id: int, can_manage: bool = False,
                     lobby_only: bool = False) -> Table:
        """Cancel a lobby or a game (upkeep.py, "Cancel")."""
        return await self.upkeep.cancel(table_id, user_id, can_manage, lobby_only)

    # -- reading (the store's) ---------------------------------------------------------------

    async def get(self, table_id: int) -> Table:
        """The table as stored now, its state rebuilt from the log; TableError("not_found")."""
        return await self.store.get(table_id)

    async def current(self, table_id: int) -> Table:
        """The table as this process holds it when that copy is current (no database round
        trip), else as stored: what a click that only reads a table needs."""
        return self.store.held(table_id) or await self.store.get(table_id)

    async def active_in_channel(self, channel_id: int | None) -> Table | None:
        """The lobby or running table in that channel or thread, or None."""
        return await self.store.active_in_channel(channel_id)

    async def running_tables(self) -> list[Table]:
        """Every running table, rebuilt from its log."""
        return await self.store.running_tables()

    async def running_in_channel(self, channel_id: int | None) -> Table | None:
        """The running table there as this process last saw it (store.running_in_channel)."""
        return await self.store.running_in_channel(channel_id)

    def last_seen_in(self, channel_id: int | None) -> Table | None:
        """The running table there as last seen, current or not (store.last_seen_in)."""
        return self.store.last_seen_in(channel_id)

    async def unposted_tables(
        self, finished_within: timedelta = timedelta(days=1),
        guilds: Callable[[int], bool] | None = None, quiet_for: timedelta | None = None,
    ) -> list[Table]:
        """Tables whose latest board is committed but not posted (store.unposted_tables)."""
        return await self.store.unposted_tables(finished_within, guilds, quiet_for)

    async def claim_posting(self, table_id: int) -> bool:
        """Whether this process may post the table's board now (store.claim_posting): False
        while another process is posting it."""
        return await self.store.claim_posting(table_id)

    async def release_postings(self) -> None:
        """At shutdown: the posting claims this process holds (store.release_postings)."""
        await self.store.release_postings()

    async def mark_posted(self, table_id: int, ply: int, message_id: int | None) -> int | None:
        """The board for `ply` is posted as `message_id` (store.mark_posted): a newer ply
        whose board this process must post too, if another process moved meanwhile."""
        return await self.store.mark_posted(table_id, ply, message_id)

    @staticmethod
    def refusal(table: Table, user_id: int, turn: int | None = None) -> TableError | None:
        """Why `play(table.id, user_id, <move>, turn)` would be refused before the move
        itself is checked, or None: lets a component refuse before asking for a move."""
        return turns.refusal(table, user_id, turn)

    @staticmethod
    def legal_moves_for(table: Table, user_id: int) -> list[str]:
        """The moves that user may make now; [] if they need not act."""
        seat = table.seat_of(user_id)
        return [] if seat is None else table.legal_moves(seat)

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
        options: Options | None,
        host_id: int,
        host_name: str,
        thread_id: int | None = None,
        side: int | None = None,
        deadline_seconds: int | None = None,
        absence_rule: str | None = None,
        hints: bool = False,
        one_per_host: bool = False,
    ) -> Table:
        """A new lobby with the host seated (optionally on `side`). `deadline_seconds` (one
        of deadlines.PRESETS) and `absence_rule` ("takeover"/"forfeit"): None = the
        server's /settings; TableError("bad_setting"). `one_per_host` (a member's /play; not
        a tournament's tables): TableError("lobby_limit") if the host already has an open
        lobby in the server, TableError("server_full") if the server has its `max_tables`
        lobbies and running tables (both checked atomically as the lobby is written)."""
        eng = engine_of(game)
        settings = await self.settings.get(guild_id)
        rules = self.settings.table_rules(settings, deadline_seconds, absence_rule)
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
        max_active = settings.max_tables if one_per_host else None
        try:  # a unique index keeps one active table per place, even across processes
            table_id = await self._repo.open_lobby(
                guild_id, channel_id, thread_id, game, chosen,
                SeatRow(0, host_id, host_name, side), self.now(), rules, hints, one_per_host,
                max_active)
        except PlaceTaken as err:
            raise TableError("channel_busy") from err
        except HostBusy as err:
            raise await self.upkeep.lobby_limit(err.table_id) from err
        except ServerFull as err:
            raise TableError("server_full", max=err.limit) from err
        log.info("table %s opened: %s in guild %s, place %s, host %s", table_id, game,
                 guild_id, thread_id or channel_id, host_id)
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
        async with self.store.lock(table_id):
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
                if not await self._repo.add_seat(table_id, user_id, name, side):
                    raise TableError("already_seated")
            else:
                await self._repo.set_seat_side(table_id, user_id, side)
            return await self.get(table_id)

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Leave a lobby; the host leaving cancels it."""
        async with self.store.lock(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is None:
                raise TableError("not_seated")
            if user_id == table.host_id:
                await self._repo.cancel_lobby(table_id, self.now())
                log.info("table %s cancelled: its host left the lobby", table_id)
            else:
                await self._repo.remove_seat(table_id, user_id)
            return await self.get(table_id)

    async def add_computer(
        self, table_id: int, user_id: int, level: str, side: int | None = None
    ) -> Table:
        """Seat a computer player of `level` (host only, in the lobby; optionally on a
        `side`). TableError: not_host, not_lobby, bad_level, table_full, bad_side,
        side_taken."""
        async with self.store.lock(table_id):
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
        async with self.store.lock(table_id):
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

    def _turn_order(self, seats: list[Seat], shuffle: bool) -> list[Seat]:
        if any(s.side is not None for s in seats):
            by_side: list[Seat | None] = [None] * len(seats)
            for s in seats:
                if s.side is not None:
                    by_side[s.side] = s
            rest = iter(s for s in seats if s.side is None)
            return [s if s is not None else next(rest) for s in by_side]
        order = list(seats)
        if shuffle:
            self._rng.shuffle(order)
        return order

    async def start(self, table_id: int, user_id: int, shuffle: bool = True) -> MoveResult:
        """Start a lobby (host only), drawing the opening chance moves."""

        async def build(table: Table) -> MoveResult:
            if table.status != "lobby":
                raise TableError("not_lobby")
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
            now = self.now()
            started = replace(
                table, options=eng.dump(state)["options"], chosen_options={},
                status="running", seats=self._turn_order(table.seats, shuffle), started_at=now,
            )
            since = turns.next_since(eng, state, {}, 0, None)
            chance = pipeline.draw_chance(eng, state, since, 0, self._rng)
            made = pipeline.change(table, now, steps=chance.steps, state=chance.state,
                                   since=chance.since, start=lambda _: started)
            return await self.store.commit(made, chance.steps)

        result = await self.store.changing(table_id, build)
        assert result is not None
        return result

    # -- play ------------------------------------------------------------------------------

    async def play(
        self, table_id: int, user_id: int, move: str, turn: int | None = None
    ) -> MoveResult:
        """Apply one move for the user's seat, then the chance moves that follow."""
        check_move_text(move)
        move = turns.clean_move(move)

        async def build(table: Table) -> MoveResult:
            refusal = self.refusal(table, user_id, turn)
            if refusal is not None:
                raise refusal
            seat = table.seat_of(user_id)
            assert seat is not None
            try:
                moved = pipeline.advance(table, seat, table.engine.read_move(move), self._rng)
            except ValueError as err:  # IllegalMove, or a move string the engine cannot read
                raise TableError("illegal", move=move, **reason_params(err)) from err
            # moving yourself resets the missed deadlines
            absence = ({seat: (0, seat in table.taken_over)} if table.misses.get(seat)
                       else None)
            made = pipeline.change(table, self.now(), steps=moved.steps, state=moved.state,
                                   since=moved.since, absence=absence)
            return await self.store.commit(made, moved.steps)

        result = await self.store.changing(table_id, build)
        assert result is not None
        return result

    async def computer_step(self, table_id: int) -> MoveResult | None:
        """One move of the computer (a computer seat, or a seat taken over) that must act
        now, with the chance moves after it; None if no computer must act, or if the table
        changed while it thought (call again). The search runs outside the table's lock,
        from the seat's view only."""
        table = await self.get(table_id)
        turn = pipeline.auto_turn(table)
        if turn is None:
            return None
        seat, level = turn
        move = await self.computer_moves.move(table, seat, level)

        async def build(current: Table) -> MoveResult | None:
            if current.ply != table.ply or pipeline.auto_turn(current) != turn:
                return None  # someone moved first: this move was thought for another position
            moved = pipeline.advance(current, seat, current.engine.read_move(move), self._rng,
                                     auto=True)
            made = pipeline.change(current, self.now(), steps=moved.steps, state=moved.state,
                                   since=moved.since)
            return await self.store.commit(made, moved.steps)

        try:
            return await self.store.changing(table_id, build)
        except TableError:
            return None

    async def computers_play(self, table_id: int, limit: int = 100_000) -> list[MoveResult]:
        """Computer steps until no computer must act (a member's turn, or the end): for
        tools and tests; the bot posts a board after each step instead."""
        results: list[MoveResult] = []
        misses = 0
        while len(results) < limit and misses < COMMIT_ATTEMPTS:
            result = await self.computer_step(table_id)
            if result is None:
                if pipeline.auto_turn(await self.get(table_id)) is None:
                    break
                misses += 1  # moved under us: think again from the new position
                continue
            misses = 0
            results.append(result)
        return results

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
        # salt 7: not the same draw as the computer's own move at this ply
        return await self.computer_moves.move(table, seat, computers.HINT_LEVEL, salt=7)

    async def resign(self, table_id: int, user_id: int) -> MoveResult:
        """Resign: the table ends with the resigner last (turns.py, "Resign")."""

        async def build(table: Table) -> MoveResult:
            self._check_running(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            outcome = table.engine.resigned_outcome(table.state, seat)
            return await self.store.commit(pipeline.change(table, self.now(), outcome=outcome), [])

        result = await self.store.changing(table_id, build)
        assert result is not None
        return result

    @staticmethod
    def _check_running(table: Table) -> None:
        if table.status == "finished":
            raise TableError("finished")
        if table.status != "running":
            raise TableError("not_running")

    # -- standings -------------------------------------------------------------------------

    @staticmethod
    def _standing(row: StandingRow) -> Standing:
        rating = (ratings.ordinal(row.mu, row.sigma)
                  if row.mu is not None and row.sigma is not None else None)
        return Standing(**vars(row), rating=rating)

    async def leaderboard(
        self, guild_id: int, game: str | None = None, limit: int = 10
    ) -> list[Standing]:
        """Best first: by rating for one game; over all games by wins, then games played."""
        if game is None:
            overall = await self._results.overall_standings(guild_id, limit)
            return [self._standing(row) for row in overall]
        rows = [self._standing(row) for row in await self._results.game_standings(guild_id, game)]
        rows.sort(key=lambda r: (-(r.rating or 0.0), -r.wins, r.average_rank, r.user_id))
        return rows[:limit]

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A player's record in the guild, per game and in total (zeros if none)."""
        by_game = [self._standing(r) for r in await self._results.user_standings(guild_id, user_id)]
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
