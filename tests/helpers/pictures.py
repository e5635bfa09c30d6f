"""Checks shared by the picture tests."""

from __future__ import annotations

import io
from collections.abc import Callable
from importlib import import_module
from types import ModuleType

from PIL import Image

import renderers
from renderers.gallery import play


def decode_png(png: bytes, width: tuple[int, int], height: tuple[int, int],
               max_bytes: int = 150_000) -> Image.Image:
    """The picture as RGB, after checking it is a PNG of a sensible size that is not blank."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) < max_bytes
    img = Image.open(io.BytesIO(png))
    img.load()
    assert width[0] <= img.width <= width[1]
    assert height[0] <= img.height <= height[1]
    rgb = img.convert("RGB")
    colours = rgb.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 20, "picture looks blank"
    return rgb


def check_game_over_picture(game: str, players: int, options: dict | None, seed: int,
                            check: Callable[[bytes], object]) -> None:
    """A seeded random game to the end: its game-over picture passes `check`, is the one the
    renderers' dispatcher draws, and changes when the result is reversed."""
    eng, state, _ = play(game, players, options, seed)
    outcome = eng.outcome(state)
    assert outcome is not None
    view = eng.view(state, None)
    render = import_module(f"renderers.{game}").render_game_over
    data = render(view, outcome)
    check(data)
    assert renderers.render_game_over(game, view, outcome) == data
    reversed_result = {"scores": outcome["scores"][::-1], "ranks": outcome["ranks"][::-1]}
    assert render(view, reversed_result) != data


def clear_caches(modules: list[ModuleType]) -> None:
    """Forget cached sprites (badges, cards) and layers (theme.layers) so that their text is
    drawn, and recorded, again."""
    for mod in modules:
        for value in vars(mod).values():
            if isinstance(value, type):  # a cache's class, not a cache
                continue
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()
