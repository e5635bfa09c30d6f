"""Outages in the logs (bot/health.py): one warning when the database goes away, with its
cause; one info line when it is back, with the outage's length and the refused interactions;
no traceback, and asyncpg's reconnect noise kept below warning."""

from __future__ import annotations

import logging
import sys

import pytest

from bot.health import Health
from bot.storage import Unavailable, open_database


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_outage_is_one_warning_and_one_line_when_it_ends(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    clock = FakeClock()
    health = Health("database", clock)
    cause = OSError("connection refused")
    for _ in range(9):  # every unit and every interaction during 20 s fails
        health.failed(Unavailable(str(cause)).with_traceback(None))
        clock.now += 2
    health.refused(cause)
    health.refused(cause)
    health.ok()
    health.ok()  # later successes say nothing
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in loud] == ["database unavailable: Unavailable: connection "
                                              "refused"]
    back = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert back == ["database available again after 18 s; 2 interaction(s) refused meanwhile"]
    assert not any(r.exc_info for r in caplog.records)


async def test_asyncpg_reconnect_noise_becomes_the_outage_warning(
        postgres_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    db = await open_database(postgres_url)
    try:
        pool_log = logging.getLogger("asyncpg.pool")
        for _ in range(3):  # what asyncpg logs every ~2 s while PostgreSQL is down
            try:
                raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")
            except OSError:
                pool_log.warning("Failed to restore the pool connection floor; retrying",
                                 exc_info=sys.exc_info())
        assert await db.schema_versions()  # PostgreSQL answers again
    finally:
        await db.close()
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(loud) == 1 and loud[0].name == "bot.health", [r.getMessage() for r in loud]
    assert "ConnectionRefusedError" in loud[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info]  # no traceback
    assert len([r for r in caplog.records if "available again" in r.getMessage()]) == 1


def test_reads_that_still_work_do_not_end_a_write_outage(
        caplog: pytest.LogCaptureFixture) -> None:
    """A locked or read-only SQLite file: reads answer while writes fail; the outage is told
    once, and ends with the first write that works."""
    caplog.set_level(logging.INFO, logger="bot")
    clock = FakeClock()
    health = Health("database", clock)
    for _ in range(3):
        health.failed(Unavailable("database is locked"), write=True)
        health.ok(write=False)  # autocomplete and /board still read
        clock.now += 1
    assert health.down
    health.ok(write=True)
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["database unavailable: Unavailable: database is locked",
                        "database available again after 3 s; 0 interaction(s) refused "
                        "meanwhile"]
