"""The warm-up job each worker process runs once before the bot answers anyone, so that the
first board after a restart is drawn as fast as any other: the engines and renderers are
imported (the fork server preloads them too), the fonts are opened and a few glyphs drawn in
both scripts (Latin and Japanese), and the cjk character set is read."""

from __future__ import annotations

import os

from PIL import Image, ImageDraw

import engines
import renderers
from engines import GAME_IDS, get_engine
from renderers import theme


def warm_up() -> int:
    """Run in a worker: load what the first picture would wait for; returns its pid."""
    assert renderers is not None and engines is not None
    for game in GAME_IDS:
        get_engine(game)
    image = Image.new("RGB", (64, 32))
    draw = ImageDraw.Draw(image)
    for bold in (False, True):
        for size in (16, 24):
            theme.font(size, bold)
            theme.cjk_font(size, bold)
        theme.text(draw, (2, 2), "Aa 1 卓", 16, bold=bold)
    theme.cjk_charset()
    return os.getpid()
