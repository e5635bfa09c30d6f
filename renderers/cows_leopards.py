"""Cows and Leopards pictures: the board (A or B) from the engine's board data, the pieces,
pieces in hand, captures, whose turn, and the last drop, step or jump.

Input is the public view (the position JSON of docs/rules/cows_leopards.md plus
"to_act") and the last move's events (engines/EVENTS.md). The board's points, lines and
coordinates come only from `engines.cows_leopards.board(board_id)`; the sandstone faces are
the board's smallest cycles (triangles and quadrilaterals of lines), so a board added to the
data file is drawn without code changes. Cows are cream rounded squares with dark patches,
leopards orange discs with rosettes: shape, colour and brightness all differ.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from engines import get_engine
from engines.cows_leopards import board as board_data
from renderers import theme

if TYPE_CHECKING:
    from renderers.gallery import Case

S = 70  # lattice spacing in px
PAD = 72  # lattice edge to the board frame's edge (labels live in this band)
MARGIN = 32
GAP = 24
SIDE_W = 316
TITLE_H = 64
TOP_GAP = 22
COW = 42  # cow token side
LEOPARD = 52  # leopard token diameter
LINE: theme.RGB = (92, 64, 34)
LABEL: theme.RGB = (244, 228, 192)  # point names on the wood
EDGE: theme.RGB = (40, 30, 20)
COW_FILL: theme.RGB = (248, 244, 232)
COW_PATCH: theme.RGB = (52, 44, 40)
LEOPARD_FILL: theme.RGB = (236, 160, 36)
LEOPARD_SPOT: theme.RGB = (58, 36, 14)
SS = 4  # supersampling of sprites and of the cached board
TEXT = theme.min_text(1108)  # the smallest text, on the widest board's canvas (board B)
REASONS = {
    "captures": theme.N_("{captured} / {target} cows captured"),
    "leopards_trapped": theme.N_("leopards trapped"),
    "cows_stuck": theme.N_("cows cannot move"),
    "quiet": theme.N_("no capture in {n} moves"),
}


# --- piece sprites ---------------------------------------------------------------------------
@lru_cache(maxsize=32)
def _cow_sprite(side: int, alpha: int = 255) -> Image.Image:
    """A cow: cream rounded square with two dark patches and little horns."""
    pad = max(4, side // 6)
    size = side + 2 * pad

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        x0, y0, x1, y1 = pad * k, pad * k, (pad + side) * k, (pad + side) * k
        w = side * k
        horn = (224, 212, 186)
        for sx in (-1, 1):  # horns poking out of the top corners
            cx = (x0 + x1) / 2 + sx * w * 0.36
            tip = (cx + sx * w * 0.16, y0 - pad * k * 0.9)
            d.polygon([(cx - w * 0.1, y0 + w * 0.1), (cx + w * 0.1, y0 + w * 0.1), tip],
                      fill=horn, outline=EDGE, width=int(1.6 * k))
        d.rounded_rectangle((x0, y0, x1, y1), radius=w * 0.26, fill=COW_FILL, outline=EDGE,
                            width=int(2.6 * k))
        d.ellipse((x0 + w * 0.14, y0 + w * 0.16, x0 + w * 0.5, y0 + w * 0.46), fill=COW_PATCH)
        d.ellipse((x0 + w * 0.56, y0 + w * 0.52, x0 + w * 0.84, y0 + w * 0.8), fill=COW_PATCH)
        d.ellipse((x0 + w * 0.2, y0 + w * 0.62, x0 + w * 0.34, y0 + w * 0.76), fill=COW_PATCH)

    return _faded(theme.sprite((size, size), paint, scale=SS), alpha)


@lru_cache(maxsize=32)
def _leopard_sprite(diameter: int, alpha: int = 255) -> Image.Image:
    """A leopard: a golden-orange round head with round ears, rosettes, eyes and a nose."""
    pad = max(4, diameter // 9)
    size = diameter + 2 * pad

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        r = diameter * k / 2
        c = size * k / 2
        cy = c + r * 0.06
        for sx in (-1, 1):  # round ears
            ex, ey, er = c + sx * r * 0.62, cy - r * 0.7, r * 0.3
            d.ellipse((ex - er, ey - er, ex + er, ey + er), fill=LEOPARD_FILL, outline=EDGE,
                      width=int(2.6 * k))
            d.ellipse((ex - er * 0.45, ey - er * 0.45, ex + er * 0.45, ey + er * 0.45),
                      fill=LEOPARD_SPOT)
        rr = r * 0.92
        d.ellipse((c - rr, cy - rr, c + rr, cy + rr), fill=LEOPARD_FILL, outline=EDGE,
                  width=int(3 * k))
        for fx, fy, fr in ((-0.5, -0.44, 0.17), (0.02, -0.64, 0.14), (0.52, -0.42, 0.17),
                           (-0.7, 0.14, 0.14), (0.72, 0.12, 0.14), (-0.44, 0.58, 0.13),
                           (0.46, 0.58, 0.13)):
            x, y, sr = c + fx * rr, cy + fy * rr, fr * rr
            for a0 in (20, 140, 260):  # rosettes: broken dark rings
                d.arc((x - sr, y - sr, x + sr, y + sr), a0, a0 + 85, fill=LEOPARD_SPOT,
                      width=int(sr * 0.55))
        for sx in (-1, 1):  # eyes
            ex, ey = c + sx * rr * 0.3, cy - rr * 0.08
            d.ellipse((ex - rr * 0.12, ey - rr * 0.14, ex + rr * 0.12, ey + rr * 0.14),
                      fill=(250, 236, 160), outline=EDGE, width=int(1.5 * k))
            d.ellipse((ex - rr * 0.045, ey - rr * 0.11, ex + rr * 0.045, ey + rr * 0.11),
                      fill=EDGE)
        ny = cy + rr * 0.25
        d.polygon([(c - rr * 0.14, ny), (c + rr * 0.14, ny), (c, ny + rr * 0.15)],
                  fill=(120, 50, 40))
        d.arc((c - rr * 0.2, ny + rr * 0.05, c, ny + rr * 0.3), 0, 150, fill=EDGE,
              width=int(1.5 * k))
        d.arc((c, ny + rr * 0.05, c + rr * 0.2, ny + rr * 0.3), 30, 180, fill=EDGE,
              width=int(1.5 * k))

    return _faded(theme.sprite((size, size), paint, scale=SS), alpha)


def _faded(im: Image.Image, alpha: int) -> Image.Image:
    if alpha >= 255:
        return im
    a = im.getchannel("A").point(lambda v: v * alpha // 255)
    im = im.copy()
    im.putalpha(a)
    return im


@lru_cache(maxsize=8)
def _ring_sprite(diameter: int) -> Image.Image:
    """The highlight ring around a dropped piece."""
    size = diameter + 8

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        c, r = size * k / 2, diameter * k / 2
        d.ellipse((c - r - 2 * k, c - r - 2 * k, c + r + 2 * k, c + r + 2 * k), outline=EDGE,
                  width=int(8 * k))
        d.ellipse((c - r, c - r, c + r, c + r), outline=theme.HIGHLIGHT, width=int(4 * k))

    return theme.sprite((size, size), paint, scale=SS)


@lru_cache(maxsize=8)
def _cross_sprite(size: int) -> Image.Image:
    """The red cross over a captured cow."""

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        a, b = 5 * k, (size - 5) * k
        for col, w in ((EDGE, 10), (theme.DANGER, 6)):
            d.line((a, a, b, b), fill=col, width=int(w * k))
            d.line((a, b, b, a), fill=col, width=int(w * k))

    return theme.sprite((size, size), paint, scale=SS)


# --- geometry --------------------------------------------------------------------------------
class _Layout:
    """Pixel positions for one board: lattice, frame, side panel, canvas size."""

    def __init__(self, board_id: str) -> None:
        data = board_data(board_id)
        self.board_id = board_id
        self.coords: dict[str, tuple[int, int]] = {p: (int(c[0]), int(c[1]))
                                                   for p, c in data["coords"].items()}
        self.lines: list[tuple[str, str]] = [(a, b) for a, b in data["lines"]]
        xs = [c[0] for c in self.coords.values()]
        ys = [c[1] for c in self.coords.values()]
        self.xmin, self.xmax, self.ymin, self.ymax = min(xs), max(xs), min(ys), max(ys)
        self.frame_w = (self.xmax - self.xmin) * S + 2 * PAD
        self.frame_h = (self.ymax - self.ymin) * S + 2 * PAD
        self.width = MARGIN + self.frame_w + GAP + SIDE_W + MARGIN
        self.height = TITLE_H + TOP_GAP + self.frame_h + MARGIN
        self.frame = (MARGIN, TITLE_H + TOP_GAP, MARGIN + self.frame_w,
                      TITLE_H + TOP_GAP + self.frame_h)
        self.side_x = MARGIN + self.frame_w + GAP

    def xy(self, point: str) -> tuple[float, float]:
        x, y = self.coords[point]
        return (self.frame[0] + PAD + (x - self.xmin) * S,
                self.frame[1] + PAD + (self.ymax - y) * S)

    def faces(self) -> list[list[str]]:
        """The board's smallest cycles of lines (3 and 4 points): its faces to fill."""
        nb: dict[str, set[str]] = {p: set() for p in self.coords}
        for a, b in self.lines:
            nb[a].add(b)
            nb[b].add(a)
        faces: list[list[str]] = []
        for a in nb:
            ns = sorted(nb[a])
            for i, b in enumerate(ns):
                for c in ns[i + 1:]:
                    if c in nb[b]:
                        faces.append([a, b, c])
                    for d in nb[b] & nb[c]:
                        if d != a and d not in nb[a]:
                            faces.append([a, b, d, c])
        return faces


