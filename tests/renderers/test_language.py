"""Pictures in the table's language, legible on a phone.

Every gallery picture is drawn in Japanese with the bot's catalogue while every call of
`theme.text` is recorded: each character drawn must be in the cmap of the font that draws it
(no tofu) and no English word may be left over (sizes: test_phone_text.py).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from functools import lru_cache

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

import renderers
from renderers import gallery, theme
from tests.helpers.pictures import clear_caches

ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


@lru_cache(maxsize=4)
def cmap(path: str) -> frozenset[int]:
    return frozenset(TTFont(path).getBestCmap())



def drawn(language: str, games: list[str] | None = None
          ) -> Iterator[tuple[str, int, list[tuple[str, int, bool]]]]:
    """(picture, canvas width, [(string, size, bold)]) for every gallery picture."""
    mods = [theme, *(renderers.module(g) for g in renderers.available())]
    gettext = gallery.catalogue_gettext(language)
    original = theme.text
    for stem, draw in gallery.cases(games):
        calls: list[tuple[str, int, bool]] = []

        def record(d, xy, s, size, fill=theme.INK, *, bold=False, anchor="la",
                   _calls=calls):
            _calls.append((s, size, bold))
            return original(d, xy, s, size, fill, bold=bold, anchor=anchor)

        clear_caches(mods)
        theme.text = record  # theme's own helpers (badges, title strip) look it up too
        try:
            with theme.translating(gettext):
                png = draw()
        finally:
            theme.text = original
        with Image.open(io.BytesIO(png)) as im:
            yield stem, im.width, calls


@pytest.fixture(scope="module")
def japanese() -> list[tuple[str, int, list[tuple[str, int, bool]]]]:
    return list(drawn("ja"))


def test_every_character_drawn_in_japanese_is_in_the_font(japanese) -> None:
    assert len(japanese) > 30
    missing = set()
    for stem, _width, calls in japanese:
        for s, size, bold in calls:
            path = theme.font_for(s, size, bold).path
            missing |= {(stem, c) for c in s if ord(c) not in cmap(path)}
    assert not missing


def test_japanese_pictures_hold_japanese_words_and_no_english(japanese) -> None:
    words = [(stem, s) for stem, _w, calls in japanese for s, _size, _b in calls
             if ENGLISH_WORD.search(s)]
    assert not words
    assert any(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", s)
               for _stem, _w, calls in japanese for s, _size, _b in calls)


def test_the_bundled_japanese_font_is_small() -> None:
    total = sum(p.stat().st_size for p in theme.FONT_DIR.iterdir())
    assert total < 1_000_000


def test_covers_knows_the_subset() -> None:
    assert theme.covers("第1ラウンド・持ち点")
    assert not theme.covers("\u9f98")  # a kanji no catalogue uses


def test_gallery_writes_both_languages_and_phone_copies(tmp_path) -> None:
    gallery.write(tmp_path, ["varanasi"], gallery.LANGUAGES, phone=True)
    for language in ("en", "ja"):
        phone = sorted((tmp_path / "phone" / language).glob("*.png"))
        assert phone
        with Image.open(phone[0]) as im:
            assert im.width == gallery.PHONE_WIDTH
    assert sorted(p.name for p in (tmp_path / "ja").glob("*.png")) == sorted(
        p.name for p in tmp_path.glob("*.png"))
