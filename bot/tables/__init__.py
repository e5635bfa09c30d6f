"""The table service (CONTRACT.md): one game in one channel or thread, without Discord."""

from bot.tables.deadlines import DeadlineDispatcher, Expiry, Reminder, Timer, TurnTimers
from bot.tables.errors import MESSAGES, TableError
from bot.tables.models import MoveResult, PlayerStats, Seat, Standing, Step, Table
from bot.tables.service import TableService
from bot.tables.settings import PRESETS, GuildSettings, ServerSettings, SettingChanges

__all__ = [
    "MESSAGES",
    "PRESETS",
    "DeadlineDispatcher",
    "Expiry",
    "GuildSettings",
    "SettingChanges",
    "Reminder",
    "ServerSettings",
    "Timer",
    "TurnTimers",
    "MoveResult",
    "PlayerStats",
    "Seat",
    "Standing",
    "Step",
    "Table",
    "TableError",
    "TableService",
]
