"""Senet pictures: the 3 x 10 board in its reverse S, the houses 15 and 26..30 with their
symbols, both colours' stones (White = seat 0 with badge 1, Black = seat 1 with badge 2),
stones borne off, the throwing sticks of the last throw and the last move (arrow, swap,
drowning). Inputs are `eng.view(state, None)` and the events of engines/EVENTS.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from renderers import theme as T

if TYPE_CHECKING:
    from renderers.gallery import Case

WIDTH = 1100
SQ = 92  # square size
BOARD_X = (WIDTH - 10 * SQ) // 2
BOARD_Y = 64 + 44
STONE = 58
SMALL = T.min_text(WIDTH)  # the smallest text (square numbers, tags)

SAND: T.RGB = (226, 204, 160)
SAND_ALT: T.RGB = (216, 191, 143)
SAND_EDGE: T.RGB = (150, 114, 66)
GLYPH: T.RGB = (84, 56, 30)
NUMBER: T.RGB = (120, 88, 52)
WATER: T.RGB = (150, 200, 228)
WATER_INK: T.RGB = (30, 100, 170)
GOLD: T.RGB = (240, 200, 90)
LIFE: T.RGB = (180, 216, 170)
JUDGE: T.RGB = (232, 180, 150)
HORUS: T.RGB = (250, 220, 120)

STONE_FILL: dict[int, T.RGB] = {0: (246, 242, 232), 1: (38, 36, 40)}
STONE_EDGE: dict[int, T.RGB] = {0: (90, 84, 72), 1: (0, 0, 0)}
CHARS = {"W": 0, "B": 1}

HOUSE_TINT = {15: LIFE, 26: GOLD, 27: WATER, 28: JUDGE, 29: JUDGE, 30: HORUS}


# --- geometry -------------------------------------------------------------------------------
def square_box(n: int) -> tuple[float, float, float, float]:
    """The pixel box of square `n` (1..30) in the reverse S."""
    if n <= 10:
        row, col = 0, n - 1
    elif n <= 20:
        row, col = 1, 20 - n
    else:
        row, col = 2, n - 21
    x, y = BOARD_X + col * SQ, BOARD_Y + row * SQ
    return (x, y, x + SQ, y + SQ)


def centre(n: int) -> tuple[float, float]:
    x0, y0, x1, y1 = square_box(n)
    return ((x0 + x1) / 2, (y0 + y1) / 2 + 14)  # below the square number


OFF_POINT = (BOARD_X + 10 * SQ + 44, BOARD_Y + 2.5 * SQ)  # where borne-off stones go


# --- glyphs ---------------------------------------------------------------------------------
def _ankh(d: ImageDraw.ImageDraw, k: float, c: T.RGB) -> None:
    w = 5 * k
    d.ellipse((17 * k, 4 * k, 31 * k, 22 * k), outline=c, width=int(w))
    d.line((10 * k, 23 * k, 38 * k, 23 * k), fill=c, width=int(w))
    d.line((24 * k, 21 * k, 24 * k, 45 * k), fill=c, width=int(w))


def _nefer(d: ImageDraw.ImageDraw, k: float, c: T.RGB) -> None:
    w = int(4 * k)
    d.ellipse((13 * k, 20 * k, 35 * k, 44 * k), fill=c)
    d.line((24 * k, 3 * k, 24 * k, 22 * k), fill=c, width=w)
    d.line((17 * k, 10 * k, 31 * k, 10 * k), fill=c, width=w)
    d.line((18 * k, 15 * k, 30 * k, 15 * k), fill=c, width=w)


def _waves(d: ImageDraw.ImageDraw, k: float, c: T.RGB) -> None:
    for row in range(3):
        y = (12 + row * 12) * k
        pts = [(x * k, y + 3.5 * k * math.sin(x / 48 * 4 * math.pi)) for x in range(3, 46)]
        d.line(pts, fill=c, width=int(4 * k), joint="curve")


def _strokes(count: int):
    def paint(d: ImageDraw.ImageDraw, k: float, c: T.RGB) -> None:
        step = 11
        start = 24 - step * (count - 1) / 2
        for i in range(count):
            x = (start + i * step) * k
            d.rounded_rectangle((x - 3 * k, 8 * k, x + 3 * k, 40 * k), radius=int(3 * k),
                                fill=c)

    return paint


def _eye(d: ImageDraw.ImageDraw, k: float, c: T.RGB) -> None:
    w = int(3.5 * k)
    # brow
    d.line([(6 * k, 12 * k), (20 * k, 8 * k), (42 * k, 10 * k)], fill=c, width=w,
           joint="curve")
    # eye outline: almond
    top = [(x * k, (20 - 7 * math.sin((x - 8) / 32 * math.pi)) * k) for x in range(8, 41)]
    bot = [(x * k, (20 + 5 * math.sin((x - 8) / 32 * math.pi)) * k) for x in range(40, 7, -1)]
    d.polygon(top + bot, outline=c, width=w)
    d.ellipse((19 * k, 14 * k, 29 * k, 25 * k), fill=c)
    # markings below
    d.line([(20 * k, 25 * k), (18 * k, 40 * k)], fill=c, width=w)
    d.line([(27 * k, 25 * k), (34 * k, 32 * k), (38 * k, 38 * k), (34 * k, 42 * k),
            (30 * k, 39 * k)], fill=c, width=w, joint="curve")


GLYPHS = {15: _ankh, 26: _nefer, 27: _waves, 28: _strokes(3), 29: _strokes(2), 30: _eye}
GLYPH_INK = {15: (40, 100, 60), 26: (150, 96, 10), 27: WATER_INK, 28: (150, 50, 40),
             29: (150, 50, 40), 30: (170, 90, 10)}


@lru_cache(maxsize=32)
def _glyph(n: int, size: int) -> Image.Image:
    paint = GLYPHS[n]
    colour = GLYPH_INK[n]
    return T.sprite((size, size), lambda d, k: paint(d, k * size / 48, colour))


# --- stones and sticks ----------------------------------------------------------------------
@lru_cache(maxsize=8)
def _stone(seat: int, size: int) -> Image.Image:
    fill, edge = STONE_FILL[seat], STONE_EDGE[seat]
    inlay = T.seat_colour(seat)

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        s = size * k
        d.ellipse((2 * k, 5 * k, s - 2 * k, s - 1 * k), fill=(0, 0, 0, 90))  # shadow
        d.ellipse((1 * k, 1 * k, s - 3 * k, s - 5 * k), fill=edge)
        d.ellipse((4 * k, 4 * k, s - 6 * k, s - 8 * k), fill=fill)
        hi = T.shade(fill, 1.25) if seat == 1 else (255, 255, 255)
        d.ellipse((10 * k, 8 * k, s * 0.55, s * 0.38), fill=hi)
        d.ellipse((4 * k, 4 * k, s - 6 * k, s - 8 * k), outline=edge, width=int(1.5 * k))
        r = s * 0.34  # room for the seat number at the smallest text size
        cx, cy = (s - 4 * k) / 2, (s - 6 * k) / 2
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=inlay, outline=T.INK_DARK,
                  width=int(2 * k))

    im = T.sprite((size, size), paint)
    if size >= STONE:  # smaller stones (borne off, in the trays) go without the number
        T.text(ImageDraw.Draw(im), (size / 2 - 2, size / 2 - 3), str(seat + 1),
               max(SMALL, int(size * 0.46)), T.seat_ink(seat), bold=True, anchor="mm")
    return im


def stone(draw: ImageDraw.ImageDraw, xy: tuple[float, float], seat: int,
          size: int = STONE) -> None:
    """A stone of `seat` (0 White, 1 Black) with its badge number on a seat-colour inlay."""
    T.paste(draw, _stone(seat, size), xy)


def sticks(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: int | None,
           height: int = 116) -> None:
    """Four throwing sticks, top-left at `xy`: `value` light sides up (none for 5); greyed
    out when `value` is None."""
    x, y = xy
    light = 0 if value in (None, 5) else int(value)
    for i in range(4):
        sx = x + i * 34
        box = (sx, y, sx + 24, y + height)
        if value is None:
            draw.rounded_rectangle(box, radius=12, fill=(70, 76, 92), outline=T.PANEL_EDGE,
                                   width=2)
            continue
        if i < light:
            draw.rounded_rectangle(box, radius=12, fill=(244, 226, 184), outline=T.INK_DARK,
                                   width=2)
            for j in range(3):
                yy = y + 24 + j * (height - 48) / 2
                draw.line((sx + 6, yy, sx + 18, yy), fill=(196, 160, 100), width=3)
        else:
            draw.rounded_rectangle(box, radius=12, fill=(92, 56, 30), outline=T.INK_DARK,
                                   width=2)
            draw.line((sx + 12, y + 14, sx + 12, y + height - 14), fill=(70, 40, 20), width=3)


# --- the last move --------------------------------------------------------------------------
def _throw_of(view: dict[str, Any], events: list[dict]) -> tuple[int | None, int | None, str]:
    """(value, seat, how) of the throw to show: "move" = the throw to move with now,
    "last" = the throw just made/used, "" = unknown."""
    if view.get("throw") is not None:
        return int(view["throw"]), int(view["turn"]), "move"
    for ev in events:
        if ev.get("type") == "throw":
            return int(ev["value"]), int(ev["seat"]), "last"
    for ev in events:
        if ev.get("type") == "move":
            return abs(ev["to"] - ev["from"]), int(ev["seat"]), "last"
        if ev.get("type") == "bear_off" and ev.get("throw") is not None:
            return int(ev["throw"]), int(ev["seat"]), "last"
    return None, None, ""


def _offset(a: tuple[float, float], b: tuple[float, float], off: float
            ) -> tuple[tuple[float, float], tuple[float, float]]:
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    px, py = -(b[1] - a[1]) / length * off, (b[0] - a[0]) / length * off
    return (a[0] + px, a[1] + py), (b[0] + px, b[1] + py)


def _ring(draw: ImageDraw.ImageDraw, n: int, colour: T.RGB, width: int = 5) -> None:
    x0, y0, x1, y1 = square_box(n)
    draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=10, outline=colour,
                           width=width)


def _cross(draw: ImageDraw.ImageDraw, xy: tuple[float, float], r: float,
           colour: T.RGB = T.DANGER) -> None:
    x, y = xy
    for sx in (-1, 1):
        draw.line((x - r, y - sx * r, x + r, y + sx * r), fill=T.INK_DARK, width=11)
    for sx in (-1, 1):
        draw.line((x - r, y - sx * r, x + r, y + sx * r), fill=colour, width=7)


def _last_move(draw: ImageDraw.ImageDraw, events: list[dict]) -> list[tuple]:
    """Rings under the stones; returns the arrows to draw over them."""
    arrows: list[tuple] = []
    for ev in events:
        kind = ev.get("type")
        if kind == "move":
            _ring(draw, ev["to"], T.HIGHLIGHT)
            _ring(draw, ev["from"], T.HIGHLIGHT, 3)
            arrows.append(("move", ev["from"], ev["to"], T.HIGHLIGHT))
        elif kind == "bear_off":
            _ring(draw, ev["from"], T.HIGHLIGHT, 3)
            arrows.append(("off", ev["from"], None, T.HIGHLIGHT))
        elif kind == "swap":
            arrows.append(("swap", ev["square"], ev["to"], T.INK))
        elif kind == "drown":
            _ring(draw, ev["to"], WATER_INK)
            arrows = [a for a in arrows if a[0] != "swap"]
            arrows.append(("drown", ev["from"], ev["to"], WATER_INK))
        elif kind == "water_return":
            _ring(draw, 27, WATER_INK, 3)
            _ring(draw, ev["to"], WATER_INK)
            arrows.append(("move", 27, ev["to"], WATER_INK))
        elif kind == "water_fail":
            _ring(draw, 27, T.DANGER)
            arrows.append(("fail", 27, None, T.DANGER))
    return arrows


def _path_arrow(draw: ImageDraw.ImageDraw, start: tuple[float, float],
                end: tuple[float, float], colour: T.RGB, width: int, up: bool) -> None:
    """Within a row: an arc over (`up`) or under the stones from edge to edge; across rows:
    a straight arrow between the stones' rims."""
    if abs(start[1] - end[1]) < 1:
        sign = 1 if end[0] > start[0] else -1
        dist = abs(end[0] - start[0]) / SQ
        lift = -STONE * 0.36 if up else STONE * 0.36
        p = (start[0] + sign * STONE * 0.16, start[1] + lift)
        q = (end[0] - sign * STONE * 0.16, end[1] + lift)
        bend = min(SQ * 0.42, 14 + dist * 7) * sign * (1 if up else -1)
        T.arrow(draw, p, q, colour, width=width, head=22, bend=bend)
        return
    if not up:
        start, end = _offset(start, end, SQ * 0.28)
    p, q = T.shorten(start, end, STONE / 2 - 6, STONE / 2 - 8)
    T.arrow(draw, p, q, colour, width=width, head=24)


