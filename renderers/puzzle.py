"""Pictures of a puzzle (engines/ai/puzzles): the position as its seat saw it, and the answer.

Everything drawn comes from `eng.view(state, seat)` at the puzzle's decision, never from the
public state after it: the position is rebuilt from the puzzle's log, the board drawn by the
game's own renderer (for a private decision, such as a 6 nimmt! pick, the seat's hand picture),
under a label band with the seat's badge (the seat to move) in the review's frames
(renderers/review.py).

`render_answer` draws the board after the answer given, framed green with a tick when it is
counted correct, red with a cross when not, and then the board after the best move (green)
below it. A private choice is shown as the seat's own view after it (its face-down pick): it
is made as if first among the others' face-down choices of that turn, so nothing they chose
is revealed, and no later move is ever drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO
from typing import Any

from PIL import Image, ImageDraw

import renderers
from engines import get_engine
from engines.base import Record
from renderers import theme
from renderers.review import BADGE, GAP, LABEL

MARK = 40  # the tick or cross in an answer's label band


def _replay(puzzle: Record) -> tuple[Any, Any, list[dict]]:
    """(engine, state at the decision, events of the last logged move)."""
    eng = get_engine(puzzle["game"])
    state = eng.new(puzzle["players"], dict(puzzle["options"]))
    events: list[dict] = []
    for actor, move in puzzle["log"]:
        state, events = eng.apply_events(state, actor, move)
    return eng, state, events


def _private(eng: Any, view: dict) -> bool:
    return bool(eng.info.is_private(view.get("phase")))


def _seat_picture(game: str, eng: Any, state: Any, seat: int, events: list[dict]) -> Image.Image:
    """What `seat` sees of `state`: its hand picture for a private decision, else the board
    drawn from its view with `events` as the last move."""
    view = eng.view(state, seat)
    words = theme.current_gettext()
    if _private(eng, view):
        data = renderers.render_hand(game, view, seat, gettext=words)
    else:
        data = renderers.render(game, view, events, gettext=words)
    return Image.open(BytesIO(data)).convert("RGB")


def _after(puzzle: Record, move: str) -> Image.Image:
    """What the seat sees just after playing `move`: nothing the others did after (or, for a
    private choice, at the same time)."""
    eng = get_engine(puzzle["game"])
    seat = puzzle["seat"]
    log: Sequence[Sequence[Any]] = puzzle["log"]
    _, state, _ = _replay(puzzle)
    if _private(eng, eng.view(state, seat)):
        # The others' face-down choices of this turn are left out, so that this one does not
        # complete the turn and reveal them.
        chose = set(range(puzzle["players"])) - set(eng.to_act(state))  # this turn, before
        cut = len(log)
        while cut and log[cut - 1][0] in chose:
            chose.discard(log[cut - 1][0])
            cut -= 1
        state = eng.new(puzzle["players"], dict(puzzle["options"]))
        for actor, played in log[:cut]:
            state = eng.apply(state, actor, played)
    if move not in eng.legal_moves(state, seat):
        raise ValueError(f"{move!r} is not a legal answer to this puzzle")
    state, events = eng.apply_events(state, seat, move)
    return _seat_picture(puzzle["game"], eng, state, seat, events)


def _band(board: Image.Image, frame: theme.RGB) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    """`board` under a label band, in a frame of `frame`'s colour; the label's text size."""
    w, h = board.size
    out, draw = theme.canvas(w, h + LABEL)
    out.paste(board, (0, LABEL))
    draw.rectangle((0, 0, w - 1, h + LABEL - 1), outline=frame, width=6)
    return out, draw, theme.min_text(w) + 2


def _mark(draw: ImageDraw.ImageDraw, xy: tuple[float, float], good: bool) -> None:
    """A tick (good) or a cross, drawn: the fonts have neither."""
    x, y = xy
    s = MARK / 2
    width = max(4, MARK // 6)
    if good:
        draw.line([(x - s, y), (x - s * 0.3, y + s * 0.7), (x + s, y - s * 0.8)],
                  fill=theme.GOOD, width=width, joint="curve")
    else:
        draw.line([(x - s * 0.8, y - s * 0.8), (x + s * 0.8, y + s * 0.8)], fill=theme.DANGER,
                  width=width)
        draw.line([(x - s * 0.8, y + s * 0.8), (x + s * 0.8, y - s * 0.8)], fill=theme.DANGER,
                  width=width)


def _labelled(board: Image.Image, label: str, frame: theme.RGB, seat: int | None = None,
              good: bool | None = None) -> Image.Image:
    """`board` under a band saying `label` (with the seat's badge on its left, or a tick or
    cross before the words)."""
    out, draw, size = _band(board, frame)
    w = out.width
    middle = LABEL / 2 + 3
    left = 24.0
    if seat is not None:
        theme.seat_badge(draw, (BADGE, middle), seat, BADGE, ring=theme.HIGHLIGHT)
        left = 2 * BADGE
    room = w - left - 24 - (MARK + 16 if good is not None else 0)
    label = theme.clip(label, size, room, bold=True)
    width = theme.text_width(label, size, bold=True) + (MARK + 16 if good is not None else 0)
    x = max(left, (w - width) / 2)
    if good is not None:
        _mark(draw, (x + MARK / 2, middle), good)
        x += MARK + 16
    theme.text(draw, (x, middle), label, size, frame, bold=True, anchor="lm")
    return out


def _stack(panels: list[Image.Image]) -> bytes:
    """Panels one above the other, unshrunk (side by side they would be half as legible)."""
    width = max(p.width for p in panels)
    img, _ = theme.canvas(width, sum(p.height for p in panels) + GAP * (len(panels) - 1))
    y = 0
    for p in panels:
        img.paste(p, ((width - p.width) // 2, y))
        y += p.height + GAP
    return theme.to_png(img)


def render_puzzle(puzzle: Record, gettext: theme.Gettext | None = None) -> bytes:
    """The position as the puzzle's seat saw it, under a band with its badge: "find the best
    move"."""
    with theme.translating(gettext or theme.current_gettext()):
        eng, state, events = _replay(puzzle)
        seat = puzzle["seat"]
        board = _seat_picture(puzzle["game"], eng, state, seat, events)
        return _stack([_labelled(board, theme.tr("Find the best move"), theme.HIGHLIGHT,
                                 seat=seat)])


