"""Tables and their moves: a table's row, seats, move log and turn timers, the lobby, the
posting marks; every query of the move path.

Each public method runs one unit (driver.py) as one transaction. The move path needs two of
them: `load_table` (one read) and `commit` (one write, refused when another writer moved the
table first). A commit that ends a game writes its results and ratings too (results.py), in
the same transaction.

Posting a table's board is claimed, so that two processes never post the same ply: the claim
(`posting_by`, `posting_until`: a lease) is taken in the commit's own UPDATE when it is free
or already the committer's, or by `claim_posting` before a catch-up post, and released by
`mark_posted` unless the table moved on meanwhile (its holder posts the newer board too).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.storage.base import Aggregate, marks
from bot.storage.driver import (
    Conflict,
    Execute,
    ExecuteMany,
    Fetch,
    Json,
    Row,
    Unit,
    as_time,
    from_row,
    not_durable,
    one_statement,
    read_only,
)
from bot.storage.results import Finish, record_finish


class PlaceTaken(Exception):
    """The channel or thread already has an active (lobby or running) table."""


class ServerFull(Exception):
    """The guild already has `limit` lobbies and running tables."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


class HostBusy(Exception):
    """The member already hosts an open lobby in the guild: `table_id`."""

    def __init__(self, table_id: int) -> None:
        super().__init__(table_id)
        self.table_id = table_id