def _draw_arrows(draw: ImageDraw.ImageDraw, arrows: list[tuple]) -> None:
    for kind, a, b, colour in arrows:
        if kind == "fail":
            x0, y0, x1, y1 = square_box(a)
            _cross(draw, (x1 - 18, y0 + 18), 11)
            continue
        start = centre(a)
        if kind == "off":
            _path_arrow(draw, start, (OFF_POINT[0] + 10, start[1]), colour, 7, True)
        elif kind == "move":
            _path_arrow(draw, start, centre(b), colour, 7, True)
        else:  # swap / drown: the victim's way, under the stones
            _path_arrow(draw, start, centre(b), colour, 5, False)


# --- the picture ----------------------------------------------------------------------------
def _empty_board(draw: ImageDraw.ImageDraw, title: str, subtitle: str) -> None:
    """The title and the board without stones or house symbols: the same on every move."""
    T.title_strip(draw, WIDTH, title, subtitle)
    fx0, fy0 = BOARD_X - 16, BOARD_Y - 16
    fx1, fy1 = BOARD_X + 10 * SQ + 16, BOARD_Y + 3 * SQ + 16
    draw.rounded_rectangle((fx0 + 4, fy0 + 8, fx1 + 4, fy1 + 8), radius=18, fill=(18, 20, 26))
    draw.rounded_rectangle((fx0, fy0, fx1, fy1), radius=18, fill=T.WOOD, outline=T.INK_DARK,
                           width=3)
    _path_marks(draw)
    for n in range(1, 31):
        x0, y0, x1, y1 = square_box(n)
        fill = HOUSE_TINT.get(n, SAND if n % 2 else SAND_ALT)
        draw.rectangle((x0, y0, x1, y1), fill=fill, outline=SAND_EDGE, width=2)
        draw.rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), outline=T.shade(fill, 1.25), width=1)
        # the top of the digits at the square's top edge: the stone sits just below them
        T.text(draw, (x0 + 6, y0 + 6), str(n), SMALL, NUMBER, bold=True, anchor="lt")


