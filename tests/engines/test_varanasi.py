"""Varanasi rules (docs/rules/varanasi.md), its options, positions, the Grundy helper and a
seeded random-game loop over many option sets."""

from __future__ import annotations

import random
import re

import pytest

from engines import CHANCE, IllegalMove, get_engine
from engines.varanasi import COLOUR_LETTERS, VaranasiState, parse_tower
from engines.varanasi_grundy import canonical, grundy, tower_code
from tests.helpers.playout import random_steps
from tests.helpers.refusals import refusal

ENG = get_engine("varanasi")


def discs_in_use(colours: int) -> set[str]:
    return {c + str(s) for c in COLOUR_LETTERS[:colours] for s in (1, 2, 3, 4)}


def split(tower: str) -> list[str]:
    return [tower[i : i + 2] for i in range(0, len(tower), 2)]


def position(
    towers: list[str],
    turn: int = 0,
    players: int = 2,
    taken: list[list[str]] | None = None,
    scores: list[int] | None = None,
    set_no: int = 1,
    phase: str = "play",
    **options: object,
) -> dict:
    """A position in play; discs in use that are on no tower go to the last seat's `taken`
    unless `taken` is given."""
    opts = ENG.default_options(players)
    opts.update(options)
    if taken is None:
        on_board = {d for t in towers for d in split(t)}
        taken = [[] for _ in range(players)]
        taken[-1] = sorted(discs_in_use(opts["colours"]) - on_board)
    return {
        "game": "varanasi",
        "options": opts,
        "set": set_no,
        "phase": phase,
        "towers": towers,
        "turn": turn,
        "taken": taken,
        "scores": scores or [0] * players,
    }


def load(towers: list[str], **kwargs: object) -> VaranasiState:
    return ENG.load(position(towers, **kwargs))


def towers_of(state: VaranasiState) -> list[str]:
    return ENG.dump(state)["towers"]


# -- identity and options ---------------------------------------------------------------------


def test_identity_and_defaults() -> None:
    assert (ENG.id, ENG.min_players, ENG.max_players) == ("varanasi", 2, 4)
    for players, colours in ((2, 3), (3, 4), (4, 5)):
        opts = ENG.default_options(players)
        assert opts == {
            "players": players, "colours": colours, "height_rule": "after",
            "scoring": "set_total", "weighted": False, "misere": False, "teams": False,
            "team_scoring": "winner", "sets": 3, "target": None,
        }
    names = [o.name for o in ENG.option_spec]
    assert names == [
        "colours", "height_rule", "scoring", "weighted", "misere", "teams", "team_scoring",
        "sets", "target",
    ]
    assert all(o.help for o in ENG.option_spec)


