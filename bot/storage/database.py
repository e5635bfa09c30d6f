"""An open database: its driver, its health, and one repository per aggregate over them.

    db = await open_database(target)       # bot.storage
    db.tables        # TableRepository: tables, seats, moves, timers, lobbies, posting marks
    db.results       # ResultRepository: results, ratings, standings
    db.settings      # SettingsRepository: /settings of each guild, season markers
    db.tournaments   # TournamentRepository: tournaments, seasons' standings
    db.history       # HistoryRepository: finished tables for /history
    db.puzzles       # PuzzleRepository: puzzles, puzzle ratings, attempts, daily posts
    await db.close()

Every repository runs its units of work on the one driver; each unit is one transaction, so
a unit never spans two repositories (a finishing commit writes its results in the tables'
unit, through results.py's `record_finish`).
"""

from __future__ import annotations

from bot.health import Health, forget_asyncpg, watch_asyncpg
from bot.storage.base import rows_of
from bot.storage.driver import Driver
from bot.storage.history import HistoryRepository
from bot.storage.lobbies import LobbyRepository
from bot.storage.puzzles import PuzzleRepository
from bot.storage.results import ResultRepository
from bot.storage.settings import SettingsRepository
from bot.storage.tables import TableRepository
from bot.storage.tournaments import TournamentRepository


class Database:
    """Create with `bot.storage.open_database`."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.health = Health("database")  # outages logged once (bot/health.py)
        if driver.dialect == "postgresql":
            watch_asyncpg(self.health)
        health = self.health
        self.tables = TableRepository(driver, health)
        self.results = ResultRepository(driver, health)
        self.settings = SettingsRepository(driver, health)
        self.tournaments = TournamentRepository(driver, health)
        self.history = HistoryRepository(driver, health)
        self.lobbies = LobbyRepository(driver, health)
        self.puzzles = PuzzleRepository(driver, health)

    @property
    def dialect(self) -> str:
        return self.driver.dialect

    async def schema_versions(self) -> list[int]:
        """The migrations applied, in version order."""
        rows = await self.tables.run(
            rows_of, "SELECT version FROM schema_version ORDER BY version")
        return [row["version"] for row in rows]

    async def close(self) -> None:
        forget_asyncpg(self.health)
        await self.driver.close()