def render_answer(puzzle: Record, answer: str, gettext: theme.Gettext | None = None) -> bytes:
    """The board after `answer` (green with a tick if it is counted correct, red with a cross
    if not) and, when it is not, the board after the best move (green) below it."""
    with theme.translating(gettext or theme.current_gettext()):
        right = answer in puzzle["accepted"]
        colour = theme.GOOD if right else theme.DANGER
        label = theme.tr("Your move: correct") if right else theme.tr("Your move: wrong")
        panels = [_labelled(_after(puzzle, answer), label, colour, good=right)]
        if not right:
            panels.append(_labelled(_after(puzzle, puzzle["best"]), theme.tr("Best move"),
                                    theme.GOOD, good=True))
        return _stack(panels)


# --- alt text -------------------------------------------------------------------------------
def _values_text(puzzle: Record, move: str) -> str:
    """A move's value in the puzzle's unit, in words."""
    value = puzzle["values"].get(move)
    if value is None:
        return ""
    unit = puzzle["unit"]
    if unit == "win":
        return theme.tr("it wins") if value >= 0.5 else theme.tr("it loses")
    if unit == "chance":
        return theme.tr("{percent}% chance to win", percent=round(100 * value))
    if unit == "cows":
        return theme.tr("{value} cows by the search", value=format(value, "+.1f"))
    return theme.tr("{value} bullheads expected", value=format(-value, ".1f"))


def alt_text_puzzle(puzzle: Record, gettext: theme.Gettext | None = None,
                    names: theme.Names = None) -> str:
    """The puzzle picture in words: whose move it is and the position (at most 1024
    characters)."""
    eng, state, events = _replay(puzzle)
    seat = puzzle["seat"]
    view = eng.view(state, seat)
    board = ("" if _private(eng, view)
             else renderers.alt_text(puzzle["game"], view, events, gettext=gettext, names=names))
    with theme.translating(gettext):
        head = theme.tr("Puzzle: {name} to move. Find the best move.",
                        name=theme.seat_name(seat, names))
        hand = ""
        if _private(eng, view) and isinstance(view.get("hands"), list):
            cards = view["hands"][seat] or []
            hand = theme.tr("Your hand: {cards}.", cards=theme.listing([str(c) for c in cards]))
        return theme.alt(head, hand, board)


def alt_text_answer(puzzle: Record, answer: str, gettext: theme.Gettext | None = None,
                    names: theme.Names = None) -> str:
    """The answer picture in words: the move given, whether it is counted correct, and the
    best move with the judge's values (at most 1024 characters)."""
    with theme.translating(gettext):
        right = answer in puzzle["accepted"]
        parts = [theme.tr("Your move {move}: correct.", move=answer) if right
                 else theme.tr("Your move {move}: wrong.", move=answer)]
        if not right:
            parts.append(theme.tr("Best move: {move}.", move=puzzle["best"]))
        for move in dict.fromkeys((answer, puzzle["best"])):
            value = _values_text(puzzle, move)
            if value:
                parts.append(theme.tr("{move}: {value}.", move=move, value=value))
        others = [m for m in puzzle["accepted"] if m not in (answer, puzzle["best"])]
        if others:
            parts.append(theme.tr("Also counted correct: {moves}.",
                                  moves=theme.listing(others)))
        if puzzle.get("line"):
            parts.append(theme.tr("A winning line: {moves}.",
                                  moves=theme.listing(list(puzzle["line"]))))
        return theme.alt(*parts)


__all__ = ["alt_text_answer", "alt_text_puzzle", "render_answer", "render_puzzle"]
