"""Readable words for move strings, derived from the engine (never from our own rules).

A move is described by the events `eng.apply_events` reports for it on the current state,
e.g. Senet "move 14" → "14 → 17 ⇄" (the stone lands on 17 and swaps). 6 nimmt! picks are
never simulated: applying the last pick would resolve the turn and reveal other cards.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.i18n import t
from bot.narration import colour_name
from engines import Engine

log = logging.getLogger(__name__)


def _events(engine: Engine, state: Any, seat: int, move: str) -> list[dict[str, Any]]:
    try:
        return engine.apply_events(state, seat, move)[1]
    except Exception:  # a label must never break a board; the move string still works
        log.exception("%s: could not describe %r", engine.id, move)
        return []


def _first(events: list[dict[str, Any]], *kinds: str) -> dict[str, Any] | None:
    return next((e for e in events if e["type"] in kinds), None)


def _six_nimmt(engine: Engine, state: Any, seat: int, move: str, loc: object) -> str:
    kind, *args = move.split()
    if kind in ("play", "draft"):
        return t(loc, "Card {card}", card=args[0])
    if kind == "take":
        taken = _first(_events(engine, state, seat, move), "take")
        if taken is not None:
            return t(loc, "Take row {row} ({bullheads} 🐮)", row=args[0],
                     bullheads=taken["bullheads"])
        return t(loc, "Take row {row}", row=args[0])
    if kind == "place" and len(args) == 2:
        if args[1] == "left":
            return t(loc, "Row {row}, left end", row=args[0])
        return t(loc, "Row {row}, right end", row=args[0])
    return move


def _senet(engine: Engine, state: Any, seat: int, move: str, loc: object) -> str:
    if move == "return":
        events = _events(engine, state, seat, move)
        back = _first(events, "water_return")
        if back is not None:
            return t(loc, "Return to {square}", square=back["to"])
        return t(loc, "Return")
    if move == "try":
        return t(loc, "Try for a 4")
    if move == "pass":
        return t(loc, "Pass (no move)")
    events = _events(engine, state, seat, move)
    off = _first(events, "bear_off")
    if off is not None:
        return t(loc, "{start} → off", start=off["from"])
    step = _first(events, "move")
    if step is None:
        return move
    text = t(loc, "{start} → {end}", start=step["from"], end=step["to"])
    if step.get("backward"):
        text = t(loc, "{start} → {end} (back)", start=step["from"], end=step["to"])
    if _first(events, "swap") is not None:
        text += " ⇄"
    return text


def _varanasi(engine: Engine, state: Any, seat: int, move: str, loc: object) -> str:
    events = _events(engine, state, seat, move)
    taken = _first(events, "take")
    if taken is not None:
        return t(loc, "Take {colour} ({count})", colour=colour_name(loc, taken["colour"]),
                 count=len(taken["discs"]))
    moved = _first(events, "move")
    if moved is not None:
        discs = " ".join(moved["discs"])
        return t(loc, "Spot {start} → spot {end}: {discs}", start=moved["from"], end=moved["to"],
                 discs=discs)
    return move


def _cows_leopards(engine: Engine, state: Any, seat: int, move: str, loc: object) -> str:
    events = _events(engine, state, seat, move)
    drop = _first(events, "drop")
    if drop is not None:
        return t(loc, "Drop on {point}", point=drop["point"])
    jump = _first(events, "jump")
    if jump is not None:
        return t(loc, "{start} → {end}, capturing {over}", start=jump["from"], end=jump["to"],
                 over=jump["over"])
    step = _first(events, "step")
    if step is not None:
        return t(loc, "{start} → {end}", start=step["from"], end=step["to"])
    return move


_DESCRIBE = {
    "six_nimmt": _six_nimmt,
    "senet": _senet,
    "varanasi": _varanasi,
    "cows_leopards": _cows_leopards,
}


def describe(engine: Engine, state: Any, seat: int, move: str, locale: object = None) -> str:
    """Short readable words for `move` by `seat` in `state` (falls back to the move string)."""
    describe_one = _DESCRIBE.get(engine.id)
    if describe_one is None:
        return move
    return describe_one(engine, state, seat, move, locale)[:100]


def describe_all(
    engine: Engine, state: Any, seat: int, moves: list[str], locale: object = None
) -> dict[str, str]:
    return {move: describe(engine, state, seat, move, locale) for move in moves}
