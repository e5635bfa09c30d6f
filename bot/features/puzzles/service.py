"""The puzzle service (no Discord here): the starter set, storing mined puzzles, choosing a
member's next puzzle, answering it once (ratings and streaks), and the daily puzzle's claim.

Ratings are openskill's (bot/tables/ratings.py): each first answer to a puzzle is a 1-v-1
game of the member against the puzzle, so both ratings move; a retry of a puzzle answered
wrongly before is practice and moves nothing. The puzzles come from engines.ai.puzzles.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from bot.storage import Conflict
from bot.storage.puzzles import (
    STARTER,
    Answered,
    AttemptRow,
    DailyRow,
    DailySolvers,
    NewPuzzle,
    PuzzlePlayer,
    PuzzleRepository,
    PuzzleRow,
)
from bot.storage.settings import PuzzleChannel
from bot.tables.ratings import initial, rate_answer
from bot.tables.settings import ServerSettings, zone_named
from engines import game_ids
from engines.ai.puzzles import check, has_puzzles, starter
from engines.base import Record

log = logging.getLogger(__name__)

MAX_CHOICES = 125  # 5 selects of 25: a puzzle with more legal moves is never shown


class PuzzleError(Exception):
    """A puzzle request refused; `code`: no_puzzles, not_yours, answered, gone."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Shown:
    """A puzzle shown to a member: the stored puzzle and the attempt its answer closes."""

    puzzle: PuzzleRow
    attempt: AttemptRow


@dataclass(frozen=True)
class Result:
    """An answer: the move, whether it was right, and what it changed."""

    shown: Shown
    answer: str
    correct: bool
    answered: Answered


def puzzle_games() -> list[str]:
    """The registered games whose spec names a puzzle maker."""
    return [game for game in game_ids() if has_puzzles(game)]


def new_puzzle(data: Record, table_id: int | None = None,
               players: Sequence[tuple[int, str]] = (), ply: int | None = None) -> NewPuzzle:
    """A puzzle to store: its own rating starts at its difficulty estimate."""
    return NewPuzzle(data, mu=float(data.get("difficulty", initial()[0])), sigma=initial()[1],
                     table_id=table_id, players=list(players), ply=ply)


class PuzzleService:
    def __init__(self, repo: PuzzleRepository, settings: ServerSettings,
                 now: Callable[[], datetime]) -> None:
        self.repo, self.settings, self.now = repo, settings, now

    @staticmethod
    def games() -> list[str]:
        return puzzle_games()

    async def load_starter(self) -> int:
        """Store the shipped starter sets (idempotent: known keys are kept); how many new."""
        added = 0
        for game in self.games():
            found = [new_puzzle(p) for p in starter(game) if _showable(p)]
            added += await self.repo.add(STARTER, found, self.now())
        return added

    async def store_mined(self, guild_id: int, table_id: int, players: Sequence[tuple[int, str]],
                          found: Sequence[Record]) -> int:
        """Keep a finished table's puzzles for its server (a position known there merges)."""
        rows = [new_puzzle(p, table_id, players, len(p["log"])) for p in found if _showable(p)]
        return await self.repo.add(guild_id, rows, self.now())

    async def next_puzzle(self, guild_id: int, user_id: int, game: str | None,
                          exclude: Sequence[int] = ()) -> Shown:
        """A puzzle for the member (of `game`, else of any game): PuzzleError("no_puzzles")
        when the server and the starter set have none left for them."""
        games = [g for g in self.games() if game is None or g == game]
        row = await self.repo.pick(guild_id, user_id, games, initial()[0], exclude)
        if row is None and exclude:  # every other puzzle is solved: the same one again
            row = await self.repo.pick(guild_id, user_id, games, initial()[0])
        if row is None:
            raise PuzzleError("no_puzzles")
        attempt = await self.repo.open_attempt(row.id, guild_id, user_id, self.now())
        return Shown(row, attempt)

    async def open_daily(self, guild_id: int, user_id: int, day: str) -> Shown:
        """The day's daily puzzle for the member, answered once (PuzzleError: gone)."""
        daily = await self.repo.daily(guild_id, day)
        row = await self.repo.get(daily.puzzle_id) if daily is not None else None
        if daily is None or row is None:
            raise PuzzleError("gone")
        try:
            attempt = await self.repo.open_attempt(row.id, guild_id, user_id, self.now(), day)
        except Conflict:  # a second press at the same moment opened it
            attempt = await self.repo.open_attempt(row.id, guild_id, user_id, self.now(), day)
        return Shown(row, attempt)

    async def shown(self, attempt_id: int) -> Shown:
        attempt = await self.repo.attempt(attempt_id)
        row = await self.repo.get(attempt.puzzle_id) if attempt is not None else None
        if attempt is None or row is None:
            raise PuzzleError("gone")
        return Shown(row, attempt)

    async def answer(self, attempt_id: int, user_id: int, index: int) -> Result:
        """The member's one answer: the `index`-th legal move. PuzzleError: not_yours,
        answered (already, by any press in any process), gone."""
        shown = await self.shown(attempt_id)
        if shown.attempt.user_id != user_id:
            raise PuzzleError("not_yours")
        if shown.attempt.answer is not None:
            raise PuzzleError("answered")
        legal = shown.puzzle.data["legal"]
        if not 0 <= index < len(legal):
            raise PuzzleError("gone")
        answer = legal[index]
        correct = check(shown.puzzle.data, answer)
        answered = await self.repo.answer(attempt_id, answer, correct, rate_answer, self.now())
        if answered is None:
            raise PuzzleError("answered")
        return Result(Shown(shown.puzzle, answered.attempt), answer, correct, answered)

    async def stats(self, guild_id: int, user_id: int) -> list[PuzzlePlayer]:
        return await self.repo.players(guild_id, user_id)

    # -- the daily puzzle ------------------------------------------------------------------

    async def daily_channels(self) -> list[PuzzleChannel]:
        return await self.settings.puzzle_channels()

    def today(self, channel: PuzzleChannel) -> date:
        """The server's local date now."""
        return self.now().astimezone(zone_named(channel.time_zone)).date()

    async def puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        return await self.repo.get(puzzle_id)

    async def daily(self, guild_id: int, day: str) -> DailyRow | None:
        return await self.repo.daily(guild_id, day)

    async def claim_daily(self, guild_id: int, day: str, channel_id: int) -> PuzzleRow | None:
        """The puzzle this process must post as the server's daily of `day`; None when
        another process claimed it or no puzzle is left."""
        row = await self.repo.daily_candidate(guild_id, self.games())
        if row is None:
            return None
        if not await self.repo.claim_daily(guild_id, day, row.id, channel_id, self.now()):
            return None
        return row

    async def daily_posted(self, guild_id: int, day: str, message_id: int) -> None:
        await self.repo.daily_posted(guild_id, day, message_id, self.now())

    async def release_daily(self, guild_id: int, day: str) -> None:
        await self.repo.release_daily(guild_id, day)

    async def previous_daily(self, guild_id: int, day: str) -> DailyRow | None:
        return await self.repo.latest_daily(guild_id, day)

    async def solvers(self, daily: DailyRow, top: int = 3) -> DailySolvers:
        return await self.repo.daily_solvers(daily, top)


def _showable(puzzle: Record) -> bool:
    """Whether a member can answer it with the message's controls."""
    return 1 < len(puzzle.get("legal", ())) <= MAX_CHOICES
