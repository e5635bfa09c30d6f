"""The contract every engine shares, checked the same way for all four games."""

from __future__ import annotations

import json
import random

import pytest

from engines import CHANCE, GAME_IDS, IllegalMove, get_engine, ranks_from_scores

PLAYERS = {"senet": 2, "six_nimmt": 4, "cows_leopards": 2, "varanasi": 3}
SHORT = {
    "senet": {},
    "six_nimmt": {"rounds": 1},
    "cows_leopards": {"quiet_limit": 20},
    "varanasi": {"sets": 1},
}


def test_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="chess"):
        get_engine("chess")


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(IllegalMove, ValueError)
    assert CHANCE == -1


@pytest.mark.parametrize("game", GAME_IDS)
def test_identity_and_options(game: str) -> None:
    eng = get_engine(game)
    assert eng.id == game
    assert 1 <= eng.min_players <= eng.max_players <= 10
    options = eng.default_options(PLAYERS[game])
    assert options["players"] == PLAYERS[game]
    assert {o.name for o in eng.option_spec} | {"players"} == set(options)
    position = eng.dump(eng.new(PLAYERS[game]))
    assert position["game"] == game
    assert position["options"] == options


@pytest.mark.parametrize("game", GAME_IDS)
def test_bad_options_are_named(game: str) -> None:
    eng = get_engine(game)
    with pytest.raises(ValueError, match="no_such_option"):
        eng.new(PLAYERS[game], {"no_such_option": 1})
    with pytest.raises(ValueError, match="players"):
        eng.new(PLAYERS[game], {"players": PLAYERS[game] + 1})
    with pytest.raises(ValueError, match="players"):
        eng.new(eng.max_players + 1)


@pytest.mark.parametrize("game", GAME_IDS)
def test_load_rejects_a_position_of_another_game(game: str) -> None:
    eng = get_engine(game)
    position = eng.dump(eng.new(PLAYERS[game]))
    position["game"] = "chess"
    with pytest.raises(ValueError, match="game"):
        eng.load(position)
    with pytest.raises(ValueError):
        eng.load({"game": game})


TWENTY_THREE_CARDS = "deal " + " ".join(map(str, range(1, 24)))
# Before a game's first chance move (6 nimmt!'s deal, Varanasi's setup): malformed chance moves,
# and seats moving too early, are refused with the reason.
REFUSED_AT_THE_START = [
    ("six_nimmt", CHANCE, "deal 1 2 3", "needs 24 cards"),
    ("six_nimmt", CHANCE, TWENTY_THREE_CARDS + " 1", "card 1 is dealt twice"),
    ("six_nimmt", CHANCE, TWENTY_THREE_CARDS + " 07", "'07' is not a card"),
    ("six_nimmt", CHANCE, TWENTY_THREE_CARDS + " 105", "'105' is not a card"),
    ("six_nimmt", CHANCE, "shuffle", "chance must deal"),
    ("six_nimmt", 0, "play 5", "the cards have not been dealt yet"),
    ("varanasi", CHANCE, "setup r4r3r2r1|b4b3b2b1|g4g3g2", "missing: g1"),
    ("varanasi", CHANCE, "setup r4r3r2r1|b4b3b2b1|g4g3g2g1|g1", "twice"),
    ("varanasi", CHANCE, "setup r4r3r2r1|b4b3b2b1|g4g3g2g1|y1", "not in use"),
    ("varanasi", CHANCE, "setup r4r3r2r1|b4b3b2b1||g4g3g2g1", "spot 3 is empty"),
    ("varanasi", CHANCE, "setup r4r3r2r1|b4b3b2b1|g4g2g3g1", "spot 3"),
    ("varanasi", CHANCE, "setup r4r3r2r1|b4b3b2b1|g4g3g2g1x", "spot 3"),
    ("varanasi", CHANCE, "take r", "set up"),
    ("varanasi", 0, "setup r4r3r2r1|b4b3b2b1|g4g3g2g1", "not set up"),
]


@pytest.mark.parametrize(("game", "actor", "move", "reason"), REFUSED_AT_THE_START)
def test_moves_before_the_first_chance_move_are_refused(game: str, actor: int, move: str,
                                                         reason: str) -> None:
    eng = get_engine(game)
    with pytest.raises(IllegalMove, match=reason):
        eng.apply(eng.new(2), actor, move)


@pytest.mark.parametrize("game", GAME_IDS)
def test_random_games_keep_the_contract(game: str) -> None:
    eng = get_engine(game)
    rng = random.Random(2026)
    for _ in range(20):
        state = eng.new(PLAYERS[game], SHORT[game])
        for _step in range(20_000):
            actors = eng.to_act(state)
            assert actors == sorted(actors)
            view = eng.view(state, None)
            assert view["to_act"] == actors
            json.dumps(view)
            if not actors:
                break
            actor = rng.choice(actors)
            if actor == CHANCE:
                move = eng.sample_chance(state, rng)
            else:
                moves = eng.legal_moves(state, actor)
                assert moves == sorted(set(moves)) and moves
                move = rng.choice(moves)
            before = json.dumps(eng.dump(state), sort_keys=True)
            fast = eng.apply(state, actor, move)
            explained, events = eng.apply_events(state, actor, move)
            assert json.dumps(eng.dump(state), sort_keys=True) == before, "apply mutated"
            assert eng.dump(fast) == eng.dump(explained)
            assert all(isinstance(e, dict) and "type" in e for e in events)
            json.dumps(events)
            state = explained
            assert eng.dump(eng.load(eng.dump(state))) == eng.dump(state)
            assert eng.outcome(state) is None or not eng.to_act(state)
        else:
            pytest.fail("game did not end")
        result = eng.outcome(state)
        assert len(result["scores"]) == PLAYERS[game]
        assert len(result["ranks"]) == PLAYERS[game]
        assert min(result["ranks"]) == 1
        assert eng.legal_moves(state, 0) == []


def test_ranks_share_and_skip() -> None:
    assert ranks_from_scores([10, 30, 10, 5]) == [2, 1, 2, 4]
    assert ranks_from_scores([1, 1, 0]) == [1, 1, 3]
