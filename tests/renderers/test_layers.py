"""Cached layers (renderers.theme.layer): a picture drawn from them has exactly the pixels of
the picture drawn in place, in every language, whatever was drawn before; and the cache
stays within its budget."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PIL import Image

from renderers import gallery, senet, theme
from renderers.bounded import Bounded

GAMES = ["senet", "six_nimmt", "cows_leopards", "varanasi"]
LANGUAGES = ("en", "ja")


Pixels = tuple[tuple[int, int], bytes]  # size and RGB bytes


@pytest.fixture
def pictures(monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[Pixels]]:
    """draw(case, language) -> the pixels of the picture the case would encode."""
    seen: list[Pixels] = []

    def record(image: Image.Image) -> bytes:
        seen.append((image.size, image.convert("RGB").tobytes()))
        return b""  # nothing decodes it (reviews and puzzles, which do, are left out)

    monkeypatch.setattr(theme, "to_png", record)
    gettexts = {language: gallery.catalogue_gettext(language) for language in LANGUAGES}

    def draw(case: Callable[[], bytes], language: str) -> list[Pixels]:
        seen.clear()
        with theme.translating(gettexts[language]):
            case()
        return list(seen)

    return draw


def test_pictures_from_layers_have_the_pixels_of_pictures_drawn_in_place(
        pictures: Callable[..., list[Pixels]]) -> None:
    # the boards, hands and game-over pictures (reviews and puzzles draw the same boards)
    cases = [(stem, case) for stem, case in gallery.cases(GAMES)
             if "review" not in stem and "puzzle" not in stem]
    assert {stem.split("_")[0] for stem, _ in cases} >= {"senet", "six", "cows", "varanasi"}
    with theme.drawing_in_place():
        reference = {(language, stem): pictures(case, language)
                     for language in LANGUAGES for stem, case in cases}
    theme.layers.cache_clear()
    # first with the layers drawn afresh, then from the cache after every other game and
    # language drew its own (a key missing the language or a count would show here)
    for _ in range(2):
        for language in LANGUAGES:
            for stem, case in cases:
                assert pictures(case, language) == reference[language, stem], (language, stem)
    assert theme.layers.entries


def test_the_language_is_part_of_a_layer(pictures: Callable[..., list[Pixels]]) -> None:
    """The Senet board (its title in a layer) in English, then in Japanese from a warm
    cache: the title strips differ, so the Japanese board did not get the English layer."""
    case = dict(gallery.cases(["senet"]))["senet_move"]
    theme.layers.cache_clear()
    strips = []
    for language in ("en", "ja"):
        (size, data), = pictures(case, language)
        strips.append(Image.frombytes("RGB", size, data).crop((0, 0, senet.WIDTH, 64)))
    assert strips[0].tobytes() != strips[1].tobytes()


def test_layers_stay_within_their_budget() -> None:
    piece = (Image.new("RGB", (10, 10)), (0, 0))
    layers = Bounded(2 * 10 * 10 * 4, theme._nbytes)
    layers.put("a", piece)
    layers.put("b", piece)
    assert layers.get("a") == (True, piece)  # now "b" is the least recently used
    layers.put("c", piece)
    assert layers.bytes <= layers.budget
    assert layers.get("b") == (False, None)
    assert layers.get("a")[0] and layers.get("c")[0]
    layers.cache_clear()
    assert layers.bytes == 0 and not layers.entries
