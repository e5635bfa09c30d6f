"""6 nimmt! pictures: the table (rows, points, this turn's cards), a seat's hand, the reveal of
a turn, and the final ranking. Inputs are `eng.view(state, seat)` dicts and event lists as in
engines/EVENTS.md; outputs are PNG bytes. Nothing here knows player names: seats are theme
badges ("1".."10").

Bullheads are shown twice on every card: by the colour of its band and by the number of bull
icons (1, 2, 3, 5 or 7), so they read without colour vision.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from engines.six_nimmt import HAND, bullheads
from renderers import theme as T

if TYPE_CHECKING:
    from renderers.gallery import Case

WIDTH = 1100


def _small(draw: ImageDraw.ImageDraw) -> int:
    """The smallest text on the picture `draw` draws (theme.min_text of its width)."""
    return T.min_text(T.canvas_width(draw))


def _big(draw: ImageDraw.ImageDraw) -> int:
    """Points and bullhead counts: a step above the smallest text."""
    return T.big_text(T.canvas_width(draw))

ROW_CARDS = 5  # a sixth card takes the row

# Card band colour and body tint by bullheads.
BAND: dict[int, T.RGB] = {
    1: (176, 160, 214),  # lavender
    2: (86, 170, 232),  # sky blue
    3: (242, 190, 40),  # amber
    5: (226, 92, 44),  # vermilion
    7: (150, 40, 130),  # magenta
}
BODY: dict[int, T.RGB] = {
    1: T.PAPER,
    2: (232, 244, 252),
    3: (253, 244, 210),
    5: (252, 226, 214),
    7: (244, 214, 238),
}
BULL_INK: T.RGB = (44, 36, 32)
FELT: T.RGB = (34, 84, 70)  # the table under the rows
FELT_EDGE: T.RGB = (58, 118, 98)
SLOT: T.RGB = (46, 100, 84)
CARD_BACK: T.RGB = (120, 40, 48)


# --- small pieces ---------------------------------------------------------------------------
def _bull_painter(size: int, colour: T.RGB, face: T.RGB):
    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        s = k * size / 32  # designed on a 32 x 32 grid

        def p(*pts: tuple[float, float]) -> list[tuple[float, float]]:
            return [(x * s, y * s) for x, y in pts]

        w = max(1, int(3.2 * s))
        d.line(p((11, 12), (6, 10), (3.5, 6.5), (3.5, 2)), fill=colour, width=w, joint="curve")
        d.line(p((21, 12), (26, 10), (28.5, 6.5), (28.5, 2)), fill=colour, width=w,
               joint="curve")
        d.ellipse(p((1.5, 11.5), (9.5, 17)), fill=colour)
        d.ellipse(p((22.5, 11.5), (30.5, 17)), fill=colour)
        d.rounded_rectangle(p((8, 8), (24, 27)), radius=int(7 * s), fill=colour)
        d.ellipse(p((9.5, 19.5), (22.5, 30.5)), fill=colour)
        for x in (11.2, 18.4):
            d.ellipse(p((x, 13.6), (x + 2.4, 16)), fill=face)
        for x in (12.2, 17.4):
            d.ellipse(p((x, 23.5), (x + 2.4, 26)), fill=face)

    return paint


@lru_cache(maxsize=32)
def _bull(size: int, colour: T.RGB = BULL_INK, face: T.RGB = T.PAPER) -> Image.Image:
    return T.sprite((size, size), _bull_painter(size, colour, face), scale=4)


def bull_icon(draw: ImageDraw.ImageDraw, xy: tuple[float, float], size: int,
              colour: T.RGB = BULL_INK, face: T.RGB = T.PAPER) -> None:
    """A bull's head centred on `xy`."""
    T.paste(draw, _bull(size, colour, face), xy)


_LAYOUT = {1: (1,), 2: (2,), 3: (3,), 5: (3, 2), 7: (4, 3)}


@lru_cache(maxsize=1024)
def _face_mask(number: int, w: int, h: int, mini: bool) -> Image.Image:
    """Where the face of a card is opaque: all of it but the rounded corners, which are
    clear, so a 1-bit mask; pasted with it instead of its alpha, a face gives the same pixels
    several times faster."""
    alpha = _face(number, w, h, mini).getchannel("A")
    if any(alpha.histogram()[1:255]):  # not all clear or opaque after all: paste as it is
        return alpha
    return alpha.convert("1", dither=Image.Dither.NONE)


def _paste_face(draw: ImageDraw.ImageDraw, xy: tuple[float, float], number: int, w: int,
                h: int, mini: bool) -> None:
    mask = _face_mask(number, w, h, mini)
    if draw._image.mode == "P" and mask.mode != "1":  # soft edges: blended in colour
        T.paste(draw, _face(number, w, h, mini), xy, "la")
        return
    face = _face_indexed(number, w, h, mini) if draw._image.mode == "P" else _face(
        number, w, h, mini)
    draw._image.paste(face, (round(xy[0]), round(xy[1])), mask)


@lru_cache(maxsize=1024)
def _face_indexed(number: int, w: int, h: int, mini: bool) -> Image.Image:
    """The face in the shared palette (its opaque pixels are pasted as they are)."""
    return T.indexed(_face(number, w, h, mini))