@pytest.mark.parametrize(
    ("players", "options", "named"),
    [
        (2, {"colours": 7}, "colours"),
        (2, {"colours": 2}, "colours"),
        (2, {"height_rule": "during"}, "height_rule"),
        (2, {"scoring": "all"}, "scoring"),
        (2, {"weighted": 1}, "weighted"),
        (3, {"misere": True}, "misere"),
        (4, {"misere": True}, "misere"),
        (2, {"teams": True}, "teams"),
        (3, {"teams": True}, "teams"),
        (4, {"team_scoring": "all"}, "team_scoring"),
        (2, {"sets": 0}, "sets"),
        (2, {"sets": 100}, "sets"),
        (2, {"target": 0}, "target"),
        (2, {"target": 1000}, "target"),
        (2, {"players": 3}, "players"),
        (2, {"bogus": 1}, "bogus"),
        (5, {}, "players"),
        (1, {}, "players"),
    ],
)
def test_new_rejects_bad_options_by_name(players: int, options: dict, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        ENG.new(players, options)


def test_new_accepts_the_allowed_variants() -> None:
    ENG.new(2, {"misere": True})
    ENG.new(4, {"misere": True, "teams": True, "team_scoring": "sum"})
    ENG.new(3, {"colours": 6, "target": 20, "weighted": True, "height_rule": "before"})
    state = ENG.new(2)
    assert ENG.to_act(state) == [CHANCE]
    assert ENG.dump(state)["towers"] == [] and ENG.dump(state)["phase"] == "setup"
    assert ENG.dump(state)["taken"] == [[], []] and ENG.dump(state)["turn"] == 0


# -- chance: the setup ----------------------------------------------------------------------


def test_chance_cannot_be_listed_and_samples_valid_setups() -> None:
    state = ENG.new(3)
    with pytest.raises(NotImplementedError):
        ENG.legal_moves(state, CHANCE)
    with pytest.raises(NotImplementedError):
        ENG.chance_odds(state)
    assert ENG.legal_moves(state, 0) == []
    rng = random.Random(1)
    spot_counts = set()
    for _ in range(200):
        move = ENG.sample_chance(state, rng)
        assert move.startswith("setup ")
        towers = move[6:].split("|")
        spot_counts.add(len(towers))
        discs = [d for t in towers for d in split(t)]
        assert sorted(discs) == sorted(discs_in_use(4))
        for t in towers:
            sizes = [int(d[1]) for d in split(t)]
            assert sizes and sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
        after = ENG.apply(state, CHANCE, move)
        assert towers_of(after) == towers
    assert min(spot_counts) >= 4 and len(spot_counts) > 3  # a large disc starts every tower
    with pytest.raises(ValueError):
        ENG.sample_chance(after, rng)


def test_setup_event_and_who_begins() -> None:
    state = ENG.new(3, {"sets": 3})
    setup = "setup r4r3|b4b3b2b1|g4g3g2g1|y4y3y2y1|r2r1"
    after, events = ENG.apply_events(state, CHANCE, setup)
    assert events == [{"type": "setup", "set": 1, "towers": setup[6:].split("|")}]
    assert ENG.to_act(after) == [0]
    second = ENG.load(position([], phase="setup", set_no=2, turn=1, players=3, taken=[[]] * 3))
    assert ENG.to_act(ENG.apply(second, CHANCE, setup)) == [1]


# -- takes ------------------------------------------------------------------------------------


def test_take_removes_the_top_of_every_tower_of_that_colour() -> None:
    state = load(["r4r3", "b4", "g4r1", "b3r2"], turn=1)
    after, events = ENG.apply_events(state, 1, "take r")
    assert towers_of(after) == ["r4", "b4", "g4", "b3"]  # the uncovered r4 stays
    assert ENG.dump(after)["taken"][1][-3:] == ["r3", "r1", "r2"]  # in spot order
    assert ENG.to_act(after) == [0]
    assert events == [
        {"type": "take", "seat": 1, "colour": "r", "discs": [[1, "r3"], [3, "r1"], [4, "r2"]]}
    ]


def test_take_needs_a_top_disc_of_the_colour() -> None:
    state = load(["r4b3", "g4"])
    assert "no top disc is red" in refusal(ENG, state, 0, "take r")
    assert "no top disc is yellow" in refusal(ENG, state, 0, "take y")  # not even in use
    assert "not a colour" in refusal(ENG, state, 0, "take x")


def test_emptied_spots_keep_their_numbers() -> None:
    state = load(["r1", "b4", "g4"])
    after = ENG.apply(state, 0, "take r")
    assert towers_of(after) == ["", "b4", "g4"]
    assert ENG.legal_moves(after, 1) == ["take b", "take g"]
    assert "spot 1 is empty" in refusal(ENG, after, 1, "move 1 1 2")


# -- moves ------------------------------------------------------------------------------------


def test_move_part_of_a_tower() -> None:
    state = load(["g3b2r1", "g4", "b4b3"])
    after, events = ENG.apply_events(state, 0, "move 1 2 3")
    assert towers_of(after) == ["g3", "g4", "b4b3b2r1"]
    assert events == [
        {"type": "move", "seat": 0, "from": 1, "count": 2, "to": 3, "discs": ["b2", "r1"]}
    ]


def test_move_a_whole_tower_leaves_an_empty_spot() -> None:
    state = load(["r2r1", "g4g3", "b4"])
    after = ENG.apply(state, 0, "move 1 2 2")
    assert towers_of(after) == ["", "g4g3r2r1", "b4"]
    assert "move 1 2 2" in ENG.legal_moves(state, 0)


def test_height_rule_after_needs_the_destination_to_end_higher() -> None:
    state = load(["r3r2r1", "b4", "g4g3"])
    # d + K > s, with s the source height and d the destination height before the move
    for move in ("move 1 1 3", "move 1 1 2", "move 1 2 2", "move 3 1 2"):  # 3, 2, 3, 2 vs s
        assert re.search(r"must end higher than spot \d was", refusal(ENG, state, 0, move))
    assert towers_of(ENG.apply(state, 0, "move 1 2 3")) == ["r3", "b4", "g4g3r2r1"]
    assert towers_of(ENG.apply(state, 0, "move 1 3 2")) == ["", "b4r3r2r1", "g4g3"]
    assert ENG.legal_moves(state, 0) == [
        "move 1 2 3", "move 1 3 2", "take b", "take g", "take r"
    ]


def test_height_rule_before_needs_the_destination_to_be_higher_already() -> None:
    state = load(["r2r1", "b4", "g4g3b2"], height_rule="before")
    assert "spot 2 must already be higher than spot 1" in refusal(ENG, state, 0, "move 1 2 2")
    assert towers_of(ENG.apply(state, 0, "move 1 1 3")) == ["r2", "b4", "g4g3b2r1"]
    assert ENG.legal_moves(state, 0) == ["move 1 1 3", "take b", "take r"]
    after_rule = load(["r2r1", "b4", "g4g3b2"])
    assert ENG.legal_moves(after_rule, 0) == ["move 1 1 3", "move 1 2 2", "take b", "take r"]


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("move 1 1 2", "can only go on a larger disc"),
        ("move 2 1 1", "can only go on a larger disc"),  # same size
        ("move 1 1 4", "spot 4 is empty"),
        ("move 4 1 1", "spot 4 is empty"),
        ("move 1 1 6", "no spot 6"),
        ("move 9 1 1", "no spot 9"),
        ("move 30 1 1", "no spot 30"),
        ("move 1 1 1", "another spot"),
        ("move 3 3 1", "spot 3 has only 2 discs"),
        ("move 2 0 1", "at least one"),
        ("move 0 1 1", "numbered from 1"),
        ("move 01 1 2", "not a move"),
        ("move 1 1", "not a move"),
        ("pass", "not a move"),
        ("", "not a move"),
        ("Take r", "not a move"),
    ],
)
def test_illegal_moves_say_why(move: str, message: str) -> None:
    state = load(["r3r2", "g2", "b4b1", "", "g4g3"])
    assert message in refusal(ENG, state, 0, move)


