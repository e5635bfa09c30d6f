"""Server settings: one row of /settings per guild (defaults where there is none), and the
season marker a guild's season announcements move on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from bot.storage.base import Aggregate, marks
from bot.storage.driver import Execute, Row, Unit, from_row

# The columns of /settings: a field each of bot/tables/settings.py's GuildSettings.
SETTINGS = (
    "deadline_seconds", "absence_rule", "max_misses", "channel_policy", "language",
    "cancel_role_id", "max_tables", "lobby_minutes", "organiser_role_id", "season",
    "season_channel_id", "result_lines", "puzzle_channel_id", "time_zone",
)


@dataclass(frozen=True)
class SeasonMarker:
    """A guild with seasons: which, where their ends are posted, and the last one posted."""

    guild_id: int
    season: str
    season_channel_id: int
    season_posted: str | None


def _put_settings(guild_id: int, values: Mapping[str, object], at: datetime) -> Unit[int]:
    names = ", ".join(SETTINGS)
    return (yield Execute(
        f"INSERT INTO guild_settings (guild_id, {names}, updated_at)"
        f" VALUES (?, {marks(len(SETTINGS))}, ?) ON CONFLICT (guild_id) DO UPDATE"
        f" SET {', '.join(f'{n} = excluded.{n}' for n in SETTINGS)},"
        " updated_at = excluded.updated_at",
        (guild_id, *(values[n] for n in SETTINGS), at),
    ))


@dataclass(frozen=True)
class PuzzleChannel:
    """A guild with a daily puzzle: where it is posted and the time zone of its days."""

    guild_id: int
    puzzle_channel_id: int
    time_zone: str


class SettingsRepository(Aggregate):
    """The guild_settings table."""

    async def get_guild_settings(self, guild_id: int) -> Row | None:
        """The stored /settings of a guild (keys of SETTINGS), or None if never set."""
        rows = await self._rows(
            f"SELECT {', '.join(SETTINGS)} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return {name: rows[0][name] for name in SETTINGS} if rows else None

    async def put_guild_settings(
        self, guild_id: int, values: Mapping[str, object], at: datetime
    ) -> None:
        """Store every setting of a guild (`values` has all keys of SETTINGS)."""
        await self.run(_put_settings, guild_id, values, at)

    # -- season markers --------------------------------------------------------------------

    async def season_guilds(self) -> list[SeasonMarker]:
        """Guilds with seasons, and where their ends are posted."""
        rows = await self._rows(
            "SELECT guild_id, season, season_channel_id, season_posted FROM guild_settings"
            " WHERE season <> 'none' AND season_channel_id IS NOT NULL")
        return [from_row(SeasonMarker, row) for row in rows]

    async def mark_season(self, guild_id: int, before: str | None, marker: str) -> bool:
        """Move a server's season marker from `before` to `marker`, once across processes
        (False: another process did): the one that does announces the season's end."""
        if before is None:
            return await self._execute(
                "UPDATE guild_settings SET season_posted = ? WHERE guild_id = ? AND"
                " season_posted IS NULL", (marker, guild_id)) == 1
        return await self._execute(
            "UPDATE guild_settings SET season_posted = ? WHERE guild_id = ? AND"
            " season_posted = ?", (marker, guild_id, before)) == 1

    # -- daily puzzles ---------------------------------------------------------------------

    async def puzzle_guilds(self) -> list[PuzzleChannel]:
        """Guilds with a daily puzzle channel."""
        rows = await self._rows(
            "SELECT guild_id, puzzle_channel_id, time_zone FROM guild_settings"
            " WHERE puzzle_channel_id IS NOT NULL ORDER BY guild_id")
        return [from_row(PuzzleChannel, row) for row in rows]
