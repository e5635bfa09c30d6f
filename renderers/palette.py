"""The one palette every picture is drawn in or mapped to, and its PNG encoding.

`shared_palette()` (renderers/palette.png, made by `python -m renderers.gallery --palette`);
`palette_index(colour)`, the palette index a colour maps to; `PaletteDraw`, Pillow's drawing
on a picture in that palette (what `theme.palette_canvas` gives), and `blend`, which draws an
anti-aliased piece onto it in colour over the piece's box only; `indexed(image)`; and
`palette_png`, a palette picture as a PNG, fast. `collecting()` and `drawing_in_colour()`
draw in exact colours instead (to make the palette; to compare). No theme colours here:
renderers/theme.py builds on this.
"""

from __future__ import annotations

import contextvars
import struct
import threading
import zlib
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from isal import isal_zlib
from PIL import Image, ImageDraw

from renderers.bounded import Bounded

Ink = float | tuple[int, ...] | str  # a colour as Pillow's drawing takes it


# Every picture is mapped to one palette (renderers/palette.png, made by `python -m
# renderers.gallery --palette`): the octree's 256 colours for a sample of every sample picture
# of every game in both languages plus the key colours. Pillow keeps its nearest-colour cache
# on the palette, so a palette chosen per picture started that cache cold each time: 2.5 ms
# more per board than mapping to one kept palette, for colours within a level or two.
PALETTE_FILE = Path(__file__).with_name("palette.png")
_kept = threading.local()  # Pillow fills that cache without the GIL: one palette per thread
_collected: contextvars.ContextVar[list[Image.Image] | None] = contextvars.ContextVar(
    "collected", default=None)
_in_colour: contextvars.ContextVar[bool] = contextvars.ContextVar("in_colour", default=False)


def exact_colours() -> bool:
    """Whether pictures are drawn in exact colours now (inside `collecting()` or
    `drawing_in_colour()`), not in the shared palette."""
    return _in_colour.get() or _collected.get() is not None


@contextmanager
def drawing_in_colour() -> Iterator[None]:
    """Draw every picture inside the block in RGB, mapped to the palette only by `to_png`
    (to compare with drawing on `theme.palette_canvas`)."""
    token = _in_colour.set(True)
    try:
        yield
    finally:
        _in_colour.reset(token)


def shared_palette() -> Image.Image:
    """The palette every picture is mapped to (a "P" image; this thread's copy)."""
    palette = getattr(_kept, "palette", None)
    if palette is None:
        with Image.open(PALETTE_FILE) as im:
            im.load()
            palette = _kept.palette = im.copy()
    return palette


@contextmanager
def collecting() -> Iterator[list[Image.Image]]:
    """A sample of each picture `to_png` encodes inside the block (for `palette_of`); inside
    it `to_png` writes the exact colours (an RGB PNG)."""
    samples: list[Image.Image] = []
    token = _collected.set(samples)
    try:
        yield samples
    finally:
        _collected.reset(token)


def collected() -> list[Image.Image] | None:
    """The samples of the `collecting()` block we are in, if any."""
    return _collected.get()


def drawer(img: Image.Image) -> ImageDraw.ImageDraw:
    """A drawer for `img` (a `PaletteDraw` for a palette picture)."""
    return PaletteDraw(img) if img.mode == "P" else ImageDraw.Draw(img)


def indexed(img: Image.Image) -> Image.Image:
    """`img` (RGB) mapped to the shared palette, as `to_png` maps it: a cached piece to
    paste onto a `theme.palette_canvas` as it is."""
    return img.convert("RGB").quantize(palette=shared_palette(), dither=Image.Dither.NONE)


class PaletteDraw(ImageDraw.ImageDraw):
    """Draws on a picture in the shared palette: each colour (r, g, b) becomes the palette
    index that mapping the RGB picture would give it. Pillow's shapes are not anti-aliased,
    so they come out as if drawn in RGB and mapped; what is anti-aliased (text, sprites,
    arrows) goes through `blend`."""

    def _getink(self, ink: Ink | None, fill: Ink | None = None
                ) -> tuple[int | None, int | None]:
        return super()._getink(_index_of(ink), _index_of(fill))


def _index_of(colour: Ink | None) -> Ink | None:
    return palette_index(colour[:3]) if isinstance(colour, tuple) else colour


@lru_cache(maxsize=1024)
def palette_index(colour: tuple[int, ...]) -> int:
    """The index of the shared palette that `to_png` maps `colour` (r, g, b) to."""
    dot = Image.new("RGB", (1, 1), colour[:3])
    mapped = dot.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    return int(mapped.getpixel((0, 0)))  # type: ignore[arg-type]


def blend(target: Image.Image, box: tuple[int, int, int, int],
           paint: Callable[[Image.Image, int, int], None],
           source: tuple[Image.Image, Hashable] | None = None) -> None:
    """Anti-aliased drawing on a palette picture: the pixels of `box` in colour, then
    `paint(patch, x0, y0)` (the patch's top-left is (x0, y0) of `target`) and back to the
    palette. Only the box is mapped, not the whole picture. `source` (a cached sprite or
    text mask, and its colour) is what `paint` draws: the result is cached by what was under
    it (a stone on its square, a label on its panel come back every move)."""
    x0, y0 = max(0, box[0]), max(0, box[1])
    x1, y1 = min(target.width, box[2]), min(target.height, box[3])
    if x0 >= x1 or y0 >= y1:
        return
    # Pillow's own crop and paste, without its wrappers: on a cache hit they cost more than
    # the copying itself
    inside = (x0, y0, x1, y1)
    key = None
    if source is not None:
        low, high = target.im.crop(inside).getextrema()
        plain = low if low == high else target.crop(inside).tobytes()
        key = (id(source[0]), source[1], x0 - box[0], y0 - box[1], x1 - x0, y1 - y0, plain)
        _, found = blended.get(key)
        if found is not None and found[0] is source[0]:
            target.im.paste(found[1].im, inside)
            return
    patch = target.crop(inside)
    coloured = patch.convert("RGB")
    paint(coloured, x0, y0)
    mapped = coloured.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    target.paste(mapped, (x0, y0))
    if source is not None and key is not None:
        blended.put(key, (source[0], mapped))


def _blend_size(entry: tuple[Image.Image, Image.Image]) -> int:
    result = entry[1]
    return 2 * result.width * result.height  # the key's pixels and the result's


BLENDED_BYTES = 16 << 20
# Blends by (source, its clipping, the pixels under it). The source is kept with its result,
# so a key whose id() was reused by another image never matches.
blended: Bounded[tuple[Image.Image, Image.Image]] = Bounded(BLENDED_BYTES, _blend_size)


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(image: Image.Image) -> bytes:
    """An 8-bit palette PNG of a "P" image, compressed by ISA-L's deflate (isal): Pillow's
    own encoder (zlib level 3, adaptive filters) took 2-3 ms of a board's 4-5 ms to encode;
    this takes 0.3 ms for a file within a few per cent of its size. Rows are unfiltered:
    for palette pictures PNG recommends no filter."""
    width, height = image.size
    # Each row starts with its filter type, 0: the picture one column wider, its first 0s.
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(image, (1, 0))
    rows = framed.tobytes()
    colours = bytes(image.getpalette("RGB") or [0, 0, 0])[:768]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indexed colour
    return b"".join((_PNG_SIGNATURE, _png_chunk(b"IHDR", header), _png_chunk(b"PLTE", colours),
                     _png_chunk(b"IDAT", isal_zlib.compress(rows, 1)),
                     _png_chunk(b"IEND", b"")))
