"""Results and ratings: one result row per seat of a finished table, and each player's rating
per guild and game; the standings read from them.

A game's results and rating updates are written by the table's finishing commit
(tables.py) through `record_finish`, in the same transaction as the move that ended it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.storage.base import Aggregate, marks
from bot.storage.driver import ExecuteMany, Fetch, Json, Row, Unit, from_row

# (mu, sigma) of each entry before (None: unrated yet) and the ranks -> (mu, sigma) after.
Rate = Callable[[list[tuple[float, float] | None], list[int]], list[tuple[float, float]]]


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
class Finish:
    """The end of a game, written with the move that ended it: the outcome, one result row
    per seat and, unless the table is unrated, a ratings update. `rate(before, ranks)` maps
    each entry's (mu, sigma) or None to its new (mu, sigma)."""

    outcome: Json
    results: list[ResultRow]
    rate: Rate | None


_WINS = "SUM(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END)"
_AVERAGE_RANK = "AVG(CAST(r.rank AS DOUBLE PRECISION))"
_LAST_NAME = (
    "(SELECT name FROM results n WHERE n.guild_id = r.guild_id AND n.user_id = r.user_id"
    " ORDER BY n.finished_at DESC, n.table_id DESC LIMIT 1)"
)
# Per (user, game) aggregates of results, with the name the user last played under.
_STANDINGS = (
    f"SELECT r.user_id, r.game, COUNT(*) AS games, {_WINS} AS wins,"
    f" {_AVERAGE_RANK} AS average_rank, {_LAST_NAME} AS name, g.mu, g.sigma"
    " FROM results r LEFT JOIN ratings g"
    " ON g.guild_id = r.guild_id AND g.game = r.game AND g.user_id = r.user_id"
)


def _standing(row: Row, game: str | None) -> StandingRow:
    return from_row(StandingRow, row, game=game, average_rank=float(row["average_rank"]),
                    mu=row["mu"] if game else None, sigma=row["sigma"] if game else None)


def record_finish(end: Finish, at: datetime) -> Unit[None]:
    """Part of the unit that finishes a table (tables.py): its results and, unless it is
    unrated, the players' new ratings."""
    yield ExecuteMany(
        "INSERT INTO results (table_id, seat, guild_id, game, user_id, name, rank, score,"
        " resigned, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(r.table_id, r.seat, r.guild_id, r.game, r.user_id, r.name, r.rank, r.score,
          int(r.resigned), r.finished_at) for r in end.results],
    )
    if end.rate is None or not end.results:
        return
    guild, game = end.results[0].guild_id, end.results[0].game
    users = [r.user_id for r in end.results]
    rows = yield Fetch(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
        f" AND user_id IN ({marks(len(users))})",
        (guild, game, *users),
    )
    before = {r["user_id"]: (r["mu"], r["sigma"]) for r in rows}
    after = end.rate([before.get(u) for u in users], [r.rank for r in end.results])
    yield ExecuteMany(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id)"
        " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " updated_at = excluded.updated_at",
        [(guild, game, u, mu, sigma, at)
         for u, (mu, sigma) in dict(zip(users, after, strict=True)).items()],
    )


class ResultRepository(Aggregate):
    """Results, ratings and the standings read from them."""

    async def get_results(self, table_id: int) -> list[ResultRow]:
        rows = await self._rows(
            "SELECT * FROM results WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [from_row(ResultRow, r) for r in rows]

    async def get_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, tuple[float, float]]:
        """(mu, sigma) of those users who have a rating in that guild and game."""
        rows = await self._rows(
            f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND user_id IN ({marks(len(user_ids))})",
            (guild_id, game, *user_ids),
        )
        return {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}

    async def game_standings(self, guild_id: int, game: str) -> list[StandingRow]:
        """Every player of that game in the guild, with rating (unsorted: ratings.py sorts)."""
        rows = await self._rows(
            _STANDINGS + " WHERE r.guild_id = ? AND r.game = ?"
            " GROUP BY r.user_id, r.game, r.guild_id, g.mu, g.sigma",
            (guild_id, game),
        )
        return [_standing(row, game) for row in rows]

    async def overall_standings(self, guild_id: int, limit: int) -> list[StandingRow]:
        """Players over all games in the guild: most wins, then most games, then best rank."""
        rows = await self._rows(
            f"SELECT r.user_id, COUNT(*) AS games, {_WINS} AS wins,"
            f" {_AVERAGE_RANK} AS average_rank, {_LAST_NAME} AS name"
            " FROM results r WHERE r.guild_id = ? GROUP BY r.user_id, r.guild_id"
            " ORDER BY wins DESC, games DESC, average_rank ASC, r.user_id LIMIT ?",
            (guild_id, limit),
        )
        return [_standing(row, None) for row in rows]

    async def user_standings(self, guild_id: int, user_id: int) -> list[StandingRow]:
        """One player's standing in each game played in the guild, by game id."""
        rows = await self._rows(
            _STANDINGS + " WHERE r.guild_id = ? AND r.user_id = ?"
            " GROUP BY r.user_id, r.game, r.guild_id, g.mu, g.sigma ORDER BY r.game",
            (guild_id, user_id),
        )
        return [_standing(row, row["game"]) for row in rows]
