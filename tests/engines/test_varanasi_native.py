"""The compiled Varanasi search (engines/_varanasi_search.c) answers exactly as the Python one
(`PySolver`, its specification): the same win or loss, the same count of positions, the same
point where the count runs out, the same proven children. So hard plays the same move on a
machine that could not compile it, only slower."""

from __future__ import annotations

import random

import pytest

from engines.ai import choose_move
from engines.ai import varanasi as ai
from engines.varanasi_grundy import NativeSolver, OutOfBudget, PySolver, children
from tests.helpers.varanasi import played_towers, position, random_towers

pytestmark = pytest.mark.usefixtures("compiled_varanasi_search")


def _codes(towers: list[str]) -> tuple[int, ...]:
    return tuple(sorted(c for c in (ai.parse_code(t) for t in towers) if c))


def _positions(rng: random.Random, count: int) -> list[tuple[list[str], int]]:
    """(towers, colours in use): random towers of 3 to 6 colours, and set starts of 3 to 5
    colours after a few random moves."""
    out = []
    for i in range(count):
        colours = rng.randrange(3, 7) if i % 2 else rng.randrange(3, 6)
        if i % 2:
            towers = random_towers(rng, colours, rng.randrange(2, 4 * colours + 1))
        else:
            towers = played_towers(rng, colours, 0, 11)
        out.append((towers, colours))
    return [(t, c) for t, c in out if _codes(t)]


def _run(solver, codes: tuple[int, ...]) -> bool | None:
    try:
        return solver.wins(codes)
    except OutOfBudget:
        return None


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("before", [False, True])
def test_compiled_search_answers_as_the_python_one(before: bool, misere: bool) -> None:
    rng = random.Random(40 + 2 * before + misere)
    out_of_count = settled = 0
    for towers, _ in _positions(rng, 40):
        codes = _codes(towers)
        limit = rng.choice((30, 300, 3_000, 20_000))
        py, native = PySolver(before, misere, limit), NativeSolver(before, misere, limit)
        for _ in range(2):  # then again with the count raised, keeping the memo (as reviews do)
            expected = _run(py, codes)
            assert _run(native, codes) is expected, towers
            assert native.nodes == py.nodes and native.remembered() == py.remembered()
            for child in children(codes, before):
                assert native.known(child) is py.known(child), (towers, child)
            if expected is None:
                out_of_count += 1
            else:
                settled += 1
            py.limit = native.limit = py.nodes + limit
    assert out_of_count >= 5 and settled >= 30


def test_hard_plays_the_same_move_with_either_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a small budget (so that some searches run out and UCT decides), seeded."""
    moves = {}
    for solver in (PySolver, NativeSolver):
        monkeypatch.setattr(ai, "Solver", solver)
        picked = []
        for i, (towers, colours) in enumerate(_positions(random.Random(9), 24)):
            view = position(towers, colours=colours)
            picked.append(choose_move("varanasi", view, 0, "hard", seed=i, budget=0.05))
        moves[solver] = picked
    assert moves[PySolver] == moves[NativeSolver]


def test_forget_empties_the_memo() -> None:
    codes = _codes(["r4b3", "g2", "b2r1", "g4g3"])
    native = NativeSolver(False, False, 10**6)
    won = native.wins(codes)
    assert native.remembered() > 0 and native.known(codes) is won
    native.forget()
    assert native.remembered() == 0 and native.known(codes) is None
    assert native.wins(codes) is won