def test_a_move_must_be_a_string() -> None:
    state = load(["r3r2", "g4"])
    for move in (None, ["take", "r"], 3):
        assert "not a move" in refusal(ENG, state, 0, move)


def test_only_the_seat_to_move_may_act() -> None:
    state = load(["r3r2", "g4"], turn=1)
    assert "not your turn" in refusal(ENG, state, 0, "take r")
    assert "chance" in refusal(ENG, state, CHANCE, "setup r4")
    assert ENG.legal_moves(state, 0) == [] and ENG.legal_moves(state, CHANCE) == []
    with pytest.raises(ValueError):
        ENG.sample_chance(state, random.Random(0))


def test_there_is_always_a_take_so_never_a_pass() -> None:
    state = load(["r4"])
    assert ENG.legal_moves(state, 0) == ["take r"]


# -- end of a set and scoring -----------------------------------------------------------------


def finish(
    players: int = 2, turn: int = 0, taken: list[list[str]] | None = None, **options: object
) -> tuple[VaranasiState, list[dict]]:
    """A set with one disc (r1) left, taken by `turn`; other discs in `taken`."""
    state = load(["r1"], turn=turn, players=players, taken=taken, **options)
    return ENG.apply_events(state, turn, "take r")


def test_last_taker_wins_the_set_and_scores_all_discs_taken() -> None:
    taken = [["r4", "r3", "b4"], sorted(discs_in_use(3) - {"r4", "r3", "b4", "r1"})]
    after, events = finish(taken=taken, sets=2)
    assert events[-1] == {
        "type": "set_end", "set": 1, "winner": 0, "last_taker": 0, "points": [4, 0],
        "scores": [4, 0],
    }
    dumped = ENG.dump(after)
    assert dumped["phase"] == "setup" and dumped["set"] == 2 and dumped["turn"] == 1
    assert dumped["towers"] == [] and dumped["taken"] == [[], []]
    assert ENG.to_act(after) == [CHANCE] and ENG.outcome(after) is None


