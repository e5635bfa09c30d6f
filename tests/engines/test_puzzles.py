"""Puzzles mined from finished games (engines/ai/puzzles): a known blunder in each game makes a
puzzle at that decision with the right answers, a game without a clear mistake makes none, a
puzzle shows only what its seat saw, and a log and a seed fix the puzzles."""

from __future__ import annotations

import random

import pytest

from engines import CHANCE, get_engine
from engines.ai import choose_move
from engines.ai.puzzles import (
    MAX_PER_GAME,
    MIN_CHOICES,
    check,
    has_puzzles,
    mine,
    position,
    puzzle_key,
    starter,
)
from engines.ai.puzzles import cows_leopards as cl_puzzles
from engines.ai.puzzles import senet as senet_puzzles
from engines.ai.puzzles import six_nimmt as sx_puzzles
from engines.ai.puzzles.base import key_rng
from engines.varanasi_grundy import grundy
from renderers.puzzle import alt_text_puzzle, render_answer, render_puzzle

VARANASI = get_engine("varanasi")
FIELDS = {"game", "options", "players", "seat", "log", "key", "legal", "played", "best",
          "accepted", "unit", "values", "line", "difficulty"}


def well_formed(puzzle: dict) -> None:
    """The puzzle's fields, its position rebuilt from its log, its key from the seat's view."""
    assert set(puzzle) == FIELDS
    eng, state = position(puzzle)
    seat = puzzle["seat"]
    assert puzzle["key"] == puzzle_key(eng.view(state, seat), seat)
    assert puzzle["legal"] == sorted(eng.legal_moves(state, seat))
    assert set(puzzle["values"]) == set(puzzle["legal"])
    assert puzzle["best"] in puzzle["accepted"] and puzzle["played"] not in puzzle["accepted"]
    assert set(puzzle["accepted"]) <= set(puzzle["legal"]) and puzzle["played"] in puzzle["legal"]
    assert check(puzzle, puzzle["best"]) and not check(puzzle, puzzle["played"])
    assert 20.0 <= puzzle["difficulty"] <= 35.0


# -- Varanasi ----------------------------------------------------------------------------------

SETUP = "setup r4r1|b4g3b1|g4b3r2|r3b2|g2g1"


def _towers_after(state: object, seat: int, move: str) -> list[str]:
    return VARANASI.dump(VARANASI.apply(state, seat, move))["towers"]


def _wins(state: object, move: str) -> bool:
    """By the Grundy values, not the solver: the move leaves the opponent a lost set."""
    rest = _towers_after(state, 0, move)
    return not any(rest) or grundy(rest) == 0


def test_a_varanasi_blunder_makes_a_puzzle_of_every_winning_move() -> None:
    state = VARANASI.apply(VARANASI.new(2, {"sets": 1}), CHANCE, SETUP)
    legal = sorted(VARANASI.legal_moves(state, 0))
    blunder = next(m for m in legal if not _wins(state, m))
    log = [(CHANCE, SETUP), (0, blunder)]
    reply = choose_move("varanasi", VARANASI.view(VARANASI.apply(state, 0, blunder), 1), 1,
                        "hard", seed=1)
    log.append((1, reply))

    [puzzle] = mine("varanasi", {"sets": 1}, 2, log)
    well_formed(puzzle)
    assert (puzzle["seat"], puzzle["log"], puzzle["played"]) == (0, [[CHANCE, SETUP]], blunder)
    assert puzzle["accepted"] == [m for m in legal if _wins(state, m)]
    assert puzzle["values"] == {m: float(_wins(state, m)) for m in legal}
    assert puzzle["unit"] == "win"
    # The line starts with the best move and is legal play, each of our moves winning.
    line = puzzle["line"]
    assert line[0] == puzzle["best"] and len(line) >= 3
    after = state
    for i, move in enumerate(line):
        seat = i % 2
        assert move in VARANASI.legal_moves(after, seat)
        after = VARANASI.apply(after, seat, move)
        towers = VARANASI.dump(after)["towers"]
        if seat == 0:
            assert not any(towers) or grundy(towers) == 0
    # The opponent's winning reply is no mistake.
    assert all(p["seat"] == 0 for p in mine("varanasi", {"sets": 1}, 2, log))


def test_a_game_without_a_clear_mistake_makes_no_puzzle() -> None:
    """Hard against hard: every won set is kept won, so no move gives a win away."""
    state = VARANASI.new(2, {"sets": 1})
    rng = random.Random(4)
    log = []
    while VARANASI.outcome(state) is None:
        actor = VARANASI.to_act(state)[0]
        move = (VARANASI.sample_chance(state, rng) if actor == CHANCE else
                choose_move("varanasi", VARANASI.view(state, actor), actor, "hard", seed=7))
        state = VARANASI.apply(state, actor, move)
        log.append((actor, move))
    assert len(log) > 5
    assert mine("varanasi", {"sets": 1}, 2, log) == []


