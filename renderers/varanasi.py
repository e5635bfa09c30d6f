"""Varanasi pictures: the spots with their towers, the discs each seat took, scores, turn.

Input is the public view (the position JSON of docs/rules/varanasi.md plus "to_act") and
the last move's events (engines/EVENTS.md). Discs are drawn from the side, like the Tower of
Hanoi, four widths for the four sizes; every disc carries the shape of its colour (red
circle, blue square, green triangle, yellow diamond, white star, black cross), the same in
every language, so colour is never the only cue. Words come from `theme.tr`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from engines import get_engine, ranks_from_scores
from renderers import theme

if TYPE_CHECKING:
    from renderers.gallery import Case

ENGINE = get_engine("varanasi")  # its teams, never re-derived here

WIDTH = 1000
MARGIN = 32
COLOUR_ORDER = "rbgywk"
DISC_COLOURS: dict[str, theme.RGB] = {
    "r": (208, 52, 44),
    "b": (38, 98, 204),
    "g": (34, 150, 76),
    "y": (246, 200, 40),
    "w": (248, 248, 242),
    "k": (36, 36, 40),
}
EDGE: theme.RGB = (52, 38, 24)  # outline of discs on the sandstone board
LINE: theme.RGB = (120, 90, 52)  # the board's line under the spots
MAX_PER_ROW = 10
DISC_H = 30
ARC_SPACE = 42  # room above the tallest tower for the move arrow
TITLE_H = 64
CAPTION_H = 58
SEAT_PANEL_H = 146
GAP = 16
SS = 3  # supersampling factor of the sprites
TEXT = theme.min_text(1000)  # the smallest text on this 1000 px canvas
BIG = theme.big_text(1000)  # scores
SHAPES = {"r": "circle", "b": "square", "g": "triangle", "y": "diamond", "w": "star",
          "k": "cross"}
COLOUR_NAMES = {"r": theme.N_("red"), "b": theme.N_("blue"), "g": theme.N_("green"),
                "y": theme.N_("yellow"), "w": theme.N_("white"), "k": theme.N_("black")}

Disc = tuple[str, int]


# --- parsing --------------------------------------------------------------------------------
def _discs(tower: str) -> list[Disc]:
    """"b4r3" -> [("b", 4), ("r", 3)], bottom first."""
    return [(tower[i], int(tower[i + 1])) for i in range(0, len(tower) - 1, 2)]


def _disc(code: str) -> Disc:
    return code[0], int(code[1])


def _value(discs: list[Disc], weighted: bool) -> int:
    return sum(size for _, size in discs) if weighted else len(discs)


def _mix(a: theme.RGB, b: theme.RGB, t: float) -> theme.RGB:
    """a blended towards b by t (0 = a, 1 = b)."""
    return (int(a[0] + (b[0] - a[0]) * t), int(a[1] + (b[1] - a[1]) * t),
            int(a[2] + (b[2] - a[2]) * t))


# --- disc sprites ---------------------------------------------------------------------------
def _shape(d: ImageDraw.ImageDraw, colour: str, centre: tuple[float, float], r: float,
           fill: theme.RGB) -> None:
    """The mark of `colour` (see SHAPES) of radius `r` centred on `centre`."""
    cx, cy = centre
    shape = SHAPES.get(colour, "circle")
    if shape == "circle":
        d.ellipse((cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8), fill=fill)
    elif shape == "square":
        d.rectangle((cx - r * 0.72, cy - r * 0.72, cx + r * 0.72, cy + r * 0.72), fill=fill)
    elif shape == "triangle":
        d.polygon([(cx, cy - r), (cx + r * 0.95, cy + r * 0.7), (cx - r * 0.95, cy + r * 0.7)],
                  fill=fill)
    elif shape == "diamond":
        d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill)
    elif shape == "star":
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r * (1.05 if i % 2 == 0 else 0.45)
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        d.polygon(pts, fill=fill)
    else:  # cross
        w = r * 0.55
        d.line((cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8), fill=fill, width=int(w))
        d.line((cx - r * 0.8, cy + r * 0.8, cx + r * 0.8, cy - r * 0.8), fill=fill, width=int(w))


@lru_cache(maxsize=64)
def _shape_sprite(colour: str, size: int, fill: theme.RGB) -> Image.Image:
    return theme.sprite((size, size), lambda d, k: _shape(d, colour, (size * k / 2,
                                                                      size * k / 2),
                                                          size * k * 0.46, fill))


@lru_cache(maxsize=512)
def _disc_sprite(colour: str, size: int, w: int, h: int, style: str = "plain",
                 mark: bool = True) -> Image.Image:
    """An anti-aliased side view of one disc, `w` x `h` px, RGBA. style: "plain", "ghost"
    (a disc just taken or moved away: faded, dashed highlight edge) or "hl" (a disc that just
    arrived: highlight edge). The tip (size 1) is rounder than the others."""

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        fill = DISC_COLOURS.get(colour, (128, 128, 128))
        if style == "ghost":
            fill = _mix(fill, theme.BOARD, 0.62)
        big_w, big_h = w * k, h * k
        edge_w = int(2 * k)
        radius = int(big_h // 2 if size == 1 else big_h // 3)
        box = (edge_w // 2, edge_w // 2, big_w - 1 - edge_w // 2, big_h - 1 - edge_w // 2)
        outline = (150, 150, 156) if colour == "k" and style != "ghost" else EDGE
        d.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=edge_w)
        if style != "ghost":
            # a light top band and a darker foot give the disc some thickness
            band = theme.shade(fill, 1.3) if colour != "w" else (255, 255, 255)
            low = theme.shade(fill, 0.8) if colour != "k" else (14, 14, 16)
            inset = edge_w + 2 * k
            d.rounded_rectangle((inset + radius / 2, inset, big_w - inset - radius / 2,
                                 inset + big_h / 5), radius=int(big_h / 10), fill=band)
            d.rounded_rectangle((inset + radius / 2, big_h - inset - big_h / 7,
                                 big_w - inset - radius / 2, big_h - inset),
                                radius=int(big_h / 14), fill=low)
        if mark:
            _shape(d, colour, (big_w / 2, big_h / 2), big_h * 0.3, theme.ink_on(fill))
        if style == "ghost":
            _dashed_round_rect(d, box, radius, theme.HIGHLIGHT, int(3 * k), dash=7 * k)
        elif style == "hl":
            d.rounded_rectangle(box, radius=radius, outline=EDGE, width=int(5 * k))
            d.rounded_rectangle(box, radius=radius, outline=theme.HIGHLIGHT, width=int(3 * k))

    return theme.sprite((w, h), paint, scale=SS)


def _dashed_round_rect(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: float,
    col: theme.RGB, width: int, dash: float,
) -> None:
    """A dashed outline along a rounded rectangle."""
    x0, y0, x1, y1 = box
    r = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    pts: list[tuple[float, float]] = []
    for cx, cy, start in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90),
                          (x0 + r, y0 + r, 180)):
        for k in range(0, 91, 10):
            a = math.radians(start + k)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    pts.append(pts[0])
    on, left = True, dash
    cur = [pts[0]]
    for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False):
        seg = math.hypot(bx - ax, by - ay)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (ax + (bx - ax) * t, ay + (by - ay) * t)
            cur.append(p)
            if on:
                d.line(cur, fill=col, width=width, joint="curve")
            on, left, cur = not on, dash, [p]
        left -= seg - pos
        cur.append((bx, by))
    if on and len(cur) > 1:
        d.line(cur, fill=col, width=width, joint="curve")


def _paste_disc(
    d: ImageDraw.ImageDraw, disc: Disc, cx: float, bottom: float, w: int, h: int,
    style: str = "plain", mark: bool = True,
) -> None:
    """One disc centred on cx with its lower edge on `bottom`, marked with its colour's
    shape (unless `mark` is False)."""
    colour, size = disc
    sprite = _disc_sprite(colour, size, w, h, style, mark)
    x, y = int(round(cx - w / 2)), int(round(bottom - h))
    theme.paste(d, sprite, (x, y), "la")


def _disc_width(size: int, col_w: float) -> int:
    return int(col_w * (0.25 + 0.16 * size))


# --- layout ---------------------------------------------------------------------------------
class _Board:
    """Where every spot sits: rows of up to MAX_PER_ROW spots, centred, in numbered order."""

    def __init__(self, n: int, top: float) -> None:
        self.n = n
        self.rows = max(1, math.ceil(n / MAX_PER_ROW))
        self.per_row = max(1, math.ceil(n / self.rows))
        self.left, self.width = MARGIN, WIDTH - 2 * MARGIN
        self.col_w = min(124.0, (self.width - 36) / max(self.per_row, 5))
        self.row_h = ARC_SPACE + 4 * DISC_H + 8 + 44
        self.top = top
        self.height = self.rows * self.row_h + 16

    def row_of(self, spot: int) -> int:
        return (spot - 1) // self.per_row

    def centre_x(self, spot: int) -> float:
        row = self.row_of(spot)
        in_row = min(self.per_row, self.n - row * self.per_row)
        i = (spot - 1) - row * self.per_row
        x0 = self.left + (self.width - in_row * self.col_w) / 2
        return x0 + (i + 0.5) * self.col_w

    def base_y(self, spot: int) -> float:
        """The y of the board line under `spot` (the bottom of its lowest disc)."""
        return self.top + 8 + self.row_of(spot) * self.row_h + ARC_SPACE + 4 * DISC_H + 4

    def row_span(self, row: int) -> tuple[float, float]:
        first = row * self.per_row + 1
        last = min(self.n, first + self.per_row - 1)
        return self.centre_x(first) - self.col_w / 2, self.centre_x(last) + self.col_w / 2


# --- parts of the picture -------------------------------------------------------------------
def _options(view: dict[str, Any]) -> dict[str, Any]:
    return view.get("options") or {}


def _players(view: dict[str, Any]) -> int:
    return int(_options(view).get("players") or len(view.get("scores") or []) or 2)


def _team_groups(view: dict[str, Any]) -> list[list[int]] | None:
    """The engine's teams (doubles: seats 1 and 3 against 2 and 4), None without teams."""
    return ENGINE.teams(_options(view)) if _players(view) == 4 else None