def test_last_take_and_weighted_scoring() -> None:
    rest = sorted(discs_in_use(3) - {"r1", "r4"})
    state = load(["r4", "r1"], taken=[rest, []], turn=1, scoring="last_take", sets=1)
    after, events = ENG.apply_events(state, 1, "take r")
    assert events[-2]["points"] == [0, 2]
    state = load(["r4", "r1"], taken=[rest, []], turn=1, weighted=True, sets=1)
    assert ENG.apply_events(state, 1, "take r")[1][-2]["points"] == [0, 5]
    state = load(["r4"], taken=[rest, ["r1"]], turn=1, weighted=True, scoring="last_take")
    assert ENG.apply_events(state, 1, "take r")[1][-1]["points"] == [0, 4]


def test_match_end_keeps_the_last_set_and_ranks() -> None:
    taken = [["b4"], sorted(discs_in_use(3) - {"b4", "r1"})]
    after, events = finish(taken=taken, turn=1, sets=1, scores=None)
    dumped = ENG.dump(after)
    assert dumped["phase"] == "over" and dumped["towers"] == [""] and dumped["turn"] == 1
    assert dumped["taken"][1][-1] == "r1"
    assert ENG.to_act(after) == [] and ENG.legal_moves(after, 1) == []
    assert ENG.outcome(after) == {"scores": [0, 11], "ranks": [2, 1]}
    assert events[-1] == {"type": "game_over", "scores": [0, 11], "ranks": [2, 1]}
    assert "over" in refusal(ENG, after, 1, "take r")


def test_equal_totals_share_a_rank() -> None:
    state = load(["r1"], players=3, turn=2, scores=[1, 5, 0], set_no=3,
                 taken=[[], [], sorted(discs_in_use(4) - {"r1"})], colours=4)
    after = ENG.apply(state, 2, "take r")
    assert ENG.outcome(after) == {"scores": [1, 5, 16], "ranks": [3, 2, 1]}
    state = load(["r1"], players=3, turn=0, scores=[0, 2, 2], set_no=3, colours=4,
                 taken=[[], ["r4"], sorted(discs_in_use(4) - {"r1", "r4"})],
                 scoring="last_take")
    assert ENG.outcome(ENG.apply(state, 0, "take r")) == {"scores": [1, 2, 2], "ranks": [3, 1, 1]}


def test_each_set_is_begun_by_the_next_seat() -> None:
    state = ENG.new(3, {"sets": 4, "colours": 3})
    rng = random.Random(3)
    starters = []
    for before, actor, move in random_steps(ENG, state, rng):
        state = ENG.apply(before, actor, move)
        if actor == CHANCE:
            starters.append(ENG.to_act(state)[0])
    assert starters == [0, 1, 2, 0]
    assert ENG.dump(state)["set"] == 4


def test_target_ends_the_match_and_ignores_sets() -> None:
    rest = sorted(discs_in_use(3) - {"r1"})
    state = load(["r1"], taken=[rest, []], target=12, sets=1, set_no=5, scores=[0, 5])
    after = ENG.apply(state, 0, "take r")
    assert ENG.dump(after)["phase"] == "over" and ENG.outcome(after)["scores"] == [12, 5]
    state = load(["r1"], taken=[rest, []], target=13, sets=1, set_no=5, scores=[0, 5])
    after = ENG.apply(state, 0, "take r")
    assert ENG.dump(after)["phase"] == "setup" and ENG.dump(after)["set"] == 6