@lru_cache(maxsize=8)
def _layout(board_id: str) -> _Layout:
    return _Layout(board_id)


@lru_cache(maxsize=8)
def _base(board_id: str, title: str, subtitle: str) -> Image.Image:
    """The picture without anything that changes: background, title, board frame, faces,
    lines, points and the point names along the edges; drawn supersampled once and cached."""
    lay = _layout(board_id)
    k = 3
    fx0, fy0, fx1, fy1 = lay.frame
    big = Image.new("RGB", ((fx1 - fx0) * k, (fy1 - fy0) * k), theme.BACKGROUND)
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, big.width - 1, big.height - 1), radius=20 * k, fill=theme.WOOD,
                        outline=theme.INK_DARK, width=2 * k)
    d.rounded_rectangle((10 * k, 10 * k, big.width - 1 - 10 * k, big.height - 1 - 10 * k),
                        radius=12 * k, outline=theme.shade(theme.WOOD, 1.25), width=2 * k)

    def at(p: str) -> tuple[float, float]:
        x, y = lay.xy(p)
        return (x - fx0) * k, (y - fy0) * k

    faces = lay.faces()
    # a darker rim under the faces, then the sandstone faces themselves
    for face in faces:
        d.polygon([at(p) for p in face], fill=theme.BOARD_DARK, outline=theme.BOARD_DARK,
                  width=14 * k)
    for face in faces:
        d.polygon([at(p) for p in face], fill=theme.BOARD)
    for a, b in lay.lines:
        d.line((at(a), at(b)), fill=LINE, width=int(3.2 * k))
    r = 5.5 * k
    for p in lay.coords:
        x, y = at(p)
        d.ellipse((x - r, y - r, x + r, y + r), fill=LINE)
    board = big.resize((fx1 - fx0, fy1 - fy0), Image.Resampling.LANCZOS)
    img, dr = theme.canvas(lay.width, lay.height)
    theme.title_strip(dr, lay.width, title, subtitle)
    img.paste(board, (fx0, fy0))
    # point names: columns along the bottom and top, rows along both sides
    cols = sorted({c[0] for c in lay.coords.values()})
    rows = sorted({c[1] for c in lay.coords.values()})
    for x in cols:
        px: float = fx0 + PAD + (x - lay.xmin) * S
        name = "abcdefghi"[x] if x < 9 else str(x)
        for py in (fy0 + PAD / 2 - 8, fy1 - PAD / 2 + 8):
            theme.text(dr, (px, py), name, TEXT, LABEL, bold=True, anchor="mm")
    for y in rows:
        py = fy0 + PAD + (lay.ymax - y) * S
        for px in (fx0 + PAD / 2 - 8, fx1 - PAD / 2 + 8):
            theme.text(dr, (px, py), str(y + 1), TEXT, LABEL, bold=True, anchor="mm")
    return img