@lru_cache(maxsize=1024)
def _face(number: int, w: int, h: int, mini: bool) -> Image.Image:
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    b = bullheads(number)
    box = (0, 0, w - 1, h - 1)
    if not mini:
        d.rounded_rectangle(box, radius=9, fill=BODY[b], outline=T.INK_DARK, width=2)
        band_h = int(h * 0.34)
        d.rounded_rectangle((4, 4, w - 5, band_h), radius=6, fill=BAND[b])
        lines = _LAYOUT[b]
        icon = int(min((w - 12) / 4.3, (band_h - 6) / len(lines) * 1.05, 22))
        line_h = (band_h - 4) / len(lines)
        for i, count in enumerate(lines):
            cy = 4 + line_h * (i + 0.5)
            step = icon * 0.95
            start = w / 2 - step * (count - 1) / 2
            for j in range(count):
                bull_icon(d, (start + j * step, cy), icon, BULL_INK, BAND[b])
        size = T.fit(str(number), int(min(w * 0.56, (h - band_h) * 0.62)), w - 8, True)
    else:
        d.rounded_rectangle(box, radius=6, fill=BODY[b], outline=T.INK_DARK, width=2)
        band_h = max(8, int(h * 0.2))
        d.rounded_rectangle((3, 3, w - 4, band_h), radius=3, fill=BAND[b])
        pip = max(3.0, min(6.0, (w - 10) / (b * 1.45)))
        step = pip * 1.45
        start = w / 2 - step * (b - 1) / 2
        cy = 3 + (band_h - 3) / 2
        for j in range(b):
            cx = start + j * step
            d.ellipse((cx - pip / 2, cy - pip / 2, cx + pip / 2, cy + pip / 2), fill=BULL_INK)
        size = T.fit(str(number), int(min(w * 0.62, (h - band_h) * 0.78)), w - 6, True)
    T.text(d, (w / 2, band_h + (h - band_h) / 2 + (2 if not mini else 1)), str(number), size,
           T.INK_DARK, bold=True, anchor="mm")
    return im


def card(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], number: int,
         *, outline: T.RGB | None = None, seat: int | None = None) -> None:
    """A face-up card in `box`: bullhead band on top (colour + 1, 2, 3, 5 or 7 bull icons),
    big number below. `outline` frames it (e.g. HIGHLIGHT for a card placed this turn);
    `seat` adds that seat's badge at the bottom-right corner."""
    x0, y0, x1, y1 = box
    if outline is not None:
        draw.rounded_rectangle((x0 - 5, y0 - 5, x1 + 5, y1 + 5), radius=12, fill=outline)
    _paste_face(draw, (x0, y0), number, round(x1 - x0), round(y1 - y0), False)
    if seat is not None:
        T.seat_badge(draw, (x1 - 6, y1 - 6), seat, 46)


def mini_card(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], number: int,
              *, outline: T.RGB | None = None) -> None:
    """A small card: number on a tinted face, a band with one pip per bullhead."""
    x0, y0, x1, y1 = box
    if outline is not None:
        draw.rounded_rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=8, fill=outline)
    _paste_face(draw, (x0, y0), number, round(x1 - x0), round(y1 - y0), True)


def _slot(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
          danger: bool = False, label: str = "") -> None:
    x0, y0, x1, y1 = box
    if danger:
        draw.rounded_rectangle(box, radius=9, fill=(92, 52, 48), outline=T.DANGER, width=3)
        _dashes(draw, box)
        T.text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), label or "6",
               max(_small(draw), int((x1 - x0) * 0.42)), T.DANGER, bold=True, anchor="mm")
    else:
        draw.rounded_rectangle(box, radius=9, fill=SLOT, outline=FELT_EDGE, width=2)


def _dashes(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    for i in range(3):
        y = y0 + 10 + i * 7
        draw.line((x0 + 10, y, x1 - 10, y), fill=(120, 62, 56), width=2)
        y = y1 - 10 - i * 7
        draw.line((x0 + 10, y, x1 - 10, y), fill=(120, 62, 56), width=2)


def _card_back(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
               fill: T.RGB = CARD_BACK) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=5, fill=fill, outline=T.INK_DARK, width=2)
    draw.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), radius=3, outline=(200, 150, 90),
                           width=1)


def _check(draw: ImageDraw.ImageDraw, xy: tuple[float, float], size: float,
           colour: T.RGB = T.GOOD) -> None:
    x, y = xy
    s = size / 2
    draw.line([(x - s, y), (x - s * 0.3, y + s * 0.7), (x + s, y - s * 0.8)], fill=colour,
              width=max(3, int(size / 5)), joint="curve")


# --- reading the view and the events --------------------------------------------------------
@dataclass
class Played:
    """One card of this turn: who played it and what became of it."""

    card: int
    seat: int
    kind: str = "wait"  # "place", "take", "choose", "wait"
    row: int | None = None
    end: str = "right"
    taken: list[int] = field(default_factory=list)
    bulls: int = 0


