"""Puzzles (migration 0008): each server's puzzles (guild 0: the shipped starter set), the
members' puzzle ratings and streaks, every puzzle shown and its one answer, and the daily
puzzle posts (one per server and local day, claimed by the process that posts it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.storage.base import Aggregate, marks
from bot.storage.driver import Execute, Fetch, Row, Unit, as_time, from_row, read_only
from engines.base import Record

STARTER = 0  # the guild id of the shipped starter set
# (member's (mu, sigma) or None, puzzle's (mu, sigma), solved) -> (member's, puzzle's) after.
RatePair = Callable[[tuple[float, float] | None, tuple[float, float], bool],
                    tuple[tuple[float, float], tuple[float, float]]]
# A claim whose process died before posting is taken over after this long.
STALE_CLAIM = timedelta(minutes=10)


@dataclass(frozen=True)
class NewPuzzle:
    """A puzzle to store: its data (engines.ai.puzzles' dict) and, if mined, its source."""

    data: Record  # engines.ai.puzzles' plain data, stored as JSON
    mu: float
    sigma: float
    table_id: int | None = None
    players: Sequence[tuple[int, str]] = ()
    ply: int | None = None


@dataclass(frozen=True)
class PuzzleRow:
    id: int
    guild_id: int
    game: str
    data: Record  # engines.ai.puzzles' plain data, stored as JSON
    table_id: int | None
    players: list[tuple[int, str]]
    ply: int | None
    mu: float
    sigma: float
    attempts: int
    solves: int


@dataclass(frozen=True)
class PuzzlePlayer:
    """A member's puzzle rating in one server and game."""

    game: str
    user_id: int
    mu: float
    sigma: float
    streak: int
    best_streak: int
    attempts: int
    solved: int


@dataclass(frozen=True)
class AttemptRow:
    id: int
    puzzle_id: int
    guild_id: int
    user_id: int
    daily_day: str | None
    shown_at: datetime
    answer: str | None
    correct: bool | None
    rated: bool
    answered_at: datetime | None


@dataclass(frozen=True)
class Answered:
    """One answer stored: whether it was rated (the member's first answer to that puzzle)
    and the ratings before and after, the streak after."""

    attempt: AttemptRow
    rated: bool
    before: tuple[float, float] | None  # the member's rating before (None: first puzzle)
    after: tuple[float, float] | None  # after (None: not rated)
    streak: int
    best_streak: int


@dataclass(frozen=True)
class DailyRow:
    guild_id: int
    day: str
    puzzle_id: int
    channel_id: int
    message_id: int | None
    claimed_at: datetime
    posted_at: datetime | None


@dataclass(frozen=True)
class DailySolvers:
    """Who solved a daily puzzle: how many, and the fastest (user id, seconds after the
    post), fastest first."""

    count: int
    fastest: list[tuple[int, float]]


_PUZZLE = ("SELECT p.id, p.guild_id, p.game, p.data, p.table_id, p.players, p.ply, p.mu,"
           " p.sigma, p.attempts, p.solves FROM puzzles p")


def _puzzle(row: Row) -> PuzzleRow:
    players = json.loads(row["players"]) if row["players"] else []
    return from_row(PuzzleRow, row, data=json.loads(row["data"]),
                    players=[(int(uid), str(name)) for uid, name in players])


def _add(guild_id: int, puzzles: Sequence[NewPuzzle], at: datetime) -> Unit[int]:
    added = 0
    for new in puzzles:
        data = new.data
        added += yield Execute(
            "INSERT INTO puzzles (guild_id, game, puzzle_key, data, table_id, players, ply, mu,"
            " sigma, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, game, puzzle_key) DO NOTHING",
            (guild_id, data["game"], data["key"], json.dumps(data, sort_keys=True),
             new.table_id, json.dumps([list(p) for p in new.players]) if new.players else None,
             new.ply, new.mu, new.sigma, at))
    return added


@read_only
def _pick(guild_id: int, user_id: int, games: Sequence[str], mu: float,
          exclude: Sequence[int]) -> Unit[PuzzleRow | None]:
    """The member's next puzzle: never solved by them in this server; first those never
    shown to them, then the server's own before the starter set, then the nearest to their
    rating in that game (`mu` for a game they never rated)."""
    skip = f" AND p.id NOT IN ({marks(len(exclude))})" if exclude else ""
    rows = yield Fetch(
        _PUZZLE + " LEFT JOIN puzzle_players r ON r.guild_id = ? AND r.user_id = ?"
        " AND r.game = p.game"
        f" WHERE p.guild_id IN (?, {STARTER}) AND p.game IN ({marks(len(games))}){skip}"
        " AND NOT EXISTS (SELECT 1 FROM puzzle_attempts s WHERE s.puzzle_id = p.id"
        " AND s.guild_id = ? AND s.user_id = ? AND s.correct = 1)"
        " ORDER BY CASE WHEN EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id"
        " AND a.guild_id = ? AND a.user_id = ? AND a.answer IS NOT NULL) THEN 1 ELSE 0 END,"
        f" CASE WHEN p.guild_id = {STARTER} THEN 1 ELSE 0 END,"
        " ABS(p.mu - COALESCE(r.mu, ?)), p.id LIMIT 1",
        (guild_id, user_id, guild_id, *games, *exclude, guild_id, user_id, guild_id, user_id,
         mu))
    return _puzzle(rows[0]) if rows else None


def _open(puzzle_id: int, guild_id: int, user_id: int, daily_day: str | None,
          at: datetime) -> Unit[AttemptRow]:
    """A new attempt; for a daily puzzle the member's attempt of that day if there is one
    (answered or not: the daily is answered once)."""
    if daily_day is not None:
        rows = yield Fetch(
            "SELECT * FROM puzzle_attempts WHERE guild_id = ? AND user_id = ? AND daily_day = ?"
            " ORDER BY id LIMIT 1", (guild_id, user_id, daily_day))
        if rows:
            return from_row(AttemptRow, rows[0])
    made = yield Fetch(
        "INSERT INTO puzzle_attempts (puzzle_id, guild_id, user_id, daily_day, shown_at)"
        " VALUES (?, ?, ?, ?, ?) RETURNING id", (puzzle_id, guild_id, user_id, daily_day, at))
    rows = yield Fetch("SELECT * FROM puzzle_attempts WHERE id = ?", (made[0]["id"],))
    return from_row(AttemptRow, rows[0])


def _answer(attempt_id: int, answer: str, correct: bool, rate: RatePair,
            at: datetime) -> Unit[Answered | None]:
    """Store the one answer of an attempt and, if it is the member's first answer to that
    puzzle, move both ratings and the streak; None if the attempt was answered already (by
    another press, in any process: the UPDATE only changes an unanswered attempt)."""
    rows = yield Fetch("SELECT * FROM puzzle_attempts WHERE id = ?", (attempt_id,))
    if not rows or rows[0]["answer"] is not None:
        return None
    attempt = from_row(AttemptRow, rows[0])
    earlier = yield Fetch(
        "SELECT 1 AS x FROM puzzle_attempts WHERE puzzle_id = ? AND guild_id = ?"
        " AND user_id = ? AND answer IS NOT NULL LIMIT 1",
        (attempt.puzzle_id, attempt.guild_id, attempt.user_id))
    rated = not earlier
    changed = yield Execute(
        "UPDATE puzzle_attempts SET answer = ?, correct = ?, rated = ?, answered_at = ?"
        " WHERE id = ? AND answer IS NULL", (answer, int(correct), int(rated), at, attempt_id))
    if changed != 1:
        return None
    attempt = from_row(AttemptRow, {**rows[0], "answer": answer, "correct": int(correct),
                                    "rated": int(rated), "answered_at": at})
    puzzles = yield Fetch("SELECT game, mu, sigma FROM puzzles WHERE id = ?",
                          (attempt.puzzle_id,))
    game = puzzles[0]["game"]
    players = yield Fetch(
        "SELECT mu, sigma, streak, best_streak FROM puzzle_players WHERE guild_id = ?"
        " AND game = ? AND user_id = ?", (attempt.guild_id, game, attempt.user_id))
    before = (players[0]["mu"], players[0]["sigma"]) if players else None
    streak = players[0]["streak"] if players else 0
    best = players[0]["best_streak"] if players else 0
    if not rated:
        return Answered(attempt, False, before, None, streak, best)
    mine, its = rate(before, (puzzles[0]["mu"], puzzles[0]["sigma"]), correct)
    streak = streak + 1 if correct else 0
    best = max(best, streak)
    yield Execute(
        "INSERT INTO puzzle_players (guild_id, game, user_id, mu, sigma, streak, best_streak,"
        " attempts, solved, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)"
        " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, streak = excluded.streak, best_streak = excluded.best_streak,"
        " attempts = puzzle_players.attempts + 1,"
        " solved = puzzle_players.solved + excluded.solved, updated_at = excluded.updated_at",
        (attempt.guild_id, game, attempt.user_id, mine[0], mine[1], streak, best,
         int(correct), at))
    yield Execute(
        "UPDATE puzzles SET mu = ?, sigma = ?, attempts = attempts + 1, solves = solves + ?"
        " WHERE id = ?", (its[0], its[1], int(correct), attempt.puzzle_id))
    return Answered(attempt, True, before, mine, streak, best)


def _claim_daily(guild_id: int, day: str, puzzle_id: int, channel_id: int,
                 at: datetime) -> Unit[bool]:
    """Insert the day's row if absent (True: this process posts it); a claim left unposted
    for STALE_CLAIM (its process died) is taken over by one UPDATE that only one wins."""
    made = yield Execute(
        "INSERT INTO puzzle_daily (guild_id, day, puzzle_id, channel_id, claimed_at)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, day) DO NOTHING",
        (guild_id, day, puzzle_id, channel_id, at))
    if made == 1:
        return True
    taken = yield Execute(
        "UPDATE puzzle_daily SET puzzle_id = ?, channel_id = ?, claimed_at = ?"
        " WHERE guild_id = ? AND day = ? AND message_id IS NULL AND claimed_at < ?",
        (puzzle_id, channel_id, at, guild_id, day, at - STALE_CLAIM))
    return bool(taken == 1)


class PuzzleRepository(Aggregate):
    """Puzzles, puzzle ratings, attempts and daily posts."""

    async def add(self, guild_id: int, puzzles: Sequence[NewPuzzle], at: datetime) -> int:
        """Store puzzles of a server (STARTER: the starter set); one already stored for that
        server, game and key is kept as it is. Returns how many were new."""
        return await self.run(_add, guild_id, list(puzzles), at) if puzzles else 0

    async def get(self, puzzle_id: int) -> PuzzleRow | None:
        rows = await self._rows(_PUZZLE + " WHERE p.id = ?", (puzzle_id,))
        return _puzzle(rows[0]) if rows else None

    async def pick(self, guild_id: int, user_id: int, games: Sequence[str], mu: float,
                   exclude: Sequence[int] = ()) -> PuzzleRow | None:
        """The member's next puzzle of one of `games` (see `_pick`), or None."""
        if not games:
            return None
        return await self.run(_pick, guild_id, user_id, list(games), mu, list(exclude))

    async def count(self, guild_id: int, games: Sequence[str]) -> dict[str, int]:
        """Puzzles of the server and the starter set, per game."""
        if not games:
            return {}
        rows = await self._rows(
            f"SELECT game, COUNT(*) AS n FROM puzzles WHERE guild_id IN (?, {STARTER})"
            f" AND game IN ({marks(len(games))}) GROUP BY game", (guild_id, *games))
        return {row["game"]: int(row["n"]) for row in rows}

    async def open_attempt(self, puzzle_id: int, guild_id: int, user_id: int, at: datetime,
                           daily_day: str | None = None) -> AttemptRow:
        """The puzzle shown to a member (see `_open`)."""
        return await self.run(_open, puzzle_id, guild_id, user_id, daily_day, at)

    async def attempt(self, attempt_id: int) -> AttemptRow | None:
        rows = await self._rows("SELECT * FROM puzzle_attempts WHERE id = ?", (attempt_id,))
        return from_row(AttemptRow, rows[0]) if rows else None

    async def answer(self, attempt_id: int, answer: str, correct: bool, rate: RatePair,
                     at: datetime) -> Answered | None:
        """Store an attempt's one answer (see `_answer`); None if answered already."""
        return await self.run(_answer, attempt_id, answer, correct, rate, at)

    async def players(self, guild_id: int, user_id: int) -> list[PuzzlePlayer]:
        """A member's puzzle ratings in a server, by game."""
        rows = await self._rows(
            "SELECT game, user_id, mu, sigma, streak, best_streak, attempts, solved"
            " FROM puzzle_players WHERE guild_id = ? AND user_id = ? ORDER BY game",
            (guild_id, user_id))
        return [from_row(PuzzlePlayer, row) for row in rows]

    # -- the daily puzzle ------------------------------------------------------------------

    async def daily_candidate(self, guild_id: int, games: Sequence[str]) -> PuzzleRow | None:
        """A puzzle never posted as this server's daily: its own first (newest first), then
        the starter set's."""
        if not games:
            return None
        rows = await self._rows(
            _PUZZLE + f" WHERE p.guild_id IN (?, {STARTER}) AND p.game IN"
            f" ({marks(len(games))}) AND NOT EXISTS (SELECT 1 FROM puzzle_daily d"
            " WHERE d.guild_id = ? AND d.puzzle_id = p.id)"
            f" ORDER BY CASE WHEN p.guild_id = {STARTER} THEN 1 ELSE 0 END, p.id DESC LIMIT 1",
            (guild_id, *games, guild_id))
        return _puzzle(rows[0]) if rows else None

    async def claim_daily(self, guild_id: int, day: str, puzzle_id: int, channel_id: int,
                          at: datetime) -> bool:
        """Claim the server's daily post of `day` (True: post it, then `daily_posted`)."""
        return await self.run(_claim_daily, guild_id, day, puzzle_id, channel_id, at)

    async def daily_posted(self, guild_id: int, day: str, message_id: int,
                           at: datetime) -> None:
        await self._execute(
            "UPDATE puzzle_daily SET message_id = ?, posted_at = ? WHERE guild_id = ?"
            " AND day = ?", (message_id, at, guild_id, day))

    async def release_daily(self, guild_id: int, day: str) -> None:
        """Give up a claim whose post failed (another sweep tries again)."""
        await self._execute(
            "DELETE FROM puzzle_daily WHERE guild_id = ? AND day = ? AND message_id IS NULL",
            (guild_id, day))

    async def daily(self, guild_id: int, day: str) -> DailyRow | None:
        rows = await self._rows("SELECT * FROM puzzle_daily WHERE guild_id = ? AND day = ?",
                                (guild_id, day))
        return from_row(DailyRow, rows[0]) if rows else None

    async def latest_daily(self, guild_id: int, before: str) -> DailyRow | None:
        """The newest daily post of the server before `day` (yesterday's, usually)."""
        rows = await self._rows(
            "SELECT * FROM puzzle_daily WHERE guild_id = ? AND day < ?"
            " AND message_id IS NOT NULL ORDER BY day DESC LIMIT 1", (guild_id, before))
        return from_row(DailyRow, rows[0]) if rows else None

    async def daily_solvers(self, daily: DailyRow, top: int) -> DailySolvers:
        """How many solved that daily puzzle (from its post) and the `top` fastest."""
        rows = await self._rows(
            "SELECT user_id, MIN(answered_at) AS first FROM puzzle_attempts"
            " WHERE guild_id = ? AND daily_day = ? AND correct = 1 GROUP BY user_id",
            (daily.guild_id, daily.day))
        start = daily.posted_at or daily.claimed_at
        times = sorted((max(0.0, (as_time(r["first"]) - start).total_seconds()), r["user_id"])
                       for r in rows)
        return DailySolvers(len(rows), [(uid, seconds) for seconds, uid in times[:top]])
