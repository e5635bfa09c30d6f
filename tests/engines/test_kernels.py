"""One rules implementation per game: the computer players' fast kernels (engines/ai/*) are
second copies of the placement, move and scoring rules, so they are compared here with the
engine move by move (legal moves, resulting positions, scores) over thousands of seeded
positions, for every game and every option set the kernels read."""

from __future__ import annotations

import random

import pytest

from engines import CHANCE, get_engine
from engines.ai import cows_leopards as cl_ai
from engines.ai import six_nimmt as six_ai
from engines.ai import varanasi as vr_ai
from engines.varanasi_grundy import HEIGHT, children_keyed
from tests.helpers.playout import random_steps

# ---- Varanasi -----------------------------------------------------------------------------

VR = get_engine("varanasi")
VR_SETUPS = [
    (2, {}), (2, {"height_rule": "before", "weighted": True}),
    (2, {"misere": True, "scoring": "last_take", "colours": 4}),
    (3, {"weighted": True, "scoring": "last_take"}), (3, {"height_rule": "before", "colours": 6}),
    (4, {"teams": True}), (4, {"teams": True, "team_scoring": "sum", "weighted": True}),
    (4, {"teams": True, "misere": True, "team_scoring": "sum", "height_rule": "before"}),
]


def _codes(position: dict) -> tuple[int, ...]:
    return tuple(vr_ai.parse_code(t) for t in position["towers"])


def _points(discs: list[str], weighted: bool) -> int:
    return sum(int(d[1]) if weighted else 1 for d in discs)


@pytest.mark.parametrize(("players", "options"), VR_SETUPS)
def test_varanasi_kernel_moves_and_scoring_follow_the_engine(players, options) -> None:
    rng = random.Random(players * 100 + len(options))
    before = options.get("height_rule") == "before"
    weighted = options.get("weighted", False)
    positions = 0
    for _ in range(80):
        opts = {**options, "sets": 2}
        for state, actor, move in random_steps(VR, VR.new(players, opts), rng):
            if actor == CHANCE:
                continue
            p = VR.dump(state)
            pos = _codes(p)
            legal = VR.legal_moves(state, actor)
            kernel = vr_ai.gen_moves(pos, before)
            assert sorted(vr_ai.move_str(m) for m in kernel) == legal
            codes = tuple(sorted(c for c in pos if c))
            children = set(vr_ai.children(codes, before))
            _check_search_keys(codes, before)
            engine_children = set()
            for m in legal:
                after, events = VR.apply_events(state, actor, m)
                new_pos, gain = vr_ai.play(pos, vr_ai.parse_move(m), weighted)
                took = [d for e in events if e["type"] == "take" for _, d in e["discs"]]
                assert gain == _points(took, weighted)
                ended = any(e["type"] == "set_end" for e in events)
                assert (vr_ai.clears(pos) == vr_ai.parse_move(m)) == ended
                if ended:
                    assert not any(new_pos)
                    engine_children.add(())
                else:
                    assert new_pos == _codes(VR.dump(after))
                    engine_children.add(tuple(sorted(c for c in new_pos if c)))
            assert children == engine_children
            positions += 1
            _check_reward(state, actor, move)
    assert positions >= 1000


def _check_search_keys(codes: tuple[int, ...], before: bool) -> None:
    """The exact search looks first at the children with the fewest towers, then the most
    piled up: its keys, kept up as the children are made, order them exactly so."""
    shape_of_key = {}
    for child, key in children_keyed(codes, before):
        shape = (len(child), -sum(HEIGHT[c] ** 2 for c in child))
        assert shape_of_key.setdefault(key, shape) == shape
    keys = sorted(shape_of_key)
    assert [shape_of_key[k] for k in keys] == sorted(shape_of_key.values())


def _check_reward(state, actor: int, move: str) -> None:
    """At a set's last take, the kernel's reward matches the engine's set_end."""
    after, events = VR.apply_events(state, actor, move)
    end = next((e for e in events if e["type"] == "set_end"), None)
    if end is None:
        return
    p = VR.dump(state)
    rules = vr_ai.Rules(p["options"])
    _, pos, _, taken = vr_ai._read(p)
    _, final = vr_ai.play(pos, vr_ai.parse_move(move), rules.weighted)
    taken[actor] += final
    reward = rules.reward(actor, taken, final)
    n = rules.players
    for seat in range(n):
        if rules.teams:
            won = seat % 2 == end["winner"] % 2
            got = end["points"][seat] + end["points"][(seat + 2) % n]
        else:
            won, got = seat == end["winner"], end["points"][seat]
        want = vr_ai.WIN_WEIGHT * won + (1 - vr_ai.WIN_WEIGHT) * got / rules.total
        assert reward[seat] == pytest.approx(want)
    assert rules.wins_now(pos, vr_ai.parse_move(move)) == (end["winner"] == actor)


# ---- Cows and Leopards --------------------------------------------------------------------

