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

WIDTH, HEIGHT = 1000, 560  # narrower than the boards: its axis labels read on a phone
LEFT, RIGHT, TOP, BOTTOM = 116, 96, 40, 64  # plot margins
GAP = 24
LABEL = 64  # height of the label band above a board
BADGE = 52  # the seat's badge, in the first band
AXIS_TEXT = theme.min_text(WIDTH)


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


def render_evaluation(result: dict[str, Any], gettext: theme.Gettext | None = None) -> bytes:
    """One line per seat (its colour, its number at the end), the value from that seat's own
    view at each of its decisions, over the plies of the game; a mistake is ringed."""
    with theme.translating(gettext):
        return _evaluation(result)


def _evaluation(result: dict[str, Any]) -> bytes:
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
        theme.text(draw, (x0 - 20, y), label, AXIS_TEXT, theme.MUTED, anchor="rm")
    for k in range(5):
        index = round(plies * k / 4)
        x, _ = at(index, low)
        theme.text(draw, (x, y1 + 28), str(index), AXIS_TEXT, theme.MUTED, anchor="mm")
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
        y = max(y, placed[-1] + BADGE + 4) if placed else y
        placed.append(y)
    shift = max(0.0, placed[-1] - (HEIGHT - 24)) if placed else 0.0
    for (_, seat_index), y in zip(ends, placed, strict=True):
        theme.seat_badge(draw, (x1 + 48, y - shift), seat_index, BADGE)
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


def _framed(board: Image.Image, label: str, frame: theme.RGB) -> Image.Image:
    """The board at full size (its words stay legible on a phone) under a label band, in a
    frame of the band's colour."""
    w, h = board.size
    out, draw = theme.canvas(w, h + LABEL)
    out.paste(board, (0, LABEL))
    draw.rectangle((0, 0, w - 1, h + LABEL - 1), outline=frame, width=6)
    theme.text(draw, (w / 2, LABEL / 2 + 3), label, theme.min_text(w) + 2, frame, bold=True,
               anchor="mm")
    return out


def render_mistake(game: str, options: dict[str, Any], players: int,
                   log: Sequence[Sequence[Any]], mistake: dict[str, Any], seat: int,
                   gettext: theme.Gettext | None = None) -> bytes:
    """The board just after the mistake (red frame, "played") beside the board after the
    better move (green frame, "better"), each drawn by the game's renderer with that move as
    the last move (the move strings are in the message beside the picture)."""
    with theme.translating(gettext or theme.current_gettext()):
        return _mistake(game, options, players, log, mistake, seat)


def _mistake(game: str, options: dict[str, Any], players: int, log: Sequence[Sequence[Any]],
             mistake: dict[str, Any], seat: int) -> bytes:
    eng = get_engine(game)
    state = eng.new(players, dict(options))
    index = mistake["index"]
    for actor, move in log[:index]:
        state = eng.apply(state, actor, move)
    following = log[index + 1:]
    words = theme.current_gettext()
    boards = [
        Image.open(BytesIO(renderers.render(
            game, *_after(game, state, seat, move, following), gettext=words))).convert("RGB")
        for move in (mistake["move"], mistake["better"])
    ]
    # One above the other, unshrunk: side by side they would be half as legible.
    panels = [_framed(boards[0], theme.tr("played"), theme.DANGER),
              _framed(boards[1], theme.tr("better"), theme.GOOD)]
    width = max(p.width for p in panels)
    img, draw = theme.canvas(width, sum(p.height for p in panels) + GAP)
    y = 0
    for p in panels:
        img.paste(p, ((width - p.width) // 2, y))
        y += p.height + GAP
    theme.seat_badge(draw, (BADGE, LABEL / 2 + 3), seat, BADGE)
    return theme.to_png(img)


# --- alt text -------------------------------------------------------------------------------
def _value_text(value: float, fmt: str) -> str:
    return f"{round(100 * value)}%" if fmt == "pct" else f"{value:g}"


def alt_text_evaluation(result: dict[str, Any], gettext: theme.Gettext | None = None,
                        names: theme.Names = None) -> str:
    """The evaluation chart in words: per seat, its value at its first and last decision and
    the moves of its ringed mistakes (at most 1024 characters)."""
    with theme.translating(gettext):
        values = [v for s in result["seats"] for _, v in s["series"]]
        fmt = _axis(result["series_unit"], values)[3]
        parts = [theme.tr("Evaluation over {plies} moves, each seat from its own side.",
                          plies=result["plies"])]
        for seat in result["seats"]:
            who = theme.seat_name(seat["seat"], names)
            series = seat["series"]
            if not series:
                parts.append(theme.tr("{name}: no decision judged.", name=who))
                continue
            parts.append(theme.tr("{name}: {start} at first, {end} at the end.", name=who,
                                  start=_value_text(series[0][1], fmt),
                                  end=_value_text(series[-1][1], fmt)))
            marks = sorted(m["index"] + 1 for m in seat["mistakes"])
            if marks:
                parts.append(theme.tr("Mistakes at moves {moves}.",
                                      moves=theme.listing([str(m) for m in marks])))
        return theme.alt(*parts)


def alt_text_mistake(game: str, options: dict[str, Any], players: int,
                     log: Sequence[Sequence[Any]], mistake: dict[str, Any], seat: int,
                     gettext: theme.Gettext | None = None, names: theme.Names = None) -> str:
    """The mistake picture in words: the move played (top, red) and the better one (bottom,
    green), then the board after the move played (at most 1024 characters)."""
    eng = get_engine(game)
    state = eng.new(players, dict(options))
    for actor, move in log[:mistake["index"]]:
        state = eng.apply(state, actor, move)
    view, events = _after(game, state, seat, mistake["move"], log[mistake["index"] + 1:])
    board = renderers.alt_text(game, view, events, gettext=gettext, names=names)
    with theme.translating(gettext):
        head = theme.tr("Move {index} by {name}: played {played} (top, red); better was "
                        "{better} (bottom, green).", index=mistake["index"] + 1,
                        name=theme.seat_name(seat, names), played=mistake["move"],
                        better=mistake["better"])
        return theme.alt(head, board)


__all__ = ["alt_text_evaluation", "alt_text_mistake", "render_evaluation", "render_mistake"]
