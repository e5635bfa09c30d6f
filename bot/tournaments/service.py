"""Tournaments: sign-up, rounds, results; no Discord here.

- **State** is in the database (bot/storage/tournaments.py): the tournament, its players and
  the games of every round with their points. Nothing lives only in memory, so any process
  can carry on after a restart.
- **Steps** (`step`): at the start time, sign-up becomes round 1 (players who did not check
  in, when check-in is on, are left out); when every game of a round has points, the next
  round is paired (pairing.py) or the tournament ends. The round moves on only through an
  `UPDATE ... WHERE round = ?`, so whichever process wins posts the standings, once. A step
  is run by the process that claimed the tournament's `next_at` (a lease, like the turn
  timers); a table's end makes its tournament due at once (`table_ended`), and a running
  tournament is looked at every CHECK anyway (a process may have died mid-step).
- **Tables** are normal tables (rated, with deadlines): `TableService.open_table` in a place
  the `Host` (the Discord side) makes, the players seated, computers added, then `start`. A
  game's table is opened by the process that claimed it; a table left in its lobby by a
  crash is completed by the next claim.
- **Results**: ranks at the table become points (`pairing.points_for_ranks`); a cancelled
  table counts as a tie; a dropped player resigns the game they are in and is paired no more.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.storage import ResultRepository, TournamentRepository
from bot.storage.tournaments import EntrantRow, GameRow, TournamentRow
from bot.tables import computers, ratings
from bot.tables.deadlines import process_name
from bot.tables.errors import TableError
from bot.tables.models import MoveResult, Table
from bot.tables.service import TableService
from bot.tables.settings import PRESETS
from bot.tournaments import pairing
from engines import get_engine
from engines.base import Options, Record

log = logging.getLogger(__name__)

CHECK = timedelta(minutes=10)  # a running tournament is looked at this often regardless
LEASE = timedelta(seconds=120)  # a step or a table opening is ours this long
MAX_PLAYERS = 64
MAX_ROUNDS = 15
MAX_AHEAD = timedelta(days=30)  # the latest start time
DEFAULT_ROUNDS = 3  # multi-table rounds when the organiser gives none


class TournamentError(Exception):
    """A refusal with a `code` the Discord side turns into a sentence, and `params`."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params: Record = params  # the fields of its sentence


@dataclass(frozen=True)
class Tournament:
    """A tournament as stored, with its results and standings."""

    row: TournamentRow
    results: list[pairing.Result]
    standings: list[pairing.Standing]

    @property
    def id(self) -> int:
        return self.row.id

    def entrant(self, user_id: int) -> EntrantRow | None:
        return next((e for e in self.row.entrants if e.user_id == user_id), None)

    def name_of(self, user_id: int) -> str:
        entrant = self.entrant(user_id)
        return entrant.name if entrant is not None else str(user_id)

    def round_games(self, number: int | None = None) -> list[GameRow]:
        wanted = self.row.round if number is None else number
        return [g for g in self.row.games if g.round == wanted]

    @property
    def active(self) -> list[int]:
        return [e.user_id for e in self.seeded if not e.dropped]

    @property
    def seeded(self) -> list[EntrantRow]:
        """Best seed first: rating (unrated last), then who joined first."""
        return sorted(self.row.entrants,
                      key=lambda e: (e.rating is None, -(e.rating or 0.0), e.joined_at))


class Host(Protocol):
    """What the Discord side does for the service."""

    async def place(self, tournament: Tournament, game: GameRow) -> tuple[int, int | None]:
        """(channel id, thread id or None) where a game's table is played."""
        ...

    async def table_started(self, tournament: Tournament, game: GameRow,
                            result: MoveResult) -> None: ...

    async def announce(self, tournament: Tournament, what: str) -> None:
        """`what`: "started", "round" (a round is over: standings), "finished",
        "cancelled" (also for too few players)."""
        ...


