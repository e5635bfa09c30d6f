"""History: the finished tables of a guild (optionally one member's), newest first, with
every seat's name, rank and score, for /history and the pickers of /replay and /export.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.storage.base import Aggregate, marks
from bot.storage.driver import Fetch, Row, Unit, from_row, read_only
from bot.storage.results import ResultRow

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


@read_only
def _finished(
    guild_id: int, user_id: int | None, limit: int
) -> Unit[tuple[list[Row], list[ResultRow]]]:
    where = "t.guild_id = ? AND t.status = 'finished'"
    params: list[object] = [guild_id]
    if user_id is not None:
        where += " AND EXISTS (SELECT 1 FROM results u WHERE u.table_id = t.id AND u.user_id = ?)"
        params.append(user_id)
    tables = yield Fetch(
        "SELECT t.id, t.guild_id, t.game, t.created_at, t.started_at, t.finished_at"
        f" FROM game_tables t WHERE {where} ORDER BY t.finished_at DESC, t.id DESC LIMIT ?",
        (*params, limit),
    )
    if not tables:
        return [], []
    ids = [row["id"] for row in tables]
    results = yield Fetch(
        f"SELECT * FROM results WHERE table_id IN ({marks(len(ids))}) ORDER BY table_id, seat",
        ids,
    )
    return tables, [from_row(ResultRow, r) for r in results]


class HistoryRepository(Aggregate):
    """Finished tables and their results, read together."""

    async def finished(
        self, guild_id: int, user_id: int | None, limit: int
    ) -> tuple[list[Row], list[ResultRow]]:
        """The newest finished tables of a guild (only those `user_id` played, if given) and
        their result rows, read together."""
        return await self.run(_finished, guild_id, user_id, limit)

    async def finished_tables(
        self, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[FinishedTable]:
        """The `limit` most recently finished tables of the guild (only those `user_id` played
        in, if given), newest first, each with every seat's name, rank and score."""
        limit = max(1, min(int(limit), MAX_LIMIT))
        tables, results = await self.finished(guild_id, user_id, limit)
        ids = [row["id"] for row in tables]
        players: dict[int, list[HistoryPlayer]] = {i: [] for i in ids}
        for r in results:
            players[r.table_id].append(
                HistoryPlayer(r.seat, r.user_id, r.name, r.rank, r.score, r.resigned)
            )
        return [from_row(FinishedTable, row, table_id=row["id"], players=players[row["id"]])
                for row in tables]
