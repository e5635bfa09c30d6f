"""Computer players for Senet: legal, seeded, within budget, sensible in known positions."""

from __future__ import annotations

import random

import pytest

from engines import CHANCE, get_engine
from engines.ai import LEVELS, choose_move
from engines.ai import senet as ai
from tests.helpers.playout import play_with

ENG = get_engine("senet")
FAST = 0.005  # hard budget for the many-games tests: the minimum node count


def position(white=(), black=(), turn=0, phase="move", throw=None) -> dict:
    cells = ["."] * 30
    for s in white:
        cells[s - 1] = "W"
    for s in black:
        cells[s - 1] = "B"
    return {"game": "senet", "options": {"players": 2}, "board": "".join(cells),
            "off": [5 - len(white), 5 - len(black)], "turn": turn, "phase": phase,
            "throw": throw}


def play_game(levels: list[str], seed: int, budget: float = FAST, seen=None) -> dict:
    def choose(state, actor: int, ply: int) -> str:
        move = choose_move("senet", ENG.view(state, actor), actor, levels[actor],
                           seed=seed * 1000 + ply, budget=budget)
        if seen is not None:
            seen.add((levels[actor], move.split()[0]))
        return move

    return ENG.outcome(play_with(ENG, ENG.new(2), random.Random(seed), choose))


def test_every_level_plays_only_legal_moves() -> None:
    seen: set[tuple[str, str]] = set()
    for seed in range(6):
        play_game([LEVELS[seed % 3], LEVELS[(seed + 1) % 3]], seed, seen=seen)
    for level in LEVELS:
        assert (level, "move") in seen


def test_the_house_of_water_choice_is_legal_at_every_level() -> None:
    pos = position(white=(27, 20), black=(25, 10), phase="water")
    view = ENG.view(ENG.load(pos), 0)
    for level in LEVELS:
        for seed in range(3):
            assert choose_move("senet", view, 0, level, seed=seed, budget=0.05) in (
                "return", "try")


def test_decisions_are_deterministic_for_a_seed(monkeypatch) -> None:
    pos = position(white=(3, 8, 12, 17, 22), black=(5, 9, 13, 19, 24), phase="move", throw=2)
    view = ENG.view(ENG.load(pos), 0)
    for level in LEVELS:
        moves = {choose_move("senet", view, 0, level, seed=4, budget=0.05) for _ in range(3)}
        assert len(moves) == 1


def test_a_decision_depends_only_on_the_view(monkeypatch) -> None:
    """Nothing is hidden in Senet: the same view (a fresh copy) gives the same move."""
    rng = random.Random(3)
    state = ENG.new(2)
    for _ in range(40):
        actor = ENG.to_act(state)[0]
        if actor == CHANCE:
            state = ENG.apply(state, actor, ENG.sample_chance(state, rng))
            continue
        legal = ENG.legal_moves(state, actor)
        view = ENG.view(state, actor)
        copy = ENG.view(ENG.load(ENG.dump(state)), actor)
        for level in LEVELS:
            a = choose_move("senet", view, actor, level, seed=1, budget=0.02)
            assert a == choose_move("senet", copy, actor, level, seed=1, budget=0.02)
        state = ENG.apply(state, actor, rng.choice(legal))


def test_hard_plays_a_legal_move_at_half_the_bots_budget() -> None:
    """(Its speed is measured by bench/arena.py, not here: searches are bounded by counts.)"""
    pos = position(white=(4, 9, 11, 15, 20), black=(6, 10, 14, 18, 21), phase="move", throw=3)
    view = ENG.view(ENG.load(pos), 0)
    move = choose_move("senet", view, 0, "hard", seed=1, budget=0.5)
    assert move in ENG.legal_moves(ENG.load(pos), 0)


@pytest.mark.parametrize("seed", range(10))
def test_easy_never_passes_up_a_bear_off(seed) -> None:
    # With a 3 the stone on 28 bears off; 10 -> 13 is the other choice.
    pos = position(white=(28, 10), black=(2, 5), phase="move", throw=3)
    view = ENG.view(ENG.load(pos), 0)
    assert choose_move("senet", view, 0, "easy", seed=seed) == "move 28"


def test_normal_and_hard_take_a_winning_bear_off() -> None:
    pos = position(white=(30,), black=(20, 21, 22, 23, 24), phase="move", throw=2)
    assert ENG.legal_moves(ENG.load(pos), 0) == ["move 30"]  # forced anyway
    pos = position(white=(26,), black=(3, 4), turn=0, phase="move", throw=5)
    view = ENG.view(ENG.load(pos), 0)
    for level in ("normal", "hard"):
        assert choose_move("senet", view, 0, level, budget=0.1) == "move 26"


def test_normal_and_hard_swap_a_runaway_stone_back() -> None:
    # Black's lone stone on 24 is about to escape; White can swap it from 21 with a 3.
    pos = position(white=(21, 1), black=(24, 10), phase="move", throw=3)
    view = ENG.view(ENG.load(pos), 0)
    for level in ("normal", "hard"):
        assert choose_move("senet", view, 0, level, budget=0.1) == "move 21"