def formats_for(game: str) -> tuple[str, ...]:
    """The formats a game can be played in."""
    eng = get_engine(game)
    found: tuple[str, ...] = ()
    if eng.min_players <= 2 <= eng.max_players:
        found += pairing.TWO_PLAYER_FORMATS
    if event_tables(game) is not None:
        found += ("tables",)
    return found


def event_tables(game: str) -> tuple[int, int] | None:
    """The table sizes of a game's multi-table rounds (its GameInfo), or None."""
    return get_engine(game).info.event_tables


def min_players(fmt: str, game: str) -> int:
    if fmt == "tables":
        sizes = event_tables(game)
        assert sizes is not None
        return sizes[0]
    return 2


_STAMP = re.compile(r"^<t:(\d+)(?::[tTdDfFR])?>$")
_OFFSET = re.compile(r"^\+?(\d+)\s*(m|min|minutes?|h|hours?|d|days?)?$")


def parse_start(text: str | None, now: datetime) -> datetime:
    """A start time from what an organiser types: a Discord timestamp (`<t:1767225600:F>`),
    Unix seconds, minutes/hours/days from now (`30`, `2h`, `1d`) or an ISO date-time (UTC
    unless it has an offset). TournamentError("bad_start") otherwise or if in the past."""
    text = (text or "").strip()
    when: datetime | None = None
    if not text:
        when = now + timedelta(minutes=15)
    elif (match := _STAMP.match(text)) or (text.isdigit() and len(text) >= 9):
        when = datetime.fromtimestamp(int(match[1] if match else text), UTC)
    elif match := _OFFSET.match(text.lower()):
        unit = (match[2] or "m")[0]
        amount = int(match[1])
        when = now + {"m": timedelta(minutes=amount), "h": timedelta(hours=amount),
                      "d": timedelta(days=amount)}[unit]
    else:
        try:
            when = datetime.fromisoformat(text)
        except ValueError:
            raise TournamentError("bad_start", text=text[:40]) from None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
    if when < now - timedelta(minutes=1) or when > now + MAX_AHEAD:
        raise TournamentError("bad_start", text=text[:40])
    return when


