"""Cows and Leopards pictures: both boards, every kind of last move, the end of the game;
every picture decodes, has a sensible size, is not blank and follows the position."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import Image

from engines import get_engine
from engines.cows_leopards import board as board_data
from renderers import cows_leopards
from tests.helpers.pictures import decode_png
from tests.helpers.playout import play_events_until

ENG = get_engine("cows_leopards")


def decode(png: bytes) -> Image.Image:
    return decode_png(png, (800, 1200), (600, 1200))


def play(board: str, seed: int, stop=None, options: dict[str, Any] | None = None,
         limit: int = 3000):
    """A seeded random game on `board`; stops after the first move whose events satisfy
    `stop` (or at the end). Returns (state, events of the last move)."""
    state = ENG.new(2, {"board": board, **(options or {})})
    return play_events_until(ENG, state, random.Random(seed), stop, limit)


def first(kind: str, seat: int | None = None):
    return lambda state, events: events[0]["type"] == kind and (
        seat is None or events[0]["seat"] == seat)


def render(state, events) -> Image.Image:
    return decode(cows_leopards.render_board(ENG.view(state, None), events))


@pytest.mark.parametrize("board", ["A", "B"])
def test_every_kind_of_move_on_both_boards(board: str) -> None:
    sizes = set()
    for kind, seat in (("drop", 0), ("drop", 1), ("step", 0), ("step", 1), ("jump", 1)):
        state, events = play(board, 11, first(kind, seat))
        assert events[0]["type"] == kind
        img = render(state, events)
        sizes.add(img.size)
        # the highlight of the last move is drawn: without the events the picture differs
        plain = render(state, [])
        assert plain.tobytes() != img.tobytes()
    assert len(sizes) == 1


def test_board_a_is_narrower_than_board_b() -> None:
    a = render(*play("A", 1, first("drop")))
    b = render(*play("B", 1, first("drop")))
    assert a.width < b.width
    assert a.height == b.height


def test_the_board_is_drawn_from_the_engine_data() -> None:
    for board_id in ("A", "B"):
        data = board_data(board_id)
        lay = cows_leopards._layout(board_id)
        assert set(lay.coords) == set(data["points"])
        assert len(lay.lines) == len(data["lines"])
        # every point lies on some face, and faces only use lines of the board
        pairs = {frozenset(p) for p in data["lines"]}
        faces = lay.faces()
        assert {p for f in faces for p in f} == set(data["points"])
        for face in faces:
            for a, b in zip(face, face[1:] + face[:1], strict=True):
                assert frozenset((a, b)) in pairs


def test_picture_follows_the_position() -> None:
    state, events = play("B", 2, first("step", 0))
    view = ENG.view(state, None)
    a = cows_leopards.render_board(view, [])
    moved = dict(view, cows=sorted(view["cows"][1:]), captured=view["captured"] + 1)
    b = cows_leopards.render_board(moved, [])
    c = cows_leopards.render_board(dict(view, to_act=[1 - view["to_act"][0]]), [])
    d = cows_leopards.render_board(dict(view, hand={"cows": 0, "leopards": 1}), [])
    assert len({a, b, c, d}) == 4


def test_hand_written_start_position() -> None:
    view = {
        "game": "cows_leopards",
        "options": {"players": 2, "board": "B", "captures": 8, "leopard_deadline": True,
                    "quiet_limit": 100},
        "cows": ["d4", "e4"], "leopards": ["e5"], "hand": {"cows": 22, "leopards": 1},
        "captured": 0, "turn": 1, "quiet": 0, "phase": "play", "to_act": [1],
    }
    decode(cows_leopards.render_board(view, [{"type": "drop", "seat": 0, "point": "e4"}]))
    decode(cows_leopards.render_board(ENG.view(ENG.new(2, {"board": "A"}), None), []))


TRAPPED = {
    "game": "cows_leopards",
    "options": {"players": 2, "board": "B", "captures": 20, "leopard_deadline": False,
                "quiet_limit": 100},
    "cows": ["a3", "a7", "b5", "c5", "g5", "h5", "i3", "i7"],
    "leopards": ["a5", "i5"],
    "hand": {"cows": 0, "leopards": 0},
    "captured": 16, "turn": 1, "quiet": 5, "phase": "over", "to_act": [],
}


def test_game_over_pictures_say_who_won() -> None:
    state, events = play("A", 4, None, {"captures": 3})
    assert ENG.outcome(state) is not None and events[-1]["type"] == "game_over"
    view = ENG.view(state, None)
    over = decode(cows_leopards.render_game_over(view, ENG.outcome(state)))
    last = decode(cows_leopards.render_board(view, events))
    assert over.tobytes() != last.tobytes()
    # leopards trapped: the reason comes from the engine when the outcome lacks it
    outcome = ENG.outcome(ENG.load(TRAPPED))
    assert outcome == {"scores": [1, 0], "ranks": [1, 2]}
    cows_win = decode(cows_leopards.render_game_over(TRAPPED, outcome))
    leopards_win = decode(cows_leopards.render_game_over(
        TRAPPED, {"scores": [0, 1], "ranks": [2, 1], "reason": "cows_stuck"}))
    draw = decode(cows_leopards.render_game_over(
        TRAPPED, {"scores": [0.5, 0.5], "ranks": [1, 1], "reason": "quiet"}))
    assert len({cows_win.tobytes(), leopards_win.tobytes(), draw.tobytes()}) == 3
    # a view the engine cannot load still gives the plain result
    odd = dict(TRAPPED, captured=99)
    decode(cows_leopards.render_game_over(odd, outcome))


def test_quiet_draw_from_a_real_game() -> None:
    for seed in range(60):
        state, events = play("B", seed, None, {"quiet_limit": 10, "captures": 20})
        if ENG.end_reason(state) == "quiet":  # type: ignore[attr-defined]
            break
    else:
        pytest.skip("no quiet draw in these seeds")
    view = ENG.view(state, None)
    decode(cows_leopards.render_board(view, events))
    decode(cows_leopards.render_game_over(view, ENG.outcome(state)))


def test_many_captures_to_reach() -> None:
    state, events = play("B", 3, first("jump"), {"captures": 24})
    render(state, events)