def _board(draw: ImageDraw.ImageDraw, view: dict[str, Any], events: list[dict]) -> None:
    board = view["board"]
    for n in GLYPHS:  # inside their squares, clear of the numbers: after every square is fine
        x0, y0, x1, y1 = square_box(n)
        if board[n - 1] != ".":
            T.paste(draw, _glyph(n, 26), (x1 - 17, y0 + 17))
        else:
            T.paste(draw, _glyph(n, 52), ((x0 + x1) / 2, (y0 + y1) / 2 + 16))
    arrows = _last_move(draw, events)
    for n in range(1, 31):
        ch = board[n - 1]
        if ch in CHARS:
            stone(draw, centre(n), CHARS[ch])
    _draw_arrows(draw, arrows)


def _path_marks(draw: ImageDraw.ImageDraw) -> None:
    """The reverse S drawn in the frame's margins: in at 1, 10 down to 11, 20 down to 21,
    out after 30."""
    c = (200, 170, 120)
    w = 6
    right = BOARD_X + 10 * SQ
    left = BOARD_X
    # 10 -> 11 on the right, 20 -> 21 on the left: half circles in the margin
    for xe, y_mid, side in ((right, BOARD_Y + SQ, 1), (left, BOARD_Y + 2 * SQ, -1)):
        r = SQ / 2
        box = (xe - r, y_mid - r, xe + r, y_mid + r)
        if side == 1:
            draw.arc(box, -90, 90, fill=c, width=w)
        else:
            draw.arc(box, 90, 270, fill=c, width=w)
    # entry arrow at 1
    y1 = BOARD_Y + SQ / 2
    T.arrow(draw, (left - 60, y1), (left - 6, y1), c, width=w, head=16, outline=None)
    y3 = BOARD_Y + 2.5 * SQ
    T.arrow(draw, (right + 6, y3), (right + 60, y3), c, width=w, head=16, outline=None)