def _teams(view: dict[str, Any]) -> bool:
    return _team_groups(view) is not None


def _subtitle(view: dict[str, Any]) -> str:
    opts = _options(view)
    cur = view.get("set", 1)
    if opts.get("target"):
        return theme.tr("set {set} · to {target} points", set=cur, target=opts["target"])
    if opts.get("sets"):
        return theme.tr("set {set} / {sets}", set=cur, sets=opts["sets"])
    return theme.tr("set {set}", set=cur)


def _tags(view: dict[str, Any]) -> list[str]:
    opts = _options(view)
    tags = []
    if _teams(view):
        tags.append(theme.tr("teams"))
    if opts.get("misere"):
        tags.append(theme.tr("misère"))
    if opts.get("weighted"):
        tags.append(theme.tr("weighted"))
    if opts.get("scoring") == "last_take":
        tags.append(theme.tr("last take"))
    if opts.get("height_rule") == "before":
        tags.append(theme.tr("strict height"))
    return tags


def _draw_tags(
    d: ImageDraw.ImageDraw, right: float, y: float, tags: list[str]
) -> None:
    x = right
    for tag in reversed(tags):
        w = theme.text_width(tag, TEXT) + 24
        theme.panel(d, (x - w, y - 22, x, y + 22), fill=theme.PANEL, radius=22, width=2,
                    on=theme.BACKGROUND)
        theme.text(d, (x - w / 2, y), tag, TEXT, theme.MUTED, anchor="mm")
        x -= w + 8


