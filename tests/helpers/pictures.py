"""Checks shared by the picture tests."""

from __future__ import annotations

import io

from PIL import Image


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