# --- dynamic parts ---------------------------------------------------------------------------
def _last(events: list[dict]) -> tuple[dict | None, dict | None]:
    """(the drop/step/jump event, the game_over event) of the last move."""
    act = over = None
    for ev in events:
        if ev.get("type") in ("drop", "step", "jump"):
            act = ev
        elif ev.get("type") == "game_over":
            over = ev
    return act, over


def _move_text(ev: dict) -> str:
    kind = ev.get("type")
    if kind == "drop":
        return theme.tr("drop {point}", point=ev.get("point"))
    if kind == "step":
        return f"{ev.get('from')}-{ev.get('to')}"
    return f"{ev.get('from')}x{ev.get('to')}"


def _draw_board(d: ImageDraw.ImageDraw, lay: _Layout, view: dict[str, Any], act: dict | None
                ) -> None:
    cows = [p for p in view.get("cows") or [] if p in lay.coords]
    leopards = [p for p in view.get("leopards") or [] if p in lay.coords]
    cow, leopard = _cow_sprite(COW), _leopard_sprite(LEOPARD)
    kind = act.get("type") if act else None
    known = act is not None and all(
        act.get(key) in lay.coords for key in ("point", "from", "to", "over") if key in act)
    if act is not None and known:
        if kind in ("step", "jump"):
            src = lay.xy(act["from"])
            mover = _leopard_sprite(LEOPARD, 80) if act.get("seat") == 1 else _cow_sprite(COW, 80)
            theme.paste(d, mover, src)
        if kind == "jump":
            theme.paste(d, _cow_sprite(COW, 110), lay.xy(act["over"]))
            theme.paste(d, _cross_sprite(COW - 4), lay.xy(act["over"]))
    for p in cows:
        theme.paste(d, cow, lay.xy(p))
    for p in leopards:
        theme.paste(d, leopard, lay.xy(p))
    if act is not None and known:
        if kind == "drop":
            theme.paste(d, _ring_sprite(LEOPARD + 14), lay.xy(act["point"]))
        elif kind in ("step", "jump"):
            a, b = theme.shorten(lay.xy(act["from"]), lay.xy(act["to"]), 8,
                            LEOPARD / 2 + 3 if act.get("seat") == 1 else COW / 2 + 5)
            theme.arrow(d, a, b, head=20, outline=EDGE)


