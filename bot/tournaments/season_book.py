"""Seasons in storage: a season's standings and games, and the end of a season claimed once
across processes (the marker is moved by an UPDATE only one process wins)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.storage import Row, SettingsRepository, TournamentRepository
from bot.tournaments import seasons


@dataclass(frozen=True)
class EndedSeason:
    guild_id: int
    channel_id: int
    key: str


class SeasonBook:
    """A season's standings and games (tournaments' repository), and the seasons that ended,
    claimed by moving their guild's marker (settings' repository)."""

    def __init__(self, repo: TournamentRepository, settings: SettingsRepository,
                 now: Callable[[], datetime]) -> None:
        self._repo, self._settings, self.now = repo, settings, now

    async def standings(self, guild_id: int, game: str | None, key: str,
                        limit: int) -> list[Row]:
        start, end = seasons.bounds(key)
        return await self._repo.season_standings(guild_id, game, start, end, limit)

    async def games(self, guild_id: int, key: str) -> list[str]:
        start, end = seasons.bounds(key)
        return await self._repo.season_games(guild_id, start, end)

    async def claim_ended(self, owns_guild: Callable[[int], bool]) -> list[EndedSeason]:
        """The seasons that ended in the servers `owns_guild` accepts, each claimed by this
        process alone (another process that moved a marker first keeps it)."""
        now, ended_seasons = self.now(), []
        for row in await self._settings.season_guilds():
            if not owns_guild(row.guild_id):
                continue
            marker, ended = seasons.ended(row.season_posted, row.season, now)
            if marker == row.season_posted:
                continue
            if not await self._settings.mark_season(row.guild_id, row.season_posted, marker):
                continue  # another process moved it
            if ended is not None:
                ended_seasons.append(EndedSeason(row.guild_id, row.season_channel_id, ended))
        return ended_seasons
