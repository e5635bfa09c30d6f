"""Simulated time for the table service's clock (`TableService(now=clock)`): `clock()` is now,
`advance` moves it, and an async `sleep` only moves it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

START = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self, start: datetime = START) -> None:
        self.t = start

    def __call__(self) -> datetime:
        return self.t

    def advance(self, seconds: float) -> datetime:
        self.t += timedelta(seconds=seconds)
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.advance(seconds)
        await asyncio.sleep(0)
