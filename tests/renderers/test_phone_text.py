"""Every word and number of every picture reads on a phone.

A phone shows a picture about 320 px wide, so text must be at least 10 px there: a font size of
at least `theme.MIN_TEXT` px per 1000 px of the picture's width. Each picture below is drawn
while every text call is recorded (`theme.text`, and `ImageDraw.text` called anywhere else),
then each size is measured against the width of the picture that came out: every game's board
at several seeded positions, its hands, its game-over picture, the review pictures and the
tournament pictures (renderers.gallery), and replays (GIF frames on a shared canvas), in
English and in Japanese.
"""

from __future__ import annotations

import io
import math
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

import pytest
from PIL import Image, ImageDraw

import renderers
from engines import CHANCE, get_engine
from renderers import gallery, replay, theme
from tests.helpers.pictures import clear_caches

PHONE = 0.032  # 10 px when the picture is shown 320 px wide
Drawn = tuple[str, int, list[tuple[str, int]]]  # (picture, its width, [(text, size)])



@contextmanager
def recording(calls: list[tuple[str, int]]) -> Iterator[None]:
    """Record (text, size) of every `theme.text` and of every other `ImageDraw.text`."""
    original_text, original_draw = theme.text, ImageDraw.ImageDraw.text
    inside = [0]

    def text(d, xy, s, size, fill=theme.INK, *, bold=False, anchor="la"):
        calls.append((s, size))
        inside[0] += 1
        try:
            return original_text(d, xy, s, size, fill, bold=bold, anchor=anchor)
        finally:
            inside[0] -= 1

    def draw_text(self, xy, s, *args, **kwargs):
        if not inside[0]:
            font = kwargs.get("font") or (args[1] if len(args) > 1 else None)
            calls.append((str(s), int(getattr(font, "size", 10))))
        return original_draw(self, xy, s, *args, **kwargs)

    theme.text = text  # theme's own helpers (badges, title strip) look it up at call time
    ImageDraw.ImageDraw.text = draw_text
    try:
        yield
    finally:
        theme.text, ImageDraw.ImageDraw.text = original_text, original_draw


def replay_cases() -> Iterator[gallery.Case]:
    """A seeded random game of each game, replayed (at most 40 frames, at full size)."""
    for game, players in (("senet", 2), ("six_nimmt", 4), ("varanasi", 3),
                          ("cows_leopards", 2)):
        eng = get_engine(game)
        rng = random.Random(11)
        state, log = eng.new(players, None), []
        while eng.outcome(state) is None and len(log) < 40:
            actor = eng.to_act(state)[0]
            move = (eng.sample_chance(state, rng) if actor == CHANCE
                    else rng.choice(eng.legal_moves(state, actor)))
            state = eng.apply(state, actor, move)
            log.append((actor, move))
        played = replay.PlayedGame(game, None, players, log)
        yield f"{game}_replay", partial(replay.render_replay, played)


def drawn(language: str, cases: Callable[[], Iterator[gallery.Case]]) -> list[Drawn]:
    mods = [theme, *(renderers.module(g) for g in renderers.available())]
    gettext = gallery.catalogue_gettext(language)
    out = []
    for stem, draw in cases():
        calls: list[tuple[str, int]] = []
        clear_caches(mods)
        with recording(calls), theme.translating(gettext):
            data = draw()
        with Image.open(io.BytesIO(data)) as im:
            out.append((stem, im.width, calls))
    return out


def least(width: int) -> int:
    return max(theme.min_text(width), math.ceil(PHONE * width))


def too_small(pictures: list[Drawn]) -> list[tuple[str, str, int, int]]:
    return sorted({(stem, s, size, least(width)) for stem, width, calls in pictures
                   for s, size in calls if s.strip() and size < least(width)})


def test_the_minimum_is_ten_px_on_a_phone() -> None:
    assert theme.min_text(320) >= 10 and theme.min_text(1000) >= PHONE * 1000
    assert theme.big_text(1000) > theme.min_text(1000)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_gallery_picture_reads_on_a_phone(language: str) -> None:
    pictures = drawn(language, gallery.cases)
    assert len(pictures) > 30 and all(calls for _stem, _w, calls in pictures)
    small = too_small(pictures)
    assert not small, small[:30]


def test_replays_read_on_a_phone() -> None:
    pictures = drawn("en", replay_cases)
    assert len(pictures) == 4
    small = too_small(pictures)
    assert not small, small[:30]