def test_misere_next_seat_wins() -> None:
    taken = [["b4", "b3"], sorted(discs_in_use(3) - {"b4", "b3", "r1"})]
    _, events = finish(taken=taken, turn=1, misere=True)
    assert events[-1]["winner"] == 0 and events[-1]["last_taker"] == 1
    assert events[-1]["points"] == [2, 0]
    state = load(["r2", "r1"], taken=[["b4"], sorted(discs_in_use(3) - {"b4", "r1", "r2"})],
                 turn=1, misere=True, scoring="last_take")
    _, events = ENG.apply_events(state, 1, "take r")
    assert events[-1]["winner"] == 0 and events[-1]["points"] == [2, 0]


def team_taken() -> list[list[str]]:
    rest = sorted(discs_in_use(5) - {"r1", "b4", "b3", "g4", "y4", "y3", "y2"})
    return [["b4", "b3"], ["g4"], ["y4", "y3", "y2"], rest]


def test_teams_winner_scoring_and_team_ranks() -> None:
    after, events = finish(players=4, turn=0, taken=team_taken(), teams=True, sets=1)
    assert events[-2]["points"] == [3, 0, 0, 0]
    assert ENG.outcome(after) == {"scores": [3, 0, 0, 0], "ranks": [1, 2, 1, 2]}


def test_teams_sum_scoring() -> None:
    after, events = finish(
        players=4, turn=0, taken=team_taken(), teams=True, team_scoring="sum", sets=1
    )
    assert events[-2]["points"] == [3, 0, 3, 0]
    _, events = finish(
        players=4, turn=0, taken=team_taken(), teams=True, team_scoring="sum",
        scoring="last_take",
    )
    assert events[-1]["points"] == [1, 0, 0, 0]


def test_teams_misere_other_team_wins() -> None:
    _, events = finish(
        players=4, turn=3, taken=team_taken(), teams=True, misere=True, team_scoring="sum"
    )
    assert events[-1]["winner"] == 0 and events[-1]["last_taker"] == 3
    assert events[-1]["points"] == [2, 0, 3, 0]


def test_team_target_counts_team_totals() -> None:
    after, _ = finish(
        players=4, turn=0, taken=team_taken(), teams=True, target=10, scores=[0, 4, 7, 5]
    )
    # team 0+2 reaches 3 + 7 = 10 although no seat has 10
    assert ENG.outcome(after) == {"scores": [3, 4, 7, 5], "ranks": [1, 2, 1, 2]}


def test_doubles_rank_the_two_teams_first_and_second_or_both_first() -> None:
    """Ranks are per team: the losing team is 2nd (not 3rd, as two seats would skip to)."""
    after, events = finish(
        players=4, turn=2, taken=team_taken(), teams=True, sets=1, scores=[0, 4, 0, 5]
    )
    assert ENG.outcome(after)["ranks"] == [2, 1, 2, 1]  # team 1+3: 9; team 0+2: 4
    assert events[-1]["ranks"] == [2, 1, 2, 1]
    tied, _ = finish(
        players=4, turn=2, taken=team_taken(), teams=True, sets=1, scores=[0, 2, 0, 2]
    )
    assert ENG.outcome(tied) == {"scores": [0, 2, 4, 2], "ranks": [1, 1, 1, 1]}  # 4 each


# -- positions --------------------------------------------------------------------------------

EXAMPLE = {
    "game": "varanasi",
    "options": {"players": 2, "colours": 3, "height_rule": "after", "scoring": "set_total",
                "weighted": False, "misere": False, "teams": False, "team_scoring": "winner",
                "sets": 3, "target": None},
    "set": 1,
    "phase": "play",
    "towers": ["b4r3", "b3b2", "r4g3g1", "", "", "g4g2"],
    "turn": 1,
    "taken": [["r1", "r2"], ["b1"]],
    "scores": [0, 0],
}