def _card(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], active: bool
          ) -> None:
    theme.panel(d, box, outline=theme.HIGHLIGHT if active else theme.PANEL_EDGE,
                width=4 if active else 2)


def _draw_side(
    d: ImageDraw.ImageDraw, lay: _Layout, view: dict[str, Any],
    act: dict | None, result: tuple[list[float], str | None] | None,
) -> None:
    """The side panel: with `result` (scores, reason) the winner card first; the cows and
    leopards cards (badge, piece, in hand, on the board; the side to act ringed), the
    captures against the target, and at the bottom the last move and the quiet count."""
    opts = view["options"]
    hand = view.get("hand") or {}
    target = int(opts["captures"])
    captured = int(view.get("captured") or 0)
    to_act = set(view.get("to_act") or [])
    x0, x1 = lay.side_x, lay.side_x + SIDE_W
    y: float = lay.frame[1]
    if result is not None:
        y = _draw_result(d, x0, x1, y, result, captured, target, opts)
        y += 16
    # cows (seat 0), then leopards (seat 1): badge, piece, in hand, on the board
    for seat in (0, 1):
        h = 112
        labels = (theme.tr("in hand"), theme.tr("on board"))
        lines = (y + h / 2 - 22, y + h / 2 + 22)
        theme.layer(d, ("cows and leopards card", x0, x1, y, seat, seat in to_act, labels),
                    partial(_side_card, box=(x0, y, x1, y + h), seat=seat,
                            acting=seat in to_act, lines=lines, labels=labels))
        key = "cows" if seat == 0 else "leopards"
        counts = (str(hand.get(key, 0)), str(len(view.get(key) or [])))
        for cy, value in zip(lines, counts, strict=True):
            theme.text(d, (x1 - 16, cy), value, TEXT + 2, theme.INK, bold=True, anchor="rm")
        y += h + 14
    # the captures: one small cow per cow the leopards need, crossed out when taken
    per_row = _pips_per_row(x1 - x0 - 40, target)
    h = 34 + 28 * math.ceil(target / per_row) + TEXT + 8
    theme.panel(d, (x0, y, x1, y + h), on=theme.BACKGROUND)
    _pips(d, x0 + 20, y + 16, x1 - x0 - 40, captured, target)
    # the last move and the quiet count sit at the bottom of the column
    y = lay.frame[3]
    quiet = hand.get("cows", 0) == 0 and result is None
    deadline = bool(opts.get("leopard_deadline")) and result is None
    notes = []  # one line each: both do not fit side by side at TEXT
    if deadline:
        notes.append(theme.tr("deadline"))
    if quiet:
        notes.append(theme.tr("quiet {count} / {limit}", count=view.get("quiet", 0),
                              limit=opts["quiet_limit"]))
    for note in notes:
        theme.text(d, (x0 + 8, y - 20), theme.clip(note, TEXT, x1 - x0 - 16), TEXT,
                   theme.MUTED, anchor="lm")
        y -= TEXT + 10
    if act is not None:
        h = 62
        theme.panel(d, (x0, y - h, x1, y), fill=theme.shade(theme.BACKGROUND, 0.8),
                    on=theme.BACKGROUND)
        if isinstance(act.get("seat"), int):
            theme.seat_badge(d, (x0 + 32, y - h / 2), act["seat"], 46)
        move = theme.clip(_move_text(act), TEXT, x1 - x0 - 80, bold=True)
        theme.text(d, (x0 + 64, y - h / 2), move, TEXT, theme.INK, bold=True, anchor="lm")


