"""The post-game review: a known blunder is flagged with a better move, a seat is judged only
on what it could see, and a seed fixes the whole review."""

from __future__ import annotations

import random
from itertools import islice

from engines import CHANCE, get_engine
from engines.ai import choose_move
from engines.ai.review import MISTAKES, review
from engines.varanasi_grundy import grundy
from tests.helpers.playout import random_steps

VARANASI = get_engine("varanasi")


def _towers_after(state: object, seat: int, move: str) -> list[str]:
    return VARANASI.dump(VARANASI.apply(state, seat, move))["towers"]


def test_a_varanasi_blunder_is_flagged_with_a_winning_move() -> None:
    """A hand-made set: seat 0 starts from a won position (Grundy value not 0) and plays a
    move that leaves a position the opponent wins; the review names that move, a loss of a
    whole win, and a better move that really wins."""
    options = {"sets": 1}
    setup = "setup r4r1|b4g3b1|g4b3r2|r3b2|g2g1"
    state = VARANASI.apply(VARANASI.new(2, options), CHANCE, setup)
    towers = VARANASI.dump(state)["towers"]
    assert grundy(towers) != 0
    legal = VARANASI.legal_moves(state, 0)
    blunder = next(m for m in legal
                   if any(_towers_after(state, 0, m))
                   and grundy(_towers_after(state, 0, m)) != 0)
    log = [(CHANCE, setup), (0, blunder)]
    after = VARANASI.apply(state, 0, blunder)
    reply = choose_move("varanasi", VARANASI.view(after, 1), 1, "hard", seed=1)
    log.append((1, reply))

    result = review("varanasi", options, 2, log)
    seat0 = result["seats"][0]
    assert seat0["accuracy"] == 0.0
    [mistake] = seat0["mistakes"]
    assert (mistake["index"], mistake["move"], mistake["loss"]) == (1, blunder, 1.0)
    rest = _towers_after(state, 0, mistake["better"])
    assert not any(rest) or grundy(rest) == 0
    # The opponent's winning reply is no mistake.
    assert result["seats"][1]["mistakes"] == []
    assert result["seats"][1]["accuracy"] == 100.0


def _six_nimmt_log(deal: str, turns: int) -> list[tuple[int, str]]:
    eng = get_engine("six_nimmt")
    state = eng.apply(eng.new(3, {"rounds": 1}), CHANCE, deal)
    log: list[tuple[int, str]] = [(CHANCE, deal)]
    ply = 0
    while len([a for a, m in log if m.startswith("play")]) < 3 * turns:
        actor = eng.to_act(state)[0]
        ply += 1
        move = choose_move("six_nimmt", eng.view(state, actor), actor, "normal", seed=ply)
        state = eng.apply(state, actor, move)
        log.append((actor, move))
    return log


def test_a_six_nimmt_review_of_a_seat_ignores_the_others_hands() -> None:
    """Two deals that differ only in the cards seats 1 and 2 have not played yet: the same
    moves are played, and seat 0's review is the same to the digit."""
    deal = get_engine("six_nimmt").sample_chance(
        get_engine("six_nimmt").new(3, {"rounds": 1}), random.Random(4))
    cards = deal.split()[1:]
    log = _six_nimmt_log(deal, 4)
    played = {s: [m.split()[1] for a, m in log if a == s and m.startswith("play")]
              for s in (1, 2)}
    hands = {s: cards[10 * s:10 * s + 10] for s in (1, 2)}
    unplayed = {s: [c for c in hands[s] if c not in played[s]] for s in (1, 2)}
    # Seats 1 and 2 swap the cards they have not played yet.
    other = " ".join(cards[:10] + played[1] + unplayed[2] + played[2] + unplayed[1]
                     + cards[30:])
    assert other != " ".join(cards)
    swapped = [(CHANCE, "deal " + other)] + log[1:]

    first = review("six_nimmt", {"rounds": 1}, 3, log, seed=7)
    second = review("six_nimmt", {"rounds": 1}, 3, swapped, seed=7)
    assert first["seats"][0]["judged"] >= 4
    assert first["seats"][0] == second["seats"][0]


def test_a_seed_fixes_the_review_and_every_seat_gets_an_accuracy() -> None:
    eng = get_engine("senet")
    steps = random_steps(eng, eng.new(2, {}), random.Random(2))
    log = [(actor, move) for _state, actor, move in islice(steps, 120)]
    first = review("senet", {}, 2, log, seed=3)
    assert first == review("senet", {}, 2, log, seed=3)
    for seat in first["seats"]:
        assert 0 <= seat["accuracy"] <= 100
        assert len(seat["mistakes"]) <= MISTAKES
        assert all(0 <= value <= 1 for _, value in seat["series"])
        drops = [m["drop"] for m in seat["mistakes"]]
        assert drops == sorted(drops, reverse=True)
