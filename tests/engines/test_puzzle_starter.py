"""The shipped starter puzzles (engines/data/puzzles): each is well formed, its answers are
checked again independently of how they were found, and the generator (tools/puzzles.py)
writes the same files for the same seed."""

from __future__ import annotations

import json

import pytest

from engines import get_engine
from engines.ai.puzzles import DATA, position, starter
from engines.ai.puzzles import cows_leopards as cl_puzzles
from engines.ai.puzzles import senet as senet_puzzles
from engines.ai.puzzles import six_nimmt as sx_puzzles
from engines.ai.puzzles.base import key_rng
from engines.varanasi_grundy import grundy
from tests.engines.test_puzzles import well_formed
from tools import puzzles as generator

GAMES = ("varanasi", "six_nimmt", "senet", "cows_leopards")
SHIPPED = tuple(g for g in GAMES if (DATA / f"{g}.json").is_file())
SAMPLE = 6  # puzzles per game checked again (the first ones of the file)


def _seed(game: str) -> int:
    return int(json.loads((DATA / f"{game}.json").read_text("utf-8"))["seed"])


def test_starter_sets_are_shipped() -> None:
    assert {"varanasi", "six_nimmt"} <= set(SHIPPED)


@pytest.mark.parametrize("game", SHIPPED)
def test_every_shipped_puzzle_is_well_formed(game: str) -> None:
    puzzles = starter(game)
    assert 20 <= len(puzzles) <= 40
    assert (DATA / f"{game}.json").stat().st_size < 300_000
    assert len({p["key"] for p in puzzles}) == len(puzzles)
    for puzzle in puzzles:
        assert puzzle["game"] == game
        well_formed(puzzle)
    difficulties = {p["difficulty"] for p in puzzles}
    assert len(difficulties) > 1  # not all alike


def _gap(puzzle: dict) -> float:
    return puzzle["values"][puzzle["best"]] - puzzle["values"][puzzle["played"]]


def _within(values: dict[str, float], margin: float) -> list[str]:
    top = max(values.values())
    return sorted(m for m, v in values.items() if v >= top - margin - 1e-9)


def test_shipped_varanasi_answers_win_by_the_grundy_values() -> None:
    """Independently of the solver: a move wins the set when it takes the last disc or leaves
    a position of Grundy value 0 (normal play); every accepted move wins, no other does."""
    eng = get_engine("varanasi")
    for puzzle in starter("varanasi")[:SAMPLE]:
        _, state = position(puzzle)
        assert not puzzle["options"].get("misere")
        rule = eng.dump(state)["options"]["height_rule"]
        for move in puzzle["legal"]:
            after = eng.apply(state, puzzle["seat"], move)
            towers = eng.dump(after)["towers"]
            ended = eng.dump(after)["set"] != eng.dump(state)["set"] or not any(towers)
            wins = ended or grundy(towers, rule) == 0
            assert wins == (move in puzzle["accepted"]), (puzzle["key"], move)


def test_shipped_cows_and_leopards_answers_hold_under_the_deep_search() -> None:
    for puzzle in starter("cows_leopards")[:SAMPLE]:
        eng, state = position(puzzle)
        values = cl_puzzles.values(eng.view(state, puzzle["seat"]), cl_puzzles.DEPTH,
                                   cl_puzzles.DEEP_NODES)
        assert values is not None
        assert {m: round(v, 4) for m, v in values.items()} == puzzle["values"]
        assert puzzle["accepted"] == _within(values, cl_puzzles.ACCEPT)
        assert _gap(puzzle) >= cl_puzzles.GAIN


def test_shipped_senet_answers_by_the_chance_of_winning() -> None:
    for puzzle in starter("senet")[:SAMPLE]:
        eng, state = position(puzzle)
        chances = senet_puzzles.chances(eng.view(state, puzzle["seat"]), puzzle["seat"],
                                        puzzle["legal"])
        assert {m: round(v, 4) for m, v in chances.items()} == puzzle["values"]
        assert puzzle["accepted"] == _within(chances, senet_puzzles.ACCEPT)
        assert _gap(puzzle) >= senet_puzzles.GAP


def test_shipped_six_nimmt_answers_by_sampling_again_with_the_same_seed() -> None:
    seed = _seed("six_nimmt")
    for puzzle in starter("six_nimmt")[:SAMPLE]:
        eng, state = position(puzzle)
        seat = puzzle["seat"]
        bulls = sx_puzzles.bullheads(eng.view(state, seat), seat, puzzle["legal"],
                                     key_rng(puzzle["key"], seed))
        values = {m: -b for m, b in bulls.items()}
        assert {m: round(v, 4) for m, v in values.items()} == puzzle["values"]
        assert puzzle["accepted"] == _within(values, sx_puzzles.ACCEPT)
        assert _gap(puzzle) >= sx_puzzles.GAP


@pytest.mark.parametrize(("game", "games", "seed"), [("varanasi", 2, 2), ("six_nimmt", 1, 2)])
def test_the_generator_writes_the_same_set_for_the_same_seed(game: str, games: int,
                                                             seed: int) -> None:
    first = generator.generate(game, games, seed=seed, target=5)
    assert first, "a seeded self-play game with a mistake to find"
    second = generator.generate(game, games, seed=seed, target=5)
    assert generator.dumps(game, seed, games, first) == generator.dumps(game, seed, games,
                                                                         second)
    for puzzle in first:
        well_formed(puzzle)
