"""Puzzle pictures (renderers/puzzle.py): the position as the seat saw it, the answer beside the
best move when it is wrong, never a card the seat could not see, and alt text in either
language."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines import CHANCE, get_engine
from engines.ai.puzzles import puzzle_key
from renderers import gallery
from renderers.puzzle import alt_text_answer, alt_text_puzzle, render_answer, render_puzzle


def _size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as im:
        assert im.format == "PNG"
        return im.size


def hand_made(game: str, players: int, options: dict, seed: int, plies: int) -> dict:
    """A puzzle written by hand: a seeded random game's first decision after `plies` moves
    with two legal moves or more; the first legal move is 'best', the last 'played'."""
    eng = get_engine(game)
    rng = random.Random(seed)
    state = eng.new(players, dict(options))
    log: list[list] = []
    while True:
        actor = eng.to_act(state)[0]
        if actor != CHANCE and len(log) >= plies and len(eng.legal_moves(state, actor)) > 1:
            break
        move = (eng.sample_chance(state, rng) if actor == CHANCE
                else rng.choice(eng.legal_moves(state, actor)))
        state = eng.apply(state, actor, move)
        log.append([actor, move])
    legal = sorted(eng.legal_moves(state, actor))
    return {"game": game, "options": options, "players": players, "seat": actor, "log": log,
            "key": puzzle_key(eng.view(state, actor), actor), "legal": legal,
            "played": legal[-1], "best": legal[0], "accepted": [legal[0]], "unit": "chance",
            "values": {m: 0.5 for m in legal} | {legal[0]: 0.9}, "line": [],
            "difficulty": 25.0}


CASES = [("senet", 2, {}, 1, 20), ("cows_leopards", 2, {}, 2, 30),
         ("varanasi", 2, {"sets": 1}, 3, 3), ("six_nimmt", 4, {}, 4, 12)]


@pytest.mark.parametrize(("game", "players", "options", "seed", "plies"), CASES)
def test_a_puzzle_and_its_answers_are_drawn(game: str, players: int, options: dict,
                                            seed: int, plies: int) -> None:
    puzzle = hand_made(game, players, options, seed, plies)
    width, height = _size(render_puzzle(puzzle))
    assert width >= 600 and height > 300
    right = _size(render_answer(puzzle, puzzle["best"]))
    wrong = _size(render_answer(puzzle, puzzle["played"]))
    assert wrong[1] > 1.8 * right[1]  # the best move's board below the wrong answer
    with pytest.raises(ValueError):
        render_answer(puzzle, "no such move")
    ja = gallery.catalogue_gettext("ja")
    for text in (alt_text_puzzle(puzzle), alt_text_answer(puzzle, puzzle["played"]),
                 alt_text_puzzle(puzzle, gettext=ja, names=["Ann", "Bo", "Cy", "Di"])):
        assert 0 < len(text) <= 1024
    assert puzzle["best"] in alt_text_answer(puzzle, puzzle["played"])
    assert "Best move" not in alt_text_answer(puzzle, puzzle["played"], gettext=ja)


def test_a_six_nimmt_answer_never_shows_what_the_others_picked() -> None:
    """Seat 2 picks last: its answer is drawn as its own face-down pick, whatever seats 0 and
    1 picked before it (a pick completing the turn would reveal theirs)."""
    eng = get_engine("six_nimmt")
    state = eng.new(3, {})
    deal = eng.sample_chance(state, random.Random(5))
    state = eng.apply(state, CHANCE, deal)
    pictures = set()
    for first, second in ((0, 0), (3, 7)):
        picks = [eng.legal_moves(state, 0)[first], eng.legal_moves(state, 1)[second]]
        log = [[CHANCE, deal], [0, picks[0]], [1, picks[1]]]
        after = eng.apply(eng.apply(state, 0, picks[0]), 1, picks[1])
        legal = sorted(eng.legal_moves(after, 2))
        puzzle = {"game": "six_nimmt", "options": {}, "players": 3, "seat": 2, "log": log,
                  "key": puzzle_key(eng.view(after, 2), 2), "legal": legal,
                  "played": legal[0], "best": legal[1], "accepted": [legal[1]],
                  "unit": "bullheads", "values": dict.fromkeys(legal, -3.0), "line": [],
                  "difficulty": 25.0}
        pictures.add((render_puzzle(puzzle), render_answer(puzzle, legal[0])))
    assert len(pictures) == 1
