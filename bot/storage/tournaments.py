"""Tournaments and seasons (migration 0006): a tournament with its players and games, and a
season's standings over the results of its dates.

Exactly once across processes: a round moves on only through `advance` (UPDATE ... WHERE
round = ?), a tournament's next step is claimed with a lease (`claim_tournaments`), and a
round's table is opened by the one process that claimed its game (`claim_game`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.storage.base import Aggregate, marks
from bot.storage.driver import Conflict, Execute, ExecuteMany, Fetch, Json, Row, Unit, as_time


@dataclass(frozen=True)
class EntrantRow:
    user_id: int
    name: str
    rating: float | None
    checked_in: bool
    dropped: bool
    joined_at: datetime


@dataclass(frozen=True)
class GameRow:
    round: int
    number: int
    players: tuple[int, ...]
    seats: dict[int, int] | None  # tournament player -> the table's seat user id
    table_id: int | None
    points: tuple[float, ...] | None


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organiser_id: int
    game: str
    format: str
    options: Json
    rounds: int
    seat_limit: int
    deadline_seconds: int
    check_in: bool
    status: str
    round: int
    starts_at: datetime
    next_at: datetime | None
    created_at: datetime
    finished_at: datetime | None
    entrants: tuple[EntrantRow, ...] = ()
    games: tuple[GameRow, ...] = ()


_NEW = ("guild_id", "channel_id", "organiser_id", "game", "format", "options", "rounds",
        "seat_limit", "deadline_seconds", "check_in", "starts_at", "next_at", "created_at")


def _tournament(row: Row, entrants: Sequence[Row] = (),
                games: Sequence[Row] = ()) -> TournamentRow:
    return TournamentRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        message_id=row["message_id"], organiser_id=row["organiser_id"], game=row["game"],
        format=row["format"], options=json.loads(row["options"]), rounds=row["rounds"],
        seat_limit=row["seat_limit"], deadline_seconds=row["deadline_seconds"],
        check_in=bool(row["check_in"]), status=row["status"], round=row["round"],
        starts_at=as_time(row["starts_at"]), next_at=as_time(row["next_at"]),
        created_at=as_time(row["created_at"]), finished_at=as_time(row["finished_at"]),
        entrants=tuple(EntrantRow(e["user_id"], e["name"], e["rating"], bool(e["checked_in"]),
                                  bool(e["dropped"]), as_time(e["joined_at"]))
                       for e in entrants),
        games=tuple(_game(g) for g in games),
    )


def _game(row: Row) -> GameRow:
    seats = json.loads(row["seats"]) if row["seats"] else None
    points = json.loads(row["points"]) if row["points"] else None
    return GameRow(row["round"], row["number"], tuple(json.loads(row["players"])),
                   {int(k): v for k, v in seats.items()} if seats is not None else None,
                   row["table_id"], tuple(points) if points is not None else None)


def _load(tournament_id: int) -> Unit[TournamentRow | None]:
    rows = yield Fetch("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    if not rows:
        return None
    entrants = yield Fetch("SELECT * FROM tournament_players WHERE tournament_id = ?"
                           " ORDER BY joined_at, user_id", (tournament_id,))
    games = yield Fetch("SELECT * FROM tournament_games WHERE tournament_id = ?"
                        " ORDER BY round, number", (tournament_id,))
    return _tournament(rows[0], entrants, games)


def _create(values: Mapping[str, object]) -> Unit[int]:
    rows = yield Fetch(
        f"INSERT INTO tournaments ({', '.join(_NEW)}) VALUES ({marks(len(_NEW))})"
        " RETURNING id", [values[name] for name in _NEW])
    return rows[0]["id"]


def _sign_up(tournament_id: int, user_id: int, name: str, at: datetime,
             checked_in: bool, locking: str) -> Unit[str]:
    """'ok', or why not: 'closed' (not in sign-up), 'full', 'already'. The tournament's row is
    locked (`locking`; SQLite's write transaction already is), so racing sign-ups are counted
    one after the other and never go over the limit."""
    rows = yield Fetch(f"SELECT status, seat_limit FROM tournaments WHERE id = ?{locking}",
                       (tournament_id,))
    if not rows or rows[0]["status"] != "signup":
        return "closed"
    count = yield Fetch(
        "SELECT COUNT(*) AS n, SUM(CASE WHEN user_id = ? THEN 1 ELSE 0 END) AS mine"
        " FROM tournament_players WHERE tournament_id = ?", (user_id, tournament_id))
    if count[0]["mine"]:
        return "already"
    if count[0]["n"] >= rows[0]["seat_limit"]:
        return "full"
    try:
        yield Execute(
            "INSERT INTO tournament_players (tournament_id, user_id, name, checked_in,"
            " joined_at) VALUES (?, ?, ?, ?, ?)",
            (tournament_id, user_id, name, int(checked_in), at))
    except Conflict:
        return "already"
    return "ok"


def _begin(tournament_id: int, rounds: int, ratings: dict[int, float | None],
           games: list[tuple[int, ...]], next_at: datetime) -> Unit[bool]:
    """Sign-up → round 1, once: players who did not check in leave, seeds are kept."""
    changed = yield Execute(
        "UPDATE tournaments SET status = 'running', round = 1, rounds = ?, next_at = ?"
        " WHERE id = ? AND status = 'signup' AND round = 0",
        (rounds, next_at, tournament_id))
    if changed != 1:
        return False
    yield Execute(
        "DELETE FROM tournament_players WHERE tournament_id = ? AND checked_in = 0 AND"
        " (SELECT check_in FROM tournaments WHERE id = ?) = 1", (tournament_id, tournament_id))
    yield ExecuteMany(
        "UPDATE tournament_players SET rating = ? WHERE tournament_id = ? AND user_id = ?",
        [(rating, tournament_id, user) for user, rating in ratings.items()])
    yield from _insert_games(tournament_id, 1, games)
    return True


def _insert_games(tournament_id: int, round_: int, games: list[tuple[int, ...]]) -> Unit[None]:
    rows = []
    for number, players in enumerate(games):
        points = json.dumps([1.0]) if len(players) == 1 else None  # a bye is won at once
        rows.append((tournament_id, round_, number, json.dumps(list(players)), points))
    if rows:
        yield ExecuteMany(
            "INSERT INTO tournament_games (tournament_id, round, number, players, points)"
            " VALUES (?, ?, ?, ?, ?)", rows)


def _advance(tournament_id: int, round_: int, games: list[tuple[int, ...]],
             next_at: datetime) -> Unit[bool]:
    changed = yield Execute(
        "UPDATE tournaments SET round = round + 1, next_at = ? WHERE id = ? AND round = ?"
        " AND status = 'running'", (next_at, tournament_id, round_))
    if changed != 1:
        return False
    yield from _insert_games(tournament_id, round_ + 1, games)
    return True


def _claim(now: datetime, until: datetime, owner: str, limit: int, locking: str,
           guilds: tuple[int, tuple[int, ...]] | None) -> Unit[list[int]]:
    where, params = "", []
    if guilds is not None:
        count, ids = guilds
        where = f" AND ((guild_id >> 22) % ?) IN ({marks(len(ids))})"
        params = [count, *ids]
    rows = yield Fetch(
        "SELECT id FROM tournaments WHERE next_at <= ? AND status IN ('signup', 'running')"
        f" AND (claimed_until IS NULL OR claimed_until < ?){where}"
        f" ORDER BY next_at, id LIMIT ?{locking}", (now, now, *params, limit))
    if rows:
        yield ExecuteMany(
            "UPDATE tournaments SET claimed_until = ?, claimed_by = ? WHERE id = ?",
            [(until, owner, r["id"]) for r in rows])
    return [r["id"] for r in rows]


class TournamentRepository(Aggregate):
    """Tournaments, their players and games; seasons' standings."""

    async def create_tournament(self, values: Mapping[str, object]) -> int:
        """A new tournament in sign-up (`values` has every column of _NEW)."""
        return await self.run(_create, values)

    async def load_tournament(self, tournament_id: int) -> TournamentRow | None:
        """A tournament with its players and games, read together."""
        return await self.run(_load, tournament_id)

    async def tournaments_of(self, guild_id: int, statuses: Sequence[str],
                             limit: int = 25) -> list[TournamentRow]:
        rows = await self._rows(
            f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN"
            f" ({marks(len(statuses))}) ORDER BY id DESC LIMIT ?",
            (guild_id, *statuses, limit))
        return [_tournament(r) for r in rows]

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        await self._execute("UPDATE tournaments SET message_id = ? WHERE id = ?",
                            (message_id, tournament_id))

    async def start_tournament_at(self, tournament_id: int, at: datetime) -> bool:
        """Move the start time of a tournament still in sign-up."""
        return await self._execute(
            "UPDATE tournaments SET starts_at = ?, next_at = ? WHERE id = ? AND"
            " status = 'signup'", (at, at, tournament_id)) == 1

    async def sign_up(self, tournament_id: int, user_id: int, name: str, at: datetime,
                      checked_in: bool = False) -> str:
        """'ok' or why not ('closed', 'full', 'already')."""
        locking = " FOR UPDATE" if self.dialect == "postgresql" else ""
        return await self.run(_sign_up, tournament_id, user_id, name, at, checked_in,
                              locking)

    async def withdraw(self, tournament_id: int, user_id: int) -> bool:
        """Leave during sign-up; False if not signed up (or no longer in sign-up)."""
        return await self._execute(
            "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ? AND"
            " (SELECT status FROM tournaments WHERE id = ?) = 'signup'",
            (tournament_id, user_id, tournament_id)) == 1

    async def check_in(self, tournament_id: int, user_id: int) -> bool:
        return await self._execute(
            "UPDATE tournament_players SET checked_in = 1 WHERE tournament_id = ? AND"
            " user_id = ? AND checked_in = 0", (tournament_id, user_id)) == 1

    async def drop_entrant(self, tournament_id: int, user_id: int) -> bool:
        return await self._execute(
            "UPDATE tournament_players SET dropped = 1 WHERE tournament_id = ? AND"
            " user_id = ? AND dropped = 0", (tournament_id, user_id)) == 1

    async def begin_tournament(self, tournament_id: int, rounds: int,
                               ratings: dict[int, float | None],
                               games: list[tuple[int, ...]], next_at: datetime) -> bool:
        """Start round 1 (once: False if another process started it)."""
        return await self.run(_begin, tournament_id, rounds, ratings, games, next_at)

    async def advance_tournament(self, tournament_id: int, round_: int,
                                 games: list[tuple[int, ...]], next_at: datetime) -> bool:
        """Round `round_` → the next with these games (once: False if it moved already)."""
        return await self.run(_advance, tournament_id, round_, games, next_at)

    async def end_tournament(self, tournament_id: int, status: str, at: datetime,
                             round_: int | None = None) -> bool:
        """Finish (after round `round_`) or cancel, once."""
        where, params = "", []
        if round_ is not None:
            where, params = " AND round = ?", [round_]
        return await self._execute(
            "UPDATE tournaments SET status = ?, finished_at = ?, next_at = NULL WHERE id = ?"
            f" AND status IN ('signup', 'running'){where}",
            (status, at, tournament_id, *params)) == 1

    async def claim_tournaments(self, now: datetime, until: datetime, owner: str,
                                limit: int = 20,
                                guilds: tuple[int, tuple[int, ...]] | None = None
                                ) -> list[int]:
        """Tournaments whose next step is due, claimed for `owner` until `until`."""
        locking = " FOR UPDATE SKIP LOCKED" if self.dialect == "postgresql" else ""
        return await self.run(_claim, now, until, owner, limit, locking, guilds)

    async def release_tournament(self, tournament_id: int, owner: str, claimed_at: datetime,
                                 next_at: datetime) -> None:
        """Give a claim (made at `claimed_at`) back; the next step is due at `next_at`,
        unless a table ended meanwhile and made it due sooner (`tournament_due`)."""
        await self._execute(
            "UPDATE tournaments SET claimed_until = NULL, claimed_by = NULL,"
            " next_at = CASE WHEN next_at > ? AND next_at < ? THEN next_at ELSE ? END"
            " WHERE id = ? AND claimed_by = ?",
            (claimed_at, next_at, next_at, tournament_id, owner))

    async def poke_tournament_of(self, table_id: int, at: datetime) -> int | None:
        """A table of a tournament ended: its tournament is due at `at` (its id, or None)."""
        rows = await self._rows("SELECT tournament_id FROM tournament_games WHERE table_id = ?",
                                (table_id,))
        if not rows:
            return None
        tournament_id = rows[0]["tournament_id"]
        await self.tournament_due(tournament_id, at)
        return tournament_id

    async def tournament_due(self, tournament_id: int, at: datetime) -> None:
        """Look at a running tournament again at `at` (whichever process claims it)."""
        await self._execute(
            "UPDATE tournaments SET next_at = ? WHERE id = ? AND status = 'running'",
            (at, tournament_id))

    async def next_tournament_time(self) -> datetime | None:
        """The next step of any tournament (a claimed one: when its lease runs out)."""
        rows = await self._rows(
            "SELECT MIN(CASE WHEN claimed_until IS NOT NULL AND claimed_until > next_at"
            " THEN claimed_until ELSE next_at END) AS t FROM tournaments"
            " WHERE status IN ('signup', 'running')")
        return as_time(rows[0]["t"]) if rows else None

    async def claim_game(self, tournament_id: int, round_: int, number: int, owner: str,
                         now: datetime, until: datetime) -> bool:
        """Claim the opening of a game's table (not opened yet, no live claim)."""
        return await self._execute(
            "UPDATE tournament_games SET claimed_until = ?, claimed_by = ? WHERE"
            " tournament_id = ? AND round = ? AND number = ? AND seats IS NULL AND"
            " (claimed_until IS NULL OR claimed_until < ?)",
            (until, owner, tournament_id, round_, number, now)) == 1

    async def attach_table(self, tournament_id: int, round_: int, number: int,
                           table_id: int) -> None:
        """The table being opened for a game (its seats not filled yet)."""
        await self._execute(
            "UPDATE tournament_games SET table_id = ? WHERE tournament_id = ? AND round = ?"
            " AND number = ?", (table_id, tournament_id, round_, number))

    async def release_game(self, tournament_id: int, round_: int, number: int) -> None:
        await self._execute(
            "UPDATE tournament_games SET claimed_until = NULL, claimed_by = NULL WHERE"
            " tournament_id = ? AND round = ? AND number = ?", (tournament_id, round_, number))

    async def set_game_table(self, tournament_id: int, round_: int, number: int,
                             table_id: int, seats: dict[int, int]) -> None:
        """The game's table started with these seats (player → seat user id)."""
        await self._execute(
            "UPDATE tournament_games SET table_id = ?, seats = ?, claimed_until = NULL,"
            " claimed_by = NULL WHERE tournament_id = ? AND round = ? AND number = ?",
            (table_id, json.dumps({str(k): v for k, v in seats.items()}),
             tournament_id, round_, number))

    async def record_points(self, tournament_id: int, round_: int, number: int,
                            points: Sequence[float]) -> bool:
        return await self._execute(
            "UPDATE tournament_games SET points = ? WHERE tournament_id = ? AND round = ?"
            " AND number = ? AND points IS NULL",
            (json.dumps(list(points)), tournament_id, round_, number)) == 1

    # -- seasons ---------------------------------------------------------------------------

    async def season_standings(self, guild_id: int, game: str | None, start: datetime,
                               end: datetime, limit: int) -> list[Row]:
        """Players by wins, then games, then average rank, over results finished in
        [start, end) (one game, or all): rows of user_id, name, games, wins, average_rank."""
        where, params = "", []
        if game is not None:
            where, params = " AND r.game = ?", [game]
        return await self._rows(
            "SELECT r.user_id, MAX(r.name) AS name, COUNT(*) AS games,"
            " SUM(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END) AS wins,"
            " AVG(CAST(r.rank AS DOUBLE PRECISION)) AS average_rank FROM results r"
            f" WHERE r.guild_id = ? AND r.finished_at >= ? AND r.finished_at < ?{where}"
            " GROUP BY r.user_id ORDER BY wins DESC, games DESC, average_rank ASC, r.user_id"
            " LIMIT ?", (guild_id, start, end, *params, limit))

    async def season_games(self, guild_id: int, start: datetime, end: datetime) -> list[str]:
        """The games played in the guild in [start, end)."""
        rows = await self._rows(
            "SELECT DISTINCT game FROM results WHERE guild_id = ? AND finished_at >= ? AND"
            " finished_at < ? ORDER BY game", (guild_id, start, end))
        return [r["game"] for r in rows]
