"""Computer players seated at a table (no Discord here).

- **Seats**: a computer seat is an ordinary seat whose `user_id` is negative (Discord ids are
  never negative): `-(10 * k + code)` with `code` 1/2/3 for easy/normal/hard and `k` the
  smallest number not used at that table (several computers of one level may sit together).
  So no schema change is needed for the seats themselves; the level is read from the id.
- **Results and ratings**: a computer is recorded under one entry per level, user id
  `-code` (-1 easy, -2 normal, -3 hard) and name "Computer (<level>)", never as a member.
  When several computers of one level play one table, each has its own result row; the
  level's rating takes the update of the last of them.
- **Moves**: whenever a computer seat must act, the service plays it at once (like a
  taken-over seat, deadlines.py), with `engines.ai.choose_move` at the seat's level in a
  worker thread, seeded by `move_seed(table id, ply, seat)`; budget by level (BUDGETS).
- **Hints**: `TableService.hint` asks the HINT_LEVEL (hard) player for a seat's move, from
  that seat's view.
"""

from __future__ import annotations

from collections.abc import Mapping

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
BUDGETS: Mapping[str, float] = {"easy": 0.1, "normal": 0.3, "hard": 1.0}
HINT_LEVEL = "hard"


def _code(level: str) -> int:
    return LEVELS.index(level) + 1


def is_computer(user_id: int) -> bool:
    return user_id < 0


def computer_level(user_id: int) -> str | None:
    """The level of a computer seat (or result entry) by its user id; None for a member."""
    if user_id >= 0:
        return None
    code = (-user_id) % 10
    return LEVELS[code - 1] if 1 <= code <= len(LEVELS) else None


def computer_name(level: str) -> str:
    """The stored (English) name; the Discord layer shows a translated one."""
    return f"Computer ({level})"


def seat_user_id(level: str, taken: set[int] | frozenset[int]) -> int:
    """A fresh synthetic user id for a computer seat of `level` at a table using `taken`."""
    k = 0
    while -(10 * k + _code(level)) in taken:
        k += 1
    return -(10 * k + _code(level))


def result_user_id(user_id: int) -> int:
    """The entry results and ratings use for a seat: the member, or the computer's level."""
    level = computer_level(user_id)
    return user_id if level is None else -_code(level)