def _side_card(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], seat: int,
               acting: bool, lines: tuple[float, float], labels: tuple[str, str]) -> None:
    """A side's card without its counts: badge above piece on the left (which leaves the
    counts the width they need at TEXT), the labels of "in hand" and "on board" centred on
    `lines`."""
    x0, y, x1, _ = box
    _card(d, box, acting)
    theme.seat_badge(d, (x0 + 38, y + 32), seat, 46, ring=theme.HIGHLIGHT if acting else None)
    piece = _cow_sprite(COW) if seat == 0 else _leopard_sprite(LEOPARD)
    theme.paste(d, piece, (x0 + 38, y + 82 + (2 if seat == 0 else 0)))
    x, right = x0 + 80, x1 - 16
    for cy, label in zip(lines, labels, strict=True):
        theme.text(d, (x, cy), theme.clip(label, TEXT, right - x - 50), TEXT, theme.MUTED,
                   anchor="lm")


def _pips_per_row(width: float, target: int) -> int:
    return max(1, min(target, 10, int(width // 26)))


def _pips(d: ImageDraw.ImageDraw, x: float, y: float, width: float, captured: int, target: int
          ) -> None:
    """`target` small cows in centred rows, the first `captured` crossed out, above a big
    "captured / target"."""
    per_row = _pips_per_row(width, target)
    small, faded, cross = _cow_sprite(18), _cow_sprite(18, 150), _cross_sprite(20)
    for i in range(target):
        row, column = divmod(i, per_row)
        in_row = min(per_row, target - row * per_row)
        cx = x + width / 2 + (column - (in_row - 1) / 2) * 26
        cy = y + 14 + row * 28
        if i < captured:
            theme.paste(d, faded, (cx, cy))
            theme.paste(d, cross, (cx, cy))
        else:
            theme.paste(d, small, (cx, cy))
    rows = math.ceil(target / per_row)
    col = theme.DANGER if captured >= target else theme.INK
    theme.text(d, (x + width / 2, y + rows * 28 + 8), f"{captured} / {target}", TEXT + 2, col,
               bold=True, anchor="mt")


def _reason(view: dict[str, Any], outcome: dict[str, Any]) -> str | None:
    """Why the game ended: the outcome's (or game_over event's) reason, else the engine's."""
    reason = outcome.get("reason")
    if reason:
        return str(reason)
    try:
        eng = get_engine("cows_leopards")
        return eng.end_reason(eng.load(view))  # type: ignore[attr-defined]
    except (ValueError, AttributeError, KeyError, TypeError):
        return None


def _draw_result(
    d: ImageDraw.ImageDraw, x0: float, x1: float, y: float,
    result: tuple[list[float], str | None], captured: int, target: int, opts: dict[str, Any],
) -> float:
    """The winner card: the winning side's piece and badge with "wins", or "draw"; and
    why. Returns its bottom y."""
    scores, reason = result
    why = ""
    if reason:
        why = theme.tr(REASONS[reason], captured=captured, target=target,
                       n=opts["quiet_limit"]) if reason in REASONS else reason
    lines = theme.wrap(why, TEXT, x1 - x0 - 24) if why else []
    h = 100 + len(lines) * (TEXT + 8)
    theme.panel(d, (x0, y, x1, y + h), fill=theme.shade(theme.PANEL, 1.12),
                outline=theme.HIGHLIGHT, width=4, on=theme.BACKGROUND)
    cx = (x0 + x1) / 2
    if len(scores) == 2 and scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
        piece = _cow_sprite(COW + 8) if winner == 0 else _leopard_sprite(LEOPARD + 8)
        theme.seat_badge(d, (x0 + 40, y + 52), winner, 44, ring=theme.HIGHLIGHT)
        theme.paste(d, piece, (x0 + 104, y + 52))
        theme.text(d, (x0 + 150, y + 52), theme.tr("wins"), TEXT + 4, theme.HIGHLIGHT,
                   bold=True, anchor="lm")
    else:
        theme.paste(d, _cow_sprite(COW), (cx - 100, y + 52))
        theme.paste(d, _leopard_sprite(LEOPARD), (cx + 100, y + 52))
        theme.text(d, (cx, y + 52), theme.tr("draw"), TEXT + 4, theme.HIGHLIGHT, bold=True,
                   anchor="mm")
    for i, line in enumerate(lines):
        theme.text(d, (cx, y + 100 + i * (TEXT + 8) + (TEXT + 8) / 2 - 6), line, TEXT,
                   theme.INK, anchor="mm")
    return y + h


# --- public ----------------------------------------------------------------------------------
def _board_id(view: dict[str, Any]) -> str:
    return str((view.get("options") or {}).get("board") or "B")


def _picture(view: dict[str, Any]) -> tuple[_Layout, Image.Image, ImageDraw.ImageDraw]:
    lay = _layout(_board_id(view))
    title = theme.tr("Cows and Leopards")
    subtitle = theme.tr("board {board}", board=lay.board_id)
    base = _base if theme.exact_colours() else _indexed_base
    img = base(lay.board_id, title, subtitle).copy()
    return lay, img, theme.drawer(img)


@lru_cache(maxsize=8)
def _indexed_base(board_id: str, title: str, subtitle: str) -> Image.Image:
    """`_base` in the shared palette: what a picture is drawn on."""
    return theme.indexed(_base(board_id, title, subtitle))


@theme.localised
def render_board(view: dict[str, Any], events: list[dict]) -> bytes:
    """The board after the last move: cows and leopards on their points, the last drop
    (ring), step or jump (arrow; a captured cow crossed out where it stood), pieces in hand,
    captures against the target and whose turn it is. PNG bytes."""
    lay, img, d = _picture(view)
    act, over = _last(events or [])
    _draw_board(d, lay, view, act)
    result = None
    if over is not None:
        result = (list(over.get("scores") or []), over.get("reason"))
    _draw_side(d, lay, view, act, result)
    return theme.to_png(img)


@theme.localised
def render_game_over(view: dict[str, Any], outcome: dict[str, Any]) -> bytes:
    """The final position with who won (cows, leopards or a draw) and why. PNG bytes."""
    lay, img, d = _picture(view)
    _draw_board(d, lay, view, None)
    scores = list(outcome.get("scores") or [])
    _draw_side(d, lay, view, None, (scores, _reason(view, outcome)))
    return theme.to_png(img)


# --- alt text -------------------------------------------------------------------------------
SIDES = {0: theme.N_("cows"), 1: theme.N_("leopards")}


def _alt_move(ev: dict, names: theme.Names) -> str:
    seat = int(ev.get("seat", 0))
    who = theme.tr("{name} ({side})", name=theme.seat_name(seat, names),
                   side=theme.tr(SIDES.get(seat, "")))
    kind = ev.get("type")
    if kind == "drop":
        return theme.tr("{name} dropped a piece on {point}.", name=who, point=ev.get("point"))
    if kind == "step":
        return theme.tr("{name} moved from {source} to {destination}.", name=who,
                        source=ev.get("from"), destination=ev.get("to"))
    return theme.tr("{name} jumped from {source} to {destination} and captured the cow on "
                    "{point}.", name=who, source=ev.get("from"), destination=ev.get("to"),
                    point=ev.get("over"))


def _alt_position(view: dict[str, Any], names: theme.Names) -> list[str]:
    hand = view.get("hand") or {}
    out = []
    for seat, key in ((0, "cows"), (1, "leopards")):
        points = sorted(view.get(key) or [])
        out.append(theme.tr("{name} ({side}): {count} in hand, on the board: {points}.",
                            name=theme.seat_name(seat, names), side=theme.tr(SIDES[seat]),
                            count=hand.get(key, 0), points=theme.listing(points) or "-"))
    out.append(theme.tr("Cows captured: {captured} of {target}.",
                        captured=int(view.get("captured") or 0),
                        target=int(view["options"]["captures"])))
    return out


@theme.localised
def alt_text(view: dict[str, Any], events: list[dict] | None = None,
             names: theme.Names = None) -> str:
    """The board in words for a screen reader: the last move, where each side's pieces are
    and how many are in hand, the captures against the target, and who is to move."""
    act, _over = _last(list(events or []))
    return theme.alt(theme.alt_title(theme.tr("Cows and Leopards"),
                                     theme.tr("board {board}", board=_board_id(view))),
                     _alt_move(act, names) if act else "", *_alt_position(view, names),
                     theme.alt_to_move(view, names))


@theme.localised
def alt_text_game_over(view: dict[str, Any], outcome: dict[str, Any],
                       names: theme.Names = None) -> str:
    """The result in words: which side won (or a draw) and why, then the final board."""
    scores = list(outcome.get("scores") or [])
    reason = _reason(view, outcome)
    if len(scores) == 2 and scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
        result = theme.tr("Game over: {name} ({side}) wins.",
                          name=theme.seat_name(winner, names), side=theme.tr(SIDES[winner]))
    else:
        result = theme.tr("Game over: a draw.")
    why = ""
    if reason:
        captured = int(view.get("captured") or 0)
        opts = view["options"]
        why = theme.tr(REASONS[reason], captured=captured, target=int(opts["captures"]),
                       n=opts["quiet_limit"]) if reason in REASONS else reason
        why = theme.tr("{reason}.", reason=why)
    return theme.alt(theme.alt_title(theme.tr("Cows and Leopards")), result, why,
                     *_alt_position(view, names))


def gallery_samples() -> Iterator[Case]:
    """Sample pictures for renderers.gallery: both boards, early, later and the end."""
    from renderers.gallery import puzzle_cases, review_cases, standard_samples

    for board in ("A", "B"):
        yield from standard_samples("cows_leopards", 2, {"board": board}, 5, (10, 40),
                                    prefix=f"board{board}_")
    yield from review_cases("cows_leopards", 2, None, 40)
    yield from puzzle_cases("cows_leopards", 2)
