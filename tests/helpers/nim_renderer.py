"""The test-only fifth game's pictures (tests/helpers/nim.py): heaps of stones in rows. Only
the public view goes in, like every renderer; named by its spec (tests/helpers/nim.py)."""

from __future__ import annotations

from typing import Any

from renderers import theme

WIDTH, ROW, STONE = 640, 70, 44


def _board(view: dict[str, Any], title: str) -> bytes:
    heaps = view["heaps"]
    image, draw = theme.canvas(WIDTH, 64 + 24 + ROW * len(heaps) + 24)
    y = theme.title_strip(draw, WIDTH, "Nim", title) + 24
    for index, size in enumerate(heaps):
        theme.panel(draw, (24, y, WIDTH - 24, y + ROW - 10))
        theme.text(draw, (56, y + (ROW - 10) / 2), str(index + 1), 30, theme.INK, bold=True,
                   anchor="mm")
        for stone in range(size):
            centre = (120 + stone * (STONE + 10), y + (ROW - 10) / 2)
            theme.disc(draw, centre, STONE, theme.WOOD)
        y += ROW
    return theme.to_png(image)


@theme.localised
def render_board(view: dict[str, Any], events: list[dict], *, gettext: Any = None) -> bytes:
    to_act = view.get("to_act") or []
    return _board(view, theme.tr("to play: {seat}", seat=to_act[0] + 1) if to_act else "")


@theme.localised
def render_game_over(view: dict[str, Any], outcome: dict[str, Any], *,
                     gettext: Any = None) -> bytes:
    winner = outcome["ranks"].index(1)
    return _board(view, theme.tr("winner: {seat}", seat=winner + 1))
