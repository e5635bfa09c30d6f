"""A server's /settings: the defaults of its tables, who may cancel and organise, its
language and seasons. No Discord here.

A server that never used /settings gets `GuildSettings(guild_id)` (the defaults below). A
table's rules are fixed when it is opened (`table_rules`): the deadline and absence rule the
host chose, else the server's, and `max_misses` always from the server; changing /settings
later does not change tables already open.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import TypedDict, Unpack, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.storage import SettingsRepository
from bot.storage.settings import PuzzleChannel
from bot.tables.errors import TableError

# Deadline presets, in seconds: 1, 5 and 15 minutes, 1, 6 and 12 hours, 1 and 2 days.
PRESETS: tuple[int, ...] = (60, 300, 900, 3600, 21600, 43200, 86400, 172800)
ABSENCE_RULES: tuple[str, ...] = ("takeover", "forfeit")
CHANNEL_POLICIES: tuple[str, ...] = ("thread", "channel")
LANGUAGES: tuple[str, ...] = ("en", "ja")
SEASONS: tuple[str, ...] = ("none", "month", "quarter")
MAX_MISSES = range(1, 11)  # allowed values of max_misses
MAX_TABLES = range(1, 501)  # allowed values of max_tables
LOBBY_MINUTES = range(5, 1441)  # allowed values of lobby_minutes (5 minutes to a day)


@dataclass(frozen=True)
class GuildSettings:
    """A server's /settings (the defaults for a server that never set them)."""

    guild_id: int
    deadline_seconds: int = 86400
    absence_rule: str = "takeover"
    max_misses: int = 3
    channel_policy: str = "thread"
    language: str = "en"
    cancel_role_id: int | None = None
    max_tables: int = 50  # lobbies and running tables at once in the server
    lobby_minutes: int = 30  # a lobby not started within this long expires
    organiser_role_id: int | None = None  # may run tournaments (besides Manage Server)
    season: str = "none"  # the leaderboard's seasons: none, month or quarter
    season_channel_id: int | None = None  # where a season's end is posted
    result_lines: bool = True  # a game played in a thread posts its result in the channel
    puzzle_channel_id: int | None = None  # where the daily puzzle is posted (None: none)
    time_zone: str = "UTC"  # an IANA name: the server's days start at its midnight

    def may_cancel(self, role_ids: list[int] | set[int], can_manage: bool = False) -> bool:
        """Whether a member (not the host) may cancel tables: Manage Messages, or the
        server's cancel role. Pass the result to `cancel(..., can_manage=...)`."""
        return can_manage or (self.cancel_role_id is not None and self.cancel_role_id in role_ids)


def is_time_zone(name: object) -> bool:
    """Whether `name` is an IANA time zone this machine knows (tzdata)."""
    if not isinstance(name, str) or not name or name != name.strip() or ".." in name:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def zone_named(name: str) -> ZoneInfo:
    """A server's time zone by its stored name (UTC if the name is no longer known)."""
    return ZoneInfo(name if is_time_zone(name) else "UTC")


SETTING_NAMES = tuple(f.name for f in fields(GuildSettings) if f.name != "guild_id")


class SettingChanges(TypedDict, total=False):
    """Some of a server's settings, to change (`ServerSettings.update`): GuildSettings' own
    fields, by name."""

    deadline_seconds: int
    absence_rule: str
    max_misses: int
    channel_policy: str
    language: str
    cancel_role_id: int | None
    max_tables: int
    lobby_minutes: int
    organiser_role_id: int | None
    season: str
    season_channel_id: int | None
    result_lines: bool
    puzzle_channel_id: int | None
    time_zone: str


def setting_changes(given: Mapping[str, object], cleared: Iterable[str] = ()) -> SettingChanges:
    """The settings given by name (a None value: left as it is) and those `cleared` (set to
    None: no role, no channel); checked when applied (`ServerSettings.update`)."""
    changes = {k: v for k, v in given.items() if v is not None} | dict.fromkeys(cleared)
    unknown = set(changes) - set(SETTING_NAMES)
    if unknown:
        raise ValueError(f"not settings: {sorted(unknown)}")
    return cast(SettingChanges, changes)