CL = get_engine("cows_leopards")
CL_SETUPS = [
    {"board": "A"}, {"board": "B"}, {"board": "A", "leopard_deadline": True, "captures": 3},
    {"board": "B", "leopard_deadline": True, "quiet_limit": 10, "captures": 24},
]
_END_VALUE = {(1.0, 0.0): cl_ai.WIN, (0.0, 1.0): -cl_ai.WIN, (0.5, 0.5): 0.0}


def _kernel_result(game: cl_ai.Game, state) -> float | None:
    outcome = CL.outcome(state)
    return None if outcome is None else _END_VALUE[tuple(outcome["scores"])]


@pytest.mark.parametrize("options", CL_SETUPS)
def test_cows_leopards_kernel_moves_follow_the_engine(options) -> None:
    game = cl_ai.Game({**CL.default_options(2), **options})
    rng = random.Random(len(options) * 7 + (options["board"] == "B"))
    positions = 0

    def pick(actors: list[int], r: random.Random) -> int:
        return actors[0]

    for _ in range(30):
        for state, actor, _move in random_steps(CL, CL.new(2, options), rng, pick_actor=pick):
            s = game.read(CL.view(state, None))
            assert game.result(s) is None
            moves = game.moves(s)
            legal = CL.legal_moves(state, actor)
            assert sorted(cl_ai.move_str(m) for m in moves) == legal
            jumps = sorted(cl_ai.move_str(m) for m in game.captures_of(s))
            assert jumps == [m for m in legal if "x" in m]
            assert game.can_move(s)
            for m in moves:
                after = CL.apply(state, actor, cl_ai.move_str(m))
                child = game.play(s, m)
                assert child == game.read(CL.view(after, None))
                assert game.result(child) == _kernel_result(game, after)
                if game.result(child) is None:
                    # A remembered evaluation is the one of this position, not of another
                    # with the same key (the side to move, the quiet count far from the limit).
                    assert game.evaluate(child) == game._evaluate(child)
            positions += 1
    assert positions >= 1000


# ---- 6 nimmt! -----------------------------------------------------------------------------

SIX = get_engine("six_nimmt")
SIX_SETUPS = [
    (4, {}), (5, {"professional": True}), (3, {"cards": "tactical"}),
    (6, {"cards": "tactical", "professional": True}), (3, {"cards": "logical"}),
    (2, {"cards": "logical", "professional": True}), (10, {}),
]


def _engine_turn(state, picks: dict[int, int]):
    """Play a turn's picks in the engine, answering choices as the kernel's policy does."""
    for seat in sorted(picks):
        state = SIX.apply(state, seat, f"play {picks[seat]}")
    while SIX.dump(state)["phase"] in ("take", "side"):
        p = SIX.dump(state)
        seat, card = p["pending"]["seat"], p["pending"]["card"]
        ends = six_ai._targets(p["rows"], card, p["options"]["professional"])
        legal = SIX.legal_moves(state, seat)
        if p["phase"] == "take":
            assert ends == [] and legal == [f"take {r}" for r in range(1, 5)]
            move = f"take {six_ai._take_normal(p['rows']) + 1}"
        else:
            assert sorted(six_ai._side_move(r, right) for r, right in ends) == legal
            move = six_ai._side_move(*six_ai._side_normal(p["rows"], ends))
        state = SIX.apply(state, seat, move)
    return state


def _check_seat_views(state) -> None:
    """The AI's legal moves from a seat's view alone are the engine's."""
    for seat in range(SIX.dump(state)["options"]["players"]):
        assert six_ai.Table(SIX.view(state, seat), seat).legal() == SIX.legal_moves(state, seat)


@pytest.mark.parametrize(("players", "options"), SIX_SETUPS)
def test_six_nimmt_kernel_placement_follows_the_engine(players, options) -> None:
    pro = options.get("professional", False)
    rng = random.Random(players * 31 + len(options))
    turns = 0
    for _ in range(100):
        state = SIX.new(players, {**options, "rounds": 1})
        while SIX.to_act(state):
            actors = SIX.to_act(state)
            _check_seat_views(state)
            p = SIX.dump(state)
            if p["phase"] != "pick":
                actor = actors[0]
                move = (SIX.sample_chance(state, rng) if actor == CHANCE
                        else rng.choice(SIX.legal_moves(state, actor)))
                state = SIX.apply(state, actor, move)
                continue
            picks = {seat: rng.choice(p["hands"][seat]) for seat in actors}
            world = six_ai.World(players, pro, False, 104, [list(r) for r in p["rows"]],
                                 [list(h) for h in p["hands"]], bytearray(105), [0] * players)
            six_ai._resolve(world, [(c, s) for s, c in picks.items()])
            state = _engine_turn(state, picks)
            q = SIX.dump(state)
            if q["phase"] == "pick" or any(q["rows"]):
                assert world.rows == q["rows"]
            lost = [a - b for a, b in zip(p["points"], q["points"], strict=True)]
            assert world.loss == lost
            turns += 1
    assert turns >= 1000


def test_six_nimmt_kernel_bullheads_are_the_engines() -> None:
    from engines.six_nimmt import BULL

    assert six_ai.BULL == BULL