def turn_cards(view: dict[str, Any], events: list[dict]) -> list[Played]:
    """The cards of the turn being resolved, ascending, with their fate so far: from the
    "reveal", "place", "take" and "choose" events, then `pending`/`queue` of the view."""
    out: dict[int, Played] = {}
    for ev in events:
        kind = ev.get("type")
        if kind == "reveal":
            out = {}  # a new turn: events of several turns (a board posted late) show the last
            for c, s in ev["cards"]:
                out.setdefault(c, Played(c, s))
        elif kind in ("place", "take", "choose"):
            p = out.setdefault(ev["card"], Played(ev["card"], ev["seat"]))
            if kind == "place":
                p.kind, p.row, p.end = "place", ev["row"], ev.get("end", "right")
            elif kind == "take":
                p.kind, p.row = "take", ev["row"]
                p.taken, p.bulls = list(ev.get("cards", [])), int(ev.get("bullheads", 0))
            elif p.kind == "wait":
                p.kind = "choose"
    if out:
        pending = view.get("pending")
        if pending and pending["card"] in out and out[pending["card"]].kind == "wait":
            out[pending["card"]].kind = "choose"
        for c, s in view.get("queue") or []:
            out.setdefault(c, Played(c, s))
    return sorted(out.values(), key=lambda p: p.card)


def _seats(view: dict[str, Any]) -> int:
    return int(view["options"]["players"])


def _turn_no(view: dict[str, Any]) -> int | None:
    if view.get("phase") not in ("pick", "take", "side"):
        return None
    sizes = view.get("hand_sizes") or [len(h or []) for h in view["hands"]]
    held = [sizes[i] + (1 if view["picked"][i] is not None else 0) for i in range(len(sizes))]
    played = HAND - max(held)
    return played + 1 if view["phase"] == "pick" else played


def _subtitle(view: dict[str, Any], events: list[dict]) -> str:
    opts = view["options"]
    ended = [e["round"] for e in events if e.get("type") == "round_end"]
    if ended:
        parts = [T.tr("round {round} over", round=ended[-1])]
    else:
        parts = [T.tr("round {round}", round=view["round"])]
    phase = view.get("phase")
    if phase == "draft":
        parts.append(T.tr("draft"))
    turn = _turn_no(view)
    if turn is not None and not ended:
        parts.append(T.tr("turn {turn}/10", turn=max(1, min(10, turn))))
    if opts.get("professional"):
        parts.append(T.tr("professional"))
    if opts.get("cards", "standard") != "standard":
        parts.append(T.tr(CARD_SETS.get(opts["cards"], opts["cards"])))
    return " · ".join(parts)


CARD_SETS = {"tactical": T.N_("tactical"), "logical": T.N_("logical")}


# --- the table ------------------------------------------------------------------------------
CARD_W, CARD_H, GAP = 84, 112, 10
ROW_PAD = 10
ROW_H = CARD_H + 2 * ROW_PAD


def _draw_rows(draw: ImageDraw.ImageDraw, x: float, y: float, width: float,
               view: dict[str, Any], marks: dict[int, tuple[int, bool]],
               scale: float = 1.0) -> float:
    """The four rows from (x, y) across `width`; `marks` maps card -> (seat, took) for cards
    played this turn. Returns the bottom y."""
    pro = bool(view["options"].get("professional"))
    row_h = CARD_H * scale + 2 * (ROW_PAD * scale)  # as the cards' boxes add up
    for r, row in enumerate(view["rows"]):
        top = y + r * (row_h + 12 * scale)
        full = len(row) >= ROW_CARDS
        T.layer(draw, ("6 nimmt row", x, top, width, r, pro and full, scale),
                partial(_row_felt, x=x, top=top, width=width, r=r, pro=pro, full=full,
                        scale=scale))
        cx = _row_cards_x(x, pro, scale)
        badge = False  # a card's badge reaches into the next slot: that one is drawn over it
        for i in range(ROW_CARDS + 1):
            box = _row_slot(cx, top, i, scale)
            if i < min(len(row), ROW_CARDS):
                seat, took = marks.get(row[i], (None, False))
                card(draw, box, row[i], seat=seat,
                     outline=None if seat is None else (T.DANGER if took else T.HIGHLIGHT))
                badge = seat is not None
                continue
            danger = i == ROW_CARDS
            if badge:
                _slot(draw, box, danger=danger, label="6")
            else:
                T.layer(draw, ("6 nimmt slot", box, danger),
                        partial(_slot, box=box, danger=danger, label="6"), FELT)
            badge = False
        # the row's bullheads
        total = sum(bullheads(c) for c in row)
        bx = x + width - 52 * scale
        bull_icon(draw, (bx, top + row_h / 2 - 22 * scale), int(34 * scale), T.INK, FELT)
        T.text(draw, (bx, top + row_h / 2 + 22 * scale), str(total),
               max(_small(draw), int(_big(draw) * scale)), T.DANGER if full else T.INK,
               bold=True, anchor="mm")
    return y + 4 * row_h + 3 * 12 * scale


def _row_cards_x(x: float, pro: bool, scale: float) -> float:
    """The left of a row's first card (right of the professional left-end slot)."""
    return x + 60 * scale + (CARD_W * scale + GAP * scale if pro else 0)


def _row_slot(cx: float, top: float, i: int, scale: float) -> tuple[float, float, float, float]:
    """The box of a row's `i`th card (5: the sixth slot), cards from `cx`."""
    cw, ch, gap, pad = CARD_W * scale, CARD_H * scale, GAP * scale, ROW_PAD * scale
    return (cx + i * (cw + gap), top + pad, cx + i * (cw + gap) + cw, top + pad + ch)


