"""Boards are drawn straight in the shared palette (renderers.theme.palette_canvas): they
look like the same boards drawn in colour and mapped at the end, in both languages, and the
cache of blended sprites and labels gives the same pixels as blending them afresh."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from renderers import gallery, palette, theme
from renderers.bounded import Bounded

GAMES = ["senet", "six_nimmt", "cows_leopards", "varanasi"]


def _boards() -> list[gallery.Case]:
    cases = [(stem, case) for stem, case in gallery.cases(GAMES)
             if "review" not in stem and "puzzle" not in stem]
    assert len({stem.split("_")[0] for stem, _ in cases}) == 4
    return cases


def _rgb(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB")


def test_a_board_in_the_palette_looks_like_the_board_drawn_in_colour() -> None:
    for language in ("en", "ja"):
        with theme.translating(gallery.catalogue_gettext(language)):
            for stem, case in _boards():
                with theme.drawing_in_colour():
                    coloured = _rgb(case())
                direct = _rgb(case())
                assert direct.size == coloured.size, stem
                # only anti-aliased edges over a colour the palette lacks may differ, and
                # hardly: no more than 1 pixel in 1,000 by more than 16 levels
                diff = ImageChops.difference(direct, coloured).convert("L").histogram()
                area = direct.width * direct.height
                assert sum(diff[17:]) <= area / 1000, (language, stem, sum(diff[17:]))
                assert sum(diff[1:]) <= area * 0.03, (language, stem, sum(diff[1:]))


def test_blends_from_the_cache_have_the_pixels_of_blends_made_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _boards()
    palette.blended.cache_clear()
    with monkeypatch.context() as patch:
        patch.setattr(palette.blended, "get", lambda key: (False, None))
        fresh = [case() for _, case in cases]
    assert palette.blended.entries
    again = [case() for _, case in cases]
    assert [_rgb(p).tobytes() for p in again] == [_rgb(p).tobytes() for p in fresh]


def test_blends_stay_within_their_budget() -> None:
    blended = Bounded(3 * 2 * 10 * 10, palette._blend_size)
    sprite, result = Image.new("RGBA", (10, 10)), Image.new("P", (10, 10))
    for n in range(5):
        blended.put((n,), (sprite, result))
    assert blended.bytes <= blended.budget
    assert blended.get((4,))[0] and not blended.get((0,))[0]


def test_a_palette_board_needs_no_mapping_to_encode() -> None:
    image, draw = theme.palette_canvas(200, 100)
    theme.text(draw, (10, 50), "Senet", 24, anchor="lm")
    assert image.mode == "P"
    png = theme.to_png(image)
    with Image.open(io.BytesIO(png)) as decoded:
        assert decoded.mode == "P" and decoded.tobytes() == image.tobytes()
