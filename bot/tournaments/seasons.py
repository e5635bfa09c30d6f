"""Seasons of the leaderboard: a month or a quarter (pure, standard library only).

A server with seasons sees the current season's results on /leaderboard (the results stay:
`/leaderboard season:` shows past seasons, or `all`). A season is named by a key, "2026-12"
for a month and "2026-Q4" for a quarter; its results are those finished in [start, end).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

KINDS: tuple[str, ...] = ("month", "quarter")
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_QUARTER = re.compile(r"^(\d{4})-Q([1-4])$")


def key_of(kind: str, at: datetime) -> str:
    """The season holding `at`."""
    at = at.astimezone(UTC)
    if kind == "quarter":
        return f"{at.year}-Q{(at.month - 1) // 3 + 1}"
    return f"{at.year}-{at.month:02d}"


def bounds(key: str) -> tuple[datetime, datetime]:
    """[start, end) of a season; ValueError for a key that names none."""
    if match := _MONTH.match(key):
        year, month = int(match[1]), int(match[2])
        if not 1 <= month <= 12:
            raise ValueError(key)
        months = 1
    elif match := _QUARTER.match(key):
        year, month, months = int(match[1]), (int(match[2]) - 1) * 3 + 1, 3
    else:
        raise ValueError(key)
    start = datetime(year, month, 1, tzinfo=UTC)
    end_month = month + months
    end = datetime(year + (end_month - 1) // 12, (end_month - 1) % 12 + 1, 1, tzinfo=UTC)
    return start, end


def recent(kind: str, at: datetime, count: int = 12) -> list[str]:
    """The current season and the ones before it, newest first."""
    keys = [key_of(kind, at)]
    while len(keys) < count:
        start, _ = bounds(keys[-1])
        keys.append(key_of(kind, datetime.fromtimestamp(start.timestamp() - 1, UTC)))
    return keys


def ended(posted: str | None, kind: str, at: datetime) -> tuple[str, str | None]:
    """What a server's season marker should now say ("kind:key") and the season that has
    just ended and should be announced (None: nothing to announce)."""
    current = f"{kind}:{key_of(kind, at)}"
    if posted is None or posted == current:
        return current, None
    old_kind, _, old_key = posted.partition(":")
    return current, old_key if old_kind == kind else None