# -- Senet ---------------------------------------------------------------------------------------

def _senet_blunder(seed: int) -> tuple[list[tuple[int, str]], int, dict[str, float]]:
    """A seeded game of random moves up to the first throw where a move loses 15 points of
    winning chance against the best, that move played: (log, its index, chances)."""
    eng = get_engine("senet")
    rng = random.Random(seed)
    state = eng.new(2, {})
    log: list[tuple[int, str]] = []
    while True:
        actor = eng.to_act(state)[0]
        if actor == CHANCE:
            move = eng.sample_chance(state, rng)
        else:
            legal = sorted(eng.legal_moves(state, actor))
            if len(legal) >= MIN_CHOICES:
                chance = senet_puzzles.chances(eng.view(state, actor), actor, legal)
                worst = min(legal, key=chance.__getitem__)
                if max(chance.values()) - chance[worst] >= 0.15:
                    log.append((actor, worst))
                    return log, len(log) - 1, chance
            move = rng.choice(legal)
        state = eng.apply(state, actor, move)
        log.append((actor, move))


def test_a_senet_throw_that_loses_ten_points_makes_a_puzzle() -> None:
    log, index, chance = _senet_blunder(3)
    puzzles = mine("senet", {}, 2, log)
    [puzzle] = [p for p in puzzles if len(p["log"]) == index]
    well_formed(puzzle)
    best = max(chance.values())
    assert puzzle["played"] == log[index][1]
    assert chance[puzzle["best"]] == best
    assert puzzle["accepted"] == sorted(m for m in chance if chance[m] >= best - 0.035)
    assert puzzle["unit"] == "chance" and puzzle["line"] == []


# -- Cows and Leopards ------------------------------------------------------------------------

def _missed_capture(seed: int) -> tuple[list[tuple[int, str]], int]:
    """A seeded game of random moves, the leopards' turns capturing when they can, until a
    turn where missing a capture loses a cow by the deep search: then a step is played."""
    eng = get_engine("cows_leopards")
    rng = random.Random(seed)
    state = eng.new(2, {})
    log: list[tuple[int, str]] = []
    while eng.outcome(state) is None:
        actor = eng.to_act(state)[0]
        legal = sorted(eng.legal_moves(state, actor))
        jumps = [m for m in legal if "x" in m]
        move = rng.choice(jumps or legal)
        if jumps and len(legal) > 3 * len(jumps):
            values = cl_puzzles.values(eng.view(state, actor), cl_puzzles.DEPTH, 10**6)
            assert values is not None
            quiet = min((m for m in legal if "x" not in m), key=values.__getitem__)
            if max(values.values()) - values[quiet] >= 1.5:
                log.append((actor, quiet))
                return log, len(log) - 1
        state = eng.apply(state, actor, move)
        log.append((actor, move))
    raise AssertionError("no capture to miss")


def test_a_missed_capture_makes_a_cows_and_leopards_puzzle() -> None:
    log, index = _missed_capture(2)
    [puzzle] = [p for p in mine("cows_leopards", {}, 2, log) if len(p["log"]) == index]
    well_formed(puzzle)
    assert puzzle["seat"] == 1 and puzzle["played"] == log[index][1]
    assert "x" in puzzle["best"]  # the capture
    values = puzzle["values"]
    top = max(values.values())
    assert values[puzzle["best"]] == top
    assert puzzle["accepted"] == sorted(m for m in values if values[m] >= top - cl_puzzles.ACCEPT)
    assert top - values[puzzle["played"]] >= cl_puzzles.GAIN


# -- 6 nimmt! ----------------------------------------------------------------------------------

HAND0 = [1, 89, 90, 91, 92, 93, 94, 95, 96, 97]
ROWS = [55, 66, 77, 88]


def _six_nimmt_deal(seed: int) -> tuple[str, list[int]]:
    """Seat 0 holds the 1 (which takes a row of 5 or 7 bullheads at once) and high cards
    that join the 88; the others' cards are shuffled by `seed`."""
    rest = [c for c in range(2, 105) if c not in HAND0 + ROWS]
    random.Random(seed).shuffle(rest)
    return "deal " + " ".join(map(str, HAND0 + rest[:20] + ROWS)), rest[:20]


