"""The shared pieces every game picture uses: text, badges, arrows and the PNG encoder."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageStat

import renderers
from engines import get_engine
from renderers import gallery, theme


def near(a: tuple[int, ...], b: tuple[int, ...], levels: int = 8) -> bool:
    return all(abs(x - y) <= levels for x, y in zip(a, b, strict=True))


def test_to_png_is_a_small_palette_png_with_the_real_colours() -> None:
    img, d = theme.canvas(600, 400)
    theme.panel(d, (20, 20, 580, 380))
    d.rectangle((100, 100, 300, 200), fill=theme.HIGHLIGHT)
    d.line((50, 300, 550, 300), fill=theme.DANGER, width=2)
    data = theme.to_png(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out = Image.open(io.BytesIO(data))
    assert out.mode == "P" and out.size == img.size
    rgb = out.convert("RGB")
    for xy in ((200, 150), (300, 300), (5, 5), (40, 350)):  # the thin red line too
        assert near(rgb.getpixel(xy), img.getpixel(xy))


def test_text_returns_its_box_and_draws_inside_it() -> None:
    img, d = theme.canvas(300, 100)
    box = theme.text(d, (150, 50), "12", 40, theme.INK, bold=True, anchor="mm")
    x0, y0, x1, y1 = box
    assert x0 < 150 < x1 and y0 < 50 < y1
    assert img.crop(box).getcolors(1 << 16) != [((x1 - x0) * (y1 - y0), theme.BACKGROUND)]
    assert theme.text(d, (150, 50), "12", 40, theme.INK, bold=True, anchor="mm") == box


def test_seat_badges_are_cached_and_ringed() -> None:
    img, d = theme.canvas(200, 100)
    theme.seat_badge(d, (50, 50), 0, 40)
    theme.seat_badge(d, (150, 50), 0, 40, ring=theme.HIGHLIGHT)
    assert img.getpixel((50, 30)) != theme.BACKGROUND
    assert near(img.getpixel((150, 27)), theme.HIGHLIGHT)
    theme._badge.cache_clear()
    theme.seat_badge(d, (50, 50), 1, 40)
    theme.seat_badge(d, (50, 50), 1, 40)
    assert theme._badge.cache_info().hits == 1


def test_arrows_straight_bent_and_along_a_curve() -> None:
    img, d = theme.canvas(400, 300)
    theme.arrow(d, (40, 250), (360, 250))
    assert img.getpixel((200, 250)) == theme.HIGHLIGHT
    assert img.getpixel((200, 246)) == theme.INK_DARK  # the edge
    theme.arrow(d, (40, 150), (360, 150), theme.GOOD, bend=40, outline=None)
    assert img.getpixel((200, 110)) == theme.GOOD  # pushed 40 px left of travel: up
    assert img.getpixel((200, 150)) == theme.BACKGROUND
    theme.arrow(d, (40, 60), (360, 60), theme.DANGER, via=((40, 0), (360, 0)))
    mid = theme.bezier((40, 60), (40, 0), (360, 0), (360, 60), steps=2)[1]
    assert img.getpixel((round(mid[0]), round(mid[1]))) == theme.DANGER
    a, b = theme.shorten((0, 0), (100, 0), 10, 20)
    assert a == (10, 0) and b == (80, 0)


def test_palette_png_keeps_every_pixel_at_about_pillows_size() -> None:
    """The fast encoder writes the same picture Pillow's encoder would, no more than a tenth
    larger: a real board (every colour and anti-aliased edge) read back pixel for pixel."""
    board = renderers.render("senet", get_engine("senet").view(get_engine("senet").new(2), None))
    with Image.open(io.BytesIO(board)) as im:
        im.verify()
    indexed = Image.open(io.BytesIO(board))
    indexed.load()
    pillow = io.BytesIO()
    indexed.save(pillow, format="PNG", compress_level=3)
    ours = theme.palette_png(indexed)
    assert ours == board
    again = Image.open(io.BytesIO(ours))
    assert again.mode == "P" and again.size == indexed.size
    assert again.convert("RGB").tobytes() == indexed.convert("RGB").tobytes()
    assert len(ours) <= 1.1 * len(pillow.getvalue())


def test_every_sample_picture_keeps_its_colours_in_the_shared_palette() -> None:
    """One palette serves every picture: each sample picture of each game in both languages,
    mapped to it, is within a few levels of what was drawn (anti-aliased edges included), and
    the theme's own colours are exact. Fails when a picture gains colours the shipped palette
    lacks: remake it with `python -m renderers.gallery --palette`."""
    with theme.collecting() as pictures:
        for language in gallery.LANGUAGES:
            for _ in gallery.samples(None, language):
                pass
    palette = theme.shared_palette()
    assert len(pictures) > 100
    for picture in pictures:
        mapped = picture.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        diff = ImageChops.difference(picture, mapped)
        assert sum(ImageStat.Stat(diff).mean) / 3 < 2.0
        off = diff.convert("L").point(lambda v: 255 if v > 8 else 0).histogram()[255]
        assert off <= 0.015 * picture.width * picture.height
    colours = {tuple(palette.getpalette("RGB")[i:i + 3]) for i in range(0, 768, 3)}
    assert set(theme._KEY_COLOURS) <= colours