def _tray(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], seat: int,
          view: dict[str, Any], acting: bool) -> None:
    """A seat's panel: badge, its stone, borne-off stones (of 5) and count."""
    off = int(view["off"][seat])
    label = T.tr("{off}/5 off", off=off)
    T.layer(draw, ("senet tray", box, seat, off, label, acting),
            partial(_paint_tray, box=box, seat=seat, off=off, label=label, acting=acting))


def _paint_tray(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], seat: int,
                off: int, label: str, acting: bool) -> None:
    x0, y0, x1, y1 = box
    T.panel(draw, box, outline=T.HIGHLIGHT if acting else T.PANEL_EDGE, width=3 if acting else 2)
    cy = y0 + 40
    T.seat_badge(draw, (x0 + 36, cy), seat, 46, ring=T.HIGHLIGHT if acting else None)
    stone(draw, (x0 + 96, cy), seat, STONE)
    label = T.clip(label, SMALL, x1 - x0 - 142, bold=True)
    T.text(draw, (x1 - 14, cy), label, SMALL, T.INK, bold=True, anchor="rm")
    # the five places off the board
    for i in range(5):
        sx = x0 + 40 + i * 56
        sy = y1 - 40
        if i < off:
            stone(draw, (sx, sy), seat, 44)
        else:
            draw.ellipse((sx - 19, sy - 19, sx + 19, sy + 19), outline=T.PANEL_EDGE, width=3)