def check_setting(name: str, value: object) -> None:
    """TableError("bad_setting") unless `value` suits setting `name`."""

    def bad(reason: str) -> TableError:
        return TableError("bad_setting", name=name, value=value, reason=reason)

    if name == "deadline_seconds":
        if isinstance(value, bool) or value not in PRESETS:
            raise bad(f"the deadline must be one of {', '.join(map(str, PRESETS))} seconds")
    elif name == "absence_rule":
        if value not in ABSENCE_RULES:
            raise bad(f"the absence rule must be one of {', '.join(ABSENCE_RULES)}")
    elif name == "max_misses":
        if isinstance(value, bool) or not isinstance(value, int) or value not in MAX_MISSES:
            raise bad(f"missed turns must be from {MAX_MISSES[0]} to {MAX_MISSES[-1]}")
    elif name == "channel_policy":
        if value not in CHANNEL_POLICIES:
            raise bad(f"the channel policy must be one of {', '.join(CHANNEL_POLICIES)}")
    elif name == "language":
        if value not in LANGUAGES:
            raise bad(f"the language must be one of {', '.join(LANGUAGES)}")
    elif name in ("max_tables", "lobby_minutes"):
        allowed = MAX_TABLES if name == "max_tables" else LOBBY_MINUTES
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
            raise bad(f"{name} must be from {allowed[0]} to {allowed[-1]}")
    elif name in ("cancel_role_id", "organiser_role_id", "season_channel_id",
                  "puzzle_channel_id"):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise bad("the role or channel must be an id or none")
    elif name == "result_lines":
        if value not in (True, False):  # 0 and 1 as stored are accepted too
            raise bad("result lines are on or off")
    elif name == "time_zone":
        if not is_time_zone(value):
            raise bad("the time zone must be a name such as Asia/Tokyo or Europe/London")
    elif name == "season":
        if value not in SEASONS:
            raise bad(f"the season must be one of {', '.join(SEASONS)}")
    else:
        raise bad(f"unknown setting; settings: {', '.join(SETTING_NAMES)}")


class ServerSettings:
    """Reads and changes servers' settings (table `guild_settings`)."""

    def __init__(self, repo: SettingsRepository, now: Callable[[], datetime]) -> None:
        self._repo, self.now = repo, now

    async def get(self, guild_id: int) -> GuildSettings:
        stored = await self._repo.get_guild_settings(guild_id)
        if not stored:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, **{**stored, "result_lines": bool(stored["result_lines"])})

    async def chosen_language(self, guild_id: int) -> str | None:
        """The language the server chose with /settings; None when it never stored
        settings (its channels then speak Discord's guild locale)."""
        stored = await self._repo.get_guild_settings(guild_id)
        return stored.get("language") if stored else None

    async def update(self, guild_id: int, **changes: Unpack[SettingChanges]) -> GuildSettings:
        """Change some settings (names of SETTING_NAMES); TableError("bad_setting")."""
        for name, value in changes.items():
            check_setting(name, value)
        settings = replace(await self.get(guild_id), **changes)
        values = {name: getattr(settings, name) for name in SETTING_NAMES}
        values["result_lines"] = int(settings.result_lines)  # stored as 0 or 1
        await self._repo.put_guild_settings(guild_id, values, self.now())
        return settings

    async def puzzle_channels(self) -> list[PuzzleChannel]:
        """The servers with a daily puzzle: where it goes and their time zone."""
        return await self._repo.puzzle_guilds()

    @staticmethod
    def table_rules(
        settings: GuildSettings, deadline_seconds: int | None, absence_rule: str | None
    ) -> tuple[int, str, int]:
        deadline = settings.deadline_seconds if deadline_seconds is None else deadline_seconds
        rule = settings.absence_rule if absence_rule is None else absence_rule
        check_setting("deadline_seconds", deadline)
        check_setting("absence_rule", rule)
        return deadline, rule, settings.max_misses
