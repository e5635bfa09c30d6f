"""6 nimmt!: every rule and option of docs/rules/six_nimmt.md, the seed's worked examples,
illegal moves, positions, views and a seeded property loop over random games."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from engines import CHANCE, IllegalMove, get_engine, ranks_from_scores
from engines.six_nimmt import bullheads
from tests.helpers.playout import play_random
from tests.helpers.refusals import refusal
from tests.helpers.six_nimmt import position

E = get_engine("six_nimmt")


# ---- helpers --------------------------------------------------------------------------------


def play(state, picks):
    """Every seat plays picks[seat], in seat order; returns the state and all events."""
    events = []
    for seat, card in enumerate(picks):
        state, ev = E.apply_events(state, seat, f"play {card}")
        events += ev
    return state, events


def of(events, kind):
    return [e for e in events if e["type"] == kind]


def placed(events):
    """(card, row, end) of every card that joined or started a row, in order."""
    out = []
    for e in events:
        if e["type"] == "place":
            out.append((e["card"], e["row"], e["end"]))
        elif e["type"] == "take":
            out.append((e["card"], e["row"], e["reason"]))
    return out


def auto(state, rng, stop=lambda s: False):
    """Random legal play until `stop(state)` or the game ends."""
    return play_random(E, state, rng, stop)


def deal_move(n, rows, hands=None):
    """A deal string: given or filler hands, then the 4 row cards."""
    used = set(rows) | {c for h in (hands or []) for c in h}
    free = (c for c in range(1, 105) if c not in used)
    hands = hands or [[next(free) for _ in range(10)] for _ in range(n)]
    return "deal " + " ".join(str(c) for h in hands for c in h) + " " + " ".join(map(str, rows))


# ---- cards and options ---------------------------------------------------------------------


def test_bullheads_of_each_kind_and_deck_total() -> None:
    assert bullheads(55) == 7
    assert [bullheads(c) for c in (11, 22, 33, 44, 66, 77, 88, 99)] == [5] * 8
    assert [bullheads(c) for c in (10, 20, 50, 100)] == [3] * 4
    assert [bullheads(c) for c in (5, 15, 45, 65, 95)] == [2] * 5
    assert [bullheads(c) for c in (1, 2, 54, 56, 101, 104)] == [1] * 6
    assert sum(bullheads(c) for c in range(1, 105)) == 171
    for bad in (0, 105, "7", True):
        with pytest.raises(ValueError):
            bullheads(bad)


def test_identity_and_option_spec() -> None:
    assert (E.id, E.min_players, E.max_players) == ("six_nimmt", 2, 10)
    spec = {o.name: o for o in E.option_spec}
    assert set(spec) == {"points", "professional", "cards", "rounds"}
    assert all(o.help for o in spec.values())
    assert spec["cards"].choices == ("standard", "tactical", "logical")
    assert spec["rounds"].nullable and spec["rounds"].default is None
    assert E.default_options(5) == {"players": 5, "points": 66, "professional": False,
                                    "cards": "standard", "rounds": None}


@pytest.mark.parametrize("given, name", [
    ({"points": 0}, "points"),
    ({"points": 1001}, "points"),
    ({"points": "66"}, "points"),
    ({"professional": 1}, "professional"),
    ({"cards": "random"}, "cards"),
    ({"rounds": 0}, "rounds"),
    ({"rounds": 101}, "rounds"),
    ({"players": 4}, "players"),
    ({"colour": "red"}, "colour"),
])
def test_new_rejects_bad_options_by_name(given, name) -> None:
    with pytest.raises(ValueError, match=name):
        E.new(5, given)


@pytest.mark.parametrize("players", [1, 11, True, "5"])
def test_new_rejects_bad_seat_counts(players) -> None:
    with pytest.raises(ValueError, match="players"):
        E.new(players)


def test_new_standard_waits_for_the_deal() -> None:
    state = E.new(3, {"rounds": None, "players": 3})
    assert E.dump(state) == position([[], [], [], []], [[], [], []], phase="deal")
    assert E.to_act(state) == [CHANCE]
    assert E.outcome(state) is None
    with pytest.raises(NotImplementedError):
        E.legal_moves(state, CHANCE)
    with pytest.raises(NotImplementedError):
        E.chance_odds(state)
    assert E.legal_moves(state, 0) == []


# ---- the deal --------------------------------------------------------------------------------


def test_deal_fills_hands_in_seat_order_and_rows_in_deal_order() -> None:
    state = E.new(2)
    hands = [[50, 3, 27, 9, 100, 1, 2, 4, 6, 7], [8, 10, 11, 12, 13, 14, 15, 16, 17, 18]]
    state, events = E.apply_events(state, CHANCE, deal_move(2, [90, 5, 60, 30], hands))
    p = E.dump(state)
    assert p["phase"] == "pick" and p["rows"] == [[90], [5], [60], [30]]
    assert p["hands"] == [sorted(hands[0]), hands[1]]
    assert events == [{"type": "deal", "round": 1},
                      {"type": "rows_start", "rows": [[90], [5], [60], [30]]}]
    assert E.to_act(state) == [0, 1]
    # Legal moves are sorted as strings, as the contract says.
    assert E.legal_moves(state, 0) == sorted(f"play {c}" for c in hands[0])
    assert E.legal_moves(state, 0)[:3] == ["play 1", "play 100", "play 2"]


def test_sample_chance_is_a_seeded_deal_of_distinct_cards() -> None:
    state = E.new(4)
    a = E.sample_chance(state, random.Random(3))
    assert a == E.sample_chance(state, random.Random(3))
    assert a != E.sample_chance(state, random.Random(4))
    cards = [int(t) for t in a.split()[1:]]
    assert len(cards) == 44 == len(set(cards)) and set(cards) <= set(range(1, 105))
    # Every card of the deck turns up over a few deals.
    seen = set()
    for seed in range(30):
        seen |= {int(t) for t in E.sample_chance(state, random.Random(seed)).split()[1:]}
    assert seen == set(range(1, 105))
    dealt = E.apply(state, CHANCE, a)
    with pytest.raises(ValueError, match="chance does not act"):
        E.sample_chance(dealt, random.Random(1))
    assert "chance does not act" in refusal(E, dealt, CHANCE, a)
    assert E.legal_moves(dealt, CHANCE) == []


# ---- the seed's worked examples (basic rules) ----------------------------------------------


def test_seed_example_1_cards_go_after_the_nearest_lower_end() -> None:
    # Picks 25 47 71 101 104; row ends 20 92 69 55. Seats pick in a different order than
    # the cards: placement goes by card, lowest first, and sees the rows change.
    picks = [71, 25, 104, 47, 101]
    fillers = [1, 2, 3, 4, 6]
    state = E.load(position([[20], [92], [69], [55]], [[p, f] for p, f in zip(picks, fillers,
                                                                                strict=True)]))
    state, events = play(state, picks)
    assert of(events, "pick") == [{"type": "pick", "seat": s} for s in range(5)]
    assert of(events, "reveal") == [{"type": "reveal",
                                     "cards": [[25, 1], [47, 3], [71, 0], [101, 4], [104, 2]]}]
    assert placed(events) == [(25, 1, "right"), (47, 1, "right"), (71, 3, "right"),
                              (101, 2, "right"), (104, 2, "right")]
    p = E.dump(state)
    assert p["rows"] == [[20, 25, 47], [92, 101, 104], [69, 71], [55]]
    assert p["phase"] == "pick" and p["picked"] == [None] * 5 and p["points"] == [66] * 5
    assert p["hands"] == [[f] for f in fillers]


def test_seed_example_2_sixth_cards_take_the_row() -> None:
    # Picks 29 31 33 41 82; row ends 51 27 40 90; 33, 41 and 82 are sixth cards.
    rows = [[44, 46, 48, 50, 51], [15, 22, 27], [34, 36, 37, 39, 40], [90]]
    picks = [82, 41, 33, 31, 29]
    state = E.load(position(rows, [[p, f] for p, f in zip(picks, [1, 2, 3, 4, 6],
                                                          strict=True)]))
    state, events = play(state, picks)
    assert placed(events) == [(29, 2, "right"), (31, 2, "right"), (33, 2, "sixth"),
                              (41, 3, "sixth"), (82, 1, "sixth")]
    takes = of(events, "take")
    assert [(t["seat"], t["cards"], t["bullheads"]) for t in takes] == [
        (2, [15, 22, 27, 29, 31], 10),
        (1, [34, 36, 37, 39, 40], 7),
        (0, [44, 46, 48, 50, 51], 11),
    ]
    p = E.dump(state)
    assert p["rows"] == [[82], [33], [41], [90]]
    assert p["points"] == [55, 59, 56, 66, 66]


def test_seed_example_3_lowest_card_takes_a_chosen_row_then_play_goes_on() -> None:
    # Picks 63 64 67 94 99; row ends 93 96 91 104. 63 is lower than every row: its player
    # takes row 4 and 63 starts it; 64 and 67 follow it (the seed's "65" is a typo for 64).
    rows = [[70, 75, 80, 85, 93], [86, 88, 89, 95, 96], [91], [100, 104]]
    picks = [99, 63, 94, 67, 64]
    state = E.load(position(rows, [[p, f] for p, f in zip(picks, [1, 2, 3, 4, 6],
                                                          strict=True)]))
    state, events = play(state, picks)
    assert events[-1] == {"type": "choose", "seat": 1, "card": 63, "kind": "take",
                          "options": ["take 1", "take 2", "take 3", "take 4"]}
    p = E.dump(state)
    assert p["phase"] == "take" and p["pending"] == {"seat": 1, "card": 63}
    assert p["queue"] == [[64, 4], [67, 3], [94, 2], [99, 0]]
    assert p["picked"] == [None] * 5 and p["rows"] == rows
    assert E.to_act(state) == [1]
    assert E.legal_moves(state, 1) == ["take 1", "take 2", "take 3", "take 4"]
    assert E.legal_moves(state, 0) == []
    assert "63 is lower than every row: choose a row to take" in refusal(E, state, 1, "play 2")
    assert "row 5 does not exist" in refusal(E, state, 1, "take 5")
    assert "it is not your turn: seat 1 must choose a row" in refusal(E, state, 0, "take 1")
    state, events = E.apply_events(state, 1, "take 4")
    assert events[0] == {"type": "take", "seat": 1, "card": 63, "row": 4,
                         "cards": [100, 104], "bullheads": 4, "reason": "lowest"}
    assert placed(events) == [(63, 4, "lowest"), (64, 4, "right"), (67, 4, "right"),
                              (94, 1, "sixth"), (99, 2, "sixth")]
    p = E.dump(state)
    assert p["rows"] == [[94], [99], [91], [63, 64, 67]]
    assert p["points"] == [66 - 10, 66 - 4, 66 - 11, 66, 66]
    assert p["phase"] == "pick" and p["pending"] is None and p["queue"] == []


def test_taking_a_chosen_row_of_one_to_five_cards() -> None:
    rows = [[10, 11, 12, 13, 14], [20], [30, 31], [40]]
    base = E.load(position(rows, [[5, 1], [50, 2]]))
    state, _ = play(base, [5, 50])
    for r, cards in enumerate(rows, start=1):
        after, events = E.apply_events(state, 0, f"take {r}")
        assert of(events, "take")[0]["cards"] == cards
        assert E.dump(after)["points"][0] == 66 - sum(map(bullheads, cards))
        assert E.dump(after)["rows"][r - 1][0] == 5


# ---- professional ---------------------------------------------------------------------------


def pro_game():
    """The seed's Professional walk-through: 5 seats, rows 8 67 104 35 (reconstructed from
    the text, whose pictures are missing), four turns of cards."""
    turns = [[4, 11, 16, 58, 93], [17, 26, 71, 75, 85], [5, 6, 10, 12, 44],
             [1, 2, 9, 100, 103]]
    # Seat (i + t) % 5 plays the i-th lowest card of turn t, so seats and order differ.
    by_seat = [[0] * 5 for _ in turns]
    for t, cards in enumerate(turns):
        for i, c in enumerate(cards):
            by_seat[t][(i + t) % 5] = c
    hands = [[by_seat[t][s] for t in range(4)] + [20 + 10 * s] for s in range(5)]
    state = E.load(position([[8], [67], [104], [35]], hands, professional=True))
    return state, by_seat


def test_seed_professional_examples() -> None:
    state, turns = pro_game()

    # 1: 4 goes left of 8, 11 and 16 right of it, 58 left of 67, 93 left of 104.
    state, events = play(state, turns[0])
    assert placed(events) == [(4, 1, "left"), (11, 1, "right"), (16, 1, "right"),
                              (58, 2, "left"), (93, 3, "left")]
    assert E.dump(state)["rows"] == [[4, 8, 11, 16], [58, 67], [93, 104], [35]]

    # 2: 17 right of 16; 26 is 9 from 17 (right end of row 1) and 35 (left end of row 4).
    state, events = play(state, turns[1])
    assert placed(events) == [(17, 1, "right")]
    seat26 = turns[1].index(26)
    assert events[-1] == {"type": "choose", "seat": seat26, "card": 26, "kind": "side",
                          "options": ["place 1 right", "place 4 left"]}
    assert E.dump(state)["phase"] == "side" and E.to_act(state) == [seat26]
    assert E.legal_moves(state, seat26) == ["place 1 right", "place 4 left"]
    # The other choice would make 26 the sixth card of row 1.
    other, events = E.apply_events(state, seat26, "place 1 right")
    assert of(events, "take")[0]["cards"] == [4, 8, 11, 16, 17]
    assert of(events, "take")[0]["reason"] == "sixth"
    assert E.dump(other)["points"][seat26] == 66 - 9
    state, events = E.apply_events(state, seat26, "place 4 left")
    assert placed(events) == [(26, 4, "left"), (71, 2, "right"), (75, 2, "right"),
                              (85, 3, "left")]
    assert E.dump(state)["rows"] == [[4, 8, 11, 16, 17], [58, 67, 71, 75], [85, 93, 104],
                                     [26, 35]]

    # 3: 5 is nearest to 4 but fits no end of row 1 (never inserted); 12 fits nowhere, its
    # player takes row 4; 44 is the sixth card of row 1.
    state, events = play(state, turns[2])
    assert placed(events) == [(5, 4, "left"), (6, 2, "left"), (10, 3, "left")]
    seat12 = turns[2].index(12)
    assert events[-1]["kind"] == "take" and events[-1]["card"] == 12
    assert "12 fits no end of any row: choose a row to take" in refusal(E, state, seat12,
                                                                         "place 1 left")
    state, events = E.apply_events(state, seat12, "take 4")
    assert placed(events) == [(12, 4, "lowest"), (44, 1, "sixth")]
    assert of(events, "take")[0]["cards"] == [5, 26, 35]
    assert E.dump(state)["rows"] == [[44], [6, 58, 67, 71, 75], [10, 85, 93, 104], [12]]

    # 4: 1 goes left of 6 as the sixth card of row 2: taking happens at the left end too.
    state, events = play(state, turns[3])
    assert placed(events) == [(1, 2, "sixth"), (2, 2, "right"), (9, 3, "left"),
                              (100, 1, "right"), (103, 1, "right")]
    assert of(events, "take")[0]["cards"] == [6, 58, 67, 71, 75]
    p = E.dump(state)
    assert p["rows"] == [[44, 100, 103], [1, 2], [9, 10, 85, 93, 104], [12]]
    lost = {turns[2].index(12): 5, turns[2].index(44): 9, turns[3].index(1): 6}
    assert p["points"] == [66 - lost.get(s, 0) for s in range(5)]


def test_professional_side_choice_probes() -> None:
    state, turns = pro_game()
    state, _ = play(state, turns[0])
    state, _ = play(state, turns[1])
    seat = turns[1].index(26)
    assert ("26 cannot go at the left end of row 2: choose 'place 1 right' or 'place 4 left'"
            in refusal(E, state, seat, "place 2 left"))
    assert ("26 is as close to the right end of row 1 as to the left end of row 4"
            in refusal(E, state, seat, "take 1"))
    assert "row 5 does not exist" in refusal(E, state, seat, "place 5 left")
    assert "it is not your turn" in refusal(E, state, (seat + 1) % 5, "place 4 left")


def test_basic_rules_never_use_the_left_end() -> None:
    # Without professional, 4 is lower than every row even though 8 is near.
    state = E.load(position([[8], [67], [104], [35]], [[4, 1], [90, 2]]))
    state, events = play(state, [4, 90])
    assert events[-1]["kind"] == "take"


# ---- tactical and logical ------------------------------------------------------------------


def test_tactical_uses_cards_up_to_ten_per_player_plus_four() -> None:
    state = E.new(3, {"cards": "tactical"})
    move = E.sample_chance(state, random.Random(5))
    assert sorted(int(t) for t in move.split()[1:]) == list(range(1, 35))
    deal = "deal " + " ".join(map(str, range(2, 36)))
    assert "card 35 is not in use" in refusal(E, state, CHANCE, deal)
    with pytest.raises(ValueError, match=r"hands\[0\]: card 40 is not in use"):
        E.load(position([[1], [2], [3], [4]], [[40], [5], [6]], cards="tactical"))


def test_logical_draft_in_turn_order_leftovers_start_rows_ascending() -> None:
    state = E.new(2, {"cards": "logical"})
    p = E.dump(state)
    assert p["phase"] == "draft" and p["pool"] == list(range(1, 25)) and p["drafter"] == 0
    assert E.to_act(state) == [0]
    assert E.legal_moves(state, 0)[:3] == ["draft 1", "draft 10", "draft 11"]
    with pytest.raises(ValueError, match="chance does not act"):
        E.sample_chance(state, random.Random(1))
    assert "chance does not act" in refusal(E, state, CHANCE, deal_move(2, [1, 2, 3, 4]))
    assert "it is not your turn: seat 0 drafts now" in refusal(E, state, 1, "draft 5")
    assert "card 99 is not in the pool" in refusal(E, state, 0, "draft 99")
    state, events = E.apply_events(state, 0, "draft 5")
    assert events == [{"type": "draft", "seat": 0, "card": 5}]
    assert "card 5 is not in the pool" in refusal(E, state, 1, "draft 5")
    leftovers = [22, 3, 17, 9]
    order = [c for c in range(1, 25) if c not in leftovers and c != 5]
    for i, c in enumerate(order):
        assert E.to_act(state) == [(i + 1) % 2]
        state, events = E.apply_events(state, (i + 1) % 2, f"draft {c}")
    assert events[-1] == {"type": "rows_start", "rows": [[3], [9], [17], [22]]}
    p = E.dump(state)
    assert p["phase"] == "pick" and p["pool"] == [] and p["drafter"] is None
    assert p["hands"][0] == sorted([5] + order[1::2]) and len(p["hands"][1]) == 10
    # Drafted hands are public; picks stay hidden (still shown in the hand until the reveal).
    state = E.apply(state, 0, "play 5")
    view = E.view(state, 1)
    assert view["hands"] == [p["hands"][0], p["hands"][1]]
    assert view["picked"] == [True, None]


def test_logical_first_drafter_moves_one_seat_each_round() -> None:
    rng = random.Random(8)
    state = E.new(3, {"cards": "logical", "rounds": 4})
    for rnd in range(1, 5):
        p = E.dump(state)
        assert (p["round"], p["phase"], p["drafter"]) == (rnd, "draft", (rnd - 1) % 3)
        assert p["rows"] == [[], [], [], []] and p["pool"] == list(range(1, 35))
        state = auto(state, rng, stop=lambda s, r=rnd: E.dump(s)["round"] > r)
        if rnd < 4:
            assert E.dump(state)["round"] == rnd + 1
    assert E.dump(state)["phase"] == "over" and E.dump(state)["round"] == 4


# ---- end of the game ----------------------------------------------------------------------


def test_game_ends_at_the_end_of_the_round_in_which_points_run_out() -> None:
    state = E.load(position([[10], [20], [30], [40]], [[5, 50], [41, 60]], left=[3, 3], points=3))
    state, _ = play(state, [5, 41])
    state = E.apply(state, 0, "take 1")  # 10 is worth 3: seat 0 has 0 points left
    p = E.dump(state)
    assert p["points"] == [0, 3] and p["phase"] == "pick" and E.outcome(state) is None
    state, events = play(state, [50, 60])
    assert events[-2:] == [
        {"type": "round_end", "round": 1, "points": [0, 3]},
        {"type": "game_over", "scores": [0, 3], "ranks": [2, 1]},
    ]
    p = E.dump(state)
    assert p["phase"] == "over" and p["round"] == 1
    assert p["rows"] == [[5], [20], [30], [40, 41, 50, 60]]  # the last rows stay
    assert E.outcome(state) == {"scores": [0, 3], "ranks": [2, 1]}
    assert E.to_act(state) == [] and E.legal_moves(state, 0) == []
    assert "the game is over" in refusal(E, state, 0, "play 5")


def test_a_round_with_points_left_leads_to_the_next_deal() -> None:
    state = E.load(position([[10], [20], [30], [40]], [[41], [42]]))
    state, events = play(state, [41, 42])
    assert of(events, "round_end") == [{"type": "round_end", "round": 1, "points": [66, 66]}]
    assert not of(events, "game_over")
    assert E.dump(state) == {**position([[], [], [], []], [[], []], phase="deal"), "round": 2}


def test_rounds_option_ends_the_game_after_that_many_rounds() -> None:
    rng = random.Random(11)
    state = E.new(4, {"rounds": 2})
    state = auto(state, rng, stop=lambda s: E.dump(s)["round"] == 2)
    assert E.dump(state)["phase"] == "deal"
    state = auto(state, rng)
    p = E.dump(state)
    assert p["phase"] == "over" and p["round"] == 2 and min(p["points"]) > 0
    assert E.outcome(state) == {"scores": p["points"], "ranks": ranks_from_scores(p["points"])}


def test_outcome_ranks_share_equal_points() -> None:
    p = position([[1], [2], [3], [4]], [[], [], [], []], phase="over", left=[10, 30, 10, 5],
                 rounds=3, rnd=3)
    assert E.outcome(E.load(p)) == {"scores": [10, 30, 10, 5], "ranks": [2, 1, 2, 4]}


# ---- illegal moves ------------------------------------------------------------------------


PICKING = position([[10], [20], [30], [40]], [[5, 50], [41, 60], [70, 80]])


@pytest.mark.parametrize(("actor", "move", "reason"), [
    (0, "play 42", "you do not hold card 42"),
    (0, "play 999", "'play 999' is not a move now"),
    (0, "take 1", "'take 1' is not a move now"),
    (0, "play  5", "is not a move now"),
    (3, "play 5", "there is no seat 3"),
    (CHANCE, "play 5", "chance does not act now"),
])
def test_illegal_picks_are_explained(actor: int, move: str, reason: str) -> None:
    assert reason in refusal(E, E.load(PICKING), actor, move)


def test_a_seat_picks_once_a_turn() -> None:
    state = E.apply(E.load(PICKING), 0, "play 5")
    assert "you have already picked this turn" in refusal(E, state, 0, "play 50")
    assert E.to_act(state) == [1, 2] and E.legal_moves(state, 0) == []


# ---- positions and views --------------------------------------------------------------------

SPEC_EXAMPLE = {
    "game": "six_nimmt",
    "options": {"players": 3, "points": 66, "professional": False, "cards": "standard",
                "rounds": None},
    "round": 1,
    "phase": "pick",
    "rows": [[5], [100], [79], [6, 42, 71]],
    "hands": [[7, 10, 13, 20, 51, 69, 75, 84], [8, 9, 12, 28, 31, 54, 56, 65, 90],
              [16, 29, 55, 73, 74, 78, 82, 94, 95]],
    "picked": [47, None, None],
    "pending": None,
    "queue": [],
    "points": [66, 65, 66],
    "pool": [],
    "drafter": None,
}


def test_the_rule_files_example_position_round_trips() -> None:
    state = E.load(copy.deepcopy(SPEC_EXAMPLE))
    assert E.dump(state) == SPEC_EXAMPLE
    assert json.loads(json.dumps(E.dump(state))) == SPEC_EXAMPLE
    assert E.to_act(state) == [1, 2]


def test_views_hide_other_hands_and_face_down_picks() -> None:
    state = E.load(copy.deepcopy(SPEC_EXAMPLE))
    v1 = E.view(state, 1)
    assert v1["hands"] == [None, SPEC_EXAMPLE["hands"][1], None]
    assert v1["picked"] == [True, None, None]
    assert v1["hand_sizes"] == [8, 9, 9] and v1["to_act"] == [1, 2]
    assert v1["rows"] == SPEC_EXAMPLE["rows"] and v1["points"] == SPEC_EXAMPLE["points"]
    v0 = E.view(state, 0)
    assert v0["picked"] == [47, None, None] and v0["hands"][0] == SPEC_EXAMPLE["hands"][0]
    spectator = E.view(state, None)
    assert spectator["hands"] == [None] * 3 and spectator["picked"] == [True, None, None]
    assert "47" not in json.dumps(spectator["picked"]) and "47" not in json.dumps(v1)
    with pytest.raises(ValueError):
        E.view(state, 3)


def test_logical_views_do_not_determine_another_seats_pick() -> None:
    # Hands are public in Logical, and a picked card leaves the hand at once: were the view
    # to show that hand, the one missing card would be the pick.
    base = position([[1], [2], [3], [4]], [[7, 9, 10, 12, 14, 16, 18, 20, 22, 24],
                                           [5, 6, 8, 11, 13, 15, 17, 19, 21, 23]],
                    cards="logical")
    state = E.load(base)
    assert E.to_act(state) == [0, 1]
    picks = {}
    for card in (9, 24, 7):
        after = E.apply(state, 0, f"play {card}")
        picks[card] = (E.view(after, 1), E.view(after, None))
        assert E.view(after, 0)["picked"][0] == card  # one's own pick stays visible
    views = list(picks.values())
    assert all(v == views[0] for v in views[1:])
    seen_by_1, spectator = views[0]
    assert seen_by_1["hands"][0] == base["hands"][0] == spectator["hands"][0]
    assert seen_by_1["picked"][0] is True


def test_view_after_reveal_shows_the_revealed_cards_waiting() -> None:
    state = E.load(position([[10], [20], [30], [40]], [[6, 1], [5, 2]]))
    state, _ = play(state, [6, 5])
    v = E.view(state, None)
    assert v["pending"] == {"seat": 1, "card": 5} and v["queue"] == [[6, 0]]
    assert v["hand_sizes"] == [1, 1]


def _bad(**changes):
    p = copy.deepcopy(SPEC_EXAMPLE)
    for k, v in changes.items():
        p[k] = v
    return p


LOAD_REJECTIONS = [
    ("game", _bad(game="senet")),
    ("options", _bad(options={"players": 3, "points": 66})),
    ("points", _bad(options={**SPEC_EXAMPLE["options"], "points": 0})),
    ("players", _bad(options={**SPEC_EXAMPLE["options"], "players": 11})),
    ("hands", _bad(hands=SPEC_EXAMPLE["hands"][:2])),
    ("round", _bad(round=0)),
    ("round", _bad(options={**SPEC_EXAMPLE["options"], "rounds": 2}, round=3)),
    ("phase", _bad(phase="dance")),
    (r"rows\[1\]: card 5 appears more than once", _bad(rows=[[5], [5], [79], [6, 42, 71]])),
    (r"hands\[0\]: card 5 appears more than once",
     _bad(hands=[[5, 10, 13, 20, 51, 69, 75, 84], *SPEC_EXAMPLE["hands"][1:]])),
    ("picked: card 7 appears more than once", _bad(picked=[7, None, None])),
    (r"rows\[0\]: card 105 is not in use", _bad(rows=[[105], [100], [79], [6, 42, 71]])),
    (r"rows\[3\]: cards must be in ascending order", _bad(rows=[[5], [100], [79], [6, 71, 42]])),
    (r"rows\[3\]: a row holds 1 to 5 cards", _bad(rows=[[5], [100], [79], []])),
    (r"hands\[0\]: cards must be in ascending order",
     _bad(hands=[[10, 7, 13, 20, 51, 69, 75, 84], *SPEC_EXAMPLE["hands"][1:]])),
    (r"hands\[0\]: holds 9 cards but 8 are expected",
     _bad(hands=[[1, 7, 10, 13, 20, 51, 69, 75, 84], *SPEC_EXAMPLE["hands"][1:]])),
    (r"hands\[2\]: holds 8 cards but 9 are expected",
     _bad(hands=[*SPEC_EXAMPLE["hands"][:2], [16, 29, 55, 73, 74, 78, 82, 94]])),
    ("picked: every seat has picked", _bad(picked=[47, 1, 2], hands=[
        SPEC_EXAMPLE["hands"][0], SPEC_EXAMPLE["hands"][1][:8], SPEC_EXAMPLE["hands"][2][:8]])),
    ("rows: hold more cards than have been played",
     _bad(rows=[[5], [100], [79], [6, 42, 43, 44, 71]])),
    ("pending: must be null", _bad(pending={"seat": 1, "card": 3})),
    ("queue: must be empty", _bad(queue=[[3, 1]])),
    ("pool: must be empty", _bad(pool=[3])),
    ("drafter: must be null", _bad(drafter=1)),
    (r"points\[1\]: 67 is more than", _bad(points=[66, 67, 66])),
    (r"points\[0\]: must be a whole number", _bad(points=[66.0, 65, 66])),
    (r"picked\[1\]", _bad(picked=[47, "x", None])),
    ("unknown field 'extra'", _bad(extra=1)),
    ("missing field 'pool'", {k: v for k, v in SPEC_EXAMPLE.items() if k != "pool"}),
    ("phase: logical cards are drafted",
     position([[], [], [], []], [[], []], phase="deal", cards="logical")),
    ("hands", position([[], [], [], []], [[1], []], phase="deal")),
    ("rows: must be empty", position([[1], [], [], []], [[], []], phase="deal")),
    ("points: nobody has taken", position([[], [], [], []], [[], []], phase="deal",
                                          left=[66, 60])),
    ("points: a seat has no points left",
     position([[], [], [], []], [[], []], phase="deal", left=[0, 60], rnd=2)),
    ("phase: the game is not over",
     position([[1], [2], [3], [4]], [[], []], phase="over", left=[5, 6], rnd=2)),
    ("pending: phase 'take' needs", position([[10], [20], [30], [40]], [[1], [2]],
                                              phase="take")),
    ("pending: card 15 fits a row", position([[10], [20], [30], [40]], [[1], [2]],
                                             phase="take", pending={"seat": 0, "card": 15})),
    ("queue: cards after the pending one must be higher",
     position([[10], [20], [30], [40]], [[1], [2]], phase="take",
              pending={"seat": 0, "card": 5}, queue=[[3, 1]])),
    ("queue: a seat has at most one card",
     position([[10], [20], [30], [40]], [[1], [2]], phase="take",
              pending={"seat": 0, "card": 5}, queue=[[6, 0]])),
    ("phase: 'side' only happens with professional",
     position([[10], [20], [30], [40]], [[1], [2]], phase="side",
              pending={"seat": 0, "card": 5})),
    ("pending: card 16 has no tie",
     position([[10], [20], [30], [40]], [[1], [2]], phase="side",
              pending={"seat": 0, "card": 16}, professional=True)),
    ("rows: must be a list of 4 lists", _bad(rows=[[5], [100], [79]])),
    ("pending: must be null or", _bad(pending={"seat": 1})),
    (r"hands\[1\]: True is not a card",
     _bad(hands=[SPEC_EXAMPLE["hands"][0], [True, *SPEC_EXAMPLE["hands"][1][1:]],
                 SPEC_EXAMPLE["hands"][2]])),
    (r"queue\[0\]: must be a \[card, seat\] pair",
     position([[10], [20], [30], [40]], [[1], [2]], phase="take",
              pending={"seat": 0, "card": 5}, queue=[[6]])),
    ("pending.seat", position([[10], [20], [30], [40]], [[1], [2]], phase="take",
                              pending={"seat": 2, "card": 5})),
]


@pytest.mark.parametrize("field, bad", LOAD_REJECTIONS,
                         ids=[f"{i}-{f[:30]}" for i, (f, _) in enumerate(LOAD_REJECTIONS)])
def test_load_rejects_impossible_positions_naming_the_field(field, bad) -> None:
    with pytest.raises(ValueError, match=field):
        E.load(bad)


def test_load_rejects_non_objects() -> None:
    for bad in (None, [], "six_nimmt"):
        with pytest.raises(ValueError):
            E.load(bad)


def test_load_checks_the_draft() -> None:
    state = E.new(2, {"cards": "logical", "rounds": 3})
    state = E.apply(state, 0, "draft 7")
    good = E.dump(state)
    assert E.dump(E.load(good)) == good
    with pytest.raises(ValueError, match="drafter: seat 1 drafts now"):
        E.load({**good, "drafter": 0})
    with pytest.raises(ValueError, match="pool and hands must hold every card"):
        E.load({**good, "pool": good["pool"][1:]})
    with pytest.raises(ValueError, match=r"hands\[0\]: holds 0 cards but 1"):
        E.load({**good, "hands": [[], [7]]})
    # Round 2 starts with seat 1.
    r2 = {**E.dump(E.new(2, {"cards": "logical", "rounds": 3})), "round": 2, "drafter": 1}
    assert E.dump(E.load(r2)) == r2
    with pytest.raises(ValueError, match="drafter"):
        E.load({**r2, "drafter": 0})


def test_load_accepts_the_side_phase_it_produces() -> None:
    state, turns = pro_game()
    state, _ = play(state, turns[0])
    state, _ = play(state, turns[1])
    p = E.dump(state)
    assert p["phase"] == "side"
    assert E.dump(E.load(p)) == p
    assert E.load(p) == state


# ---- the property loop ----------------------------------------------------------------------

MODES = ("standard", "tactical", "logical")
_CHECKPOINTS = {"take", "choose", "round_end", "rows_start", "game_over"}
GAMES = 1000


def _cards_in_play(p: dict) -> list[int]:
    cards = [c for r in p["rows"] for c in r] + [c for h in p["hands"] for c in h]
    cards += [c for c in p["picked"] if c is not None] + p["pool"] + [q[0] for q in p["queue"]]
    if p["pending"]:
        cards.append(p["pending"]["card"])
    return cards


def _refused(state, actor: int, move: str) -> None:
    try:
        E.apply(state, actor, move)
    except IllegalMove as e:
        assert str(e)  # a message for the player
        return
    raise AssertionError(f"{move!r} by {actor} was accepted")


_PROBES = ("play 0", "play 105", "take 5", "take 0", "place 5 left", "draft 105", "deal 1",
           "place 1 right", "hello", "play 1", "take 1", "draft 1", "place 1 left")


def _probe_illegal(state, n: int, rng: random.Random, actors: list[int]) -> None:
    for actor in actors:
        if actor == CHANCE:
            probes = ["deal 1 2 3", "play 1"]
        else:
            legal = set(E.legal_moves(state, actor))
            probes = [m for m in _PROBES + (f"play {rng.randint(1, 104)}",
                                            f"take {rng.randint(1, 4)}") if m not in legal]
        for move in probes:
            _refused(state, actor, move)
    for seat in range(-1, n + 1):
        if seat not in actors:
            _refused(state, seat, rng.choice(_PROBES[-4:]))


def _check_views(state, p: dict, seat) -> None:
    v = E.view(state, seat)
    logical = p["options"]["cards"] == "logical"
    for i in range(p["options"]["players"]):
        if i == seat:
            assert v["hands"][i] == p["hands"][i] and v["picked"][i] == p["picked"][i]
        else:
            # Logical hands are public, but a face-down pick stays in its hand until the reveal.
            hand = sorted(p["hands"][i] + ([p["picked"][i]] if p["picked"][i] else []))
            assert v["hands"][i] == (hand if logical else None)
            assert v["picked"][i] is (None if p["picked"][i] is None else True)
    assert v["hand_sizes"] == [len(h) for h in p["hands"]]
    assert v["to_act"] == E.to_act(state)
    public = {k: x for k, x in v.items() if k not in ("hands", "picked", "hand_sizes", "to_act")}
    assert public == {k: x for k, x in p.items() if k not in ("hands", "picked")}


def _random_setup(rng: random.Random) -> tuple[int, dict]:
    players = rng.randint(2, 10)
    options = {"professional": rng.random() < 0.5, "cards": rng.choice(MODES),
               "points": rng.choice([1, 2, 3, 5, 8, 13])}
    if rng.random() < 0.25:
        options["rounds"] = rng.randint(1, 3)
        options["points"] = rng.choice([5, 66])
    return players, options


def test_random_games_keep_every_invariant() -> None:
    rng = random.Random(20260529)
    seen = Counter()
    for game in range(GAMES):
        players, options = _random_setup(rng)
        deep = game % 20 == 0  # views, every illegal probe and every legal move, each step
        seen[(options["cards"], options["professional"])] += 1
        start = options["points"]
        state = E.new(players, options)
        dealt: list[int] = []
        taken_round: list[int] = []
        lost = [0] * players
        full = True  # position checks: at the start, after takes, choices, round ends and
        # rows starting, and on every 8th step (all of them in deep games)
        for step in range(5000):
            actors = E.to_act(state)
            assert actors == sorted(set(actors))
            acting = [bool(E.legal_moves(state, seat)) for seat in range(players)]
            assert acting == [seat in actors for seat in range(players)]  # they agree
            if actors != [CHANCE]:
                assert E.legal_moves(state, CHANCE) == []
            if full or deep or step % 8 == 0:
                p = E.dump(state)
                loaded = E.load(p)
                assert loaded == state and E.dump(loaded) == p
                assert (p["phase"] == "deal") == (actors == [CHANCE])
                if p["phase"] == "draft" and len(p["pool"]) == 10 * players + 4:
                    dealt, taken_round = list(p["pool"]), []
                # Cards are conserved within a round; points lost are the bullheads taken.
                if p["phase"] != "deal":
                    assert sorted(_cards_in_play(p) + taken_round) == sorted(dealt)
                assert [start - x for x in p["points"]] == lost
                if deep:
                    _check_views(state, p, rng.randrange(players))
                    _check_views(state, p, None)
                    _probe_illegal(state, players, rng, actors)
            if actors:  # one cheap probe each step: a seat that need not act is refused
                _refused(state, rng.choice([s for s in range(-1, players + 1)
                                            if s not in actors]), "play 1")
            else:
                break
            actor = rng.choice(actors)
            if actor == CHANCE:
                move = E.sample_chance(state, rng)
                dealt, taken_round = [int(t) for t in move.split()[1:]], []
            else:
                moves = E.legal_moves(state, actor)
                assert moves == sorted(set(moves))
                if deep:
                    for other in moves:  # every legal move applies
                        E.apply(state, actor, other)
                move = rng.choice(moves)
            key = state._key()
            fast = E.apply(state, actor, move)
            state2, events = E.apply_events(state, actor, move)
            assert state._key() == key, "apply mutated its input"
            if deep:
                assert E.dump(state) == p, "apply mutated its input"
            assert fast == state2  # the fast path agrees with the explained one
            if deep:
                json.dumps(events)
            full = False
            for e in events:
                if e["type"] == "take":
                    assert e["bullheads"] == sum(map(bullheads, e["cards"]))
                    lost[e["seat"]] += e["bullheads"]
                    taken_round += e["cards"]
                elif e["type"] == "pick":
                    assert set(e) == {"type", "seat"}  # a face-down pick tells no card
                if e["type"] in _CHECKPOINTS:
                    full = True
            state = state2
        else:
            pytest.fail(f"game {game} did not end")
        p = E.dump(state)
        assert p["phase"] == "over"
        assert min(p["points"]) <= 0 or p["round"] == options.get("rounds")
        assert E.outcome(state) == {"scores": p["points"],
                                    "ranks": ranks_from_scores(p["points"])}
    assert len(seen) == 6  # every card mode, with and without professional