def _six_nimmt_log(deal: str, turns: int) -> list[tuple[int, str]]:
    eng = get_engine("six_nimmt")
    state = eng.apply(eng.new(3, {"rounds": 1}), CHANCE, deal)
    log: list[tuple[int, str]] = [(CHANCE, deal)]
    ply = 0
    while sum(1 for _, m in log if m.startswith("play")) < 3 * turns:
        actor = eng.to_act(state)[0]
        ply += 1
        move = ("play 1" if actor == 0 and ply == 1 else
                choose_move("six_nimmt", eng.view(state, actor), actor, "normal", seed=ply))
        state = eng.apply(state, actor, move)
        log.append((actor, move))
    return log


def test_a_six_nimmt_pick_that_takes_a_row_makes_a_puzzle() -> None:
    deal, _ = _six_nimmt_deal(3)
    log = _six_nimmt_log(deal, 2)
    puzzles = mine("six_nimmt", {"rounds": 1}, 3, log)
    [puzzle] = [p for p in puzzles if len(p["log"]) == 1]
    well_formed(puzzle)
    assert (puzzle["seat"], puzzle["played"], puzzle["unit"]) == (0, "play 1", "bullheads")
    values = puzzle["values"]
    assert values[puzzle["best"]] - values["play 1"] >= sx_puzzles.GAP
    assert puzzle["accepted"] == sorted(
        m for m in values if values[m] >= values[puzzle["best"]] - sx_puzzles.ACCEPT)
    # The same samples again give the same values (seeded from the key).
    eng, state = position(puzzle)
    again = sx_puzzles.bullheads(eng.view(state, 0), 0, puzzle["legal"],
                                 key_rng(puzzle["key"], 0))
    assert {m: round(-v, 4) for m, v in again.items()} == values


def test_a_six_nimmt_puzzle_is_the_same_whatever_the_others_hold() -> None:
    """Two deals that differ only in the cards seats 1 and 2 have not played yet: seat 0's
    puzzle is the same but for the log (the deal), pictures included."""
    deal, rest = _six_nimmt_deal(3)
    log = _six_nimmt_log(deal, 2)
    played = {s: [m.split()[1] for a, m in log if a == s and m.startswith("play")]
              for s in (1, 2)}
    hands = {1: [str(c) for c in rest[:10]], 2: [str(c) for c in rest[10:20]]}
    unplayed = {s: [c for c in hands[s] if c not in played[s]] for s in (1, 2)}
    other = ("deal " + " ".join([*map(str, HAND0), *played[1], *unplayed[2], *played[2],
                                 *unplayed[1], *map(str, ROWS)]))
    assert sorted(other.split()) == sorted(deal.split()) and other != deal
    swapped = [(CHANCE, other), *log[1:]]

    first = [p for p in mine("six_nimmt", {"rounds": 1}, 3, log) if p["seat"] == 0]
    second = [p for p in mine("six_nimmt", {"rounds": 1}, 3, swapped) if p["seat"] == 0]
    assert first and len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert a["log"] != b["log"]
        assert {**a, "log": None} == {**b, "log": None}
        assert render_puzzle(a) == render_puzzle(b)
        assert render_answer(a, a["played"]) == render_answer(b, b["played"])
        assert alt_text_puzzle(a) == alt_text_puzzle(b)


# -- every game ----------------------------------------------------------------------------

def test_the_games_with_puzzles_are_their_specs_and_the_fifth_has_none(nim_id: str) -> None:
    for game in ("varanasi", "six_nimmt", "senet", "cows_leopards"):
        assert has_puzzles(game)
    assert not has_puzzles(nim_id) and not has_puzzles("chess")
    log = [(0, "take 2 from 1"), (1, "take 2 from 2"), (0, "take 1 from 2")]
    assert mine(nim_id, {"heaps": 2}, 2, log) == []
    assert starter(nim_id) == []


def test_a_log_and_a_seed_fix_the_puzzles_and_duplicates_merge() -> None:
    log, index, _ = _senet_blunder(3)
    first = mine("senet", {}, 2, log, seed=5)
    assert first == mine("senet", {}, 2, log, seed=5)
    assert len({p["key"] for p in first}) == len(first) <= MAX_PER_GAME
    sizes = [p["values"][p["best"]] - p["values"][p["played"]] for p in first]
    assert sizes == sorted(sizes, reverse=True)


@pytest.mark.parametrize("game", ["varanasi", "six_nimmt", "senet", "cows_leopards"])
def test_a_puzzle_key_is_the_seat_s_view(game: str) -> None:
    eng = get_engine(game)
    state = eng.new(2 if game != "six_nimmt" else 3, None)
    rng = random.Random(1)
    while CHANCE in eng.to_act(state):
        state = eng.apply(state, CHANCE, eng.sample_chance(state, rng))
    seat = eng.to_act(state)[0]
    view = eng.view(state, seat)
    assert puzzle_key(view, seat) == puzzle_key(dict(reversed(view.items())), seat)
    assert puzzle_key(view, seat) != puzzle_key(view, seat + 1)
