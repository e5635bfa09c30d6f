"""Computer players for Cows and Leopards: the search's own rules agree with the engine, every
level plays legal moves on both sides and is deterministic for a seed, the plain blunders of
easy are avoided, hard finds short wins, and normal beats easy."""

from __future__ import annotations

import random

import pytest

from engines import get_engine
from engines.ai import LEVELS, choose_move
from engines.ai import cows_leopards as ai

ENG = get_engine("cows_leopards")


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """A node count small enough to bind long before the clock (so the seed fixes the move)
    and keep the tests fast."""
    monkeypatch.setattr(ai, "NODES_PER_SECOND", 150)


def position(
    cows: list[str], leopards: list[str], turn: int, hand: tuple[int, int] = (0, 0),
    quiet: int = 0, **options: object,
) -> dict:
    opts = ENG.default_options(2)
    opts.update(options)
    return {
        "game": "cows_leopards", "options": opts, "cows": sorted(cows),
        "leopards": sorted(leopards), "hand": {"cows": hand[0], "leopards": hand[1]},
        "captured": 24 - len(cows) - hand[0], "turn": turn, "quiet": quiet, "phase": "play",
    }


OPTION_SETS = [
    {},
    {"board": "A"},
    {"leopard_deadline": True, "captures": 3},
    {"board": "A", "quiet_limit": 10, "captures": 2},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_search_rules_agree_with_the_engine(options: dict) -> None:
    """Moves, their effect and the end check of the search's lattice copy, on random games."""
    rng = random.Random(len(options))
    for _ in range(12):
        state = ENG.new(2, options)
        game = ai.Game(ENG.default_options(2) | options)
        while ENG.to_act(state):
            actor = ENG.to_act(state)[0]
            s = game.read(ENG.view(state, actor))
            legal = ENG.legal_moves(state, actor)
            moves = game.moves(s)
            assert sorted(ai.move_str(m) for m in moves) == legal
            move = rng.choice(moves)
            state = ENG.apply(state, actor, ai.move_str(move))
            after = game.play(s, move)
            dumped = ENG.dump(state)
            assert after == game.read(dumped)
            result = game.result(after)
            assert (result is None) == (dumped["phase"] == "play")
            if result is not None:
                assert result == {1.0: ai.WIN, 0.0: -ai.WIN, 0.5: 0.0}[ENG.outcome(state)
                                                                       ["scores"][0]]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_level_plays_legal_moves_on_both_sides(options: dict, small_budgets: None) -> None:
    rng = random.Random(3)
    for cows_level in LEVELS:
        for leopards_level in LEVELS:
            levels = (cows_level, leopards_level)
            opts = {"quiet_limit": 10, **options}
            state = ENG.new(2, opts)
            ply = 0
            while ENG.to_act(state) and ply < 70:
                actor = ENG.to_act(state)[0]
                ply += 1
                move = choose_move("cows_leopards", ENG.view(state, actor), actor,
                                   levels[actor], seed=rng.randrange(1000))
                assert move in ENG.legal_moves(state, actor)
                state = ENG.apply(state, actor, move)


@pytest.mark.parametrize("level", LEVELS)
def test_a_seed_fixes_the_move(level: str, small_budgets: None) -> None:
    rng = random.Random(9)
    state = ENG.new(2)
    for ply in range(60):
        actor = ENG.to_act(state)[0]
        if ply in (0, 1, 20, 21, 48, 49, 58, 59):
            view = ENG.view(state, actor)
            for seed in (1, 2):
                first = choose_move("cows_leopards", view, actor, level, seed=seed)
                assert choose_move("cows_leopards", view, actor, level, seed=seed) == first
        state = ENG.apply(state, actor, rng.choice(ENG.legal_moves(state, actor)))


def test_easy_leopards_capture_and_easy_cows_stay_out_of_reach() -> None:
    # The leopard on e5 can jump d5 to c5, or just step.
    view = position(["d5", "a3"], ["e5"], 1, hand=(22, 1))
    for seed in range(10):
        assert choose_move("cows_leopards", view, 1, "easy", seed=seed) == "e5xc5"
    # A drop next to the leopard with the point beyond empty would be jumped at once (c3, a
    # corner, can never be jumped).
    view = position(["c3"], ["e5"], 0, hand=(23, 1))
    for seed in range(20):
        move = choose_move("cows_leopards", view, 0, "easy", seed=seed)
        after = ENG.apply(ENG.load(view), 0, move)
        jumps = [m for m in ENG.legal_moves(after, 1) if "x" in m]
        assert not jumps, (move, jumps)


def test_hard_takes_a_winning_capture_for_the_leopards() -> None:
    view = position(["d5", "a3", "g7"], ["e5"], 1, hand=(0, 1), captures=22)
    assert choose_move("cows_leopards", view, 1, "hard", seed=1, budget=0.5) == "e5xc5"


def test_hard_cows_trap_the_last_leopard() -> None:
    """Board A, leopards on c9 and g9 (top corners): cows on d8, f8, e7 and e9 would trap both;
    the cow on e8 stepping to e9 closes the net."""
    cows = ["d8", "f8", "e7", "e8", "c3", "c4", "d3", "d4", "e3", "e4", "f3", "f4", "g3", "g4",
            "c5", "d5", "f5", "g5", "c1", "e1", "g1", "d2", "e2", "f2"]
    view = position(cows, ["c9", "g9"], 0, board="A")
    move = choose_move("cows_leopards", view, 0, "hard", seed=1, budget=0.5)
    after = ENG.apply(ENG.load(view), 0, move)
    assert ENG.outcome(after) == {"scores": [1, 0], "ranks": [1, 2]}, move


def play_game(levels: tuple[str, str], seed: int, options: dict) -> float:
    """The cows' score in one game."""
    state = ENG.new(2, options)
    ply = 0
    while ENG.to_act(state):
        actor = ENG.to_act(state)[0]
        ply += 1
        move = choose_move("cows_leopards", ENG.view(state, actor), actor, levels[actor],
                           seed=seed * 1000 + ply)
        state = ENG.apply(state, actor, move)
    return ENG.outcome(state)["scores"][0]


@pytest.mark.usefixtures("easy_alone")
def test_normal_beats_easy() -> None:
    """Easy's own play, which leaves no cow to be jumped when it can, holds a draw often; but
    normal never loses to it on either side and wins some games (board A)."""
    options = {"board": "A", "quiet_limit": 40}
    as_leopards = [1 - play_game(("easy", "normal"), seed, options) for seed in range(3)]
    as_cows = [play_game(("normal", "easy"), seed, options) for seed in range(3)]
    assert min(as_leopards + as_cows) >= 0.5
    assert sum(as_leopards + as_cows) >= 3.5


def test_hard_leopards_set_traps_that_cost_little_against_the_best_defence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hard leopards sometimes prefer a move that a one-ply herd walks into; each such move,
    searched again from scratch at the same depth, is worth at most EXPECT_MARGIN less than
    the best move against the best defence (root values below the best are only bounds, so
    without the check a 'near' move could be far worse)."""
    picks: list[tuple[tuple, tuple, int, float]] = []
    holds = ai._holds

    def recorded(search: ai.Search, s: tuple, move: tuple, depth: int, floor: float) -> bool:
        ok = holds(search, s, move, depth, floor)
        if ok:
            picks.append((s, move, depth, floor))
        return ok

    monkeypatch.setattr(ai, "_holds", recorded)
    state = ENG.new(2, {"board": "A"})
    for ply in range(70):
        actor = ENG.to_act(state)[0]
        level = "hard" if actor == 1 else "normal"
        move = choose_move("cows_leopards", ENG.view(state, actor), actor, level, seed=ply,
                           budget=0.5)
        state = ENG.apply(state, actor, move)
    assert picks, "the second look never changed a move"
    game = ai.Game(ENG.default_options(2) | {"board": "A"})
    game.outside = ai.OUTSIDE  # hard leopards' evaluation
    for s, move, depth, floor in picks:
        fresh = ai.Search(game, 1 << 30)
        value = -fresh.negamax(game.play(s, move), depth - 1, -2 * ai.WIN, 2 * ai.WIN, 1)
        assert value >= floor - 1e-6, (ai.move_str(move), value, floor)


def test_a_trap_that_gives_up_a_capture_is_refused() -> None:
    """The check behind the second look: a leopard step that lets a capture go is worth far
    less than the capture against the best defence, so it is refused; the capture holds."""
    view = position(["d5", "a3", "g7", "c4", "d3"], ["e5"], 1, hand=(0, 1), captures=21)
    game = ai.Game(view["options"])
    s = game.read(view)
    search = ai.Search(game, 1 << 30)
    scored, _ = search.root(s, game.moves(s), 3)
    floor = scored[0][0] - ai.EXPECT_MARGIN
    capture = next(m for m in game.moves(s) if ai.move_str(m) == "e5xc5")
    step = next(m for m in game.moves(s) if ai.move_str(m) == "e5-f5")
    assert ai._holds(search, s, capture, 3, floor)
    assert not ai._holds(search, s, step, 3, floor)
