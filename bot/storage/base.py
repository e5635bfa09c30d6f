"""What every aggregate repository stands on: one driver, watched by the database's health.

A repository (tables.py, results.py, settings.py, tournaments.py, history.py) holds the
queries of one aggregate, each one unit of work (driver.py) run as one transaction on the
driver and health that the database (database.py) shares among them all.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from bot.health import Health
from bot.storage.driver import (
    Driver,
    Execute,
    Fetch,
    Params,
    Row,
    Saturated,
    Unavailable,
    Unit,
    one_statement,
    read_only,
)

T = TypeVar("T")
log = logging.getLogger(__name__)


@read_only
@one_statement
def rows_of(sql: str, params: Params = ()) -> Unit[list[Row]]:
    return (yield Fetch(sql, params))


@one_statement
def changed_by(sql: str, params: Params = ()) -> Unit[int]:
    return (yield Execute(sql, params))


def marks(count: int) -> str:
    """`count` placeholders: "?, ?, ?"."""
    return ", ".join("?" * count)


class Aggregate:
    """The base of the aggregate repositories: the shared driver, telling the database's
    `health` whether it answered each unit."""

    def __init__(self, driver: Driver, health: Health) -> None:
        self.driver, self.health = driver, health

    @property
    def dialect(self) -> str:
        return self.driver.dialect

    async def run(self, unit: Callable[..., Unit[T]], *args: object) -> T:
        """Run `unit(*args)` as one transaction (`driver.run`), telling `health` whether the
        database answered."""
        write = not getattr(unit, "read_only", False)
        try:
            result = await self.driver.run(unit, *args)
        except Saturated as err:  # busy, not down: no outage to warn of
            log.debug("database busy: %s", err)
            raise
        except Unavailable as err:
            self.health.failed(err, write)
            raise
        self.health.ok(write)
        return result

    async def _rows(self, sql: str, params: Params = ()) -> list[Row]:
        return await self.run(rows_of, sql, params)

    async def _execute(self, sql: str, params: Params = ()) -> int:
        return await self.run(changed_by, sql, params)