class TournamentService:
    """Tournaments over a TableService; `host` is the Discord side (set by the bot). `repo`
    keeps the tournaments, `results` gives the seeds' ratings and the tables' ranks."""

    def __init__(self, repo: TournamentRepository, results: ResultRepository,
                 tables: TableService, rng: random.Random | None = None,
                 now: Callable[[], datetime] | None = None) -> None:
        self._repo, self._results = repo, results
        self.tables = tables
        self._rng = rng if rng is not None else random.Random()
        self._clock = now if now is not None else tables.now
        self.host: Host | None = None
        self.owner = process_name()
        self._listeners: list[Callable[[], None]] = []
        tables.add_end_listener(self._table_ended)

    def now(self) -> datetime:
        return self._clock()

    def add_listener(self, listener: Callable[[], None]) -> None:
        """`listener()` is called when a tournament may be due sooner (a table ended)."""
        self._listeners.append(listener)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message (edited as the tournament goes on)."""
        await self._repo.set_tournament_message(tournament_id, message_id)

    # -- reading ---------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> Tournament:
        row = await self._repo.load_tournament(tournament_id)
        if row is None:
            raise TournamentError("not_found", id=tournament_id)
        results = [pairing.Result(g.players, g.points) for g in row.games
                   if g.points is not None]
        tournament = Tournament(row, results, [])
        players = [e.user_id for e in tournament.seeded]
        standing = pairing.standings(players, results, players)
        return Tournament(row, results, standing)

    async def listing(self, guild_id: int, finished: bool = False) -> list[TournamentRow]:
        statuses = ("finished", "cancelled") if finished else ("signup", "running")
        return await self._repo.tournaments_of(guild_id, statuses)

    # -- sign-up ---------------------------------------------------------------------------

    async def create(self, guild_id: int, channel_id: int, organiser_id: int, game: str,
                     fmt: str, options: Options, starts_at: datetime, seat_limit: int,
                     deadline_seconds: int, rounds: int | None = None,
                     check_in: bool = False) -> Tournament:
        """A tournament in sign-up. TournamentError: bad_format, bad_limit, bad_rounds,
        bad_deadline; TableError("bad_options") for options the game refuses."""
        eng = get_engine(game)
        if fmt not in formats_for(game):
            raise TournamentError("bad_format", format=fmt)
        low = min_players(fmt, game)
        if not low <= seat_limit <= MAX_PLAYERS:
            raise TournamentError("bad_limit", low=low, high=MAX_PLAYERS)
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError("bad_rounds", high=MAX_ROUNDS)
        if deadline_seconds not in PRESETS:
            raise TournamentError("bad_deadline")
        chosen = {k: v for k, v in options.items() if k != "players"}
        sizes = event_tables(game) if fmt == "tables" else (2, 2)
        assert sizes is not None
        try:
            eng.new(sizes[0], chosen)
        except ValueError as err:
            raise TableError("bad_options", reason=str(err)) from err
        now = self.now()
        tournament_id = await self._repo.create_tournament({
            "guild_id": guild_id, "channel_id": channel_id, "organiser_id": organiser_id,
            "game": game, "format": fmt, "options": json.dumps(chosen),
            "rounds": rounds or 0, "seat_limit": seat_limit,
            "deadline_seconds": deadline_seconds, "check_in": int(check_in),
            "starts_at": starts_at, "next_at": starts_at, "created_at": now,
        })
        self._changed()
        return await self.get(tournament_id)

    async def join(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        """Sign up; TournamentError: started, finished, full, already."""
        answer = await self._repo.sign_up(tournament_id, user_id, name, self.now())
        if answer != "ok":
            await self._refuse_closed(tournament_id, answer)
        return await self.get(tournament_id)

    async def _refuse_closed(self, tournament_id: int, answer: str) -> None:
        if answer == "closed":
            tournament = await self.get(tournament_id)
            raise TournamentError("started" if tournament.row.status == "running"
                                  else "over", id=tournament_id)
        if answer == "full":
            tournament = await self.get(tournament_id)
            raise TournamentError("full", limit=tournament.row.seat_limit)
        raise TournamentError("already")

    async def leave(self, tournament_id: int, user_id: int) -> Tournament:
        if not await self._repo.withdraw(tournament_id, user_id):
            tournament = await self.get(tournament_id)
            if tournament.row.status != "signup":
                raise TournamentError("started_leave")
            raise TournamentError("not_entered")
        return await self.get(tournament_id)

    async def start_now(self, tournament_id: int) -> Tournament:
        """The organiser starts the tournament now instead of at its start time."""
        if not await self._repo.start_tournament_at(tournament_id, self.now()):
            await self._refuse_closed(tournament_id, "closed")
        self._changed()
        return await self.get(tournament_id)

    async def check_in(self, tournament_id: int, user_id: int) -> Tournament:
        tournament = await self.get(tournament_id)
        if tournament.row.status != "signup":
            raise TournamentError("started", id=tournament_id)
        if tournament.entrant(user_id) is None:
            raise TournamentError("not_entered")
        if not await self._repo.check_in(tournament_id, user_id):
            raise TournamentError("checked_in")
        return await self.get(tournament_id)

    async def add_computer(self, tournament_id: int, level: str) -> Tournament:
        """Sign up a computer player of `level` (the organiser fills a seat)."""
        if level not in computers.LEVELS:
            raise TableError("bad_level", level=level)
        tournament = await self.get(tournament_id)
        taken = {e.user_id for e in tournament.row.entrants}
        user_id = computers.seat_user_id(level, taken)
        answer = await self._repo.sign_up(tournament_id, user_id,
                                          computers.computer_name(level), self.now(),
                                          checked_in=True)
        if answer != "ok":
            await self._refuse_closed(tournament_id, answer)
        return await self.get(tournament_id)

    async def drop(self, tournament_id: int, user_id: int) -> Tournament:
        """The organiser drops a player: in sign-up they leave; later they are paired no
        more and resign the game they are playing (it is forfeited)."""
        tournament = await self.get(tournament_id)
        if tournament.entrant(user_id) is None:
            raise TournamentError("not_entered")
        if tournament.row.status == "signup":
            await self._repo.withdraw(tournament_id, user_id)
            return await self.get(tournament_id)
        if tournament.row.status != "running":
            raise TournamentError("over", id=tournament_id)
        if not await self._repo.drop_entrant(tournament_id, user_id):
            raise TournamentError("dropped")
        for game in tournament.round_games():
            if user_id in game.players and game.table_id is not None and game.points is None:
                seat_id = (game.seats or {}).get(user_id, user_id)
                try:
                    await self.tables.resign(game.table_id, seat_id)
                except TableError:
                    pass  # over already, or never started: the step sorts it out
        await self._due_now(tournament_id)
        return await self.get(tournament_id)

    async def cancel(self, tournament_id: int) -> Tournament:
        """Cancel (the organiser): the tables still being played are cancelled too."""
        tournament = await self.get(tournament_id)
        if not await self._repo.end_tournament(tournament_id, "cancelled", self.now()):
            raise TournamentError("over", id=tournament_id)
        for game in tournament.round_games():
            if game.table_id is not None and game.points is None:
                try:
                    await self.tables.cancel(game.table_id, tournament.row.organiser_id,
                                             can_manage=True)
                except TableError:
                    pass
        return await self.get(tournament_id)

    # -- running ---------------------------------------------------------------------------

    def _table_ended(self, table: Table) -> None:
        """TableService listener: a table ended; its tournament (if any) is due now."""
        asyncio.get_running_loop().create_task(self._poke(table.id))

    async def _poke(self, table_id: int) -> None:
        try:
            if await self._repo.poke_tournament_of(table_id, self.now()) is not None:
                self._changed()
        except Exception:
            log.exception("table %s: its tournament could not be marked due", table_id)

    async def _due_now(self, tournament_id: int) -> None:
        await self._repo.tournament_due(tournament_id, self.now())
        self._changed()

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    async def next_due(self) -> datetime | None:
        return await self._repo.next_tournament_time()

    async def run_due(self, guilds: tuple[int, tuple[int, ...]] | None = None) -> int:
        """Claim the tournaments whose next step is due and run each step; returns how
        many were stepped. A failing step is retried after CHECK."""
        now = self.now()
        claimed = await self._repo.claim_tournaments(now, now + LEASE, self.owner,
                                                     guilds=guilds)
        for tournament_id in claimed:
            next_at = now + CHECK
            try:
                next_at = await self.step(tournament_id)
            except Exception:
                log.exception("tournament %s: step failed", tournament_id)
            await self._repo.release_tournament(tournament_id, self.owner, now, next_at)
        return len(claimed)

    async def step(self, tournament_id: int) -> datetime:
        """Do what is due (start, record results, next round, open tables); returns when
        to look again."""
        tournament = await self.get(tournament_id)
        row = tournament.row
        now = self.now()
        if row.status == "signup":
            if row.starts_at > now:
                return row.starts_at
            tournament = await self._begin(tournament)
            if tournament.row.status != "running":
                return now + CHECK
        elif row.status != "running":
            return now + CHECK
        tournament = await self._collect(tournament)
        while all(g.points is not None for g in tournament.round_games()):
            moved = await self._next_round(tournament)
            if moved is None:
                return now + CHECK
            tournament = moved
            if tournament.row.status != "running":
                return now + CHECK
        await self._open_tables(tournament)
        return now + CHECK

    async def _begin(self, tournament: Tournament) -> Tournament:
        row = tournament.row
        present = [e for e in tournament.row.entrants if e.checked_in or not row.check_in]
        low = min_players(row.format, row.game)
        if len(present) < low:
            if await self._repo.end_tournament(row.id, "cancelled", self.now()):
                cancelled = await self.get(row.id)
                await self._announce(cancelled, "cancelled")
            return await self.get(row.id)
        stored = await self._results.get_ratings(
            row.guild_id, row.game, [computers.result_user_id(e.user_id) for e in present])
        seeds: dict[int, float | None] = {}
        for e in present:
            rated = stored.get(computers.result_user_id(e.user_id))
            seeds[e.user_id] = ratings.ordinal(*rated) if rated is not None else None
        ordered = sorted(present, key=lambda e: (seeds[e.user_id] is None,
                                                 -(seeds[e.user_id] or 0.0), e.joined_at))
        players = [e.user_id for e in ordered]
        rounds, games = self._first_round(row, players)
        if not await self._repo.begin_tournament(row.id, rounds, seeds, games,
                                                 self.now() + CHECK):
            return await self.get(row.id)
        started = await self.get(row.id)
        await self._announce(started, "started")
        return started

    def _first_round(self, row: TournamentRow, players: list[int]
                     ) -> tuple[int, list[tuple[int, ...]]]:
        count = len(players)
        if row.format == "round_robin":
            schedule = pairing.round_robin(players)
            return len(schedule), schedule[0]
        if row.format == "elimination":
            return pairing.elimination_rounds(count), pairing.first_bracket(players)
        if row.format == "tables":
            low, high = event_tables(row.game) or (2, 2)
            return (row.rounds or DEFAULT_ROUNDS,
                    pairing.tables_round(players, [], low, high, self._rng, players))
        rounds = row.rounds or pairing.swiss_rounds(count)
        rounds = min(rounds, count - 1 if count % 2 == 0 else count)
        return rounds, pairing.swiss_round(players, [], players)

    async def _collect(self, tournament: Tournament) -> Tournament:
        """Points for the games of the current round whose tables have ended."""
        changed = False
        for game in tournament.round_games():
            if game.points is not None or game.table_id is None or game.seats is None:
                continue
            try:
                table = await self.tables.get(game.table_id)
            except TableError:
                continue
            points = await self._points(table, game)
            if points is not None:
                changed |= await self._repo.record_points(tournament.id, game.round,
                                                          game.number, points)
        return await self.get(tournament.id) if changed else tournament

    async def _points(self, table: Table, game: GameRow) -> tuple[float, ...] | None:
        if table.status == "cancelled":
            return pairing.points_for_ranks([1] * len(game.players))
        if table.status != "finished":
            return None
        rank_of_seat = {r.seat: r.rank for r in await self._results.get_results(table.id)}
        seat_of = {s.user_id: i for i, s in enumerate(table.seats)}
        assert game.seats is not None
        ranks = [rank_of_seat.get(seat_of.get(game.seats[p], -1), len(game.players))
                 for p in game.players]
        return pairing.points_for_ranks(ranks)

    async def _next_round(self, tournament: Tournament) -> Tournament | None:
        """The round is complete: pair the next or finish. None if another process did."""
        row = tournament.row
        games = self._pairings(tournament) if row.round < row.rounds else []
        if not games:
            if not await self._repo.end_tournament(row.id, "finished", self.now(), row.round):
                return None
            finished = await self.get(row.id)
            await self._announce(finished, "finished")
            return finished
        if not await self._repo.advance_tournament(row.id, row.round, games,
                                                   self.now() + CHECK):
            return None
        await self._announce(tournament, "round")
        return await self.get(row.id)

    def _pairings(self, tournament: Tournament) -> list[tuple[int, ...]]:
        """The next round's games of the players still in ([] if it cannot be played);
        a dropped player's place in a fixed schedule or bracket becomes a bye."""
        row = tournament.row
        seeds = [e.user_id for e in tournament.seeded]
        active = tournament.active
        if row.format == "round_robin":
            games = pairing.round_robin(seeds)[row.round]
        elif row.format == "elimination":
            previous = [pairing.Result(g.players, g.points or ())
                        for g in tournament.round_games()]
            games = pairing.next_bracket(previous, seeds)
        elif len(active) < min_players(row.format, row.game):
            return []
        elif row.format == "tables":
            low, high = event_tables(row.game) or (2, 2)
            games = pairing.tables_round(active, tournament.results, low, high, self._rng,
                                         seeds)
        else:
            games = pairing.swiss_round(active, tournament.results, seeds)
        kept = [tuple(p for p in g if p in active) for g in games]
        kept = [g for g in kept if g]
        return kept if any(len(g) > 1 for g in kept) else []

    async def _announce(self, tournament: Tournament, what: str) -> None:
        if self.host is None:
            return
        try:
            await self.host.announce(tournament, what)
        except Exception:
            log.exception("tournament %s: announcing %s failed", tournament.id, what)

    # -- tables ----------------------------------------------------------------------------

    async def _open_tables(self, tournament: Tournament) -> None:
        for game in tournament.round_games():
            if len(game.players) < 2 or game.seats is not None:
                continue
            now = self.now()
            if not await self._repo.claim_game(tournament.id, game.round, game.number,
                                               self.owner, now, now + LEASE):
                continue
            try:
                await self._open_table(tournament, game)
            except Exception:
                log.exception("tournament %s: table of game %s/%s not opened",
                              tournament.id, game.round, game.number)
                await self._repo.release_game(tournament.id, game.round, game.number)

    async def _open_table(self, tournament: Tournament, game: GameRow) -> None:
        row = tournament.row
        humans = [p for p in game.players if not computers.is_computer(p)]
        host = humans[0] if humans else game.players[0]
        place: tuple[int, int | None] | None = None
        if game.table_id is not None:  # a crash came between opening and recording
            table = await self.tables.get(game.table_id)
            if table.status != "lobby":
                await self._repo.set_game_table(tournament.id, game.round, game.number,
                                                table.id, _seat_map(game, table))
                return
            await self.tables.cancel(table.id, table.host_id, can_manage=True)
            place = (table.channel_id, table.thread_id)  # open it again in the same place
        if place is None:
            if self.host is None:
                raise RuntimeError("no Discord side to open the table's place")
            place = await self.host.place(tournament, game)
        host_seat = host if not computers.is_computer(host) else computers.seat_user_id(
            computers.computer_level(host) or "normal", set())
        table = await self.tables.open_table(
            row.guild_id, place[0], row.game, row.options, host_seat, tournament.name_of(host),
            thread_id=place[1], deadline_seconds=row.deadline_seconds)
        await self._repo.attach_table(tournament.id, game.round, game.number, table.id)
        seats = {host: host_seat}
        for player in game.players:
            if player == host:
                continue
            before = {s.user_id for s in table.seats}
            if computers.is_computer(player):
                table = await self.tables.add_computer(
                    table.id, host_seat, computers.computer_level(player) or "normal")
            else:
                table = await self.tables.join(table.id, player, tournament.name_of(player))
            seats[player] = next(s.user_id for s in table.seats if s.user_id not in before)
        result = await self.tables.start(table.id, host_seat)
        await self._repo.set_game_table(tournament.id, game.round, game.number, table.id, seats)
        if self.host is not None:
            await self.host.table_started(await self.get(tournament.id), game, result)


def _seat_map(game: GameRow, table: Table) -> dict[int, int]:
    """Tournament player → seat user id of a started table: members are themselves,
    computers are matched to the table's computer seats of their level in order."""
    spare = [s.user_id for s in table.seats if computers.is_computer(s.user_id)]
    seats = {}
    for player in game.players:
        if not computers.is_computer(player):
            seats[player] = player
            continue
        level = computers.computer_level(player)
        match = next((u for u in spare if computers.computer_level(u) == level), spare[0])
        spare.remove(match)
        seats[player] = match
    return seats

def rank_text_key(points: float) -> str:
    """Points as shown: whole numbers plain, else up to two decimals."""
    return f"{points:g}" if float(points).is_integer() else f"{points:.2f}".rstrip("0")


__all__ = [
    "CHECK",
    "Host",
    "Tournament",
    "TournamentError",
    "TournamentService",
    "event_tables",
    "formats_for",
    "parse_start",
    "rank_text_key",
]
