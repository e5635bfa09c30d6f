"""6 nimmt! pictures: decodable, sized, not blank, private hands stay private, and they follow
the position."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image

import renderers
from renderers import six_nimmt as R
from renderers.gallery import has, play
from tests.helpers.pictures import check_game_over_picture


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def check_picture(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = decode(data)
    assert 800 <= im.width <= 1200
    assert 300 <= im.height <= 1800  # 10 logical hands, one legible line each
    colours = im.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 40, "picture looks blank"
    assert len(data) < 150 * 1024
    return im


def took(state, view, events) -> bool:
    return has(events, "reveal") and has(events, "take") and view["phase"] == "pick"


@pytest.fixture(scope="module")
def after_take():
    eng, state, events = play("six_nimmt", 5, {}, 12, took)
    assert has(events, "reveal") and has(events, "take")
    return eng, state, events


def test_table_after_a_take(after_take) -> None:
    eng, state, events = after_take
    check_picture(R.render_table(eng.view(state, None), events))
    check_picture(R.render_board(eng.view(state, None), []))
    check_picture(renderers.render("six_nimmt", eng.view(state, None), events))


def test_reveal_shows_every_pick(after_take) -> None:
    eng, state, events = after_take
    view = eng.view(state, None)
    played = R.turn_cards(view, events)
    reveal = next(e for e in events if e["type"] == "reveal")
    assert [[p.card, p.seat] for p in played] == reveal["cards"]
    assert {p.kind for p in played} <= {"place", "take"}
    for p in played:
        if p.kind == "take":
            assert p.taken and p.bulls == sum(R.bullheads(c) for c in p.taken)
    check_picture(R.render_reveal(view, events))
    # without a reveal the reveal picture falls back to the table
    assert R.render_reveal(view, []) == R.render_table(view, [])


def test_choice_pending_is_drawn() -> None:
    eng, state, events = play("six_nimmt", 4, {"professional": True}, 3,
                              lambda s, v, e: v["phase"] in ("take", "side"))
    view = eng.view(state, None)
    assert view["phase"] in ("take", "side")
    played = R.turn_cards(view, events)
    assert any(p.kind == "choose" and p.card == view["pending"]["card"] for p in played)
    check_picture(R.render_table(view, events))


@pytest.mark.parametrize("options", [{}, {"professional": True}, {"cards": "logical"},
                                     {"cards": "tactical"}])
@pytest.mark.parametrize("players", [2, 10])
def test_options_and_seat_counts(options, players) -> None:
    if options.get("cards") == "logical" and players == 10:
        options = {**options, "points": 20}
    eng, state, events = play("six_nimmt", players, options, 5,
                              lambda s, v, e: has(e, "reveal"))
    check_picture(R.render_table(eng.view(state, None), events))
    check_picture(R.render_hand(eng.view(state, players - 1), players - 1))


def test_before_the_deal_and_during_the_draft() -> None:
    eng = R_engine()
    check_picture(R.render_table(eng.view(eng.new(3, {}), None), []))
    e2, state, events = play("six_nimmt", 3, {"cards": "logical"}, 1,
                             lambda s, v, e: v["phase"] == "draft" and len(v["pool"]) < 25)
    view = e2.view(state, None)
    assert view["phase"] == "draft"
    check_picture(R.render_table(view, events))


def R_engine():
    from engines import get_engine

    return get_engine("six_nimmt")


def test_picture_follows_the_position(after_take) -> None:
    eng, state, events = after_take
    view = eng.view(state, None)
    before = R.render_table(view, events)
    changed = copy.deepcopy(view)
    changed["points"][0] -= 5
    assert R.render_table(changed, events) != before
    changed = copy.deepcopy(view)
    changed["rows"][0] = changed["rows"][0][:1]
    assert R.render_table(changed, events) != before
    assert R.render_table(view, []) != before  # the turn strip goes away


def test_hand_shows_only_that_seat() -> None:
    eng, state, _ = play("six_nimmt", 4, {}, 9,
                         lambda s, v, e: v["phase"] == "pick" and v["picked"][0] is not None)
    own = eng.view(state, 0)
    assert own["hands"][1] is None
    data = R.render_hand(own, 0)
    check_picture(data)
    # The hand picture depends on that seat's cards only: filling in other hands (as a
    # leaky view would) draws exactly the same picture.
    leaky = copy.deepcopy(own)
    for s in range(1, 4):
        leaky["hands"][s] = [c for c in range(1, 105) if c not in own["hands"][0]][:5]
        leaky["picked"][s] = 50 + s
    assert R.render_hand(leaky, 0) == data
    # ... while its own cards do change it
    mine = copy.deepcopy(own)
    mine["hands"][0] = own["hands"][0][:-1]
    assert R.render_hand(mine, 0) != data
    # a view without that hand is refused
    with pytest.raises(ValueError):
        R.render_hand(eng.view(state, None), 0)
    with pytest.raises(ValueError):
        R.render_hand(own, 1)
    with pytest.raises(ValueError):
        R.render_hand(own, 7)


def test_logical_hand_ignores_public_hands() -> None:
    eng, state, _ = play("six_nimmt", 3, {"cards": "logical"}, 2,
                         lambda s, v, e: v["phase"] == "pick")
    view = eng.view(state, 1)
    assert all(h is not None for h in view["hands"])  # drafted face up: public
    changed = copy.deepcopy(view)
    changed["hands"][0] = changed["hands"][0][:3]
    assert R.render_hand(changed, 1) == R.render_hand(view, 1)


def test_game_over() -> None:
    check_game_over_picture("six_nimmt", 6, {"points": 20}, 4, check_picture)


def test_bullhead_cards_are_distinct() -> None:
    from renderers import theme as T

    img, d = T.canvas(600, 200)
    faces = []
    for n in (1, 5, 10, 11, 55):
        faces.append(R._face(n, 84, 112, False).tobytes())
    assert len(set(faces)) == 5
    assert {R.bullheads(c) for c in (1, 5, 10, 11, 55)} == {1, 2, 3, 5, 7}


def test_registry() -> None:
    with pytest.raises(ValueError):
        renderers.render("chess", {}, [])
    assert "six_nimmt" in renderers.available()


def test_seats_that_have_picked_show_a_face_down_card() -> None:
    eng, state, events = play("six_nimmt", 5, {}, 9, lambda s, v, e: v["phase"] == "pick" and
                              sum(p is not None for p in v["picked"]) == 2)
    view = eng.view(state, None)
    assert [p for p in view["picked"] if p is not None] == [True, True]  # never which card

    def backs(picked: list) -> int:
        changed = copy.deepcopy(view)
        changed["picked"] = picked
        rgb = decode(R.render_table(changed, events)).convert("RGB")
        return sum(n for n, colour in rgb.getcolors(1 << 20) if colour == R.CARD_BACK)

    two = backs(view["picked"])
    assert backs([None] * 5) == 0 < two < backs([True, True, True, None, None])