def test_the_rule_file_example_round_trips() -> None:
    state = ENG.load(EXAMPLE)
    assert ENG.dump(state) == EXAMPLE
    view = ENG.view(state, 0)
    assert view.pop("to_act") == [1] and view == EXAMPLE
    assert ENG.view(state, None)["to_act"] == [1]


def changed(**fields: object) -> dict:
    p = {k: (list(v) if isinstance(v, list) else v) for k, v in EXAMPLE.items()}
    p["options"] = dict(EXAMPLE["options"])
    for key, value in fields.items():
        if key.startswith("o_"):
            p["options"][key[2:]] = value
        elif value is None and key != "target":
            del p[key]
        else:
            p[key] = value
    return p


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        (changed(game="senet"), "game"),
        (changed(options=None), "options"),
        (changed(options=[]), "options"),
        (changed(o_colours=9), "options"),
        (changed(o_teams=True), "options"),
        (changed(o_players=4), "scores"),
        (changed(o_extra=1), "options"),
        (changed(set=0), "set"),
        (changed(set=4), "set"),
        (changed(set="1"), "set"),
        (changed(phase="playing"), "phase"),
        (changed(phase=["play"]), "phase"),
        (changed(taken=[[["r1"]], ["b1", "r2"]]), "taken"),
        (changed(towers=["b4r3", "b3b2", "r4g3g1", "", "", 7]), "towers"),
        ("not a position", "position"),
        (changed(towers="b4r3"), "towers"),
        (changed(towers=["b4r3", "b3b2", "r4g1g3", "", "", "g4g2"]), "towers"),
        (changed(towers=["b4r3", "b3b2", "r4g3g1", "", "", "g4g2", "r1"]), "taken"),
        (changed(towers=["b4r3", "b3b2", "r4g3g1", "", "", "g4"]), "towers"),
        (changed(towers=["b4r3", "b3b2", "r4g3g1", "y1", "", "g4g2"]), "towers"),
        (changed(towers=["b4r3", "b3b2", "r4g3g1", "x1", "", "g4g2"]), "towers"),
        (changed(towers=["", "", ""], taken=[["r1", "r2"], ["b1"]]), "towers"),
        (changed(taken=[["r1"], ["b1"]]), "towers"),
        (changed(taken=[["r1", "r2", "r2"], ["b1"]]), "taken"),
        (changed(taken=[["r1", "r2"], ["b1"], []]), "taken"),
        (changed(taken=[["r1", "r2"], ["b9"]]), "taken"),
        (changed(turn=2), "turn"),
        (changed(turn=True), "turn"),
        (changed(scores=[0]), "scores"),
        (changed(scores=[0, -1]), "scores"),
        (changed(scores=None), "scores"),
        (changed(towers=None), "towers"),
        (changed(phase="setup"), "towers"),
        (changed(phase="over"), "set"),
        (changed(o_target=5, scores=[5, 0]), "scores"),
    ],
)
def test_load_rejects_malformed_positions_by_field(bad: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        ENG.load(bad)


def test_load_checks_setup_and_over_positions() -> None:
    setup = position([], phase="setup", taken=[[], []], set_no=2, turn=1)
    assert ENG.dump(ENG.load(setup)) == setup
    with pytest.raises(ValueError, match="turn"):
        ENG.load(position([], phase="setup", taken=[[], []], set_no=2, turn=0))
    with pytest.raises(ValueError, match="taken"):
        ENG.load(position([], phase="setup", taken=[["r1"], []], set_no=2, turn=1))
    over = position(["", ""], phase="over", set_no=3, turn=1, scores=[3, 12])
    assert ENG.dump(ENG.load(over)) == over
    with pytest.raises(ValueError, match="turn"):
        ENG.load(position(["", ""], phase="over", set_no=3, turn=0, scores=[3, 12],
                          taken=[[], sorted(discs_in_use(3))]))
    with pytest.raises(ValueError, match="towers"):
        ENG.load(position([], phase="over", set_no=3, turn=1))


# -- the Grundy helper ------------------------------------------------------------------------


def test_grundy_examples() -> None:
    assert grundy(["r1", "b2"]) == 2
    assert grundy(["r3", "b2r1", "b3"]) == 3
    assert grundy(["r1", "b2"], "before") == 0
    assert grundy(["r3", "b2r1", "b3"], "before") == 2
    assert grundy([]) == 0 and grundy(["", ""]) == 0
    assert grundy(["r1"]) == 1 and grundy(["r2r1"]) == 0  # r1 then r2: two takes
    assert grundy(["r1", "r2"]) == 1  # take both at once
    assert grundy(["r1", "b1"]) == 0  # two takes, the second player takes last


def test_grundy_ignores_spot_order_empty_spots_and_colour_names() -> None:
    base = ["r4g3r1", "b2", "g4b1", "r3g2"]
    value = grundy(base)
    assert grundy(["", "r3g2", "b2", "", "g4b1", "r4g3r1"]) == value
    assert grundy(["k4w3k1", "r2", "w4r1", "k3w2"]) == value
    codes = [tower_code(parse_tower(t)) for t in base]
    renamed = [tower_code(parse_tower(t)) for t in ["w4k3w1", "b2", "k4b1", "w3k2"]]
    assert canonical(codes) == canonical(reversed(renamed)) == canonical([0, *codes])
    assert canonical([]) == []


def test_grundy_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        grundy(["r1", "r1"])
    with pytest.raises(ValueError):
        grundy(["r1r2"])
    with pytest.raises(ValueError):
        grundy(["r1"], "during")


def random_towers(rng: random.Random, n_discs: int, colours: int = 3) -> list[str]:
    discs = rng.sample(sorted(discs_in_use(colours)), n_discs)
    discs.sort(key=lambda d: -int(d[1]))
    towers: list[list[str]] = []
    for d in discs:
        open_ = [t for t in towers if int(t[-1][1]) > int(d[1])]
        pick = rng.randrange(len(open_) + 1)
        if pick == len(open_):
            towers.append([d])
        else:
            open_[pick].append(d)
    rng.shuffle(towers)
    return ["".join(t) for t in towers]


def to_move_wins(state: VaranasiState, memo: dict) -> bool:
    """Brute force through the engine itself: some move takes the last disc or leaves the
    opponent a lost position."""
    key = tuple(towers_of(state))
    if key not in memo:
        seat = ENG.to_act(state)[0]
        memo[key] = False
        for move in ENG.legal_moves(state, seat):
            nxt = ENG.apply(state, seat, move)
            if not ENG.to_act(nxt) or not to_move_wins(nxt, memo):
                memo[key] = True
                break
    return memo[key]


@pytest.mark.parametrize("rule", ["after", "before"])
def test_grundy_zero_exactly_when_the_player_to_move_loses(rule: str) -> None:
    rng = random.Random(11 if rule == "after" else 12)
    seen = {True: 0, False: 0}
    for _ in range(300):
        towers = random_towers(rng, rng.randint(1, 8), rng.choice((3, 4)))
        state = load(towers, sets=1, height_rule=rule, colours=4)
        wins = to_move_wins(state, {})
        assert (grundy(towers, rule) != 0) == wins, towers
        seen[wins] += 1
    assert min(seen.values()) > 30  # both kinds of position were checked


def test_grundy_is_the_mex_over_the_engine_moves() -> None:
    rng = random.Random(5)
    for _ in range(60):
        rule = rng.choice(("after", "before"))
        towers = random_towers(rng, rng.randint(2, 8))
        state = load(towers, sets=1, height_rule=rule)
        values = set()
        for move in ENG.legal_moves(state, 0):
            nxt = ENG.apply(state, 0, move)
            values.add(grundy(towers_of(nxt), rule) if ENG.to_act(nxt) else 0)
        mex = next(g for g in range(len(values) + 1) if g not in values)
        assert grundy(towers, rule) == mex, towers


# -- a seeded random-game loop ----------------------------------------------------------------

OPTION_SETS = [
    (2, {"sets": 1}),
    (2, {"sets": 2, "height_rule": "before"}),
    (2, {"sets": 1, "misere": True, "colours": 4}),
    (2, {"target": 8, "scoring": "last_take", "weighted": True}),
    (3, {"sets": 1}),
    (3, {"sets": 1, "colours": 3, "weighted": True}),
    (4, {"sets": 1, "colours": 3}),
    (4, {"sets": 1, "teams": True, "team_scoring": "sum", "colours": 4}),
    (4, {"target": 6, "teams": True, "misere": True, "colours": 3}),
    (2, {"sets": 1, "colours": 6, "height_rule": "before"}),
]


def heights_squared(towers: list[str]) -> int:
    return sum((len(t) // 2) ** 2 for t in towers)


def probes(rng: random.Random, spots: int) -> list[str]:
    out = [f"take {rng.choice(COLOUR_LETTERS)}"]
    for _ in range(4):
        out.append(
            f"move {rng.randint(1, spots + 1)} {rng.randint(1, 4)} {rng.randint(1, spots + 1)}"
        )
    return out


def every_move(spots: int) -> list[str]:
    moves = [f"take {c}" for c in COLOUR_LETTERS]
    for f in range(1, spots + 2):
        for k in range(1, 6):
            moves += [f"move {f} {k} {t}" for t in range(1, spots + 2)]
    return sorted(moves)


def applies(state: VaranasiState, actor: int, move: str) -> bool:
    try:
        ENG.apply(state, actor, move)
    except IllegalMove:
        return False
    return True


def test_random_games_keep_every_rule() -> None:
    rng = random.Random(2024)
    games = 0
    for game in range(1000):
        players, options = OPTION_SETS[game % len(OPTION_SETS)]
        state = ENG.new(players, options)
        in_use = discs_in_use(ENG.dump(state)["options"]["colours"])
        thorough = game < 100  # every legal move is applied in these games
        exhaustive = game < 20  # every well-formed move is tried in these
        for _step in range(5000):
            p = ENG.dump(state)
            actors = ENG.to_act(state)
            for seat in range(players):
                assert bool(ENG.legal_moves(state, seat)) == (seat in actors)
            if not actors:
                break
            actor = actors[0]
            if actor == CHANCE:
                move = ENG.sample_chance(state, rng)
            else:
                if p["phase"] == "play":
                    on_board = [d for t in p["towers"] for d in split(t)]
                    took = [d for seat in p["taken"] for d in seat]
                    assert sorted(on_board + took) == sorted(in_use)
                legal = ENG.legal_moves(state, actor)
                assert legal == sorted(set(legal))
                for probe in probes(rng, len(p["towers"])):
                    if probe in legal:
                        ENG.apply(state, actor, probe)
                    else:
                        with pytest.raises(IllegalMove):
                            ENG.apply(state, actor, probe)
                if thorough:
                    for other in legal:
                        ENG.apply(state, actor, other)
                if exhaustive:
                    assert legal == [m for m in every_move(len(p["towers"])) if applies(
                        state, actor, m
                    )]
                move = rng.choice(legal)
            nxt = ENG.apply(state, actor, move)
            assert ENG.dump(state) == p, "apply changed its input"
            q = ENG.dump(nxt)
            assert ENG.dump(ENG.load(q)) == q
            if move.startswith("move"):
                assert heights_squared(q["towers"]) > heights_squared(p["towers"])
            if thorough or _step % 7 == 0:
                explained, events = ENG.apply_events(state, actor, move)
                assert explained == nxt and events and events[0]["type"] == move.split()[0]
            state = nxt
        else:
            pytest.fail("the match did not end")
        result = ENG.outcome(state)
        assert result is not None and len(result["ranks"]) == players
        games += 1
    assert games == 1000
