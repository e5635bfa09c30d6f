"""Seasons in storage: a season's standings and games, and the end of a season claimed once
across processes (the marker is moved by an UPDATE only one process wins)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.storage.repository import Repository
from bot.tournaments import seasons
from engines.base import Record


@dataclass(frozen=True)
class EndedSeason:
    guild_id: int
    channel_id: int
    key: str


class SeasonBook:
    def __init__(self, repo: Repository, now: Callable[[], datetime]) -> None:
        self._repo, self.now = repo, now

    async def standings(self, guild_id: int, game: str | None, key: str,
                        limit: int) -> list[Record]:
        start, end = seasons.bounds(key)
        return await self._repo.season_standings(guild_id, game, start, end, limit)

    async def games(self, guild_id: int, key: str) -> list[str]:
        start, end = seasons.bounds(key)
        return await self._repo.season_games(guild_id, start, end)

    async def claim_ended(self, owns_guild: Callable[[int], bool]) -> list[EndedSeason]:
        """The seasons that ended in the servers `owns_guild` accepts, each claimed by this
        process alone (another process that moved a marker first keeps it)."""
        now, ended_seasons = self.now(), []
        for row in await self._repo.season_guilds():
            guild_id = row["guild_id"]
            if not owns_guild(guild_id):
                continue
            marker, ended = seasons.ended(row["season_posted"], row["season"], now)
            if marker == row["season_posted"]:
                continue
            if not await self._repo.mark_season(guild_id, row["season_posted"], marker):
                continue  # another process moved it
            if ended is not None:
                ended_seasons.append(EndedSeason(guild_id, row["season_channel_id"], ended))
        return ended_seasons
