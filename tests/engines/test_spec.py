"""One spec per game (engines/registry.py): the built-in games are listed once and each part
they name imports; the test-only fifth game, registered with its spec alone, gets the computer
player and the review its spec names through the same calls as the built-in games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines import GAME_IDS, GameSpec, get_engine, registry
from engines.ai import LEVELS, choose_move, generic, player
from engines.ai.review import PLAYOUTS, Reviewer, review, reviewable, reviewer
from tests.helpers import nim as nim_game

NIM = nim_game.ENGINE


def position(heaps: list[int], turn: int = 0) -> dict:
    """A view of Nim with these heaps, `turn` to move."""
    state = NIM.load({**NIM.dump(NIM.new(2, {"heaps": len(heaps)})), "heaps": heaps,
                      "turn": turn})
    return NIM.view(state, turn)


def test_the_built_in_games_are_listed_once_and_their_engine_level_parts_import() -> None:
    assert GAME_IDS == tuple(s.id for s in registry.BUILTIN)
    for game in GAME_IDS:
        assert registry.spec(game).id == game == get_engine(game).info.id
        assert callable(player(game).choose)
        assert isinstance(reviewer(game), Reviewer) and reviewable(game)
    assert not reviewable("chess")


def test_a_spec_names_its_computer_player_and_reviewer_explicitly() -> None:
    with pytest.raises(TypeError):
        GameSpec(id="x", engine="a:B", renderer="c")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="player"):
        GameSpec(id="x", engine="a:B", player="", reviewer="", renderer="c")
    with pytest.raises(TypeError, match="import path"):
        GameSpec(id="x", engine=NIM, player="a", reviewer="", renderer="c")  # type: ignore[arg-type]


def test_the_fifth_game_s_computer_player_is_its_spec_s(nim_id: str) -> None:
    assert player(nim_id) is generic.PLAYOUTS
    view = position([0, 1, 3])  # only "take 2 from 3" wins: 1 and 1 left to the other
    for level in ("normal", "hard"):
        for seed in range(5):
            assert choose_move(nim_id, view, 0, level, seed=seed) == "take 2 from 3"
    for level in LEVELS:  # every level plays legal moves, the same again for the same seed
        moves = [choose_move(nim_id, position([2, 3, 4]), 0, level, seed=s) for s in range(4)]
        assert set(moves) <= set(NIM.legal_moves(NIM.load(position([2, 3, 4])), 0))
        assert moves == [choose_move(nim_id, position([2, 3, 4]), 0, level, seed=s)
                         for s in range(4)]


def test_the_random_player_is_a_choice_a_spec_makes(nim_id: str) -> None:
    registry.unregister(nim_id)
    registry.register(replace(nim_game.SPEC, player=registry.RANDOM_PLAYER))
    moves = {choose_move(nim_id, position([0, 1, 3]), 0, "hard", seed=s) for s in range(12)}
    assert len(moves) > 1 and moves <= {"take 1 from 2", "take 1 from 3", "take 2 from 3",
                                         "take 3 from 3"}


def test_the_fifth_game_is_reviewed_by_the_generic_judge(nim_id: str) -> None:
    """Seat 1 could take the last three stones; it leaves one to seat 0 instead."""
    log = [(0, "take 2 from 1"), (1, "take 2 from 2"), (0, "take 1 from 2")]
    assert reviewer(nim_id) is PLAYOUTS and reviewable(nim_id)
    result = review(nim_id, {"heaps": 2}, 2, log)
    assert result["unit"] == "chance" and result["plies"] == 3
    seat1 = result["seats"][1]
    assert seat1["accuracy"] == 0.0 and seat1["judged"] == 1
    [mistake] = seat1["mistakes"]
    assert (mistake["move"], mistake["better"], mistake["loss"], mistake["drop"]) == (
        "take 2 from 2", "take 3 from 2", 1.0, 100.0)
    assert result["seats"][0]["judged"] == 1  # its last move was forced: not judged
    assert review(nim_id, {"heaps": 2}, 2, log) == result


def test_without_a_review_a_game_says_so(nim_id: str) -> None:
    registry.unregister(nim_id)
    registry.register(replace(nim_game.SPEC, reviewer=registry.NO_REVIEW))
    assert not reviewable(nim_id)
    with pytest.raises(ValueError, match="no review"):
        review(nim_id, {}, 2, [(0, "take 1 from 1")])


def test_generic_players_need_a_view_that_hides_nothing() -> None:
    eng = get_engine("six_nimmt")
    view = eng.view(eng.apply(eng.new(3), -1, eng.sample_chance(eng.new(3),
                                                                random.Random(1))), 0)
    with pytest.raises(ValueError):
        generic.PLAYOUTS.choose(view, 0, "normal", random.Random(1))


def test_sync_makes_the_registered_games_those_given(nim_id: str) -> None:
    registry.sync(())
    assert nim_id not in registry.game_ids()
    registry.sync((nim_game.SPEC,))
    assert registry.registered() == (nim_game.SPEC,) and get_engine(nim_id) is NIM