@dataclass(frozen=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str
    options: Json
    host_id: int
    status: str
    posted_ply: int
    posted_final: bool
    message_id: int | None
    outcome: Json | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    # Absence rules fixed at /play (migration 0002); None on older tables.
    deadline_seconds: int | None = None
    absence_rule: str | None = None
    max_misses: int | None = None
    hints: bool = False  # /hint allowed: the table is unrated (migration 0003)
    ply: int = 0  # moves in the log (migration 0004)
    # Where /play posted the lobby (migration 0005); None: not posted (yet).
    lobby_channel_id: int | None = None
    lobby_message_id: int | None = None
    broken: bool = False  # the move log no longer replays


@dataclass(frozen=True)
class SeatRow:
    position: int
    user_id: int
    name: str
    side: int | None
    misses: int = 0  # deadlines missed in a row
    taken_over: bool = False  # played by the computer for the rest of the game


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


@dataclass(frozen=True)
class LoadedTable:
    """A table read in one unit: its row, seats, the log from `first_ply`, and timers."""

    row: TableRow
    seats: list[SeatRow]
    first_ply: int
    moves: list[tuple[int, str]]
    timers: list[TimerRow]


@dataclass(frozen=True)
class Commit:
    """One change of a table, written whole or not at all. It is refused (commit returns
    False) unless the table is still at `ply` with `status` and not broken: another writer
    changed it first (a move, a cancel, a resign), so the change must be made again from
    what is stored now."""

    table_id: int
    ply: int
    at: datetime
    # The table's status when the change was made (None: "lobby" for a start, else "running").
    status: str | None = None
    moves: Sequence[tuple[int, str]] = ()
    start: tuple[list[SeatRow], Json] | None = None  # turn order, full options
    absence: Sequence[tuple[int, int, bool]] = ()  # (seat, misses, taken_over)
    finish: Finish | None = None
    cancel: bool = False
    # The timers wanted afterwards: seat -> (since_ply, deadline, remind_at). A timer whose
    # seat and decision are unchanged keeps its own deadline, reminder and claim.
    timers: dict[int, tuple[int, datetime, datetime | None]] = field(default_factory=dict)
    # (process name, lease end): claim the posting of the board for that process unless
    # another one holds a claim that lasts beyond `at` (see Committed).
    posting: tuple[str, datetime] | None = None


@dataclass(frozen=True)
class Committed:
    """A Commit written; `posting`: whether its process holds the board's posting claim."""

    posting: bool


# The posting claim is free at a time (?) for a process (?): none, run out, or its own.
_POSTING_FREE = "(posting_until IS NULL OR posting_until < ? OR posting_by = ?)"


def _table(row: Row) -> TableRow:
    return from_row(TableRow, row, options=json.loads(row["options"]),
                    outcome=json.loads(row["outcome"]) if row["outcome"] else None)


_TIMER_COLUMNS = "table_id, seat, since_ply, started_at, deadline_at, remind_at, reminded"
_SEAT_COLUMNS = "position, user_id, name, side, misses, taken_over"


# -- units ----------------------------------------------------------------------------------


@not_durable  # one disk flush less per move; lost in a power cut, the board is reposted
@one_statement  # once per move: no BEGIN and COMMIT round trips
def _mark_posted(table_id: int, ply: int, message_id: int | None,
                 owner: str) -> Unit[int | None]:
    # `owner`'s posting claim ends here, unless the table moved past `ply` meanwhile (another
    # process's move that could not claim it): then it is kept for the newer board.
    release = "CASE WHEN posting_by = ? AND ply <= ? THEN NULL ELSE {} END"
    rows = yield Fetch(
        "UPDATE game_tables SET posted_ply = ?, message_id = COALESCE(?, message_id),"
        " posted_final = CASE WHEN posted_final = 1 OR (status = 'finished' AND ? >= ply)"
        f" THEN 1 ELSE 0 END, posting_by = {release.format('posting_by')},"
        f" posting_until = {release.format('posting_until')}"
        " WHERE id = ? AND posted_ply <= ? RETURNING ply, posting_by",
        (ply, message_id, ply, owner, ply, owner, ply, table_id, ply))
    if rows and rows[0]["posting_by"] == owner and rows[0]["ply"] > ply:
        return int(rows[0]["ply"])
    return None


@read_only
def _load(table_id: int, first_ply: int) -> Unit[LoadedTable | None]:
    rows = yield Fetch("SELECT * FROM game_tables WHERE id = ?", (table_id,))
    if not rows:
        return None
    seats = yield Fetch(
        f"SELECT {_SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY position", (table_id,)
    )
    moves = yield Fetch(
        "SELECT actor, move FROM moves WHERE table_id = ? AND ply >= ? ORDER BY ply",
        (table_id, first_ply),
    )
    timers = yield Fetch(
        f"SELECT {_TIMER_COLUMNS} FROM timers WHERE table_id = ? ORDER BY seat", (table_id,)
    )
    return LoadedTable(_table(rows[0]), [from_row(SeatRow, s) for s in seats], first_ply,
                       [(m["actor"], m["move"]) for m in moves],
                       [from_row(TimerRow, t) for t in timers])


# -- units: writes --------------------------------------------------------------------------


_LOBBY_OF_HOST = ("SELECT id FROM game_tables WHERE guild_id = ? AND host_id = ?"
                  " AND status = 'lobby' ORDER BY id LIMIT 1")
_ACTIVE_IN_GUILD = ("SELECT COUNT(*) AS n FROM game_tables WHERE guild_id = ?"
                    " AND status IN ('lobby', 'running')")
# PostgreSQL: held until the unit's transaction ends, so racing lobbies of one guild (in any
# process) are checked one after the other. SQLite's write transaction already is exclusive.
_GUILD_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))"


# guild, channel, thread, place, game, options (JSON), host, created at
_NewTable = tuple[int, int, int | None, int, str, str, int, datetime]


def _open_lobby(
    values: _NewTable, rules: tuple[int, str, int], hints: bool, host: SeatRow,
    one_per_host: bool, max_active: int | None, guild_lock: str,
) -> Unit[int]:
    guild_id = values[0]
    if guild_lock and (one_per_host or max_active is not None):
        yield Fetch(guild_lock, (f"lobbies of guild {guild_id}",))
    if one_per_host:
        mine = yield Fetch(_LOBBY_OF_HOST, (guild_id, host.user_id))
        if mine:
            raise HostBusy(mine[0]["id"])
    if max_active is not None:
        active = yield Fetch(_ACTIVE_IN_GUILD, (guild_id,))
        if active[0]["n"] >= max_active:
            raise ServerFull(max_active)
    try:
        rows = yield Fetch(
            "INSERT INTO game_tables (guild_id, channel_id, thread_id, place_id, game, options,"
            " host_id, status, created_at, deadline_seconds, absence_rule, max_misses, hints)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?) RETURNING id",
            (*values, *rules, int(hints)),
        )
    except Conflict as err:
        raise PlaceTaken(values[3]) from err
    table_id = rows[0]["id"]
    yield Execute(
        "INSERT INTO seats (table_id, position, user_id, name, side) VALUES (?, 0, ?, ?, ?)",
        (table_id, host.user_id, host.name, host.side),
    )
    return table_id


