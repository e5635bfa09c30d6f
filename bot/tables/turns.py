"""Whose decision is open since when, which button presses are refused, and resigning.

- **Staleness** (`play(..., turn=ply)`, `TableService.refusal`): a seat's *decision* begins at
  the ply where the seat entered `to_act`, or right after its own last move if it must act
  again. A `turn` is accepted when it lies between the start of the player's current decision
  and the table's ply; anything older, or newer than the ply, is "stale". In turn-by-turn
  games only one seat acts at a time, so this means `turn == ply` exactly; in 6 nimmt!'s
  simultaneous picks the other seats' picks advance the ply without making a still-pending
  pick stale, while a seat that has picked finds its old buttons stale. A stale `turn` is
  reported as "stale" before "not_your_turn": the button is what is wrong.
- **Resign** always ends the table, because the engines cannot skip a seat that has left.
  The outcome is the engine's `resigned_outcome(state, seat)`: the resigner (with its
  partners, in doubles) ranks last, the others keep the order of `eng.standings` (Varanasi's
  totals, 6 nimmt!'s points left) where the game keeps a score, else share first place:
  `{"scores": [...] or nulls, "ranks": [...], "resigned": [seat]}`.
"""

from __future__ import annotations

from bot.tables.errors import TableError
from bot.tables.models import Table
from engines import CHANCE, Engine


def next_since(
    eng: Engine, state: object, since: dict[int, int], ply: int, actor: int | None
) -> dict[int, int]:
    """The decision starts per seat in `state`, reached at `ply` by a step of `actor`."""
    return {
        seat: since[seat] if seat in since and seat != actor else ply
        for seat in eng.to_act(state)
        if seat != CHANCE
    }


def refusal(table: Table, user_id: int, turn: int | None) -> TableError | None:
    """Why that user may not move now with a button drawn at `turn`, or None."""
    if table.status == "finished":
        return TableError("finished")
    if table.status != "running":
        return TableError("not_running")
    seat = table.seat_of(user_id)
    if seat is None:
        return TableError("not_seated")
    if turn is not None and turn != table.ply:
        decision = table.since.get(seat)
        if decision is None or not decision <= turn <= table.ply:
            return TableError("stale", turn=turn, ply=table.ply)
    if seat not in table.to_act():
        return TableError("not_your_turn")
    return None


def clean_move(move: str) -> str:
    """Move strings are lower case with single spaces; forgive typed input."""
    return " ".join(move.lower().split())
