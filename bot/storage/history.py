"""History queries: recent finished tables of a guild (optionally one member's), newest first.

Kept apart from repository.py (which other work edits) but in the same spirit: one function
per query over the repository's connection. Reads the `game_tables` and `results` tables of
migration 0001 only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.storage.driver import from_row
from bot.storage.repository import Repository

MAX_LIMIT = 100


@dataclass(frozen=True)
class HistoryPlayer:
    """One seat of a finished table, from its result row."""

    seat: int
    user_id: int
    name: str  # the name the user played that game under
    rank: int  # 1 best; equal results share a rank
    score: float | None  # the game's score (None after a resign where the game keeps none)
    resigned: bool


@dataclass(frozen=True)
class FinishedTable:
    """A finished table with its players in seat (turn) order."""

    table_id: int
    guild_id: int
    game: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime
    players: list[HistoryPlayer]

    @property
    def winners(self) -> list[HistoryPlayer]:
        return [p for p in self.players if p.rank == 1]


async def finished_tables(
    repo: Repository, guild_id: int, user_id: int | None = None, limit: int = 10
) -> list[FinishedTable]:
    """The `limit` most recently finished tables of the guild (only those `user_id` played
    in, if given), newest first, each with every seat's name, rank and score."""
    limit = max(1, min(int(limit), MAX_LIMIT))
    tables, results = await repo.finished(guild_id, user_id, limit)
    ids = [row["id"] for row in tables]
    players: dict[int, list[HistoryPlayer]] = {i: [] for i in ids}
    for r in results:
        players[r.table_id].append(
            HistoryPlayer(r.seat, r.user_id, r.name, r.rank, r.score, r.resigned)
        )
    return [from_row(FinishedTable, row, table_id=row["id"], players=players[row["id"]])
            for row in tables]


__all__ = ["MAX_LIMIT", "FinishedTable", "HistoryPlayer", "finished_tables"]