def _timer_sync(table_id: int, now: datetime, wanted: dict[int, tuple[int, datetime,
                datetime | None]]) -> Unit[None]:
    """The table's timers become `wanted` (seat -> its decision's first ply, deadline,
    reminder). A timer whose decision goes on (same seat, same first ply) stays as it is, its
    reminder sent or not; the others are deleted, and the new ones inserted: two statements,
    without reading the timers first."""
    going_on = " OR ".join(["(seat = ? AND since_ply = ?)"] * len(wanted))
    yield Execute("DELETE FROM timers WHERE table_id = ?" + (f" AND NOT ({going_on})"
                                                              if wanted else ""),
                  (table_id, *(v for seat in sorted(wanted) for v in (seat, wanted[seat][0]))))
    if wanted:
        yield ExecuteMany(
            f"INSERT INTO timers ({_TIMER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, seat) DO NOTHING",  # kept: its decision goes on
            [(table_id, seat, since, now, deadline, remind, 0)
             for seat, (since, deadline, remind) in sorted(wanted.items())],
        )


def _ply_update(commit: Commit) -> tuple[str, tuple[object, ...]]:
    """The guarded UPDATE that moves the table's ply on (no row: another writer moved
    first), taking the board's posting claim in the same statement when it is free."""
    owner, until = commit.posting or ("", None)
    claim: tuple[object, ...] = ()
    claiming = ""
    if commit.posting is not None:  # in the same statement: no round trip more per move
        claiming = (f", posting_by = CASE WHEN {_POSTING_FREE} THEN ? ELSE posting_by END,"
                    f" posting_until = CASE WHEN {_POSTING_FREE} THEN ? ELSE posting_until END")
        claim = (commit.at, owner, owner, commit.at, owner, until)
    return (f"UPDATE game_tables SET ply = ply + ?{claiming} WHERE id = ? AND ply = ?"
            " AND status = ? AND broken = 0 RETURNING posting_by",
            (len(commit.moves), *claim, commit.table_id, commit.ply,
             commit.status or ("lobby" if commit.start is not None else "running")))


def _committed(commit: Commit, rows: list[Row]) -> Committed | None:
    if not rows:
        return None  # another writer moved first: the caller reloads and checks again
    owner = commit.posting[0] if commit.posting else ""
    return Committed(posting=bool(owner) and rows[0]["posting_by"] == owner)


def _commit(commit: Commit) -> Unit[Committed | None]:
    t = commit.table_id
    rows = yield Fetch(*_ply_update(commit))
    committed = _committed(commit, rows)
    if committed is None:
        return None
    if commit.start is not None:
        seats, options = commit.start
        yield Execute("DELETE FROM seats WHERE table_id = ?", (t,))
        yield ExecuteMany(
            "INSERT INTO seats (table_id, position, user_id, name, side) VALUES (?, ?, ?, ?, ?)",
            [(t, s.position, s.user_id, s.name, s.side) for s in seats],
        )
        yield Execute(
            "UPDATE game_tables SET status = 'running', options = ?, started_at = ?"
            " WHERE id = ?",
            (json.dumps(options), commit.at, t),
        )
    if commit.moves:
        yield ExecuteMany(
            "INSERT INTO moves (table_id, ply, actor, move, created_at) VALUES (?, ?, ?, ?, ?)",
            [(t, commit.ply + i, a, m, commit.at) for i, (a, m) in enumerate(commit.moves)],
        )
    for seat, misses, taken in commit.absence:
        yield Execute(
            "UPDATE seats SET misses = ?, taken_over = ? WHERE table_id = ? AND position = ?",
            (misses, int(taken), t, seat),
        )
    if commit.cancel:
        yield Execute(
            "UPDATE game_tables SET status = 'cancelled', finished_at = ? WHERE id = ?",
            (commit.at, t),
        )
    if commit.finish is not None:
        yield Execute(
            "UPDATE game_tables SET status = 'finished', outcome = ?, finished_at = ?"
            " WHERE id = ?",
            (json.dumps(commit.finish.outcome), commit.at, t),
        )
        yield from record_finish(commit.finish, commit.at)
    yield from _timer_sync(t, commit.at, commit.timers)
    return committed


