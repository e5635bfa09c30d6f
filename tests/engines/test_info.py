"""The engine's `info` record, move parts and results helpers, checked against the rules
themselves over seeded random games of every game, and the registry's `register`."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines import (
    CHANCE,
    GAME_IDS,
    game_ids,
    get_engine,
    register,
    spec,
    unregister,
)
from tests.helpers import nim
from tests.helpers.nim import ENGINE as NIM
from tests.helpers.playout import random_steps

SETUPS = {
    "varanasi": [(2, {"sets": 2}), (4, {"teams": True, "sets": 1})],
    "six_nimmt": [(3, {"rounds": 1}), (2, {"rounds": 1, "cards": "logical",
                                           "professional": True})],
    "senet": [(2, None)],
    "cows_leopards": [(2, {"board": "A", "quiet_limit": 20})],
}


@pytest.mark.parametrize("game", GAME_IDS)
def test_info_names_the_game_and_its_seat_counts(game: str) -> None:
    eng = get_engine(game)
    info = eng.info
    assert (info.id, info.min_players, info.max_players) == (
        eng.id, eng.min_players, eng.max_players)
    assert info.name and len(info.sides) in (0, eng.max_players)
    assert len({d.phase for d in info.decisions}) == len(info.decisions)


@pytest.mark.parametrize("game", GAME_IDS)
def test_info_says_who_decides_how_and_moves_parse_back(game: str) -> None:
    """At every position of random games: the phase's decision lists the kinds of every legal
    move, several seats at once only where it says simultaneous, chance only in its phases;
    every move string survives parse_move then format_move."""
    eng = get_engine(game)
    info = eng.info
    rng = random.Random(11)
    seen_phases = set()
    for players, options in SETUPS[game]:
        for _ in range(3):
            for state, _actor, move in random_steps(eng, eng.new(players, options), rng):
                phase = eng.view(state, None)["phase"]
                actors = eng.to_act(state)
                assert eng.format_move(eng.parse_move(move)) == move
                read = eng.read_move(move)  # what the bot carries: read once, same text
                assert (read.text, read.parts) == (move, eng.parse_move(move))
                if actors == [CHANCE]:
                    assert info.chance.kind != "none" and phase in info.chance.phases
                    assert eng.parse_move(move)[0] == info.chance.kind
                    if info.chance.listed:
                        assert move in eng.chance_odds(state)
                    else:
                        with pytest.raises(NotImplementedError):
                            eng.chance_odds(state)
                    continue
                decision = info.decision(phase)
                assert decision is not None, phase
                seen_phases.add(phase)
                assert len(actors) == 1 or decision.simultaneous
                for seat in actors:
                    kinds = {eng.parse_move(m)[0] for m in eng.legal_moves(state, seat)}
                    assert kinds <= set(decision.kinds)
    assert seen_phases == {d.phase for d in info.decisions}


def test_move_parts_read_numbers_as_numbers_and_refuse_junk() -> None:
    six = get_engine("six_nimmt")
    assert six.parse_move("place 2 left") == ("place", 2, "left")
    assert six.format_move(("play", 42)) == "play 42"
    assert get_engine("varanasi").parse_move("move 3 2 5") == ("move", 3, 2, 5)
    assert get_engine("senet").parse_move("return") == ("return",)
    cows = get_engine("cows_leopards")
    assert cows.parse_move("e5xe7") == ("jump", "e5", "e7")
    assert cows.parse_move("d4-e4") == ("step", "d4", "e4")
    assert cows.format_move(("drop", "c3")) == "drop c3"
    for eng, junk in ((six, "play  4"), (six, ""), (six, " take 1"), (cows, "e5-z9"),
                      (cows, "drop"), (six, None)):
        with pytest.raises(ValueError):
            eng.parse_move(junk)
    assert six.parse_move("play 07") == ("play", "07")  # not a canonical number: kept as text


def test_only_six_nimmt_picks_are_private_and_its_deals_secret() -> None:
    private = {g: [d.phase for d in get_engine(g).info.decisions if d.private]
               for g in GAME_IDS}
    assert private == {"varanasi": [], "six_nimmt": ["pick"], "senet": [], "cows_leopards": []}
    assert get_engine("six_nimmt").info.is_private("pick")
    assert not get_engine("six_nimmt").info.is_private("take")
    assert [g for g in GAME_IDS if get_engine(g).info.chance.secret] == ["six_nimmt"]


def test_resigning_in_doubles_ranks_the_whole_team_last() -> None:
    eng = get_engine("varanasi")
    state = eng.load({**eng.dump(eng.new(4, {"teams": True})), "scores": [1, 5, 2, 0]})
    assert eng.resigned_outcome(state, 2) == {
        "scores": [1, 5, 2, 0], "ranks": [2, 1, 2, 1], "resigned": [2]}
    alone = eng.load({**eng.dump(eng.new(3)), "scores": [1, 5, 2]})
    assert eng.resigned_outcome(alone, 1)["ranks"] == [2, 3, 1]


def test_resigning_without_a_score_leaves_the_others_first() -> None:
    eng = get_engine("cows_leopards")
    assert eng.resigned_outcome(eng.new(2), 0) == {
        "scores": [None, None], "ranks": [2, 1], "resigned": [0]}
    six = get_engine("six_nimmt")
    state = six.load({**six.dump(six.new(3)), "round": 2, "points": [60, 50, 66]})
    assert six.resigned_outcome(state, 2)["ranks"] == [1, 2, 3]


def test_a_fifth_game_joins_through_the_registry() -> None:
    register(nim.SPEC)
    try:
        assert get_engine("test_nim") is NIM and game_ids()[-1] == "test_nim"
        assert spec("test_nim") is nim.SPEC
        rng = random.Random(3)
        steps = list(random_steps(NIM, NIM.new(2), rng))
        assert steps and NIM.parse_move(steps[0][2])[0] == "take"
    finally:
        unregister("test_nim")
    assert "test_nim" not in game_ids()
    with pytest.raises(ValueError, match="unknown game"):
        get_engine("test_nim")
    with pytest.raises(ValueError, match="built-in"):
        register(replace(nim.SPEC, id="senet"))
    with pytest.raises(ValueError, match="info.id"):
        register(replace(nim.SPEC, id="other_nim"))
    assert "other_nim" not in game_ids()


def test_a_move_read_once_carries_its_kind_and_parts() -> None:
    six = get_engine("six_nimmt")
    move = six.read_move("play 42")
    assert (move.kind, move.parts, str(move)) == ("play", ("play", 42), "play 42")
    jump = get_engine("cows_leopards").read_move("e5xe7")
    assert (jump.kind, jump.parts[1:], jump.text) == ("jump", ("e5", "e7"), "e5xe7")
    with pytest.raises(ValueError):
        six.read_move("play  42")  # not written as the game writes moves