def _centre_panel(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                  view: dict[str, Any], events: list[dict]) -> None:
    x0, y0, x1, y1 = box
    T.panel(draw, box, on=T.BACKGROUND)
    value, seat, how = _throw_of(view, events)
    sticks(draw, (x0 + 24, y0 + 22), value)
    vx = x0 + 24 + 4 * 34 + 50
    cy = y0 + 80
    if value is None:
        T.text(draw, (vx, cy), "-", 56, T.MUTED, bold=True, anchor="mm")
    else:
        T.text(draw, (vx, cy), str(value), 64, T.HIGHLIGHT if how == "move" else T.INK,
               bold=True, anchor="mm")
        if seat is not None:
            T.seat_badge(draw, (vx + 62, cy), seat, 46)
    tags: list[tuple[str, T.RGB, int | None]] = []
    if any(e.get("type") == "pass" for e in events):
        tags.append((T.tr("pass"), T.MUTED, None))
    if any(e.get("type") == "extra_throw" for e in events):
        tags.append((T.tr("again"), T.GOOD, None))
    if any(e.get("backward") for e in events if e.get("type") == "move"):
        tags.append((T.tr("back"), (250, 170, 120), None))
    if any(e.get("type") == "water_return" for e in events):
        tags.append(("15", WATER, 15))
    if any(e.get("type") == "water_fail" for e in events):
        tags.append(("x", T.DANGER, 27))
    if view.get("phase") in ("water", "try"):
        tags.append(("?", HORUS if view["phase"] == "water" else WATER, 27))
    ty = y1 - 32
    tx = x1 - 16
    for label, colour, glyph in reversed(tags):
        w = T.text_width(label, SMALL, True) + 24 + (34 if glyph else 0)
        draw.rounded_rectangle((tx - w, ty - 24, tx, ty + 24), radius=24, fill=colour)
        if glyph:
            draw.ellipse((tx - w + 4, ty - 18, tx - w + 40, ty + 18), fill=HOUSE_TINT[glyph])
            T.paste(draw, _glyph(glyph, 28), (tx - w + 21, ty))
        T.text(draw, (tx - (w - (34 if glyph else 0)) / 2, ty), label, SMALL, T.ink_on(colour),
               bold=True, anchor="mm")
        tx -= w + 8