def moves_only(commit: Commit) -> bool:
    """A change of the log and the timers only: most moves."""
    return commit.start is None and not commit.absence and not commit.cancel \
        and commit.finish is None


# Each clause writes only if the guarded UPDATE (`up`) matched. A timer whose decision goes on
# is left as it is; another seat's new decision replaces its row in place: the clauses of one
# statement share one snapshot, so a row deleted in one could not be inserted again in another.
_COMMIT_AT_ONCE = (
    "WITH up AS ({update}),"
    " logged AS (INSERT INTO moves (table_id, ply, actor, move, created_at)"
    " SELECT ?::bigint, m.ply, m.actor, m.move, ?::timestamptz FROM up,"
    " unnest(?::int[], ?::int[], ?::text[]) AS m(ply, actor, move)),"
    " ended AS (DELETE FROM timers WHERE table_id = ? AND seat <> ALL(?::int[])"
    " AND EXISTS (SELECT 1 FROM up)),"
    f" timed AS (INSERT INTO timers ({_TIMER_COLUMNS})"
    " SELECT ?::bigint, s.seat, s.since, ?::timestamptz, s.deadline, s.remind, 0 FROM up,"
    " unnest(?::int[], ?::int[], ?::timestamptz[], ?::timestamptz[])"
    " AS s(seat, since, deadline, remind)"
    " ON CONFLICT (table_id, seat) DO UPDATE SET since_ply = excluded.since_ply,"
    " started_at = excluded.started_at, deadline_at = excluded.deadline_at,"
    " remind_at = excluded.remind_at, reminded = 0, claimed_until = NULL, claimed_by = NULL"
    " WHERE timers.since_ply <> excluded.since_ply)"
    " SELECT posting_by FROM up"
)


@one_statement
def _commit_at_once(commit: Commit) -> Unit[Committed | None]:
    """`_commit` of a `moves_only` change on PostgreSQL, as one statement: atomic by itself,
    so one round trip instead of six (BEGIN, four statements, COMMIT)."""
    t, at = commit.table_id, commit.at
    update, params = _ply_update(commit)
    timers = sorted(commit.timers.items())
    rows = yield Fetch(_COMMIT_AT_ONCE.format(update=update), (
        *params,
        t, at, [commit.ply + i for i in range(len(commit.moves))],
        [actor for actor, _ in commit.moves], [move for _, move in commit.moves],
        t, [seat for seat, _ in timers],
        t, at, [seat for seat, _ in timers], [since for _, (since, _, _) in timers],
        [deadline for _, (_, deadline, _) in timers], [remind for _, (_, _, remind) in timers],
    ))
    return _committed(commit, rows)


def _mark_broken(table_id: int) -> Unit[None]:
    yield Execute("UPDATE game_tables SET broken = 1 WHERE id = ?", (table_id,))
    yield Execute("DELETE FROM timers WHERE table_id = ?", (table_id,))


def _end_table(table_id: int, at: datetime, statuses: tuple[str, ...]) -> Unit[bool]:
    changed = yield Execute(
        "UPDATE game_tables SET status = 'cancelled', finished_at = ?"
        f" WHERE id = ? AND status IN ({marks(len(statuses))})",
        (at, table_id, *statuses),
    )
    if changed != 1:
        return False
    yield Execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
    return True


def _in_shards(shards: tuple[int, tuple[int, ...]]) -> tuple[str, list[object]]:
    """A condition on game_tables: the table's guild is in one of these Discord shards
    (shard count, ids), as Discord assigns guilds to shards."""
    count, ids = shards
    return f"((guild_id >> 22) % ?) IN ({marks(len(ids))})", [count, *ids]


