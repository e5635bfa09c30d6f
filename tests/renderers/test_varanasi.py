"""Varanasi pictures: every picture decodes, has a sensible size, is not blank, follows the
position, and copes with every option that changes the drawing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import Image

from engines import get_engine
from renderers import varanasi
from tests.engines.test_varanasi import EXAMPLE
from tests.helpers.pictures import decode_png
from tests.helpers.playout import play_events_until

ENG = get_engine("varanasi")


def decode(png: bytes) -> Image.Image:
    return decode_png(png, (800, 1200), (400, 1400))


def play(players: int, options: dict[str, Any] | None, seed: int, stop=None, limit: int = 2000):
    """A seeded random game; stops after the first move whose events satisfy `stop`, or at
    the end. Returns (state, events of the last move)."""
    return play_events_until(ENG, ENG.new(players, options), random.Random(seed), stop, limit)


def kinds(events: list[dict]) -> set[str]:
    return {e["type"] for e in events}


def board(state, events) -> Image.Image:
    return decode(varanasi.render_board(ENG.view(state, None), events))


HAND = {**EXAMPLE, "to_act": [1]}  # the rule file's example position, as a view


def test_hand_written_position_and_its_events() -> None:
    board_png = varanasi.render_board(HAND, [])
    img = decode(board_png)
    take = [{"type": "take", "seat": 0, "colour": "r", "discs": [[4, "r2"], [5, "r1"]]}]
    assert varanasi.render_board(HAND, take) != board_png
    moved = dict(HAND, towers=["b4r3", "", "r4g3b3b2", "", "", "g4g2"])
    move = [{"type": "move", "seat": 0, "from": 2, "count": 2, "to": 3, "discs": ["b3", "b2"]}]
    decode(varanasi.render_board(moved, move))
    assert img.size == decode(varanasi.render_board(HAND, take)).size


def test_picture_follows_the_position() -> None:
    a = varanasi.render_board(HAND, [])
    b = varanasi.render_board(dict(HAND, towers=["b4r3", "b3b2", "r4g3", "", "", "g4g2"]), [])
    c = varanasi.render_board(dict(HAND, scores=[3, 0]), [])
    d = varanasi.render_board(dict(HAND, to_act=[0], turn=0), [])
    assert len({a, b, c, d}) == 4


def test_moves_and_takes_from_real_games() -> None:
    seen: set[str] = set()
    for seed in range(6):
        state, events = play(2, None, seed, stop=lambda s, ev: "move" in kinds(ev))
        if "move" in kinds(events):
            board(state, events)
            seen.add("move")
        state, events = play(2, None, seed, stop=lambda s, ev: "take" in kinds(ev))
        board(state, events)
        seen.add("take")
    assert seen == {"move", "take"}


def test_between_sets_shows_the_set_result() -> None:
    state, events = play(2, {"sets": 3}, 1, stop=lambda s, ev: "set_end" in kinds(ev))
    assert "set_end" in kinds(events)
    view = ENG.view(state, None)
    assert view["towers"] == []
    with_result = decode(varanasi.render_board(view, events))
    without = decode(varanasi.render_board(view, []))
    assert with_result.tobytes() != without.tobytes()
    # the next set's first picture, right after chance set the towers up
    state, events = play(2, {"sets": 3}, 1,
                         stop=lambda s, ev: "setup" in kinds(ev) and s_set(s) == 2)
    board(state, events)


def s_set(state) -> int:
    return ENG.view(state, None)["set"]


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"colours": 6}),
        (3, {"colours": 4, "weighted": True}),
        (4, {"teams": True, "colours": 6, "team_scoring": "sum"}),
        (4, {"teams": False, "colours": 5, "scoring": "last_take"}),
        (2, {"misere": True, "height_rule": "before", "target": 10}),
    ],
)
def test_options_that_change_the_drawing(players: int, options: dict[str, Any]) -> None:
    state, events = play(players, options, 7, stop=lambda s, ev: len(s_taken(s)) >= 4)
    img = board(state, events)
    state, events = play(players, options, 7)  # to the end of the match
    view = ENG.view(state, None)
    assert view["phase"] == "over"
    assert "game_over" in kinds(events)
    decode(varanasi.render_board(view, events))
    over = decode(varanasi.render_game_over(view, ENG.outcome(state)))
    assert over.size != img.size or over.tobytes() != img.tobytes()


def s_taken(state) -> list[str]:
    return [d for seat in ENG.view(state, None)["taken"] for d in seat]


def test_teams_change_the_picture() -> None:
    four = dict(HAND, options=dict(HAND["options"], players=4, colours=5),
                taken=[["r1"], ["b1"], [], []], scores=[4, 2, 3, 0])
    teams = dict(four, options=dict(four["options"], teams=True))
    a, b = varanasi.render_board(four, []), varanasi.render_board(teams, [])
    assert decode(a).tobytes() != decode(b).tobytes()
    outcome = {"scores": [4, 2, 3, 0], "ranks": [1, 2, 1, 2]}
    ga = decode(varanasi.render_game_over(four, {"scores": [4, 2, 3, 0], "ranks": [1, 3, 2, 4]}))
    gb = decode(varanasi.render_game_over(teams, outcome))
    assert ga.tobytes() != gb.tobytes()


def test_game_over_ranks_and_ties() -> None:
    view = dict(HAND, phase="over", towers=["", "", "", "", "", ""], scores=[5, 5])
    decode(varanasi.render_game_over(view, {"scores": [5, 5], "ranks": [1, 1]}))
    decode(varanasi.render_game_over(view, {"scores": [5, 5]}))  # ranks missing


def test_many_spots_wrap_into_rows() -> None:
    towers = ["r4", "b4", "g4", "y4", "w4", "k4", "r3", "b3", "g3", "y3", "w3", "k3",
              "r2", "b2", "g2", "y2", "w2", "k2", "r1", "b1", "g1", "y1", "w1", "k1"]
    opts = dict(HAND["options"], players=4, colours=6)
    view = dict(HAND, options=opts, towers=towers, taken=[[], [], [], []], scores=[0] * 4)
    move = [{"type": "move", "seat": 0, "from": 24, "count": 1, "to": 1, "discs": ["k1"]}]
    tall = decode(varanasi.render_board(dict(view, towers=["r4k1"] + towers[1:23] + [""]),
                                        move))
    short = decode(varanasi.render_board(HAND, []))
    assert tall.height > short.height


def test_setup_phase_and_odd_events_do_not_break() -> None:
    view = ENG.view(ENG.new(2, None), None)
    decode(varanasi.render_board(view, []))
    decode(varanasi.render_board(HAND, [{"type": "something_new"}, {"type": "setup",
                                                                    "set": 1, "towers": []}]))
