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
  The resigner is ranked last (n). The other seats are ranked among themselves by the
  position's current per-seat scores (the view's "scores" or "points" list, higher is better:
  Varanasi's totals, 6 nimmt!'s points left) where the game keeps them, else tied at 1. With
  two players this is simply: the other seat 1, the resigner 2. The outcome is
  `{"scores": [...] or nulls, "ranks": [...], "resigned": [seat]}`.
"""

from __future__ import annotations

from typing import Any

from bot.tables.errors import TableError
from bot.tables.models import Table
from engines import CHANCE, Engine, ranks_from_scores


def next_since(
    eng: Engine, state: Any, since: dict[int, int], ply: int, actor: int | None
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


def current_scores(view: dict[str, Any], players: int) -> list[float] | None:
    """The position's per-seat scores where the game keeps them (higher is better)."""
    for key in ("scores", "points"):
        value = view.get(key)
        if (
            isinstance(value, list)
            and len(value) == players
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        ):
            return list(value)
    return None


def resigned_outcome(eng: Engine, state: Any, seat: int, players: int) -> dict[str, Any]:
    """The outcome when `seat` resigns (module docstring)."""
    scores = current_scores(eng.view(state, None), players)
    others = [s for s in range(players) if s != seat]
    ranks = [1] * players
    if scores is not None and len(others) > 1:
        for s, rank in zip(others, ranks_from_scores([scores[s] for s in others]), strict=True):
            ranks[s] = rank
    ranks[seat] = players
    return {
        "scores": scores if scores is not None else [None] * players,
        "ranks": ranks,
        "resigned": [seat],
    }


def clean_move(move: str) -> str:
    """Move strings are lower case with single spaces; forgive typed input."""
    return " ".join(move.lower().split())