def _claim_timers(
    now: datetime, until: datetime, owner: str, limit: int, locking: str,
    shards: tuple[int, tuple[int, ...]] | None,
) -> Unit[list[TimerRow]]:
    """Due timers (deadline passed, or reminder due) that nobody holds a live lease on; with
    `shards` (count, ids), only those of tables in guilds of those Discord shards."""
    where, params = "", list[object]()
    if shards is not None:
        guilds, params = _in_shards(shards)
        where = f" AND table_id IN (SELECT id FROM game_tables WHERE {guilds})"
    rows = yield Fetch(
        f"SELECT {_TIMER_COLUMNS} FROM timers"
        " WHERE (deadline_at <= ? OR (reminded = 0 AND remind_at <= ?))"
        f" AND (claimed_until IS NULL OR claimed_until < ?){where}"
        f" ORDER BY deadline_at, table_id, seat LIMIT ?{locking}",
        (now, now, now, *params, limit),
    )
    if rows:
        yield ExecuteMany(
            "UPDATE timers SET claimed_until = ?, claimed_by = ? WHERE table_id = ? AND seat = ?",
            [(until, owner, r["table_id"], r["seat"]) for r in rows],
        )
    return [from_row(TimerRow, r) for r in rows]


def _insert_seat(table_id: int, user_id: int, name: str, side: int | None) -> Unit[int]:
    try:
        return (yield Execute(
            "INSERT INTO seats (table_id, position, user_id, name, side) VALUES (?,"
            " (SELECT COALESCE(MAX(position) + 1, 0) FROM seats WHERE table_id = ?), ?, ?, ?)",
            (table_id, table_id, user_id, name, side),
        ))
    except Conflict:
        return 0  # seated already (a double click, or another process)