def _row_felt(draw: ImageDraw.ImageDraw, x: float, top: float, width: float, r: int,
              pro: bool, full: bool, scale: float) -> None:
    """Row `r` without its cards and slots: the felt, its number and, in the professional
    game, the slot at its left end."""
    row_h = CARD_H * scale + 2 * (ROW_PAD * scale)  # as the cards' boxes add up
    draw.rounded_rectangle((x, top, x + width, top + row_h), radius=int(16 * scale),
                           fill=FELT, outline=FELT_EDGE, width=2)
    # row number
    label = _small(draw)
    size = max(int(label * 1.35), int(44 * scale))
    lx = x + max(30 * scale, size / 2 + 3)  # inside the row's felt
    T.disc(draw, (lx, top + row_h / 2), size, FELT_EDGE)
    T.text(draw, (lx, top + row_h / 2), str(r + 1), label, T.INK, bold=True, anchor="mm")
    if pro:
        box = _row_slot(x + 60 * scale, top, 0, scale)
        _slot(draw, box, danger=full, label="6")
        if not full:
            _arrow_hint(draw, box, left=True)


def _arrow_hint(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                left: bool) -> None:
    """An empty professional left-end slot: a faint slot with a small arrow into the row."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=9, outline=FELT_EDGE, width=2)
    cy = (y0 + y1) / 2
    mx = (x0 + x1) / 2
    s = (x1 - x0) * 0.18
    draw.polygon([(mx + s, cy), (mx - s * 0.6, cy - s), (mx - s * 0.6, cy + s)], fill=FELT_EDGE)


def _rows_width(view: dict[str, Any], scale: float = 1.0) -> float:
    slots = 7 if view["options"].get("professional") else 6
    return (60 + slots * (CARD_W + GAP) - GAP + 110) * scale


def _sidebar(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
             view: dict[str, Any], events: list[dict]) -> None:
    """Each seat: badge, points left, and what it is doing (picked, to pick, to choose)."""
    x0, y0, x1, y1 = box
    T.panel(draw, box, on=T.BACKGROUND)
    n = _seats(view)
    to_act = set(view.get("to_act") or [])
    phase = view.get("phase")
    pending = view.get("pending") or {}
    start = int(view["options"]["points"])
    small = _small(draw)
    T.text(draw, (x0 + 20, y0 + 26), T.clip(T.tr("points"), small, x1 - x0 - 40), small,
           T.MUTED, anchor="lm")
    line_h = min(64, (y1 - y0 - 64) / n)
    badge = int(min(46, line_h - 4))
    value = max(small, int(min(_big(draw), line_h * 0.75)))
    took: dict[int, int] = {}
    for ev in events:
        if ev.get("type") == "take":
            took[ev["seat"]] = took.get(ev["seat"], 0) + int(ev.get("bullheads", 0))
    for s in range(n):
        cy = y0 + 52 + line_h * (s + 0.5)
        acting = s in to_act and phase in ("take", "side", "draft")
        T.seat_badge(draw, (x0 + 16 + badge / 2, cy), s, badge,
                     ring=T.HIGHLIGHT if acting else None)
        pts = view["points"][s]
        colour = T.DANGER if pts <= 0 else (T.INK if pts > start // 4 else (250, 170, 120))
        box = T.text(draw, (x0 + 28 + badge, cy), str(pts), value, colour, bold=True,
                     anchor="lm")
        if s in took:
            T.text(draw, (box[2] + 8, cy), f"-{took[s]}", small, T.DANGER, bold=True,
                   anchor="lm")
        # status on the right: a face-down card for a seat that has picked (never which)
        sx = x1 - 36
        if phase == "pick":
            bh = line_h * 0.86
            bw = bh * 0.7
            cbox = (sx - bw / 2, cy - bh / 2, sx + bw / 2, cy + bh / 2)
            if view["picked"][s] is not None:
                _card_back(draw, cbox)
                _check(draw, (sx + bw / 2 - 2, cy + bh / 2 - 6), bh * 0.5)
            else:
                draw.rounded_rectangle(cbox, radius=5, outline=T.MUTED, width=2)
        elif (pending.get("seat") == s and phase in ("take", "side")) or (
                phase == "draft" and view.get("drafter") == s):
            mark = "+" if phase == "draft" else "?"
            T.disc(draw, (sx, cy), max(int(line_h * 0.7), int(small * 1.3)), T.HIGHLIGHT)
            T.text(draw, (sx, cy), mark, max(small, int(line_h * 0.55)), T.INK_DARK, bold=True,
                   anchor="mm")


def _chip(draw: ImageDraw.ImageDraw, xy: tuple[float, float], p: Played, size: int = 18,
          width: float = 86) -> None:
    """Below a played card: where it went (arrow + row) or the row it took (bull + points)."""
    x, y = xy
    h = size + 12
    box = (x - width / 2, y, x + width / 2, y + h)
    if p.kind == "place":
        draw.rounded_rectangle(box, radius=h // 2, fill=FELT)
        cy = y + h / 2
        if p.end == "left":  # professional: joined the row's left end
            ax = x + 20
            draw.polygon([(ax - 12, cy), (ax + 2, cy - 8), (ax + 2, cy + 8)], fill=T.INK)
            dx = x - 12
        else:
            ax = x - 20
            draw.polygon([(ax + 12, cy), (ax - 2, cy - 8), (ax - 2, cy + 8)], fill=T.INK)
            dx = x + 12
        T.disc(draw, (dx, cy), h - 4, FELT_EDGE)
        T.text(draw, (dx, cy), str(p.row), size, T.INK, bold=True, anchor="mm")
    elif p.kind == "take":
        draw.rounded_rectangle(box, radius=h // 2, fill=T.DANGER)
        bull_icon(draw, (x - width / 2 + 17, y + h / 2), size + 4, T.PAPER, T.DANGER)
        T.text(draw, (x + 12, y + h / 2), f"-{p.bulls}", size, T.PAPER, bold=True, anchor="mm")
    elif p.kind == "choose":
        draw.rounded_rectangle(box, radius=h // 2, fill=T.HIGHLIGHT)
        T.text(draw, (x, y + h / 2), "?", size + 2, T.INK_DARK, bold=True, anchor="mm")
    else:
        draw.rounded_rectangle(box, radius=h // 2, outline=T.MUTED, width=2)
        for k in (-1, 0, 1):
            T.disc(draw, (x + k * 12, y + h / 2), 6, T.MUTED)


def _turn_strip(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                played: list[Played]) -> None:
    x0, y0, x1, y1 = box
    T.panel(draw, box, on=T.BACKGROUND)
    n = len(played)
    avail = x1 - x0 - 40
    step = min(104, avail / max(n, 1))
    cw = min(72, step - 12)
    chh = cw * 4 / 3
    left = x0 + 20 + (avail - step * n) / 2
    for i, p in enumerate(played):
        cx = left + step * (i + 0.5)
        T.seat_badge(draw, (cx, y0 + 28), p.seat, 46)
        top = y0 + 56
        outline = {"take": T.DANGER, "choose": T.HIGHLIGHT}.get(p.kind)
        card(draw, (cx - cw / 2, top, cx + cw / 2, top + chh), p.card, outline=outline)
        _chip(draw, (cx, top + chh + 12), p, _small(draw), min(step - 6, 100))


@T.localised
def render_table(view: dict[str, Any], events: list[dict] | None = None) -> bytes:
    """The public table: four rows (sixth slot = danger), each seat's points and status and,
    after a reveal, the cards of the turn with their owners and fates."""
    events = list(events or [])
    played = turn_cards(view, events)
    marks = {p.card: (p.seat, p.kind == "take") for p in played if p.kind in ("place", "take")}
    logical = view["options"].get("cards") == "logical"
    n = _seats(view)
    rows_w = _rows_width(view)
    side_w = 260
    width = int(rows_w + side_w + 3 * 24)
    rows_h: float = 4 * ROW_H + 36
    if view.get("phase") == "draft":  # a large pool takes more room than the rows
        rows_h = max(rows_h, _pool_height(len(view.get("pool") or []), rows_w,
                                          T.min_text(width)))
    height: float = 64 + 24 + rows_h + 24
    strip_h: float = 0
    if played:
        strip_h = 56 + 72 * 4 / 3 + 24 + T.min_text(width) + 12
        height += strip_h + 20
    hands_h = 0
    if logical and any(view["hands"]):
        hands_h = 40 + n * HAND_LINE
        height += hands_h + 20
    img, d = T.palette_canvas(width, height)
    y: float = T.title_strip(d, width, T.tr("6 nimmt!"), _subtitle(view, events)) + 24
    if view.get("phase") == "draft":
        _pool(d, (24, y, 24 + rows_w, y + rows_h), view)
    else:
        _draw_rows(d, 24, y, rows_w, view, marks)
    _sidebar(d, (48 + rows_w, y, 48 + rows_w + side_w, y + rows_h), view, events)
    y += rows_h + 20
    if played:
        _turn_strip(d, (24, y, width - 24, y + strip_h), played)
        y += strip_h + 20
    if hands_h:
        _public_hands(d, (24, y, width - 24, y + hands_h), view)
    return T.to_png(img)


render_board = render_table


def _pool(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
          view: dict[str, Any]) -> None:
    """Logical draft: the face-up cards still to draft."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=16, fill=FELT, outline=FELT_EDGE, width=2)
    pool = list(view.get("pool") or [])
    if not pool:
        return
    cw, ch, cols = _pool_grid(len(pool), x1 - x0, y1 - y0, _small(draw))
    for i, c in enumerate(pool):
        cx = x0 + 20 + (i % cols) * (cw + 8)
        cy = y0 + 20 + (i // cols) * (ch + 8)
        mini_card(draw, (cx, cy, cx + cw, cy + ch), c)


def _pool_grid(count: int, width: float, height: float, small: int
               ) -> tuple[float, float, int]:
    """(card width, card height, columns) of the draft pool in a box `width` x `height`:
    cards as large as fit, but never so narrow that "104" is under `small` px (a large
    pool then needs a taller box, see _pool_height)."""
    inner_w, inner_h = width - 40, height - 40
    narrowest = T.text_width("104", small, True) + 8
    cols = max(1, min(12, int((inner_w + 8) // (narrowest + 8))))
    best = (0.0, 0.0, cols)
    for c in range(min(6, cols), cols + 1):
        rows = -(-count // c)
        cw = inner_w / c - 8
        ch = min(cw * 4 / 3, inner_h / rows - 8)
        if ch > best[1] or (ch == best[1] and cw > best[0]):
            best = (cw, ch, c)
    return best


def _pool_height(count: int, width: float, small: int) -> float:
    """The height of a pool box `width` wide whose cards' numbers are at least `small` px."""
    inner_w = width - 40
    narrowest = T.text_width("104", small, True) + 8
    cols = max(1, min(12, int((inner_w + 8) // (narrowest + 8))))
    tall = small / 0.78 / 0.8 + 6  # mini_card: number <= 0.78 of the face below a 0.2 band
    return 40 + -(-count // cols) * (tall + 8)


def _public_hands(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                  view: dict[str, Any]) -> None:
    """Logical: every hand is public; one line per seat of badge + small cards."""
    x0, y0, x1, y1 = box
    T.panel(draw, box, on=T.BACKGROUND)
    n = _seats(view)
    for s in range(n):
        cy = y0 + 20 + s * HAND_LINE + HAND_LINE / 2
        T.seat_badge(draw, (x0 + 44, cy), s, 46)
        hand = view["hands"][s] or []
        for i, c in enumerate(hand):
            cx = x0 + 84 + i * (MINI_W + 6)
            mini_card(draw, (cx, cy - 33, cx + MINI_W, cy + 33), c)


HAND_LINE = 74
PANEL_W = 224  # the hand picture's points panel: "選んだカード" whole at the smallest size
MINI_W = 68  # a small card: "104" at the smallest text size still fits


# --- a seat's hand --------------------------------------------------------------------------
@T.localised
def render_hand(view: dict[str, Any], seat: int) -> bytes:
    """The private picture for `seat`: its hand in order (and its face-down pick), over the
    public rows. `view` must be `eng.view(state, seat)`; other seats' hands are never drawn.
    Raises ValueError when the view does not hold that seat's hand."""
    n = _seats(view)
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat!r}")
    hand = view["hands"][seat]
    if hand is None:
        raise ValueError(f"this view does not show the hand of seat {seat}")
    picked = view["picked"][seat]
    pick = picked if isinstance(picked, int) and not isinstance(picked, bool) else None
    width = 1040
    scale = 0.82  # the rows' card numbers ("104" too) no smaller than the smallest text
    rows_w = _rows_width(view, scale)
    rows_h = 4 * ROW_H * scale + 36 * scale
    cards = sorted(hand)
    per_line = 10
    lines = max(1, -(-len(cards) // per_line))
    hand_h = 48 + lines * (CARD_H + 22) + 6
    height = 64 + 20 + rows_h + 24 + hand_h + 24
    img, d = T.palette_canvas(width, height)
    title = T.tr("6 nimmt!")
    y: float = T.title_strip(d, width, title, T.tr("round {round}", round=view["round"]))
    title_w = T.text_width(title, T.title_size(width), True)
    T.seat_badge(d, (32 + title_w + 40, y / 2), seat, 46,
                 ring=T.HIGHLIGHT if seat in (view.get("to_act") or []) else None)
    y += 20
    rx = (width - rows_w - 30 - PANEL_W) / 2
    _draw_rows(d, rx, y, rows_w, view, {}, scale)
    # points and the pick beside the rows
    px = rx + rows_w + 30
    cx = px + PANEL_W / 2
    small = _small(d)
    T.panel(d, (px, y, px + PANEL_W, y + rows_h), on=T.BACKGROUND)
    T.text(d, (cx, y + 34), T.clip(T.tr("points"), small, PANEL_W - 12), small, T.MUTED,
           anchor="mm")
    T.text(d, (cx, y + 84), str(view["points"][seat]), _big(d) + 4, T.INK, bold=True,
           anchor="mm")
    if pick is not None:
        T.text(d, (cx, y + 156), T.clip(T.tr("picked"), small, PANEL_W - 12), small, T.MUTED,
               anchor="mm")
        cw, chh = 84, 112
        card(d, (cx - cw / 2, y + 184, cx + cw / 2, y + 184 + chh), pick, outline=T.HIGHLIGHT)
    y += rows_h + 24
    T.panel(d, (24, y, width - 24, y + hand_h), on=T.BACKGROUND)
    T.text(d, (44, y + 26), T.tr("hand"), small, T.MUTED, anchor="lm")
    T.text(d, (width - 44, y + 26), str(len(cards)), small, T.MUTED, anchor="rm")
    for i, c in enumerate(cards):
        line, col = divmod(i, per_line)
        count = min(per_line, len(cards) - line * per_line)
        left = (width - count * (CARD_W + GAP) + GAP) / 2
        cx = left + col * (CARD_W + GAP)
        cy = y + 48 + line * (CARD_H + 22)
        card(d, (cx, cy, cx + CARD_W, cy + CARD_H), c)
    if not cards and pick is None:
        T.text(d, (width / 2, y + hand_h / 2 + 10), "-", small, T.MUTED, anchor="mm")
    return T.to_png(img)


# --- the reveal -----------------------------------------------------------------------------
@T.localised
def render_reveal(view: dict[str, Any], events: list[dict] | None = None) -> bytes:
    """Everybody's picks of the turn, lowest first, each with its owner's badge, where it
    went (row) or the row it took (cards and bullheads). Without a reveal in `events` (and
    nothing pending) this is the table picture."""
    events = list(events or [])
    played = turn_cards(view, events)
    if not played:
        return render_table(view, events)
    n = len(played)
    width = WIDTH
    step = min(104, (width - 80) / n)
    cw = min(92, step - 12)
    chh = cw * 4 / 3
    takes = [p for p in played if p.kind == "take"]
    take_h = 0 if not takes else 36 + len(takes) * 70
    chip_h = T.min_text(width) + 12
    height = 64 + 24 + 50 + chh + 40 + chip_h + 24 + (take_h + 20 if takes else 0)
    img, d = T.palette_canvas(width, height)
    y: float = T.title_strip(d, width, T.tr("6 nimmt!"), _subtitle(view, events)) + 24
    body = (24, y, width - 24, y + 50 + chh + 40 + chip_h)
    T.panel(d, body, fill=FELT, outline=FELT_EDGE, on=T.BACKGROUND)
    left = (width - step * n) / 2
    for i, p in enumerate(played):
        cx = left + step * (i + 0.5)
        T.seat_badge(d, (cx, y + 30), p.seat, 46)
        top = y + 58
        card(d, (cx - cw / 2, top, cx + cw / 2, top + chh), p.card,
             outline={"take": T.DANGER, "choose": T.HIGHLIGHT}.get(p.kind))
        _chip(d, (cx, top + chh + 12), p, _small(d), min(step - 6, 100))
    y = body[3] + 20
    if takes:
        T.panel(d, (24, y, width - 24, y + take_h), on=T.BACKGROUND)
        for i, p in enumerate(takes):
            cy = y + 18 + i * 70 + 35
            T.seat_badge(d, (60, cy), p.seat, 46)
            bull_icon(d, (112, cy), 30, T.DANGER, T.PANEL)
            T.text(d, (132, cy), f"-{p.bulls}", _small(d), T.DANGER, bold=True, anchor="lm")
            row = T.tr("row {row}", row=p.row)
            T.text(d, (214, cy), T.clip(row, _small(d), 120), _small(d), T.MUTED, anchor="lm")
            for j, c in enumerate(p.taken):
                x = 344 + j * (MINI_W + 6)
                mini_card(d, (x, cy - 32, x + MINI_W, cy + 32), c)
    return T.to_png(img)


# --- game over ------------------------------------------------------------------------------
@T.localised
def render_game_over(view: dict[str, Any], outcome: dict[str, Any]) -> bytes:
    """Final ranking: rank, badge, points left (bar) and bullheads taken, best first."""
    scores = list(outcome.get("scores") or view["points"])
    ranks = list(outcome.get("ranks") or [1] * len(scores))
    n = len(scores)
    start = int(view["options"]["points"])
    width = 1000
    line_h = 64
    height = 64 + 30 + n * line_h + 70
    img, d = T.palette_canvas(width, height)
    y = T.title_strip(d, width, T.tr("6 nimmt!"),
                      T.tr("final · round {round}", round=view["round"])) + 30
    T.panel(d, (24, y - 14, width - 24, y + n * line_h + 14), on=T.BACKGROUND)
    order = sorted(range(n), key=lambda s: (ranks[s], s))
    lo = min(0, *scores)
    hi = max(start, *scores)
    bar_x0, bar_x1 = 330, width - 150
    zero_x = bar_x0 + (0 - lo) / (hi - lo or 1) * (bar_x1 - bar_x0)
    for i, s in enumerate(order):
        cy = y + line_h * (i + 0.5)
        if i % 2 == 0:
            d.rectangle((26, cy - line_h / 2, width - 26, cy + line_h / 2), fill=(50, 58, 75))
        first = ranks[s] == 1
        if first:
            T.star(d, (62, cy), 20)
        else:
            T.text(d, (62, cy), T.rank_label(ranks[s]), _small(d), T.MUTED, bold=True,
                   anchor="mm")
        T.seat_badge(d, (134, cy), s, 44, ring=T.HIGHLIGHT if first else None)
        T.text(d, (174, cy), str(scores[s]), _big(d), T.HIGHLIGHT if first else T.INK,
               bold=True, anchor="lm")
        taken = start - scores[s]
        bull_icon(d, (260, cy), 26, T.DANGER, (50, 58, 75) if i % 2 == 0 else T.PANEL)
        T.text(d, (276, cy), str(taken), _small(d), T.DANGER, bold=True, anchor="lm")
        vx = bar_x0 + (scores[s] - lo) / (hi - lo or 1) * (bar_x1 - bar_x0)
        colour = T.seat_colour(s)
        a, b = sorted((zero_x, vx))
        if b - a >= 1:
            d.rounded_rectangle((a, cy - 12, b, cy + 12), radius=6, fill=colour,
                                outline=T.INK_DARK, width=1)
        d.line((zero_x, cy - 20, zero_x, cy + 20), fill=T.MUTED, width=2)
    # start marker
    sx = bar_x0 + (start - lo) / (hi - lo or 1) * (bar_x1 - bar_x0)
    d.line((sx, y - 4, sx, y + n * line_h + 16), fill=T.PANEL_EDGE, width=2)
    T.text(d, (sx, y + n * line_h + 16), str(start), _small(d), T.MUTED, anchor="mt")
    return T.to_png(img)


# --- alt text -------------------------------------------------------------------------------
def _alt_turn(played: list[Played], names: T.Names) -> list[str]:
    """This turn's cards, lowest first, with what became of each."""
    out = []
    for p in played:
        who = T.seat_name(p.seat, names)
        if p.kind == "place":
            out.append(T.tr("{name} played {card} to row {row}.", name=who, card=p.card,
                            row=p.row))
        elif p.kind == "take":
            out.append(T.tr("{name} played {card} and took row {row} (bullheads: {bulls}).",
                            name=who, card=p.card, row=p.row, bulls=p.bulls))
        elif p.kind == "choose":
            out.append(T.tr("{name} played {card} and must choose a row.", name=who,
                            card=p.card))
        else:
            out.append(T.tr("{name} played {card}.", name=who, card=p.card))
    return out


def _alt_rows(view: dict[str, Any]) -> list[str]:
    if view.get("phase") == "draft":
        pool = view.get("pool") or []
        return [T.tr("Cards to draft: {cards}.", cards=T.listing([str(c) for c in pool]))]
    return [T.tr("Row {row}: {cards} (bullheads: {bulls}).", row=r + 1,
                 cards=T.listing([str(c) for c in row]), bulls=sum(bullheads(c) for c in row))
            for r, row in enumerate(view["rows"]) if row]


def _alt_points(view: dict[str, Any], names: T.Names) -> str:
    return T.tr("Points: {points}.", points=T.listing([
        T.tr("{name} {points}", name=T.seat_name(s, names), points=p)
        for s, p in enumerate(view["points"])]))


@T.localised
def alt_text(view: dict[str, Any], events: list[dict] | None = None,
             names: T.Names = None) -> str:
    """The table in words for a screen reader: round and turn, this turn's cards and what
    became of them, the rows, the points, and who has picked (never what) or must choose."""
    events = list(events or [])
    if view.get("phase") == "pick":
        seats = range(_seats(view))
        done = [T.seat_name(s, names) for s in seats if view["picked"][s] is not None]
        todo = [T.seat_name(s, names) for s in seats if view["picked"][s] is None]
        waiting = T.alt(
            T.tr("Picked face down: {names}.", names=T.listing(done)) if done else "",
            T.tr("Still to pick: {names}.", names=T.listing(todo)) if todo else "")
    else:
        waiting = T.alt_to_move(view, names)
    return T.alt(T.alt_title(T.tr("6 nimmt!"), _subtitle(view, events)),
                 *_alt_turn(turn_cards(view, events), names), *_alt_rows(view),
                 _alt_points(view, names), waiting)


@T.localised
def alt_text_game_over(view: dict[str, Any], outcome: dict[str, Any],
                       names: T.Names = None) -> str:
    """The final ranking in words: points left, best first."""
    scores = list(outcome.get("scores") or view["points"])
    ranks = list(outcome.get("ranks") or [1] * len(scores))
    return T.alt(T.alt_title(T.tr("6 nimmt!")),
                 T.alt_ranking(scores, ranks, names, T.N_("{rank}: {name}, points: {score}")))


__all__ = [
    "Played", "alt_text", "alt_text_game_over", "bull_icon", "card", "mini_card",
    "render_board", "render_game_over", "render_hand", "render_reveal", "render_table",
    "turn_cards",
]


def gallery_samples() -> Iterator[Case]:
    """Sample pictures for renderers.gallery: tables, reveals, hands and the end, for four
    option sets."""
    from renderers.gallery import game_over, has, play, puzzle_cases, review_cases

    configs: list[tuple[str, int, dict[str, Any]]] = [
        ("standard5", 5, {}),
        ("pro4", 4, {"professional": True}),
        ("logical3", 3, {"cards": "logical"}),
        ("standard10", 10, {}),
    ]
    for name, n, opts in configs:
        seed = 7 + n

        def took(state: Any, view: dict, events: list[dict]) -> bool:
            return has(events, "take") and view["phase"] == "pick" and view["round"] >= 1

        eng, state, events = play("six_nimmt", n, opts, seed, took)
        view = eng.view(state, None)
        yield f"{name}_table_after_take", partial(render_table, view, events)
        yield f"{name}_reveal", partial(render_reveal, view, events)

        def picking(state: Any, view: dict, events: list[dict]) -> bool:
            return view["phase"] == "pick" and sum(p is not None for p in view["picked"]) >= 2

        eng, state, events = play("six_nimmt", n, opts, seed + 1, picking)
        yield f"{name}_table_picking", partial(render_table, eng.view(state, None), events)
        yield f"{name}_hand_seat1", partial(render_hand, eng.view(state, 0), 0)

        def choosing(state: Any, view: dict, events: list[dict]) -> bool:
            return view["phase"] in ("take", "side")

        eng, state, events = play("six_nimmt", n, opts, seed + 2, choosing)
        if eng.view(state, None)["phase"] in ("take", "side"):
            view = eng.view(state, None)
            yield f"{name}_table_choose", partial(render_table, view, events)
        if opts.get("cards") == "logical":

            def drafting(state: Any, view: dict, events: list[dict]) -> bool:
                return view["phase"] == "draft" and len(view["pool"]) < 20

            eng, state, events = play("six_nimmt", n, opts, seed, drafting)
            yield f"{name}_table_draft", partial(render_table, eng.view(state, None), events)
        for label, draw in game_over("six_nimmt", n, opts, seed):
            yield f"{name}_{label}", draw
    yield from review_cases("six_nimmt", 4, {"rounds": 1}, 200)
    yield from puzzle_cases("six_nimmt", 4, {"rounds": 1})
