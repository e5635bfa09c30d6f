"""Senet pictures: decodable, sized, not blank, following the position and the last move."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import renderers
from engines import get_engine
from renderers import senet as R
from renderers.gallery import has, play
from tests.helpers.pictures import check_game_over_picture


def check_picture(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    assert 800 <= im.width <= 1200
    assert 300 <= im.height <= 1000
    colours = im.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 40, "picture looks blank"
    assert len(data) < 150 * 1024
    return im


def first(stop, seeds=range(1, 80)):
    for seed in seeds:
        eng, state, events = play("senet", 2, None, seed, stop)
        view = eng.view(state, None)
        if events and stop(state, view, events):
            return view, events
    pytest.skip("no seeded game reached that moment")


def test_start_position() -> None:
    eng = get_engine("senet")
    view = eng.view(eng.new(2), None)
    data = R.render_board(view, [])
    check_picture(data)
    assert renderers.render("senet", view, []) == data


@pytest.mark.parametrize("kind", ["throw", "move", "swap", "drown", "bear_off",
                                  "water_return", "water_fail", "pass", "extra_throw"])
def test_every_event_draws(kind) -> None:
    view, events = first(lambda s, v, e: has(e, kind))
    check_picture(R.render_board(view, events))


def test_water_choice() -> None:
    view, events = first(lambda s, v, e: v["phase"] == "water")
    check_picture(R.render_board(view, events))


def test_last_move_is_drawn() -> None:
    view, events = first(lambda s, v, e: has(e, "move"))
    assert R.render_board(view, events) != R.render_board(view, [])


def test_picture_follows_the_position() -> None:
    eng = get_engine("senet")
    view = eng.view(eng.new(2), None)
    before = R.render_board(view, [])
    moved = dict(view, board="BWBWBWBW.WB" + "." * 19)
    assert R.render_board(moved, []) != before
    assert R.render_board(dict(view, off=[1, 0]), []) != before
    assert R.render_board(dict(view, phase="move", throw=3), []) != before


def test_throw_shown() -> None:
    eng = get_engine("senet")
    view = eng.view(eng.new(2), None)
    assert R._throw_of(dict(view, phase="move", throw=4), [])[0] == 4
    assert R._throw_of(view, [{"type": "throw", "seat": 0, "value": 5, "water": False}])[0] == 5
    ev = [{"type": "move", "seat": 1, "from": 9, "to": 12, "backward": False}]
    assert R._throw_of(view, ev)[0] == 3
    assert R._throw_of(view, [{"type": "bear_off", "seat": 0, "from": 29, "throw": 2}])[0] == 2
    assert R._throw_of(view, [])[0] is None


def test_reverse_s_layout() -> None:
    assert R.square_box(11)[0] == R.square_box(10)[0]  # 11 under 10
    assert R.square_box(11)[1] > R.square_box(10)[1]
    assert R.square_box(20)[0] == R.square_box(1)[0] == R.square_box(21)[0]
    assert R.square_box(30)[0] == R.square_box(10)[0]


def test_game_over() -> None:
    check_game_over_picture("senet", 2, None, 3, check_picture)