class TableRepository(Aggregate):
    """Tables, seats, moves and timers: every query of a table's life."""

    # -- tables ----------------------------------------------------------------------------

    async def open_lobby(
        self, guild_id: int, channel_id: int, thread_id: int | None, game: str,
        options: Json, host: SeatRow, created_at: datetime,
        rules: tuple[int, str, int], hints: bool = False, one_per_host: bool = False,
        max_active: int | None = None,
    ) -> int:
        """A new lobby with its host seated; PlaceTaken if its place has an active table;
        with `one_per_host`, HostBusy if the host already has an open lobby in the guild;
        with `max_active`, ServerFull if the guild has that many lobbies and running tables
        (both checked atomically, across processes too)."""
        place = thread_id if thread_id is not None else channel_id
        values: _NewTable = (guild_id, channel_id, thread_id, place, game,
                             json.dumps(options), host.user_id, created_at)
        guild_lock = _GUILD_LOCK if self.dialect == "postgresql" else ""
        return await self.run(_open_lobby, values, rules, hints, host, one_per_host,
                              max_active, guild_lock)

    async def load_table(self, table_id: int, first_ply: int = 0) -> LoadedTable | None:
        """A table with its seats, timers and the log from `first_ply`, read together."""
        return await self.run(_load, table_id, first_ply)

    async def get_table(self, table_id: int) -> TableRow | None:
        rows = await self._rows("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        return _table(rows[0]) if rows else None

    async def active_table_id(self, place_id: int) -> int | None:
        """The lobby or running table in that channel or thread (place), if any."""
        rows = await self._rows(
            "SELECT id FROM game_tables WHERE place_id = ? AND status IN ('lobby', 'running')",
            (place_id,),
        )
        return rows[0]["id"] if rows else None

    async def running_table_ids(
        self, shards: tuple[int, tuple[int, ...]] | None = None
    ) -> list[int]:
        """Running tables, with `shards` (count, ids) only those in guilds of those shards."""
        guilds, params = _in_shards(shards) if shards is not None else ("1 = 1", [])
        rows = await self._rows("SELECT id FROM game_tables WHERE status = 'running'"
                                f" AND broken = 0 AND {guilds} ORDER BY id", params)
        return [row["id"] for row in rows]

    async def set_lobby_message(self, table_id: int, channel_id: int, message_id: int) -> None:
        """Where the lobby message of a table was posted."""
        await self._execute(
            "UPDATE game_tables SET lobby_channel_id = ?, lobby_message_id = ? WHERE id = ?",
            (channel_id, message_id, table_id),
        )

    async def open_lobby_of(self, guild_id: int, host_id: int) -> int | None:
        """The open lobby a member hosts in a guild, if any."""
        rows = await self._rows(_LOBBY_OF_HOST, (guild_id, host_id))
        return rows[0]["id"] if rows else None

    async def active_count(self, guild_id: int) -> int:
        """Lobbies and running tables of a guild."""
        rows = await self._rows(_ACTIVE_IN_GUILD, (guild_id,))
        return int(rows[0]["n"])

    async def open_counts(self) -> dict[str, int]:
        rows = await self._rows(
            "SELECT status, COUNT(*) AS n FROM game_tables"
            " WHERE status IN ('lobby', 'running') GROUP BY status"
        )
        return {"lobby": 0, "running": 0, **{r["status"]: int(r["n"]) for r in rows}}

    async def mark_broken(self, table_id: int) -> None:
        """The table's log no longer replays: no timer or sweep touches it again."""
        await self.run(_mark_broken, table_id)

    async def end_table(self, table_id: int, at: datetime, statuses: tuple[str, ...]) -> bool:
        """Cancel a table still in one of `statuses` (log and seats kept, timers dropped);
        False if it was not (already ended, or ended by another process: once only)."""
        return await self.run(_end_table, table_id, at, statuses)

    async def old_lobbies(self, created_before: datetime) -> list[tuple[int, int, datetime, int]]:
        """(id, guild id, created at, the guild's lobby minutes) of lobbies created before
        `created_before`: the candidates for expiry."""
        rows = await self._rows(
            "SELECT t.id, t.guild_id, t.created_at, COALESCE(s.lobby_minutes, 30) AS minutes"
            " FROM game_tables t LEFT JOIN guild_settings s ON s.guild_id = t.guild_id"
            " WHERE t.status = 'lobby' AND t.created_at <= ? ORDER BY t.id",
            (created_before,),
        )
        return [(r["id"], r["guild_id"], as_time(r["created_at"]), r["minutes"]) for r in rows]

    async def commit(self, commit: Commit) -> Committed | None:
        """Write a change of a table (Commit); None if its ply moved meanwhile."""
        at_once = self.dialect == "postgresql" and moves_only(commit)
        return await self.run(_commit_at_once if at_once else _commit, commit)

    async def cancel_lobby(self, table_id: int, at: datetime) -> bool:
        changed = await self._execute(
            "UPDATE game_tables SET status = 'cancelled', finished_at = ?"
            " WHERE id = ? AND status = 'lobby'",
            (at, table_id),
        )
        return changed == 1

    async def mark_posted(self, table_id: int, ply: int, message_id: int | None,
                          owner: str = "") -> int | None:
        """Record the posted board; never moves back (an older post may finish last). A post
        of the last ply of a finished table is its final board (a resign adds no ply).
        `owner`'s posting claim is released, unless the table has moved past `ply`: then the
        claim stays `owner`'s and the newer ply, whose board it must post, is returned."""
        return await self.run(_mark_posted, table_id, ply, message_id, owner)

    async def claim_posting(self, table_id: int, owner: str, now: datetime,
                            until: datetime) -> bool:
        """Claim the posting of the table's board for `owner` until `until`; False while
        another process holds a claim that has not run out at `now`."""
        changed = await self._execute(
            f"UPDATE game_tables SET posting_by = ?, posting_until = ? WHERE id = ?"
            f" AND {_POSTING_FREE}",
            (owner, until, table_id, now, owner))
        return changed == 1

    async def release_postings(self, owner: str) -> None:
        """Release every posting claim `owner` holds (a process that stops)."""
        await self._execute("UPDATE game_tables SET posting_by = NULL, posting_until = NULL"
                            " WHERE posting_by = ?", (owner,))

    async def unposted_tables(
        self, finished_after: datetime, quiet_since: datetime | None = None,
        free_for: tuple[datetime, str] | None = None,
    ) -> list[tuple[int, int]]:
        """(id, guild id) of running tables whose board is behind, and of tables finished
        since `finished_after` whose final board is not posted; with `quiet_since`, only
        those with no move since then (a fresh board is still being posted by its mover);
        with `free_for` (now, process name), only those whose posting that process may claim
        (no other process is posting them)."""
        quiet = ""
        params: list[object] = [finished_after]
        if free_for is not None:
            quiet = f" AND {_POSTING_FREE}"
            params += list(free_for)
        if quiet_since is not None:
            quiet += (" AND NOT EXISTS (SELECT 1 FROM moves m WHERE m.table_id = game_tables.id"
                     " AND m.created_at > ?) AND COALESCE(finished_at, started_at) <= ?")
            params += [quiet_since, quiet_since]
        rows = await self._rows(
            "SELECT id, guild_id FROM game_tables WHERE broken = 0 AND"
            " ((status = 'running' AND posted_ply < ply)"
            " OR (status = 'finished' AND posted_final = 0 AND finished_at >= ?))"
            f"{quiet} ORDER BY id",
            params,
        )
        return [(row["id"], row["guild_id"]) for row in rows]

    # -- seats (lobby) ---------------------------------------------------------------------

    async def get_seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._rows(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY position",
            (table_id,),
        )
        return [from_row(SeatRow, r) for r in rows]

    async def add_seat(self, table_id: int, user_id: int, name: str, side: int | None) -> bool:
        """Seat a user last in join order; False if they were seated already."""
        return await self.run(_insert_seat, table_id, user_id, name, side) == 1

    async def remove_seat(self, table_id: int, user_id: int) -> None:
        await self._execute(
            "DELETE FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )

    async def set_seat_side(self, table_id: int, user_id: int, side: int | None) -> None:
        await self._execute(
            "UPDATE seats SET side = ? WHERE table_id = ? AND user_id = ?",
            (side, table_id, user_id),
        )

    async def get_moves(self, table_id: int) -> list[tuple[int, str]]:
        rows = await self._rows(
            "SELECT actor, move FROM moves WHERE table_id = ? ORDER BY ply", (table_id,)
        )
        return [(row["actor"], row["move"]) for row in rows]

    # -- timers ----------------------------------------------------------------------------

    async def get_timers(self, table_id: int) -> list[TimerRow]:
        rows = await self._rows(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [from_row(TimerRow, row) for row in rows]

    async def claim_timers(
        self, now: datetime, until: datetime, owner: str, limit: int = 50,
        shards: tuple[int, tuple[int, ...]] | None = None,
    ) -> list[TimerRow]:
        """Claim due timers for `owner` until `until`: no other process gets them while the
        lease lasts; if `owner` dies, they are due again once it has run out. `shards`:
        (shard count, this process's shard ids) to claim only its own guilds' timers."""
        locking = " FOR UPDATE SKIP LOCKED" if self.dialect == "postgresql" else ""
        return await self.run(_claim_timers, now, until, owner, limit, locking, shards)

    async def release_timer(self, table_id: int, seat: int, owner: str,
                            retry_at: datetime | None = None) -> None:
        """Give a claimed timer back (optionally not due again before `retry_at`)."""
        await self._execute(
            "UPDATE timers SET claimed_until = ?, claimed_by = NULL"
            " WHERE table_id = ? AND seat = ? AND claimed_by = ?",
            (retry_at, table_id, seat, owner),
        )

    async def mark_reminded(self, table_id: int, seat: int, since_ply: int) -> bool:
        """Mark a reminder sent, once: False if it was sent already or the decision moved."""
        changed = await self._execute(
            "UPDATE timers SET reminded = 1 WHERE table_id = ? AND seat = ? AND since_ply = ?"
            " AND reminded = 0",
            (table_id, seat, since_ply),
        )
        return changed == 1

    async def next_timer_time(self) -> datetime | None:
        """The earliest deadline or unsent reminder of any timer, or None if no timers."""
        rows = await self._rows(
            "SELECT MIN(t) AS t FROM (SELECT MIN(deadline_at) AS t FROM timers"
            " UNION ALL SELECT MIN(remind_at) AS t FROM timers WHERE reminded = 0) AS due"
        )
        return as_time(rows[0]["t"]) if rows else None