def test_the_water_choice_returns_when_ahead() -> None:
    # Well ahead: a stone back on 15 is worth more than a 1-in-16 try that ends the turn.
    pos = position(white=(27, 20, 21), black=(3, 5, 6, 8), phase="water")
    view = ENG.view(ENG.load(pos), 0)
    for level in ("normal", "hard"):
        assert choose_move("senet", view, 0, level, budget=0.1) == "return"


def test_the_evaluation_is_zero_sum_and_knows_a_win() -> None:
    rng = random.Random(8)
    state = ENG.new(2)
    for _ in range(300):
        actor = ENG.to_act(state)[0] if ENG.to_act(state) else None
        if actor is None:
            break
        pos = ENG.dump(state)
        assert ai.evaluate(pos, 0) == pytest.approx(-ai.evaluate(pos, 1))
        if actor == CHANCE:
            state = ENG.apply(state, actor, ENG.sample_chance(state, rng))
        else:
            state = ENG.apply(state, actor, rng.choice(ENG.legal_moves(state, actor)))
    won = ENG.dump(ENG.apply(ENG.load(position(white=(30,), black=(3,), throw=1)), 0, "move 30"))
    assert ai.evaluate(won, 0) == ai.WIN and ai.evaluate(won, 1) == -ai.WIN


def games_won(level: str, other: str, pairs: int) -> int:
    """Games `level` wins in `pairs` pairs of seeded games, the seats swapped within a pair."""
    won = 0
    for pair in range(pairs):
        for levels in ([level, other], [other, level]):
            won += play_game(levels, pair)["ranks"][levels.index(level)] == 1
    return won


@pytest.mark.usefixtures("easy_alone")
def test_normal_beats_easy() -> None:
    """A modest seeded sample (strength proper is the arena's business)."""
    assert games_won("normal", "easy", 80) >= 160 * 0.62


def test_win_chance_is_the_evaluation_squashed_and_knows_the_end() -> None:
    rng = random.Random(2)
    state = ENG.new(2)
    while ENG.to_act(state):
        actor = ENG.to_act(state)[0]
        if actor == CHANCE:
            state = ENG.apply(state, actor, ENG.sample_chance(state, rng))
            continue
        ahead = ai.evaluate(ENG.dump(state), 0) > 0
        assert (ai.win_chance(state, 0) > 0.5) == ahead
        assert ai.win_chance(state, 0) + ai.win_chance(state, 1) == pytest.approx(1.0)
        state = ENG.apply(state, actor, rng.choice(ENG.legal_moves(state, actor)))
    assert ai.win_chance(state, state.turn) == 1.0 and ai.win_chance(state, 1 - state.turn) == 0


def test_hard_is_bounded_by_its_count_of_decisions_played(monkeypatch) -> None:
    """Hard's playouts stop at the budget's count (one round of playouts may finish past it),
    so its time per move is fixed by the budget, not by the machine."""
    pos = position(white=(4, 9, 11, 15, 20), black=(6, 10, 14, 18, 21), phase="move", throw=3)
    view = ENG.view(ENG.load(pos), 0)
    legal = ENG.legal_moves(ENG.load(pos), 0)
    played = []
    normal = ai._normal
    monkeypatch.setattr(ai, "_normal", lambda *a: played.append(1) or normal(*a))
    for budget in (0.02, 0.08):
        played.clear()
        choose_move("senet", view, 0, "hard", seed=1, budget=budget)
        limit = budget * ai.PLIES_PER_SECOND
        assert limit / 2 < len(played) <= limit + len(legal) * ai.HORIZON


def test_hard_keeps_normals_move_where_its_playouts_are_unsure(monkeypatch) -> None:
    """Black to move with a 2: every move wins about 79% against a random opponent (3000
    rollouts each; 4 -> 6 78.6%, normal's 10 -> 12 79.1%). Hard's playouts (normal against
    normal) lean to 4 -> 6 for these seeds, but by less than SURE standard errors, so hard
    keeps normal's move; before, it played the lean."""
    pos = position(white=(1, 2, 7, 8, 26), black=(4, 5, 10, 11, 21), turn=1, throw=2)
    view = ENG.view(ENG.load(pos), 1)
    assert choose_move("senet", view, 1, "normal") == "move 10"
    for seed in (0, 3, 4):
        assert choose_move("senet", view, 1, "hard", seed=seed, budget=1.0) == "move 10"
    monkeypatch.setattr(ai, "_clearly_better", lambda mine, other: True)
    assert choose_move("senet", view, 1, "hard", seed=0, budget=1.0) == "move 4"


def test_hard_still_leaves_normals_move_where_its_playouts_clearly_beat_it() -> None:
    """White to move with a 3: 13 -> 16 wins about 81% against a random opponent, normal's
    11 -> 14 about 80% (3000 rollouts each); hard's playouts show the gain clearly."""
    pos = position(white=(6, 7, 11, 12, 13), black=(3, 4, 5, 9, 10), turn=0, throw=3)
    view = ENG.view(ENG.load(pos), 0)
    assert choose_move("senet", view, 0, "normal") == "move 11"
    for seed in (0, 1, 2):
        assert choose_move("senet", view, 0, "hard", seed=seed, budget=1.0) == "move 13"
