"""The repository: one async method per query over one aiosqlite connection.

All calls share one connection, so they are serialised by a lock that the task holding a
`transaction()` re-enters: the statements of a transaction never interleave with another
task's, and no task reads another's uncommitted writes.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import aiosqlite


class PlaceTaken(Exception):
    """The channel or thread already has an active (lobby or running) table."""


@dataclass(frozen=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str
    options: dict[str, Any]
    host_id: int
    status: str
    posted_ply: int
    posted_final: bool
    message_id: int | None
    outcome: dict[str, Any] | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    # Absence rules fixed at /play (migration 0002); None on older tables.
    deadline_seconds: int | None = None
    absence_rule: str | None = None
    max_misses: int | None = None
    hints: bool = False  # /hint allowed: the table is unrated (migration 0003)


@dataclass(frozen=True)
class SeatRow:
    position: int
    user_id: int
    name: str
    side: int | None
    misses: int = 0  # deadlines missed in a row
    taken_over: bool = False  # played by the computer for the rest of the game


@dataclass(frozen=True)
class ResultRow:
    table_id: int
    seat: int
    guild_id: int
    game: str
    user_id: int
    name: str
    rank: int
    score: float | None
    resigned: bool
    finished_at: datetime


@dataclass(frozen=True)
class StandingRow:
    """One player's standing in a guild: over one game (with rating) or over all games."""

    user_id: int
    name: str
    game: str | None
    games: int
    wins: int
    average_rank: float
    mu: float | None
    sigma: float | None


@dataclass(frozen=True)
class TimerRow:
    """A seat's pending decision on a running table and its deadline (migration 0002)."""

    table_id: int
    seat: int
    since_ply: int  # the ply at which the decision began (Table.since)
    started_at: datetime
    deadline_at: datetime
    remind_at: datetime | None  # None: no reminder
    reminded: bool


def stamp(at: datetime) -> str:
    """A timer time as stored: UTC, fixed width, so text order is time order."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def _timer(row: aiosqlite.Row) -> TimerRow:
    return TimerRow(
        table_id=row["table_id"],
        seat=row["seat"],
        since_ply=row["since_ply"],
        started_at=datetime.fromisoformat(row["started_at"]),
        deadline_at=datetime.fromisoformat(row["deadline_at"]),
        remind_at=_time(row["remind_at"]),
        reminded=bool(row["reminded"]),
    )


_SETTINGS = (
    "deadline_seconds", "absence_rule", "max_misses", "channel_policy", "language",
    "cancel_role_id",
)


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _table(row: aiosqlite.Row) -> TableRow:
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        host_id=row["host_id"],
        status=row["status"],
        posted_ply=row["posted_ply"],
        posted_final=bool(row["posted_final"]),
        message_id=row["message_id"],
        outcome=json.loads(row["outcome"]) if row["outcome"] else None,
        created_at=datetime.fromisoformat(row["created_at"]),
        started_at=_time(row["started_at"]),
        finished_at=_time(row["finished_at"]),
        deadline_seconds=row["deadline_seconds"],
        absence_rule=row["absence_rule"],
        max_misses=row["max_misses"],
        hints=bool(row["hints"]) if "hints" in row.keys() else False,
    )


def _standing(row: aiosqlite.Row, game: str | None) -> StandingRow:
    return StandingRow(
        user_id=row["user_id"],
        name=row["name"],
        game=game,
        games=row["games"],
        wins=row["wins"],
        average_rank=row["average_rank"],
        mu=row["mu"] if game else None,
        sigma=row["sigma"] if game else None,
    )


# Per (user, game) aggregates of results, with the name the user last played under.
_STANDINGS = """
    SELECT r.user_id, r.game, COUNT(*) AS games, SUM(r.rank = 1) AS wins,
           AVG(r.rank) AS average_rank,
           (SELECT name FROM results n WHERE n.guild_id = r.guild_id AND n.user_id = r.user_id
            ORDER BY n.finished_at DESC, n.table_id DESC LIMIT 1) AS name,
           g.mu, g.sigma
    FROM results r
    LEFT JOIN ratings g
           ON g.guild_id = r.guild_id AND g.game = r.game AND g.user_id = r.user_id