def _picture(view: dict[str, Any], events: list[dict], outcome: dict | None) -> bytes:
    height = BOARD_Y + 3 * SQ + 16 + 30 + 170 + 24
    img, d = T.palette_canvas(WIDTH, height)
    over = outcome is not None or view.get("phase") == "over"
    title, subtitle = T.tr("Senet"), T.tr("final") if over else ""
    T.layer(d, ("senet board", title, subtitle), partial(_empty_board, title=title,
                                                          subtitle=subtitle))
    _board(d, view, events)
    top = BOARD_Y + 3 * SQ + 16 + 30
    tray_w = 330
    to_act = set(view.get("to_act") or [])
    for seat, x in ((0, 24), (1, WIDTH - 24 - tray_w)):
        acting = not over and (seat in to_act or view.get("turn") == seat)
        _tray(d, (x, top, x + tray_w, top + 170), seat, view, acting)
    mid = (24 + tray_w + 20, top, WIDTH - 24 - tray_w - 20, top + 170)
    if over:
        _result_panel(d, mid, view, outcome)
    else:
        _centre_panel(d, mid, view, events)
    return T.to_png(img)


def _result_panel(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                  view: dict[str, Any], outcome: dict | None) -> None:
    x0, y0, x1, y1 = box
    T.panel(draw, box, on=T.BACKGROUND)
    scores = (outcome or {}).get("scores") or list(view["off"])
    ranks = (outcome or {}).get("ranks") or [1 if s == max(scores) else 2 for s in scores]
    order = sorted(range(len(scores)), key=lambda s: (ranks[s], s))
    for i, s in enumerate(order):
        cy = y0 + 50 + i * 72
        cx = (x0 + x1) / 2
        if ranks[s] == 1:
            T.star(draw, (cx - 90, cy), 24)
        else:
            T.text(draw, (cx - 90, cy), T.rank_label(ranks[s]), SMALL, T.MUTED, bold=True,
                   anchor="mm")
        T.seat_badge(draw, (cx - 30, cy), s, 48, ring=T.HIGHLIGHT if ranks[s] == 1 else None)
        T.text(draw, (cx + 20, cy), str(scores[s]), T.big_text(WIDTH) + 4,
               T.HIGHLIGHT if ranks[s] == 1 else T.INK, bold=True, anchor="lm")


@T.localised
def render_board(view: dict[str, Any], events: list[dict] | None = None) -> bytes:
    """The board after `events` (the last move's events, possibly empty): stones, houses,
    the sticks of the throw to move with (or of the last throw) and the last move."""
    return _picture(view, list(events or []), None)


@T.localised
def render_game_over(view: dict[str, Any], outcome: dict[str, Any]) -> bytes:
    """The final board with the result: winner (star) and stones borne off per seat."""
    return _picture(view, [], outcome)


__all__ = ["alt_text", "alt_text_game_over", "centre", "render_board", "render_game_over",
           "square_box", "sticks", "stone"]


def gallery_samples() -> Iterator[Case]:
    """Sample pictures for renderers.gallery: each kind of move, the water, the end."""
    from renderers.gallery import Stop, game_over, has, play, puzzle_cases, review_cases

    moments: list[tuple[str, Stop]] = [
        ("start_throw", lambda s, v, e: has(e, "throw")),
        ("move", lambda s, v, e: has(e, "move") and not has(e, "swap")),
        ("swap", lambda s, v, e: has(e, "swap") and not has(e, "drown")),
        ("backward", lambda s, v, e: any(x.get("backward") for x in e)),
        ("drown", lambda s, v, e: has(e, "drown")),
        ("bear_off", lambda s, v, e: has(e, "bear_off")),
        ("water", lambda s, v, e: v["phase"] == "water"),
        ("water_return", lambda s, v, e: has(e, "water_return")),
        ("pass", lambda s, v, e: has(e, "pass")),
    ]
    for name, stop in moments:
        for seed in range(1, 60):
            eng, state, events = play("senet", 2, None, seed, stop)
            view = eng.view(state, None)
            if events and stop(state, view, events):
                yield name, partial(render_board, view, events)
                break
    yield from game_over("senet", 2, None, 3)
    yield from review_cases("senet", 2, None, 160)
    yield from puzzle_cases("senet", 2)


