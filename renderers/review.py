"""Pictures of a post-game review (engines/ai/review.py): each seat's evaluation over the game,
and the board at a mistake, the move played beside the better one.

Pictures carry no words (the fonts are Latin only and the bot speaks two languages): seats
are told apart by their colour and number badge, the move played is framed in red and the
better move in green, each with its move written as the engine writes it; the bot's message
says what the colours mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO
from typing import Any

from PIL import Image

import renderers
from engines import CHANCE, get_engine
from renderers import theme
from renderers.replay import CARRY_ALONE, DROP_ALONE

WIDTH, HEIGHT = 1200, 560
LEFT, RIGHT, TOP, BOTTOM = 96, 96, 40, 64  # plot margins
MAX_WIDTH = 1200  # of a mistake picture: the two boards are shrunk to fit side by side
GAP = 48
LABEL = 30  # height of the move label above a board


def _axis(series_unit: str, values: list[float]) -> tuple[float, float, list[float], str]:
    """(low, high, tick values, tick format) for the evaluation axis."""
    if series_unit in ("chance", "won"):
        return 0.0, 1.0, [0.0, 0.25, 0.5, 0.75, 1.0], "pct"
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high - low < 1e-6:
        low, high = low - 1, high + 1
    pad = 0.08 * (high - low)
    low, high = low - pad, high + pad
    step = _nice_step((high - low) / 6)
    first = step * int(low / step)
    ticks = [first + i * step for i in range(12) if low <= first + i * step <= high]
    return low, high, ticks, "num"


def _nice_step(raw: float) -> float:
    scale = 1.0
    while raw > 10:
        raw /= 10
        scale *= 10
    while raw < 1:
        raw *= 10
        scale /= 10
    for step in (1, 2, 2.5, 5, 10):
        if raw <= step:
            return step * scale
    return 10 * scale


def render_evaluation(result: dict[str, Any]) -> bytes:
    """One line per seat (its colour, its number at the end), the value from that seat's own
    view at each of its decisions, over the plies of the game; a mistake is ringed."""
    img, draw = theme.canvas(WIDTH, HEIGHT)
    seats = result["seats"]
    plies = max(1, result["plies"])
    values = [v for s in seats for _, v in s["series"]]
    low, high, ticks, fmt = _axis(result["series_unit"], values)
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def at(index: float, value: float) -> tuple[float, float]:
        return (x0 + (x1 - x0) * index / plies,
                y1 - (y1 - y0) * (value - low) / (high - low))

    theme.panel(draw, (x0 - 12, y0 - 12, x1 + 12, y1 + 12), radius=10)
    for tick in ticks:
        _, y = at(0, tick)
        draw.line((x0, y, x1, y), fill=theme.PANEL_EDGE, width=1)
        label = f"{round(100 * tick)}%" if fmt == "pct" else f"{tick:g}"
        theme.text(draw, (x0 - 20, y), label, 18, theme.MUTED, anchor="rm")
    for k in range(5):
        index = round(plies * k / 4)
        x, _ = at(index, low)
        theme.text(draw, (x, y1 + 24), str(index), 18, theme.MUTED, anchor="mm")
    for seat in seats:
        points = [at(i, v) for i, v in seat["series"]]
        colour = theme.seat_colour(seat["seat"])
        if len(points) > 1:
            draw.line(points, fill=colour, width=4, joint="curve")
        for x, y in points:
            theme.disc(draw, (x, y), 7, colour)
        marks = {m["index"] for m in seat["mistakes"]}
        for i, v in seat["series"]:
            if i in marks:
                x, y = at(i, v)
                draw.ellipse((x - 12, y - 12, x + 12, y + 12), outline=theme.DANGER, width=3)
    # Each seat's badge in the right margin, level with its line's end, nudged apart.
    ends = sorted((at(*s["series"][-1])[1], s["seat"]) for s in seats if s["series"])
    placed: list[float] = []
    for y, _ in ends:
        y = max(y, placed[-1] + 34) if placed else y
        placed.append(y)
    shift = max(0.0, placed[-1] - (HEIGHT - 24)) if placed else 0.0
    for (_, seat_index), y in zip(ends, placed, strict=True):
        theme.seat_badge(draw, (x1 + 48, y - shift), seat_index, 30)
    return theme.to_png(img)


def _after(game: str, state: Any, seat: int, move: str,
           following: Sequence[Sequence[Any]]) -> tuple[dict, list[dict]]:
    """The public view and events once `move` is shown: a step that shows nothing yet (a
    face-down pick) is followed by the next logged moves of the other seats, as far as they
    are still legal, until something is shown (the replay's rule, renderers/replay.py)."""
    eng = get_engine(game)
    state, events = eng.apply_events(state, seat, move)
    carried: list[dict] = []
    for actor, nxt in following:
        kinds = {e.get("type") for e in events}
        if not kinds <= CARRY_ALONE | DROP_ALONE:
            break
        carried += [e for e in events if e.get("type") in CARRY_ALONE]
        if actor == CHANCE or actor == seat or nxt not in eng.legal_moves(state, actor):
            break
        state, events = eng.apply_events(state, actor, nxt)
    return eng.view(state, None), carried + list(events)


def _board(board: Image.Image, scale: float, move: str, frame: theme.RGB) -> Image.Image:
    w, h = (round(board.width * scale), round(board.height * scale))
    board = board.resize((w, h), Image.Resampling.LANCZOS)
    out, draw = theme.canvas(w + 16, h + LABEL + 24)
    draw.rounded_rectangle((2, 2, w + 13, h + LABEL + 21), radius=12, outline=frame, width=6)
    theme.text(draw, ((w + 16) / 2, 8 + LABEL / 2), move, 24, frame, bold=True, anchor="mm")
    out.paste(board, (8, LABEL + 16))
    return out


def render_mistake(game: str, options: dict[str, Any], players: int,
                   log: Sequence[Sequence[Any]], mistake: dict[str, Any], seat: int) -> bytes:
    """The board just after the mistake (red frame) beside the board after the better move
    (green frame), each drawn by the game's renderer with that move as the last move."""
    eng = get_engine(game)
    state = eng.new(players, dict(options))
    index = mistake["index"]
    for actor, move in log[:index]:
        state = eng.apply(state, actor, move)
    following = log[index + 1:]
    boards = [
        Image.open(BytesIO(renderers.render(
            game, *_after(game, state, seat, move, following)))).convert("RGB")
        for move in (mistake["move"], mistake["better"])
    ]
    gap = GAP
    scale = min(1.0, (MAX_WIDTH - 3 * gap - 32) / sum(b.width for b in boards))
    panels = [_board(boards[0], scale, mistake["move"], theme.DANGER),
              _board(boards[1], scale, mistake["better"], theme.GOOD)]
    width = sum(p.width for p in panels) + 3 * gap
    height = max(p.height for p in panels) + 2 * gap
    img, draw = theme.canvas(width, height)
    x = gap
    for p in panels:
        img.paste(p, (x, gap))
        x += p.width + gap
    theme.seat_badge(draw, (gap + panels[0].width + gap / 2, gap + LABEL / 2 + 8), seat, 36)
    return theme.to_png(img)


__all__ = ["render_evaluation", "render_mistake"]
