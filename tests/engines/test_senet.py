"""Senet rules (docs/rules/senet.md), the seed page's examples, and a random-game loop."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engines import CHANCE, IllegalMove, get_engine
from engines.senet import SenetState
from tests.helpers.refusals import refusal

ENG = get_engine("senet")
W, B = 0, 1  # seat 0 plays White, seat 1 Black


def board(white: tuple[int, ...] = (), black: tuple[int, ...] = ()) -> str:
    cells = ["."] * 30
    for s in white:
        cells[s - 1] = "W"
    for s in black:
        cells[s - 1] = "B"
    return "".join(cells)


def position(
    white: tuple[int, ...] = (),
    black: tuple[int, ...] = (),
    turn: int = W,
    phase: str = "move",
    throw: int | None = None,
) -> dict:
    """A canonical position; stones not on the board count as borne off."""
    return {
        "game": "senet",
        "options": {"players": 2},
        "board": board(white, black),
        "off": [5 - len(white), 5 - len(black)],
        "turn": turn,
        "phase": phase,
        "throw": throw,
    }


def state(**fields: Any) -> SenetState:
    """`position(**fields)`, loaded."""
    return ENG.load(position(**fields))


def stones(st: SenetState) -> tuple[list[int], list[int]]:
    b = ENG.dump(st)["board"]
    return (
        [i + 1 for i, c in enumerate(b) if c == "W"],
        [i + 1 for i, c in enumerate(b) if c == "B"],
    )


def play(st: SenetState, *moves: str) -> tuple[SenetState, list[dict]]:
    """Apply moves, each by whoever acts; returns the state and all events."""
    events: list[dict] = []
    for move in moves:
        (actor,) = ENG.to_act(st)
        st, ev = ENG.apply_events(st, actor, move)
        events += ev
    return st, events


# -- identity, options, start --------------------------------------------------------------


def test_identity_and_options() -> None:
    assert (ENG.id, ENG.min_players, ENG.max_players) == ("senet", 2, 2)
    assert [o.name for o in ENG.option_spec] == ["players"]
    assert ENG.default_options(2) == {"players": 2}
    with pytest.raises(ValueError, match="players"):
        ENG.new(3)
    with pytest.raises(ValueError, match="players"):
        ENG.new(2, {"players": 3})
    with pytest.raises(ValueError, match="colour"):
        ENG.new(2, {"colour": "W"})
    assert ENG.dump(ENG.new(2, {"players": 2})) == ENG.dump(ENG.new(2))


def test_start_position_is_the_documented_json() -> None:
    st = ENG.new(2)
    assert ENG.dump(st) == {
        "game": "senet",
        "options": {"players": 2},
        "board": "BWBWBWBWBW....................",
        "off": [0, 0],
        "turn": 0,
        "phase": "throw",
        "throw": None,
    }
    assert ENG.to_act(st) == [CHANCE]
    assert ENG.legal_moves(st, CHANCE) == ["throw 1", "throw 2", "throw 3", "throw 4", "throw 5"]
    assert ENG.legal_moves(st, W) == [] and ENG.legal_moves(st, B) == []
    assert ENG.outcome(st) is None


def test_view_is_the_position_with_to_act() -> None:
    st = ENG.new(2)
    view = ENG.view(st, None)
    assert view == {**ENG.dump(st), "to_act": [CHANCE]}
    view["board"] = "x"
    assert ENG.view(st, 1)["board"] == "BWBWBWBWBW...................."
    assert ENG.view(ENG.apply(st, CHANCE, "throw 2"), 0)["to_act"] == [0]


# -- throwing sticks -----------------------------------------------------------------------


def test_chance_odds_are_the_four_sticks() -> None:
    odds = ENG.chance_odds(ENG.new(2))
    assert odds == {"throw 1": 4 / 16, "throw 2": 6 / 16, "throw 3": 4 / 16,
                    "throw 4": 1 / 16, "throw 5": 1 / 16}  # fmt: skip
    assert sum(odds.values()) == 1


def test_sample_chance_follows_the_odds() -> None:
    rng = random.Random(7)
    st = ENG.new(2)
    n = 32_000
    counts: dict[str, int] = {}
    for _ in range(n):
        m = ENG.sample_chance(st, rng)
        counts[m] = counts.get(m, 0) + 1
    for move, p in ENG.chance_odds(st).items():
        assert abs(counts[move] / n - p) < 0.012, move


def test_chance_acts_only_when_sticks_are_thrown() -> None:
    st = state(white=(2,), black=(9,), throw=3)
    assert ENG.to_act(st) == [W]
    with pytest.raises(ValueError):
        ENG.sample_chance(st, random.Random(1))
    with pytest.raises(ValueError):
        ENG.chance_odds(st)
    assert ENG.legal_moves(st, CHANCE) == []
    water = state(white=(27,), black=(9,), phase="try")
    assert ENG.to_act(water) == [CHANCE]
    assert ENG.sample_chance(water, random.Random(1)) in ENG.legal_moves(water, CHANCE)


def test_throw_sets_the_move_phase() -> None:
    st, events = play(ENG.new(2), "throw 3")
    assert ENG.dump(st)["phase"] == "move" and ENG.dump(st)["throw"] == 3
    assert events == [{"type": "throw", "seat": 0, "value": 3, "water": False}]


# -- the first throws from the start -------------------------------------------------------


def test_first_throw_of_one_swaps_any_front_stone() -> None:
    st = ENG.apply(ENG.new(2), CHANCE, "throw 1")
    # Every black stone between two white ones is unprotected.
    assert ENG.legal_moves(st, W) == ["move 10", "move 2", "move 4", "move 6", "move 8"]
    assert ENG.legal_moves(st, B) == []
    st, events = play(st, "move 8")
    assert ENG.dump(st)["board"] == "BWBWBWBBWW...................."
    assert events == [
        {"type": "move", "seat": 0, "from": 8, "to": 9, "backward": False},
        {"type": "swap", "seat": 0, "square": 9, "victim": 1, "to": 8},
        {"type": "extra_throw", "seat": 0},
    ]
    assert ENG.to_act(st) == [CHANCE] and ENG.dump(st)["turn"] == 0


def test_first_throw_of_two_moves_only_the_front_stone() -> None:
    st = ENG.apply(ENG.new(2), CHANCE, "throw 2")
    assert ENG.legal_moves(st, W) == ["move 10"]
    assert "your own stone on square 6" in refusal(ENG, st, W, "move 4")


# -- forward moves, swaps, protection ------------------------------------------------------


@pytest.mark.parametrize(("throw", "extra"), [(1, True), (2, False), (3, False),
                                              (4, True), (5, True)])  # fmt: skip
def test_extra_throw_after_forward_one_four_five(throw: int, extra: bool) -> None:
    st, events = play(state(white=(3, 20), black=(12,), throw=throw), "move 3")
    assert stones(st)[0] == [3 + throw, 20]
    assert ENG.dump(st)["turn"] == (W if extra else B)
    assert ENG.to_act(st) == [CHANCE]
    assert ({"type": "extra_throw", "seat": 0} in events) is extra


def test_swap_sends_the_victim_to_the_movers_square() -> None:
    st, events = play(state(white=(5,), black=(8, 20), throw=3), "move 5")
    assert stones(st) == ([8], [5, 20])
    assert {"type": "swap", "seat": 0, "square": 8, "victim": 1, "to": 5} in events


def test_moving_stone_passes_over_any_stones() -> None:
    st = state(white=(1, 2), black=(3, 4, 5), throw=5)
    assert "move 1" in ENG.legal_moves(st, W)
    assert stones(ENG.apply(st, W, "move 1"))[0] == [2, 6]


# White to move: (white's squares, black's squares, the throw, white's only legal move, and
# another move refused with its reason, if any).
ONLY_MOVES = [
    pytest.param((5, 8), (20,), 3, "move 8",
                 ("move 5", "cannot land on your own stone on square 8"),
                 id="cannot-land-on-own-stone"),
    pytest.param((5, 20), (8, 7), 3, "move 20", ("move 5", "a protected stone cannot be taken"),
                 id="protected-by-the-stone-before"),
    pytest.param((5, 20), (8, 9), 3, "move 20", ("move 5", "a protected stone cannot be taken"),
                 id="protected-by-the-stone-after"),
    pytest.param((5,), (8, 10), 3, "move 5", None, id="not-protected-two-squares-away"),
    pytest.param((23, 2), (25, 26), 3, "move 2", ("move 23", "protected"),
                 id="26-protected-by-25"),
    # Both in 1..26 (27 protects nothing: see below).
    pytest.param((22, 23), (25, 26), 2, "move 22", ("move 23", "protected"),
                 id="25-protected-by-26"),
    # Black 28, 29 side by side: a white stone from 26 still takes 28 (and drowns it).
    pytest.param((26,), (28, 29), 2, "move 26", None, id="28-to-30-never-protected"),
    pytest.param((24, 3), (10,), 3, "move 3", ("move 24", "square 26 must be reached exactly"),
                 id="26-must-be-reached-exactly"),
]


@pytest.mark.parametrize(("white", "black", "throw", "only", "refused"), ONLY_MOVES)
def test_the_only_legal_move_and_why_another_is_refused(
    white: tuple[int, ...], black: tuple[int, ...], throw: int, only: str,
    refused: tuple[str, str] | None,
) -> None:
    st = state(white=white, black=black, throw=throw)
    assert ENG.legal_moves(st, W) == [only]
    if refused is not None:
        move, reason = refused
        assert reason in refusal(ENG, st, W, move)


def test_square_27_protects_nothing_and_26_is_takeable() -> None:
    # Black on 26 and 27: 27 is outside the protected squares, so 26 stands alone.
    st = state(white=(23,), black=(26, 27), turn=W, throw=3)
    assert stones(ENG.apply(st, W, "move 23")) == ([26], [23, 27])


# -- House of Beauty and the last squares --------------------------------------------------


def test_square_26_reached_exactly() -> None:
    st = ENG.apply(state(white=(24, 3), black=(10,), throw=2), W, "move 24")
    assert stones(st)[0] == [3, 26]


@pytest.mark.parametrize(("throw", "to"), [(1, 27), (2, 28), (3, 29), (4, 30)])
def test_from_26_to_the_houses(throw: int, to: int) -> None:
    st, events = play(state(white=(26, 3), black=(10,), throw=throw), "move 26")
    assert stones(st)[0] == [3, to]
    assert events[0] == {"type": "move", "seat": 0, "from": 26, "to": to, "backward": False}


def test_from_26_a_five_bears_off_and_throws_again() -> None:
    st, events = play(state(white=(26, 3), black=(10,), throw=5), "move 26")
    assert stones(st)[0] == [3] and ENG.dump(st)["off"] == [4, 4]
    assert events == [
        {"type": "bear_off", "seat": 0, "from": 26, "throw": 5},
        {"type": "extra_throw", "seat": 0},
    ]
    assert ENG.dump(st)["turn"] == 0 and ENG.dump(st)["phase"] == "throw"


@pytest.mark.parametrize(("square", "good"), [(28, 3), (29, 2)])
def test_judges_bear_off_only_with_their_number(square: int, good: int) -> None:
    move = f"move {square}"
    for throw in range(1, 6):
        st = state(white=(square, 3), black=(10,), throw=throw)
        moves = ENG.legal_moves(st, W)
        if throw == good:
            assert move in moves
            st2, events = play(st, move)
            assert ENG.dump(st2)["off"][0] == 4
            assert {"type": "bear_off", "seat": 0, "from": square, "throw": good} in events
        else:
            assert move not in moves
            assert f"exactly {good}" in refusal(ENG, st, W, move)


@pytest.mark.parametrize("throw", [1, 2, 3, 4, 5])
def test_horus_bears_off_with_any_throw(throw: int) -> None:
    st, events = play(state(white=(30, 3), black=(10,), throw=throw), "move 30")
    assert ENG.dump(st)["off"] == [4, 4]
    assert ({"type": "extra_throw", "seat": 0} in events) is (throw in (1, 4, 5))


def test_stones_on_27_to_30_never_move_back() -> None:
    # Nothing can move forward with a 1 (29 needs a 2, 28 a 3); 28/29 never go back.
    st = state(white=(28, 29), black=(10,), throw=1)
    assert ENG.legal_moves(st, W) == ["pass"]
    assert "never move backward" in refusal(ENG, st, W, "move 29")


# -- backward moves and passing -----------------------------------------------------------


def test_backward_only_when_no_forward_move() -> None:
    # 20 can move forward, so 9 may not go back even though 9 cannot go forward.
    st = state(white=(9, 10, 20), black=(1,), throw=1)
    assert ENG.legal_moves(st, W) == ["move 10", "move 20"]
    assert "own stone on square 10" in refusal(ENG, st, W, "move 9")


@pytest.mark.parametrize(
    ("white", "black", "throw"),
    [
        ((10, 11), (12, 13), 1),  # 10->11 own, 11->12 protected pair: 10 goes back to 9
        ((20, 24), (5,), 4),  # 24+4 passes 26, 20+4 own: 20 goes back to 16
        ((20, 25), (5,), 5),  # 25+5 passes 26, 20+5 own: 20 goes back to 15
    ],
)
def test_backward_move_ends_the_turn_without_extra_throw(
    white: tuple[int, ...], black: tuple[int, ...], throw: int
) -> None:
    st = state(white=white, black=black, throw=throw)
    (move,) = ENG.legal_moves(st, W)
    st2, events = play(st, move)
    assert events == [
        {"type": "move", "seat": 0, "from": white[0], "to": white[0] - throw, "backward": True}
    ]
    assert ENG.dump(st2)["turn"] == B and ENG.dump(st2)["phase"] == "throw"


def test_backward_swap_sends_the_victim_forward() -> None:
    # 25+3 passes 26, 26+3 lands on White's own 29, and 29 needs a 2: nothing goes forward.
    st = state(white=(25, 26, 29), black=(22, 3), throw=3)
    assert ENG.legal_moves(st, W) == ["move 25", "move 26"]
    st2, events = play(st, "move 25")
    assert stones(st2) == ([22, 26, 29], [3, 25])
    assert events == [
        {"type": "move", "seat": 0, "from": 25, "to": 22, "backward": True},
        {"type": "swap", "seat": 0, "square": 22, "victim": 1, "to": 25},
    ]


def test_backward_respects_protection_and_square_one() -> None:
    # Forward: 25+2 passes 26, 26+2 = 28 own. Back: 25-2 = 23 protected, 26-2 = 24 protected.
    st = state(white=(25, 26, 28), black=(23, 24), throw=2)
    assert ENG.legal_moves(st, W) == ["pass"]
    assert re.search("no stone can move forward.*protected", refusal(ENG, st, W, "move 25"))
    # A stone on 2 with a 3 would go below square 1 (2+3 = 5 is protected by 4).
    st = state(white=(2, 24, 25), black=(4, 5), throw=3)
    assert ENG.legal_moves(st, W) == ["move 24", "move 25"]
    assert "below square 1" in refusal(ENG, st, W, "move 2")


def test_pass_when_no_stone_can_move() -> None:
    st = state(white=(25, 26, 28), black=(23, 24), throw=4)  # 26+4 = 30 is free: not a pass
    assert ENG.legal_moves(st, W) == ["move 26"]
    st = state(white=(25, 26, 28), black=(23, 24), throw=2)
    st2, events = play(st, "pass")
    assert events == [{"type": "pass", "seat": 0}]
    assert ENG.dump(st2)["turn"] == 1 and ENG.dump(st2)["board"] == ENG.dump(st)["board"]
    # A pass never gives an extra throw, even with a 1.
    st = state(white=(28, 29), black=(10,), throw=1)
    assert ENG.legal_moves(st, W) == ["pass"]
    assert ENG.dump(ENG.apply(st, W, "pass"))["turn"] == 1
    assert "you must move" in refusal(ENG, state(white=(3,), black=(10,), throw=1), W, "pass")


# -- House of Water ------------------------------------------------------------------------


def test_landing_on_27_with_a_one_starts_the_water_choice() -> None:
    st, events = play(state(white=(26, 3), black=(10,), throw=1), "move 26")
    assert events[-1] == {"type": "extra_throw", "seat": 0}
    assert ENG.dump(st)["phase"] == "water" and ENG.to_act(st) == [W]
    assert ENG.legal_moves(st, W) == ["return", "try"]
    assert ENG.legal_moves(st, B) == [] and ENG.legal_moves(st, CHANCE) == []


def test_water_return_to_15() -> None:
    st, events = play(state(white=(27, 3), black=(10,), phase="water"), "return")
    assert stones(st) == ([3, 15], [10])
    assert events == [{"type": "water_return", "seat": 0, "to": 15}]
    assert ENG.dump(st)["turn"] == 1 and ENG.dump(st)["phase"] == "throw"


def test_water_return_goes_below_15_when_taken() -> None:
    st = state(white=(27, 15, 13), black=(14, 12), phase="water")
    st2, events = play(st, "return")
    assert stones(st2) == ([11, 13, 15], [12, 14])
    assert events == [{"type": "water_return", "seat": 0, "to": 11}]


def test_water_try_with_a_four_bears_off_and_throws_again() -> None:
    st, events = play(state(white=(27, 3), black=(10,), phase="water"), "try", "throw 4")
    assert events == [
        {"type": "throw", "seat": 0, "value": 4, "water": True},
        {"type": "bear_off", "seat": 0, "from": 27, "throw": 4},
        {"type": "extra_throw", "seat": 0},
    ]
    assert stones(st) == ([3], [10]) and ENG.dump(st)["off"] == [4, 4]
    assert ENG.dump(st)["turn"] == 0 and ENG.dump(st)["phase"] == "throw"


@pytest.mark.parametrize("throw", [1, 2, 3, 5])
def test_water_try_failing_leaves_the_stone(throw: int) -> None:
    st, events = play(state(white=(27, 3), black=(10,), phase="water"), "try", f"throw {throw}")
    assert events[1:] == [{"type": "water_fail", "seat": 0}]
    assert stones(st) == ([3, 27], [10])
    assert ENG.dump(st)["turn"] == 1 and ENG.dump(st)["phase"] == "throw"
    # Black throws and moves; then White's turn begins in the House of Water again.
    st = play(st, "throw 2", "move 10")[0]
    assert ENG.dump(st)["phase"] == "water" and ENG.dump(st)["turn"] == 0


def test_no_other_stone_moves_while_one_is_on_27() -> None:
    st = state(white=(27, 3), black=(10,), phase="water")
    for move in ("move 3", "pass", "throw 2"):
        assert "House of Water" in refusal(ENG, st, W, move)
    assert "not thrown now" in refusal(ENG, st, CHANCE, "throw 2")
    assert "House of Water" in refusal(ENG, state(white=(3,), black=(10,), throw=2), W, "return")


def test_last_stone_leaving_the_water_wins() -> None:
    st, events = play(state(white=(27,), black=(10, 11), phase="water"), "try", "throw 4")
    assert events[-1] == {"type": "game_over", "scores": [5, 3], "ranks": [1, 2], "winner": 0}
    assert not any(e["type"] == "extra_throw" for e in events)
    assert ENG.dump(st)["phase"] == "over" and ENG.dump(st)["turn"] == 0
    assert ENG.dump(st)["throw"] is None
    assert ENG.outcome(st) == {"scores": [5, 3], "ranks": [1, 2]}


# -- drowning ------------------------------------------------------------------------------


@pytest.mark.parametrize("house", [28, 29, 30])
def test_swapped_stone_on_28_to_30_drowns_to_27(house: int) -> None:
    st = state(white=(26, 3), black=(house, 10), throw=house - 26)
    st2, events = play(st, "move 26")
    assert stones(st2) == ([3, house], [10, 27])
    assert events[:3] == [
        {"type": "move", "seat": 0, "from": 26, "to": house, "backward": False},
        {"type": "swap", "seat": 0, "square": house, "victim": 1, "to": 27},
        {"type": "drown", "seat": 1, "from": house, "to": 27},
    ]
    # The drowned stone's owner starts the next turn in the House of Water.
    if ENG.dump(st2)["turn"] == 0:
        st2 = play(st2, "throw 2", "move 3")[0]
    assert ENG.dump(st2)["turn"] == 1 and ENG.dump(st2)["phase"] == "water"


def test_drowning_with_27_taken_goes_to_15_and_below() -> None:
    st = state(white=(26, 3), black=(27, 28, 15), throw=2)
    st2, events = play(st, "move 26")
    assert stones(st2) == ([3, 28], [14, 15, 27])
    assert {"type": "drown", "seat": 1, "from": 28, "to": 14} in events


def test_stone_on_27_does_not_drown() -> None:
    st = state(white=(26, 3), black=(27, 10), throw=1)
    st2, events = play(st, "move 26")
    assert stones(st2) == ([3, 27], [10, 26])
    assert {"type": "swap", "seat": 0, "square": 27, "victim": 1, "to": 26} in events
    assert not any(e["type"] == "drown" for e in events)
    assert ENG.dump(st2)["phase"] == "water" and ENG.dump(st2)["turn"] == 0


# -- the end ------------------------------------------------------------------------------


def test_last_bear_off_ends_the_game_without_extra_throw() -> None:
    st, events = play(state(white=(10,), black=(30,), turn=B, throw=1), "move 30")
    assert events == [
        {"type": "bear_off", "seat": 1, "from": 30, "throw": 1},
        {"type": "game_over", "scores": [4, 5], "ranks": [2, 1], "winner": 1},
    ]
    assert ENG.dump(st) == {**position(white=(10,), turn=B, phase="over"), "off": [4, 5]}
    assert ENG.to_act(st) == []
    assert ENG.legal_moves(st, W) == ENG.legal_moves(st, B) == ENG.legal_moves(st, CHANCE) == []
    assert "game is over" in refusal(ENG, st, B, "pass")
    with pytest.raises(ValueError):
        ENG.sample_chance(st, random.Random(1))


# -- the seed page's movement examples -----------------------------------------------------


def test_seed_example_1() -> None:
    """White to move with a 2: 2, 3, 4 and 14 are blocked, 16 takes the black stone on 18."""
    # 2->4 and 14->16 land on White; 3->5 and 4->6 hit the protected black pair 5, 6.
    st = state(white=(2, 3, 4, 14, 16), black=(1, 5, 6, 10, 18), turn=W, throw=2)
    assert ENG.legal_moves(st, W) == ["move 16"]
    assert "own stone on square 4" in refusal(ENG, st, W, "move 2")
    assert "a protected stone cannot be taken" in refusal(ENG, st, W, "move 3")
    assert "a protected stone cannot be taken" in refusal(ENG, st, W, "move 4")
    assert "own stone on square 16" in refusal(ENG, st, W, "move 14")
    st2, events = play(st, "move 16")
    assert stones(st2) == ([2, 3, 4, 14, 18], [1, 5, 6, 10, 16])
    assert {"type": "swap", "seat": 0, "square": 18, "victim": 1, "to": 16} in events
    assert ENG.dump(st2)["turn"] == B  # a 2 gives no extra throw


@pytest.mark.parametrize("seat", [W, B])
def test_seed_example_2(seat: int) -> None:
    """A 3 and no stone can go forward: a stone on 19 must move backward.

    The page names the turn Black's but the stones white, and says "19 or 22"; with both on
    the mover's side, 22 - 3 = 19 is the mover's own stone, so only 19 can go back. The test
    runs for either colour.
    """
    mine, theirs = (19, 22, 29), (24, 25, 8)  # 22+3 = 25 protected by 24; 29 needs a 2
    white, black = (mine, theirs) if seat == W else (theirs, mine)
    st = state(white=white, black=black, turn=seat, throw=3)
    assert ENG.legal_moves(st, seat) == ["move 19"]
    assert "backward: you cannot land on your own stone" in refusal(ENG, st, seat, "move 22")
    st2, events = play(st, "move 19")
    assert events[0] == {"type": "move", "seat": seat, "from": 19, "to": 16, "backward": True}
    assert ENG.dump(st2)["turn"] == 1 - seat


# -- illegal probes ------------------------------------------------------------------------


def test_illegal_probes_have_plain_messages() -> None:
    st = state(white=(3, 20), black=(12,), throw=2)
    probes = [
        (B, "move 12", "it is not your turn"),
        (CHANCE, "throw 3", "sticks are not thrown now"),
        (W, "move 12", "you have no stone on square 12"),
        (W, "move 11", "you have no stone on square 11"),
        (W, "move 0", "there is no square 0"),
        (W, "move 31", "there is no square 31"),
        (W, "move 03", "there is no square 03"),
        (W, "jump 3", "unknown move"),
        (W, "move", "unknown move"),
        (W, "Move 3", "unknown move"),
        (W, "try", "House of Water"),
    ]
    for actor, move, message in probes:
        assert message in refusal(ENG, st, actor, move)
    for junk in (["move", 3], None, 3):
        assert "short text" in refusal(ENG, st, W, junk)
    thrown = ENG.new(2)
    assert "wait for the throw" in refusal(ENG, thrown, W, "move 10")
    assert "it is not your turn" in refusal(ENG, thrown, B, "move 9")
    for bad in ("throw 6", "throw 0", "throw", "move 10"):
        assert "the sticks show 1 to 5" in refusal(ENG, thrown, CHANCE, bad)


def test_apply_never_mutates() -> None:
    st = state(white=(26, 3), black=(28, 10), throw=2)
    before = ENG.dump(st)
    ENG.apply_events(st, W, "move 26")
    ENG.apply(st, W, "move 3")
    with pytest.raises(IllegalMove):
        ENG.apply(st, B, "move 10")
    assert ENG.dump(st) == before


# -- dump and load -------------------------------------------------------------------------


def test_dump_load_round_trip() -> None:
    for pos in (
        ENG.dump(ENG.new(2)),
        position(white=(26, 3), black=(28, 10), throw=2),
        position(white=(27, 3), black=(10,), phase="water"),
        position(white=(27, 3), black=(10,), phase="try"),
        position(white=(10,), turn=B, phase="over"),
    ):
        assert ENG.dump(ENG.load(pos)) == pos
        assert ENG.load(pos) == ENG.load(dict(pos))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": "chess"}, "game"),
        ({"options": {"players": 3}}, "options"),
        ({"options": {"speed": 1}}, "options"),
        ({"options": 2}, "options"),
        ({"board": "W" * 29}, "board"),
        ({"board": 30}, "board"),
        ({"board": "BWBWBWBWBWX..................."}, "board"),
        ({"board": "BWBWBWBWBB...................."}, "board"),  # 6 black, 4 white
        ({"off": [1, 0]}, "board"),  # 5 white on board and 1 off
        ({"off": [0]}, "off"),
        ({"off": [0, -1]}, "off"),
        ({"off": [0, True]}, "off"),
        ({"off": "00"}, "off"),
        ({"turn": 2}, "turn"),
        ({"turn": True}, "turn"),
        ({"turn": "0"}, "turn"),
        ({"phase": "roll"}, "phase"),
        ({"phase": "move"}, "throw"),  # phase move needs a throw
        ({"phase": "move", "throw": 6}, "throw"),
        ({"phase": "move", "throw": 2.0}, "throw"),
        ({"throw": 3}, "throw"),  # a throw outside phase move
        ({"phase": "water"}, "phase"),  # no stone of the turn on 27
        ({"phase": "try"}, "phase"),
        ({"phase": "over"}, "turn"),  # nobody has borne off 5
    ],
)
def test_load_rejects_and_names_the_field(change: dict, field: str) -> None:
    pos = {**ENG.dump(ENG.new(2)), **change}
    with pytest.raises(ValueError, match=field):
        ENG.load(pos)


def test_load_rejects_impossible_phases() -> None:
    with pytest.raises(ValueError, match="phase"):  # turn's stone on 27 must be in water/try
        ENG.load(position(white=(27, 3), black=(10,), phase="throw"))
    with pytest.raises(ValueError, match="phase"):
        ENG.load(position(white=(27, 3), black=(10,), throw=2))
    # The opponent's stone on 27 is fine in any phase.
    ENG.load(position(white=(3,), black=(27,), throw=2))
    with pytest.raises(ValueError, match="phase"):  # someone has won but the game runs on
        ENG.load(position(white=(3,), throw=2))
    with pytest.raises(ValueError, match="turn"):  # over, but turn is not the winner
        ENG.load(position(white=(3,), turn=W, phase="over"))
    with pytest.raises(ValueError, match="turn"):  # both cannot have won
        ENG.load(position(turn=W, phase="over"))
    for missing in ("board", "off", "turn", "phase", "throw", "options", "game"):
        pos = ENG.dump(ENG.new(2))
        del pos[missing]
        with pytest.raises(ValueError, match=missing):
            ENG.load(pos)
    with pytest.raises(ValueError, match="object"):
        ENG.load(["senet"])  # type: ignore[arg-type]


# -- random games --------------------------------------------------------------------------


def _refused(st: SenetState, actor: int, move: str) -> bool:
    try:
        ENG.apply(st, actor, move)
    except IllegalMove as e:
        return bool(str(e))  # a message for the player, never empty
    return False


def _probe_illegal(st: SenetState, actor: int, legal: list[str], rng: random.Random) -> None:
    """A few moves that must be refused with IllegalMove (try/except: pytest.raises is slow)."""
    probes = ["move 0", "move 31", "throw 9", "jump"]
    if legal != ["pass"]:
        probes.append("pass")
    if actor != CHANCE:
        probes += [f"move {s}" for s in rng.sample(range(1, 31), 3)]
    for move in probes:
        assert move in legal or _refused(st, actor, move), move
    assert _refused(st, rng.choice([a for a in (CHANCE, W, B) if a != actor]), legal[0])


def _board_after(board: str, events: list[dict]) -> str:
    """Redraw a board from events alone, as a renderer would: the events must tell it all."""
    cells = list(board)
    for e in events:
        if e["type"] == "move":
            cells[e["to"] - 1], cells[e["from"] - 1] = cells[e["from"] - 1], "."
        elif e["type"] == "swap":
            cells[e["to"] - 1] = "WB"[e["victim"]]
        elif e["type"] == "bear_off":
            cells[e["from"] - 1] = "."
        elif e["type"] == "water_return":
            cells[26], cells[e["to"] - 1] = ".", "WB"[e["seat"]]
    return "".join(cells)


def _check_step(st: SenetState, actor: int, legal: list[str], rng: random.Random) -> None:
    """The expensive invariants of one step."""
    assert legal == sorted(set(legal))
    for other in (CHANCE, W, B):
        if other != actor:
            assert ENG.legal_moves(st, other) == []
    pos = ENG.dump(st)
    assert ENG.dump(ENG.load(pos)) == pos
    for move in legal:  # every legal move applies, and nothing mutates
        nxt, events = ENG.apply_events(st, actor, move)
        assert ENG.dump(nxt) == ENG.dump(ENG.apply(st, actor, move))
        # Choosing "try" has no event of its own: the water throw follows.
        assert events or move == "try"
        assert ENG.dump(nxt)["board"] == _board_after(pos["board"], events)
        if any(e["type"] == "game_over" for e in events):
            assert ENG.outcome(nxt) is not None
    assert ENG.dump(st) == pos
    _probe_illegal(st, actor, legal, rng)


def test_random_games_keep_every_invariant() -> None:
    rng = random.Random(20260)
    games = 2000
    longest = 0
    bound = 3000  # random games last a few hundred steps; 3000 means something loops
    for game in range(games):
        st = ENG.new(2)
        # Cheap invariants every step; the expensive ones every step of some games and on
        # a sample of steps of the others, to keep the test fast.
        every = 1 if game < 10 else 48
        for step in range(bound):
            actors = ENG.to_act(st)
            board = st.board
            assert board.count("W") + st.off[0] == 5 and board.count("B") + st.off[1] == 5
            if not actors:
                break
            (actor,) = actors
            legal = ENG.legal_moves(st, actor)
            assert legal
            if step % every == 0:
                _check_step(st, actor, legal, rng)
            if actor == CHANCE and rng.random() < 0.25:  # uniform throws: shorter games
                move = ENG.sample_chance(st, rng)
            else:
                move = rng.choice(legal)
            st = ENG.apply(st, actor, move)
        else:
            pytest.fail(f"game {game} did not end in {bound} steps")
        longest = max(longest, step)
        result = ENG.outcome(st)
        pos = ENG.dump(st)
        assert pos["phase"] == "over" and pos["throw"] is None
        assert pos["off"][pos["turn"]] == 5 and pos["off"][1 - pos["turn"]] < 5
        assert result["scores"] == pos["off"]
        assert result["ranks"] == ([1, 2] if pos["turn"] == 0 else [2, 1])
        assert ENG.dump(ENG.load(pos)) == pos
        assert ENG.legal_moves(st, W) == ENG.legal_moves(st, B) == []
    assert longest < bound