"""


class Repository:
    """Every query the bot makes. Create with `bot.storage.open_database`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task | None = None

    # -- connection, locking, transactions -------------------------------------------------

    @asynccontextmanager
    async def _use(self) -> AsyncIterator[aiosqlite.Connection]:
        task = asyncio.current_task()
        if self._owner is not None and self._owner is task:
            yield self._db  # re-entered from inside this task's transaction
            return
        async with self._lock:
            self._owner = task
            try:
                yield self._db
            finally:
                self._owner = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Group calls made inside into one transaction: all committed, or none on error."""
        async with self._use() as db:
            if db.in_transaction:  # nested: the outer transaction commits
                yield
                return
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await db.rollback()
                raise
            await db.commit()

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
        async with self._use() as db:
            return await db.execute(sql, params)

    async def _many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self._use() as db:
            await db.executemany(sql, rows)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        async with self._use() as db:  # one trip to the database thread, not three
            return list(await db.execute_fetchall(sql, params))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def close(self) -> None:
        async with self._use() as db:
            await db.close()

    async def schema_versions(self) -> list[int]:
        rows = await self._all("SELECT version FROM schema_version ORDER BY version")
        return [row[0] for row in rows]

    # -- tables ----------------------------------------------------------------------------

    async def insert_table(
        self,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        game: str,
        options: dict[str, Any],
        host_id: int,
        created_at: datetime,
    ) -> int:
        """A new lobby; raises PlaceTaken if its channel or thread has an active table."""
        try:
            cursor = await self._run(
                "INSERT INTO game_tables (guild_id, channel_id, thread_id, place_id, game,"
                " options, host_id, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?)",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    thread_id if thread_id is not None else channel_id,
                    game,
                    json.dumps(options),
                    host_id,
                    created_at.isoformat(),
                ),
            )
        except sqlite3.IntegrityError as err:
            raise PlaceTaken(channel_id if thread_id is None else thread_id) from err
        return cursor.lastrowid

    async def set_table_hints(self, table_id: int, hints: bool) -> None:
        await self._run("UPDATE game_tables SET hints = ? WHERE id = ?", (int(hints), table_id))

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._one("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        return _table(row) if row else None

    async def load_table(
        self, table_id: int
    ) -> tuple[TableRow, list[SeatRow], list[tuple[int, str]]] | None:
        """A table with its seats and move log, read together (no write in between)."""
        async with self._use():
            table = await self.get_table(table_id)
            if table is None:
                return None
            return table, await self.get_seats(table_id), await self.get_moves(table_id)

    async def active_table_id(self, place_id: int) -> int | None:
        """The lobby or running table in that channel or thread (place), if any."""
        row = await self._one(
            "SELECT id FROM game_tables WHERE place_id = ? AND status IN ('lobby', 'running')",
            (place_id,),
        )
        return row[0] if row else None

    async def running_table_ids(self) -> list[int]:
        rows = await self._all("SELECT id FROM game_tables WHERE status = 'running' ORDER BY id")
        return [row[0] for row in rows]

    async def start_table(self, table_id: int, options: dict[str, Any], at: datetime) -> None:
        await self._run(
            "UPDATE game_tables SET status = 'running', options = ?, started_at = ? WHERE id = ?",
            (json.dumps(options), at.isoformat(), table_id),
        )

    async def cancel_table(self, table_id: int, at: datetime) -> None:
        await self._run(
            "UPDATE game_tables SET status = 'cancelled', finished_at = ? WHERE id = ?",
            (at.isoformat(), table_id),
        )

    async def finish_table(self, table_id: int, outcome: dict[str, Any], at: datetime) -> None:
        await self._run(
            "UPDATE game_tables SET status = 'finished', outcome = ?, finished_at = ?"
            " WHERE id = ?",
            (json.dumps(outcome), at.isoformat(), table_id),
        )

    async def mark_posted(self, table_id: int, ply: int, message_id: int | None) -> None:
        """Record the posted board; never moves back (an older post may finish last). A post
        of the last ply of a finished table is its final board (a resign adds no ply)."""
        await self._run(
            "UPDATE game_tables SET posted_ply = ?, message_id = COALESCE(?, message_id),"
            " posted_final = posted_final OR (status = 'finished' AND ? >="
            "  (SELECT COUNT(*) FROM moves WHERE moves.table_id = game_tables.id))"
            " WHERE id = ? AND posted_ply <= ?",
            (ply, message_id, ply, table_id, ply),
        )

    async def unposted_table_ids(self, finished_after: datetime) -> list[int]:
        """Running tables, and tables finished since then whose final board is not posted."""
        rows = await self._all(
            "SELECT id FROM game_tables WHERE status = 'running' OR (status = 'finished'"
            " AND posted_final = 0 AND finished_at >= ?) ORDER BY id",
            (finished_after.isoformat(),),
        )
        return [row[0] for row in rows]

    # -- seats -----------------------------------------------------------------------------

    async def get_seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT position, user_id, name, side, misses, taken_over FROM seats"
            " WHERE table_id = ? ORDER BY position",
            (table_id,),
        )
        return [
            SeatRow(r["position"], r["user_id"], r["name"], r["side"], r["misses"],
                    bool(r["taken_over"]))
            for r in rows
        ]

    async def add_seat(self, table_id: int, user_id: int, name: str, side: int | None) -> None:
        """Seat a user last in join order."""
        await self._run(
            "INSERT INTO seats (table_id, position, user_id, name, side) VALUES (?,"
            " (SELECT COALESCE(MAX(position) + 1, 0) FROM seats WHERE table_id = ?), ?, ?, ?)",
            (table_id, table_id, user_id, name, side),
        )

    async def remove_seat(self, table_id: int, user_id: int) -> None:
        await self._run(
            "DELETE FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )

    async def set_seat_side(self, table_id: int, user_id: int, side: int | None) -> None:
        await self._run(
            "UPDATE seats SET side = ? WHERE table_id = ? AND user_id = ?",
            (side, table_id, user_id),
        )

    async def replace_seats(self, table_id: int, seats: Sequence[SeatRow]) -> None:
        """Rewrite the seats in turn order (at start)."""
        async with self.transaction():
            await self._run("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await self._many(
                "INSERT INTO seats (table_id, position, user_id, name, side)"
                " VALUES (?, ?, ?, ?, ?)",
                [(table_id, s.position, s.user_id, s.name, s.side) for s in seats],
            )

    # -- the move log ----------------------------------------------------------------------

    async def get_moves(self, table_id: int) -> list[tuple[int, str]]:
        rows = await self._all(
            "SELECT actor, move FROM moves WHERE table_id = ? ORDER BY ply", (table_id,)
        )
        return [(row[0], row[1]) for row in rows]

    async def append_moves(
        self, table_id: int, first_ply: int, moves: Sequence[tuple[int, str]], at: datetime
    ) -> None:
        """Append to the log from `first_ply`; a ply written twice fails (IntegrityError)."""
        stamp = at.isoformat()
        await self._many(
            "INSERT INTO moves (table_id, ply, actor, move, created_at) VALUES (?, ?, ?, ?, ?)",
            [(table_id, first_ply + i, a, m, stamp) for i, (a, m) in enumerate(moves)],
        )

    # -- guild settings and deadline timers (migration 0002) --------------------------------

    async def get_guild_settings(self, guild_id: int) -> dict[str, Any] | None:
        """The stored /settings of a guild (keys of _SETTINGS), or None if never set."""
        row = await self._one(
            f"SELECT {', '.join(_SETTINGS)} FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return {name: row[name] for name in _SETTINGS} if row else None

    async def put_guild_settings(
        self, guild_id: int, values: dict[str, Any], at: datetime
    ) -> None:
        """Store every setting of a guild (`values` has all keys of _SETTINGS)."""
        names = ", ".join(_SETTINGS)
        await self._run(
            f"INSERT INTO guild_settings (guild_id, {names}, updated_at)"
            f" VALUES (?, {', '.join('?' * len(_SETTINGS))}, ?) ON CONFLICT (guild_id) DO UPDATE"
            f" SET {', '.join(f'{n} = excluded.{n}' for n in _SETTINGS)},"
            " updated_at = excluded.updated_at",
            (guild_id, *(values[n] for n in _SETTINGS), at.isoformat()),
        )

    async def set_table_absence_rules(
        self, table_id: int, deadline_seconds: int, absence_rule: str, max_misses: int
    ) -> None:
        await self._run(
            "UPDATE game_tables SET deadline_seconds = ?, absence_rule = ?, max_misses = ?"
            " WHERE id = ?",
            (deadline_seconds, absence_rule, max_misses, table_id),
        )

    async def set_seat_absence(
        self, table_id: int, position: int, misses: int, taken_over: bool
    ) -> None:
        await self._run(
            "UPDATE seats SET misses = ?, taken_over = ? WHERE table_id = ? AND position = ?",
            (misses, int(taken_over), table_id, position),
        )

    async def get_timers(self, table_id: int) -> list[TimerRow]:
        rows = await self._all(
            "SELECT * FROM timers WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [_timer(row) for row in rows]

    async def put_timer(self, timer: TimerRow) -> None:
        """Create or replace the timer of (table, seat)."""
        await self._run(
            "INSERT OR REPLACE INTO timers (table_id, seat, since_ply, started_at, deadline_at,"
            " remind_at, reminded) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                timer.table_id,
                timer.seat,
                timer.since_ply,
                stamp(timer.started_at),
                stamp(timer.deadline_at),
                stamp(timer.remind_at) if timer.remind_at is not None else None,
                int(timer.reminded),
            ),
        )

    async def delete_timer(self, table_id: int, seat: int) -> None:
        await self._run("DELETE FROM timers WHERE table_id = ? AND seat = ?", (table_id, seat))

    async def postpone_timer(self, table_id: int, seat: int, deadline_at: datetime) -> None:
        await self._run(
            "UPDATE timers SET deadline_at = ? WHERE table_id = ? AND seat = ?",
            (stamp(deadline_at), table_id, seat),
        )

    async def mark_reminded(self, table_id: int, seat: int) -> None:
        await self._run(
            "UPDATE timers SET reminded = 1 WHERE table_id = ? AND seat = ?", (table_id, seat)
        )

    async def expired_timers(self, now: datetime) -> list[TimerRow]:
        """Timers whose deadline has passed, earliest first."""
        rows = await self._all(
            "SELECT * FROM timers WHERE deadline_at <= ? ORDER BY deadline_at, table_id, seat",
            (stamp(now),),
        )
        return [_timer(row) for row in rows]

    async def due_reminders(self, now: datetime) -> list[TimerRow]:
        """Timers whose reminder is due and not sent, and whose deadline has not passed."""
        rows = await self._all(
            "SELECT * FROM timers WHERE reminded = 0 AND remind_at <= ? AND deadline_at > ?"
            " ORDER BY remind_at, table_id, seat",
            (stamp(now), stamp(now)),
        )
        return [_timer(row) for row in rows]

    async def next_timer_time(self) -> datetime | None:
        """The earliest deadline or unsent reminder of any timer, or None if no timers."""
        row = await self._one(
            "SELECT MIN(t) FROM (SELECT MIN(deadline_at) AS t FROM timers"
            " UNION ALL SELECT MIN(remind_at) FROM timers WHERE reminded = 0)"
        )
        return _time(row[0]) if row else None

    # -- results and ratings ---------------------------------------------------------------

    async def insert_results(self, rows: Sequence[ResultRow]) -> None:
        await self._many(
            "INSERT INTO results (table_id, seat, guild_id, game, user_id, name, rank, score,"
            " resigned, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (r.table_id, r.seat, r.guild_id, r.game, r.user_id, r.name, r.rank, r.score,
                 int(r.resigned), r.finished_at.isoformat())
                for r in rows
            ],
        )

    async def get_results(self, table_id: int) -> list[ResultRow]:
        rows = await self._all(
            "SELECT * FROM results WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [
            ResultRow(r["table_id"], r["seat"], r["guild_id"], r["game"], r["user_id"],
                      r["name"], r["rank"], r["score"], bool(r["resigned"]),
                      datetime.fromisoformat(r["finished_at"]))
            for r in rows
        ]

    async def get_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, tuple[float, float]]:
        """(mu, sigma) of those users who have a rating in that guild and game."""
        marks = ", ".join("?" * len(user_ids))
        rows = await self._all(
            f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND user_id IN ({marks})",
            (guild_id, game, *user_ids),
        )
        return {row[0]: (row[1], row[2]) for row in rows}

    async def put_ratings(
        self, guild_id: int, game: str, ratings: dict[int, tuple[float, float]], at: datetime
    ) -> None:
        await self._many(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id)"
            " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " updated_at = excluded.updated_at",
            [(guild_id, game, u, mu, sigma, at.isoformat()) for u, (mu, sigma) in ratings.items()],
        )

    async def game_standings(self, guild_id: int, game: str) -> list[StandingRow]:
        """Every player of that game in the guild, with rating (unsorted: ratings.py sorts)."""
        rows = await self._all(
            _STANDINGS + " WHERE r.guild_id = ? AND r.game = ? GROUP BY r.user_id",
            (guild_id, game),
        )
        return [_standing(row, game) for row in rows]

    async def overall_standings(self, guild_id: int, limit: int) -> list[StandingRow]:
        """Players over all games in the guild: most wins, then most games, then best rank."""
        rows = await self._all(
            "SELECT r.user_id, COUNT(*) AS games, SUM(r.rank = 1) AS wins,"
            " AVG(r.rank) AS average_rank,"
            " (SELECT name FROM results n WHERE n.guild_id = r.guild_id"
            "  AND n.user_id = r.user_id ORDER BY n.finished_at DESC, n.table_id DESC LIMIT 1)"
            " AS name, NULL AS mu, NULL AS sigma"
            " FROM results r WHERE r.guild_id = ? GROUP BY r.user_id"
            " ORDER BY wins DESC, games DESC, average_rank ASC, r.user_id LIMIT ?",
            (guild_id, limit),
        )
        return [_standing(row, None) for row in rows]

    async def user_standings(self, guild_id: int, user_id: int) -> list[StandingRow]:
        """One player's standing in each game played in the guild, by game id."""
        rows = await self._all(
            _STANDINGS + " WHERE r.guild_id = ? AND r.user_id = ? GROUP BY r.game ORDER BY r.game",
            (guild_id, user_id),
        )
        return [_standing(row, row["game"]) for row in rows]