def _last_move(events: list[dict]) -> tuple[dict | None, dict | None]:
    """(the take or move event, the set_end event) of the last move, if any."""
    act = end = None
    for ev in events:
        if ev.get("type") in ("take", "move"):
            act = ev
        elif ev.get("type") == "set_end":
            end = ev
    return act, end


def _move_label(ev: dict) -> str:
    if ev.get("type") == "take":
        colour = str(ev.get("colour", "?"))
        return theme.tr("took {colour}", colour=theme.tr(COLOUR_NAMES.get(colour, colour)))
    return theme.tr("moved {count} from {source} to {destination}", count=ev.get("count"),
                    source=ev.get("from"), destination=ev.get("to"))


def _draw_caption(
    d: ImageDraw.ImageDraw, y: float, view: dict[str, Any], act: dict | None,
    end: dict | None,
) -> None:
    """Left: the last move (badge + move string), or the seat to move. Right: the result of
    the set that just ended, else the option tags."""
    if act is not None and isinstance(act.get("seat"), int):
        theme.seat_badge(d, (MARGIN + 20, y), act["seat"], 40)
        label = _move_label(act)
        if act.get("type") == "take":
            theme.paste(d, _shape_sprite(str(act.get("colour")), 30,
                                         DISC_COLOURS.get(str(act.get("colour")), theme.INK)),
                        (MARGIN + 66, y))
            theme.text(d, (MARGIN + 90, y), label, TEXT, theme.INK, bold=True, anchor="lm")
        else:
            theme.text(d, (MARGIN + 52, y), label, TEXT, theme.INK, bold=True, anchor="lm")
    else:
        seats = [s for s in view.get("to_act") or [] if isinstance(s, int) and s >= 0]
        if seats:
            theme.seat_badge(d, (MARGIN + 20, y), seats[0], 40, ring=theme.HIGHLIGHT)
            theme.text(d, (MARGIN + 56, y), theme.tr("to move"), TEXT, theme.MUTED, anchor="lm")
    if end is not None and isinstance(end.get("winner"), int):
        points = end.get("points") or []
        winner = end["winner"]
        label = f"+{points[winner] if winner < len(points) else 0}"
        b = theme.text(d, (WIDTH - MARGIN, y), label, TEXT, theme.HIGHLIGHT, bold=True,
                       anchor="rm")
        theme.seat_badge(d, (b[0] - 34, y), winner, 40, ring=theme.HIGHLIGHT)
        theme.text(d, (b[0] - 70, y), theme.tr("set {set}", set=end.get("set", "")), TEXT,
                   theme.INK, bold=True, anchor="rm")
    else:
        _draw_tags(d, WIDTH - MARGIN, y, _tags(view))