# --- alt text -------------------------------------------------------------------------------
COLOUR_WORDS = {0: T.N_("white"), 1: T.N_("black")}


def _alt_events(events: list[dict], names: T.Names) -> list[str]:
    """What happened, one sentence per event, in order."""
    out = []
    for ev in events:
        kind = ev.get("type")
        who = T.seat_name(int(ev.get("seat", 0)), names)
        if kind == "throw":
            out.append(T.tr("{name} threw {value}.", name=who, value=ev["value"]))
        elif kind == "move":
            out.append(T.tr("{name} moved a stone from {source} to {destination}.", name=who,
                            source=ev["from"], destination=ev["to"]))
        elif kind == "bear_off":
            out.append(T.tr("{name} bore off a stone from {source}.", name=who,
                            source=ev["from"]))
        elif kind == "swap":
            out.append(T.tr("The stone of {name} on {square} went back to {destination}.",
                            name=T.seat_name(int(ev["victim"]), names), square=ev["square"],
                            destination=ev["to"]))
        elif kind in ("drown", "water_return"):
            out.append(T.tr("The stone of {name} went into the water and back to "
                            "{destination}.", name=who, destination=ev["to"]))
        elif kind == "water_fail":
            out.append(T.tr("The stone of {name} stays in the House of Water.", name=who))
        elif kind == "pass":
            out.append(T.tr("{name} cannot move.", name=who))
        elif kind == "extra_throw":
            out.append(T.tr("{name} throws again.", name=who))
    return out


def _alt_position(view: dict[str, Any], names: T.Names) -> list[str]:
    board = view["board"]
    out = []
    for seat, ch in ((0, "W"), (1, "B")):
        squares = [str(i + 1) for i, c in enumerate(board) if c == ch]
        who, colour = T.seat_name(seat, names), T.tr(COLOUR_WORDS[seat])
        if squares:
            out.append(T.tr("{name} ({colour}): stones on {squares}; {off} of 5 borne off.",
                            name=who, colour=colour, squares=T.listing(squares),
                            off=view["off"][seat]))
        else:
            out.append(T.tr("{name} ({colour}): {off} of 5 borne off.", name=who,
                            colour=colour, off=view["off"][seat]))
    return out


@T.localised
def alt_text(view: dict[str, Any], events: list[dict] | None = None,
             names: T.Names = None) -> str:
    """The board in words for a screen reader: the last move, each side's stones and who
    is to move (with the throw to move with)."""
    moving = ""
    seats = [s for s in view.get("to_act") or [] if isinstance(s, int) and s >= 0]
    if not seats and view.get("phase") != "over" and isinstance(view.get("turn"), int):
        seats = [view["turn"]]  # chance throws for the seat whose turn it is
    if seats and view.get("throw") is not None:
        moving = T.tr("{name} to move with a throw of {value}.",
                      name=T.seat_name(seats[0], names), value=view["throw"])
    elif seats:
        moving = T.tr("{name} to throw.", name=T.seat_name(seats[0], names))
    return T.alt(T.alt_title(T.tr("Senet")), *_alt_events(list(events or []), names),
                 *_alt_position(view, names), moving)


@T.localised
def alt_text_game_over(view: dict[str, Any], outcome: dict[str, Any],
                       names: T.Names = None) -> str:
    """The result in words: the ranking by stones borne off, then the final board."""
    scores = list(outcome.get("scores") or view["off"])
    ranks = list(outcome.get("ranks") or [1 if s == max(scores) else 2 for s in scores])
    return T.alt(T.alt_title(T.tr("Senet")),
                 T.alt_ranking(scores, ranks, names, T.N_("{rank}: {name}, {score} borne off")),
                 *_alt_position(view, names))
