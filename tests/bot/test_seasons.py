"""Seasons of the leaderboard (bot/tournaments/seasons.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.tournaments import seasons


def at(y: int, m: int, d: int = 1) -> datetime:
    return datetime(y, m, d, 12, tzinfo=UTC)


def test_keys_and_bounds() -> None:
    assert seasons.key_of("month", at(2026, 12, 31)) == "2026-12"
    assert seasons.key_of("quarter", at(2026, 12, 31)) == "2026-Q4"
    assert seasons.bounds("2026-12") == (datetime(2026, 12, 1, tzinfo=UTC),
                                         datetime(2027, 1, 1, tzinfo=UTC))
    assert seasons.bounds("2026-Q1") == (datetime(2026, 1, 1, tzinfo=UTC),
                                         datetime(2026, 4, 1, tzinfo=UTC))
    with pytest.raises(ValueError):
        seasons.bounds("2026-13")
    assert seasons.recent("quarter", at(2026, 2), 3) == ["2026-Q1", "2025-Q4", "2025-Q3"]


def test_a_season_is_announced_once_when_it_ends() -> None:
    # first look: remember the current season, announce nothing
    assert seasons.ended(None, "month", at(2026, 11, 5)) == ("month:2026-11", None)
    assert seasons.ended("month:2026-11", "month", at(2026, 11, 30)) == ("month:2026-11", None)
    assert seasons.ended("month:2026-11", "month", at(2026, 12, 1)) == ("month:2026-12",
                                                                      "2026-11")
    # the server switched from months to quarters: nothing bogus is announced
    assert seasons.ended("month:2026-11", "quarter", at(2026, 12, 1)) == ("quarter:2026-Q4",
                                                                        None)