def _frame(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """The sandstone board in a wooden frame."""
    d.rounded_rectangle(box, radius=18, fill=theme.WOOD, outline=theme.INK_DARK, width=2)
    x0, y0, x1, y1 = box
    d.rounded_rectangle((x0 + 10, y0 + 10, x1 - 10, y1 - 10), radius=10, fill=theme.BOARD,
                        outline=theme.shade(theme.WOOD, 1.25), width=2)


def _empty_board(d: ImageDraw.ImageDraw, board: _Board) -> None:
    """The frame and the lines under the rows of spots."""
    _frame(d, (MARGIN, board.top, WIDTH - MARGIN, board.top + board.height))
    for row in range(board.rows):
        x0, x1 = board.row_span(row)
        y = board.base_y(row * board.per_row + 1)
        d.line((x0 + 4, y + 3, x1 - 4, y + 3), fill=LINE, width=4)


def _plate(d: ImageDraw.ImageDraw, spot: int, cx: float, ny: float, empty: bool) -> None:
    """The numbered plate under a spot: light when the spot is empty."""
    plate = _mix(theme.BOARD_DARK, theme.BOARD, 0.5) if empty else theme.WOOD
    d.rounded_rectangle((cx - 28, ny - 19, cx + 28, ny + 19), radius=19, fill=plate)
    theme.text(d, (cx, ny), str(spot), TEXT, theme.INK_DARK if empty else (255, 255, 255),
               bold=True, anchor="mm")


def _draw_board(
    d: ImageDraw.ImageDraw, board: _Board, towers: list[list[Disc]],
    act: dict | None,
) -> None:
    theme.layer(d, ("varanasi board", board.n, board.top), partial(_empty_board, board=board))
    ghosts: dict[int, list[Disc]] = {}
    arrived: dict[int, int] = {}
    if act is not None and act.get("type") == "take":
        for spot, code in act.get("discs", []):
            ghosts.setdefault(int(spot), []).append(_disc(code))
    elif act is not None and act.get("type") == "move":
        moved = [_disc(c) for c in act.get("discs", [])]
        ghosts[int(act["from"])] = moved
        arrived[int(act["to"])] = len(moved)
    for spot in range(1, board.n + 1):
        cx, by = board.centre_x(spot), board.base_y(spot)
        discs = towers[spot - 1]
        empty = not discs
        ny = by + 27
        theme.layer(d, ("varanasi plate", board.n, board.top, spot, empty),
                    partial(_plate, spot=spot, cx=cx, ny=ny, empty=empty),
                    under=partial(_empty_board, board=board))  # the last row's overlap the rim
        if empty and spot not in ghosts:
            d.ellipse((cx - 8, by - 5, cx + 8, by + 11), outline=LINE, width=3,
                      fill=theme.BOARD)
        n_new = arrived.get(spot, 0)
        for level, disc in enumerate(discs):
            style = "hl" if level >= len(discs) - n_new else "plain"
            _paste_disc(d, disc, cx, by - level * DISC_H, _disc_width(disc[1], board.col_w),
                        DISC_H, style)
        for k, disc in enumerate(ghosts.get(spot, [])):
            level = len(discs) + k
            _paste_disc(d, disc, cx, by - level * DISC_H, _disc_width(disc[1], board.col_w),
                        DISC_H, "ghost")
    if act is not None and act.get("type") == "move":
        _draw_move_arrow(d, board, towers, act)


def _draw_move_arrow(
    d: ImageDraw.ImageDraw, board: _Board, towers: list[list[Disc]],
    act: dict,
) -> None:
    """An arc from the source tower's old top to the destination's new top, with the count."""
    src, dst = int(act["from"]), int(act["to"])
    if not (1 <= src <= board.n and 1 <= dst <= board.n) or src == dst:
        return
    count = int(act.get("count", len(act.get("discs", []))))
    src_h = len(towers[src - 1]) + count  # before the move
    dst_h = len(towers[dst - 1])
    sx, dx = board.centre_x(src), board.centre_x(dst)
    sy = board.base_y(src) - src_h * DISC_H - 4
    dy = board.base_y(dst) - dst_h * DISC_H - 4
    if board.row_of(src) == board.row_of(dst):
        peak = board.base_y(src) - 4 * DISC_H - ARC_SPACE + 10
        c1, c2 = (sx, peak), (dx, peak)
    else:  # up (or down) out of the source, then down onto the destination
        c1, c2 = (sx, sy - 90), (dx, dy - 90)
    theme.arrow(d, (sx, sy), (dx, dy), width=5, head=16, outline=EDGE, via=(c1, c2))
    mx, my = theme.bezier((sx, sy), c1, c2, (dx, dy), steps=2)[1]
    r = 22
    theme.disc(d, (mx, my), 2 * r + 6, EDGE)
    theme.disc(d, (mx, my), 2 * r, theme.HIGHLIGHT)
    theme.text(d, (mx, my), str(count), TEXT, theme.INK_DARK, bold=True, anchor="mm")


def _mini_towers(d: ImageDraw.ImageDraw, x: float, bottom: float, discs: list[Disc],
                 max_w: float, fresh: set[Disc] | frozenset[Disc] = frozenset()) -> None:
    """The discs a seat took, grouped by colour into little towers (largest at the bottom),
    drawn left to right from x with their bottoms on `bottom`, each labelled below; the
    colours of `fresh` (discs just taken) are underlined in the highlight colour."""
    by_colour: dict[str, list[int]] = {}
    for colour, size in discs:
        by_colour.setdefault(colour, []).append(size)
    colours = [c for c in COLOUR_ORDER if c in by_colour]
    colours += sorted(c for c in by_colour if c not in COLOUR_ORDER)
    if not colours:
        return
    col_w = min(52.0, max_w / len(colours))
    h = 14
    for colour in colours:
        cx = x + col_w / 2
        for level, size in enumerate(sorted(by_colour[colour], reverse=True)):
            w = max(16, int((col_w - 4) * (0.28 + 0.18 * size)))
            _paste_disc(d, (colour, size), cx, bottom - level * h, w, h, mark=False)
        new = any(c == colour for c, _ in fresh)
        theme.paste(d, _shape_sprite(colour, 16, theme.HIGHLIGHT if new else theme.MUTED),
                    (cx, bottom + 11))
        if new:  # a little caret under the colour just taken
            d.rectangle((int(cx - 7), int(bottom + 21), int(cx + 7) - 1, int(bottom + 23)),
                        fill=theme.HIGHLIGHT)
        x += col_w


def _seat_layout(view: dict[str, Any]) -> list[int]:
    """Seats left to right; with teams, partners side by side (1 3 | 2 4)."""
    return [s for team in _team_groups(view) or [[s] for s in range(_players(view))]
            for s in team]


def _seats_height(view: dict[str, Any]) -> int:
    return (44 if _teams(view) else 0) + SEAT_PANEL_H


def _draw_seats(
    d: ImageDraw.ImageDraw, top: float, view: dict[str, Any],
    act: dict | None,
) -> None:
    """One panel per seat: badge, total score, and the discs taken this set with their
    value; the seat to act is ringed. With teams, each pair gets its team total above."""
    players = _players(view)
    weighted = bool(_options(view).get("weighted"))
    scores = list(view.get("scores") or [0] * players)
    scores += [0] * (players - len(scores))
    taken = list(view.get("taken") or [])
    taken += [[]] * (players - len(taken))
    to_act = set(view.get("to_act") or [])
    order = _seat_layout(view)
    inner = WIDTH - 2 * MARGIN
    gap = GAP
    if _teams(view):
        team_gap = 40
        col_w = (inner - 2 * gap - team_gap) / 4
        xs = [MARGIN, MARGIN + col_w + gap, MARGIN + 2 * col_w + gap + team_gap,
              MARGIN + 3 * col_w + 2 * gap + team_gap]
        y = top
        for t in range(2):
            seats = (t, t + 2)
            x0, x1 = xs[2 * t], xs[2 * t + 1] + col_w
            cx = (x0 + x1) / 2
            total = str(scores[seats[0]] + scores[seats[1]])
            tw = 2 * 32 + 18 + 12 + theme.text_width(total, BIG, True)
            bx = cx - tw / 2
            d.line((x0 + 8, y + 18, bx - 12, y + 18), fill=theme.PANEL_EDGE, width=2)
            d.line((bx + tw + 12, y + 18, x1 - 8, y + 18), fill=theme.PANEL_EDGE, width=2)
            theme.seat_badge(d, (bx + 14, y + 18), seats[0], 40)
            theme.text(d, (bx + 41, y + 18), "+", TEXT, theme.MUTED, anchor="mm")
            theme.seat_badge(d, (bx + 68, y + 18), seats[1], 40)
            theme.text(d, (bx + 96, y + 18), total, BIG, theme.INK, bold=True, anchor="lm")
        top += 44
    else:
        col_w = (inner - gap * (players - 1)) / players
        xs = [MARGIN + i * (col_w + gap) for i in range(players)]
    y = top
    for x0, seat in zip(xs, order, strict=False):
        acting = seat in to_act
        theme.panel(d, (x0, y, x0 + col_w, y + SEAT_PANEL_H),
                    outline=theme.HIGHLIGHT if acting else theme.PANEL_EDGE,
                    width=4 if acting else 2, on=theme.BACKGROUND)
        theme.seat_badge(d, (x0 + 34, y + 34), seat, 40,
                         ring=theme.HIGHLIGHT if acting else None)
        theme.text(d, (x0 + 64, y + 35), str(scores[seat]), BIG, theme.INK, bold=True,
                   anchor="lm")
        mine = [_disc(c) for c in taken[seat]]
        right = x0 + col_w - 14
        fresh: set[Disc] = set()
        if act is not None and act.get("type") == "take" and act.get("seat") == seat:
            fresh = {_disc(c) for _, c in act.get("discs", [])}
        if mine:
            value = str(_value(mine, weighted))
            # the value of this set's discs, right-aligned on the header line, after a
            # little tower (the words "this set" would not fit beside the score at TEXT)
            vb = theme.text(d, (right, y + 35), value, TEXT, theme.INK, bold=True, anchor="rm")
            for level, size in enumerate((3, 2, 1)):
                _paste_disc(d, ("w", size), vb[0] - 20, y + 50 - level * 11, 12 + 6 * size,
                            11, mark=False)
            _mini_towers(d, x0 + 12, y + SEAT_PANEL_H - 30, mine, col_w - 24, fresh)
        else:
            theme.text(d, (x0 + col_w / 2, y + SEAT_PANEL_H - 38), "-", TEXT, theme.MUTED,
                       anchor="mm")


def _draw_between_sets(
    d: ImageDraw.ImageDraw, top: float, view: dict[str, Any],
    act: dict | None, end: dict | None,
) -> float:
    """No towers (between sets): who won the set just played and its points, else a note
    that the next set is being set up. Returns the bottom y."""
    h = 236
    _frame(d, (MARGIN, top, WIDTH - MARGIN, top + h))
    cx = WIDTH / 2
    if end is None:
        theme.text(d, (cx, top + h / 2 - 22), theme.tr("set {set}", set=view.get("set", 1)), BIG,
                   theme.INK_DARK, bold=True, anchor="mm")
        theme.text(d, (cx, top + h / 2 + 26), theme.tr("setting up"), TEXT, EDGE, anchor="mm")
        return top + h
    theme.text(d, (cx, top + 38), theme.tr("set {set}", set=end.get("set", "")), TEXT + 2,
               theme.INK_DARK, bold=True, anchor="mm")
    winner = end.get("winner")
    points = end.get("points") or []
    if isinstance(winner, int):
        pts = points[winner] if winner < len(points) else 0
        label = f"+{pts}"
        lw = theme.text_width(label, 46, True)
        x = cx - (72 + 18 + lw) / 2
        theme.seat_badge(d, (x + 36, top + 104), winner, 64, ring=theme.HIGHLIGHT)
        theme.text(d, (x + 90, top + 104), label, 46, theme.INK_DARK, bold=True, anchor="lm")
        others = [(s, p) for s, p in enumerate(points) if s != winner and p]
        ox = x + 90 + lw + 30
        for s, p in others:  # partners with team_scoring "sum"
            theme.seat_badge(d, (ox + 20, top + 104), s, 40)
            b = theme.text(d, (ox + 42, top + 104), f"+{p}", TEXT, theme.INK_DARK, bold=True,
                           anchor="lm")
            ox = b[2] + 20
    if act is not None and act.get("type") == "take":
        # the discs of the last take, which ended the set
        discs = [_disc(c) for _, c in act.get("discs", [])]
        x = cx - len(discs) * 56 / 2
        for disc in discs:
            _paste_disc(d, disc, x + 28, top + 204, 50, 30, "ghost")
            x += 56
    return top + h


# --- public ---------------------------------------------------------------------------------
@theme.localised
def render_board(view: dict[str, Any], events: list[dict]) -> bytes:
    """The board after the last move: every spot's tower, the last take or move marked, the
    discs taken this set per seat, total scores and whose turn it is. PNG bytes."""
    towers = [_discs(t) for t in view.get("towers") or []]
    act, end = _last_move(events or [])
    top = TITLE_H + CAPTION_H
    board = _Board(len(towers), top) if towers else None
    board_h = board.height if board else 236
    height = int(top + board_h + 22 + _seats_height(view) + 28)
    img, d = theme.palette_canvas(WIDTH, height)
    theme.title_strip(d, WIDTH, theme.tr("Varanasi"), _subtitle(view))
    _draw_caption(d, TITLE_H + CAPTION_H / 2, view, act, end if board else None)
    if board is not None:
        _draw_board(d, board, towers, act)
        bottom: float = top + board.height
    else:
        bottom = _draw_between_sets(d, top, view, act, end)
    _draw_seats(d, bottom + 22, view, act)
    return theme.to_png(img)


@theme.localised
def render_game_over(view: dict[str, Any], outcome: dict[str, Any]) -> bytes:
    """The final standings: rank, badge and score per seat, or per team (badges of both
    partners, their own scores small, the team total big) when teams play."""
    scores = list(outcome.get("scores") or view.get("scores") or [])
    players = len(scores) or _players(view)
    scores += [0] * (players - len(scores))
    teams = _team_groups(view) if players == 4 else None
    groups = [list(g) for g in teams] if teams else [[s] for s in range(players)]
    ranks = list(outcome.get("ranks") or [])
    if len(ranks) != players:
        team_of = {s: g for g in groups for s in g}
        ranks = ranks_from_scores([sum(scores[p] for p in team_of[s]) for s in range(players)])
    groups.sort(key=lambda g: (min(ranks[s] for s in g), g[0]))
    # the place of each row among the rows (teams: 1st and 2nd, not seat-counted ranks)
    best = [min(ranks[s] for s in g) for g in groups]
    places = [1 + sum(1 for b in best if b < r) for r in best]
    row_h = 96
    top = TITLE_H + 30
    height = max(top + len(groups) * row_h + 14 + MARGIN, 440)
    img, d = theme.palette_canvas(WIDTH, height)
    sets_played = view.get("set", 1)
    final = theme.tr("final")
    if sets_played != 1:
        final = theme.tr("final · {sets} sets", sets=sets_played)
    theme.title_strip(d, WIDTH, theme.tr("Varanasi"), final)
    # the trophy: a four-disc tower on a plinth, left of the standings
    tx, tb = MARGIN + 128, height - MARGIN - 56
    d.rounded_rectangle((tx - 112, tb + 2, tx + 112, tb + 22), radius=10, fill=theme.BOARD_DARK)
    for level, colour in enumerate("rbgy"):
        size = 4 - level
        _paste_disc(d, (colour, size), tx, tb + 2 - level * 42,
                    int(212 * (0.25 + 0.16 * size)), 42)
    tags = _tags(view)
    if tags:
        _draw_tags(d, WIDTH - MARGIN, tb + 12 + 20, tags)
    x0 = MARGIN + 290
    y = top
    for group, rank in zip(groups, places, strict=True):
        first = rank == 1
        theme.panel(d, (x0, y, WIDTH - MARGIN, y + row_h - 16),
                    fill=theme.shade(theme.PANEL, 1.1) if first else theme.PANEL,
                    outline=theme.HIGHLIGHT if first else theme.PANEL_EDGE,
                    width=4 if first else 2, on=theme.BACKGROUND)
        cy = y + (row_h - 16) / 2
        theme.text(d, (x0 + 24, cy), theme.rank_label(rank), TEXT,
                   theme.HIGHLIGHT if first else theme.INK, bold=True, anchor="lm")
        bx: float = x0 + 116
        for s in group:
            theme.seat_badge(d, (bx + 25, cy), s, 50)
            if teams:
                b = theme.text(d, (bx + 58, cy), str(scores[s]), TEXT, theme.MUTED, anchor="lm")
                bx = b[2] + 22
            else:
                bx += 64
        total = sum(scores[s] for s in group)
        theme.text(d, (WIDTH - MARGIN - 30, cy), str(total), 42, theme.INK, bold=True,
                   anchor="rm")
        y += row_h
    return theme.to_png(img)


# --- alt text -------------------------------------------------------------------------------
def _alt_discs(discs: list[Disc]) -> str:
    """"blue 4, red 3" (bottom first)."""
    return theme.listing([theme.tr("{colour} {size}", colour=theme.tr(COLOUR_NAMES.get(c, c)),
                                   size=size) for c, size in discs])


def _alt_events(events: list[dict], names: theme.Names) -> list[str]:
    out = []
    for ev in events:
        kind = ev.get("type")
        if kind in ("take", "move") and isinstance(ev.get("seat"), int):
            out.append(theme.tr("{name}: {action}.", name=theme.seat_name(ev["seat"], names),
                                action=_move_label(ev)))
        elif kind == "set_end" and isinstance(ev.get("winner"), int):
            points = ev.get("points") or []
            winner = ev["winner"]
            out.append(theme.tr("Set {set} won by {name}, points: {points}.", set=ev.get("set"),
                                name=theme.seat_name(winner, names),
                                points=points[winner] if winner < len(points) else 0))
    return out


@theme.localised
def alt_text(view: dict[str, Any], events: list[dict] | None = None,
             names: theme.Names = None) -> str:
    """The board in words for a screen reader: the set, the last move, every tower (bottom
    first), each seat's score and the discs it took this set, and who is to move."""
    towers = [theme.tr("Spot {spot}: {discs}.", spot=i + 1, discs=_alt_discs(_discs(t)))
              for i, t in enumerate(view.get("towers") or []) if t]
    weighted = bool(_options(view).get("weighted"))
    scores = list(view.get("scores") or [])
    taken = list(view.get("taken") or [])
    seats = []
    for s, score in enumerate(scores):
        mine = [_disc(c) for c in (taken[s] if s < len(taken) else [])]
        seats.append(theme.tr("{name}: score {score}, this set {value}.",
                              name=theme.seat_name(s, names), score=score,
                              value=_value(mine, weighted)))
    return theme.alt(theme.alt_title(theme.tr("Varanasi"), _subtitle(view)),
                     *_alt_events(list(events or []), names), *towers, *seats,
                     theme.alt_to_move(view, names))


@theme.localised
def alt_text_game_over(view: dict[str, Any], outcome: dict[str, Any],
                       names: theme.Names = None) -> str:
    """The final ranking in words, by score."""
    scores = list(outcome.get("scores") or view.get("scores") or [])
    ranks = list(outcome.get("ranks") or [1] * len(scores))
    return theme.alt(theme.alt_title(theme.tr("Varanasi")), theme.alt_ranking(
        scores, ranks, names, theme.N_("{rank}: {name}, points: {score}")))


def gallery_samples() -> Iterator[Case]:
    """Sample pictures for renderers.gallery: 2 and 4 players, mid-game and the end."""
    from renderers.gallery import puzzle_cases, review_cases, standard_samples

    for n in (2, 4):
        yield from standard_samples("varanasi", n, None, 11 + n, (9,), prefix=f"p{n}_")
    yield from review_cases("varanasi", 2, {"sets": 1}, 200)
    yield from puzzle_cases("varanasi", 2)
