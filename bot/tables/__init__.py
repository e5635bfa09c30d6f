"""The table service (CONTRACT.md): one game in one channel or thread, without Discord."""

from bot.tables.deadlines import (
    PRESETS,
    DeadlineDispatcher,
    Expiry,
    GuildSettings,
    Reminder,
    Timer,
)
from bot.tables.errors import MESSAGES, TableError
from bot.tables.models import MoveResult, PlayerStats, Seat, Standing, Step, Table
from bot.tables.service import TableService

__all__ = [
    "MESSAGES",
    "PRESETS",
    "DeadlineDispatcher",
    "Expiry",
    "GuildSettings",
    "Reminder",
    "Timer",
    "MoveResult",
    "PlayerStats",
    "Seat",
    "Standing",
    "Step",
    "Table",
    "TableError",
    "TableService",
]
