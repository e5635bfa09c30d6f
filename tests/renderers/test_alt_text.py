"""Alt text: every picture described in words for a screen reader, in the table's language,
within Discord's 1024 characters: who is to move, what the last move changed, the scores."""

from __future__ import annotations

import re

import pytest

import renderers
from engines import get_engine
from renderers import replay, review, tournament
from renderers.gallery import after_moves, catalogue_gettext, has, play, random_log

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]
JA_NAMES = ["アン", "ボー", "サイ", "ディ", "エド", "フロー", "ガス", "ハル", "アイヴィ", "ジョー"]
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
GAMES = [("senet", 2, None), ("six_nimmt", 5, None), ("varanasi", 3, None),
         ("cows_leopards", 2, None)]


def positions(game: str, players: int, options: dict | None):
    """Seeded random positions: a few moves in, the middle and late in the game."""
    for seed, moves in ((1, 3), (2, 15), (3, 60)):
        eng, state, events = after_moves(game, players, options, seed, moves)
        if eng.outcome(state) is None:
            yield eng, state, events


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_board_alt_text_names_who_moves_and_fits(game, players, options) -> None:
    seen = 0
    for eng, state, events in positions(game, players, options):
        view = eng.view(state, None)
        text = renderers.alt_text(game, view, events, names=NAMES[:players])
        assert 0 < len(text) <= 1024
        for seat in view["to_act"]:
            if seat >= 0:
                assert NAMES[seat] in text
        seen += 1
    assert seen >= 2


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_alt_text_is_in_the_tables_language(game, players, options) -> None:
    ja = catalogue_gettext("ja")
    for eng, state, events in positions(game, players, options):
        view = eng.view(state, None)
        text = renderers.alt_text(game, view, events, gettext=ja, names=JA_NAMES[:players])
        english = renderers.alt_text(game, view, events, names=JA_NAMES[:players])
        assert text != english
        # move notation of Cows and Leopards ("e4") is no word; nothing else stays English
        assert not ENGLISH_WORD.findall(text), text
    eng, state, _ = play(game, players, options, 4)
    text = renderers.alt_text_game_over(game, eng.view(state, None), eng.outcome(state),
                                        gettext=ja, names=JA_NAMES[:players])
    assert not ENGLISH_WORD.findall(text), text


def test_senet_says_the_throw_and_the_move() -> None:
    eng, state, events = play("senet", 2, None, 5,
                              lambda s, v, e: has(e, "move") and not has(e, "swap"))
    move = next(e for e in events if e["type"] == "move")
    text = renderers.alt_text("senet", eng.view(state, None), events, names=NAMES[:2])
    assert f"{NAMES[move['seat']]} moved a stone from {move['from']} to {move['to']}" in text
    assert "of 5 borne off" in text


def test_six_nimmt_says_the_revealed_cards_and_who_has_picked() -> None:
    eng, state, events = play("six_nimmt", 5, None, 12,
                              lambda s, v, e: has(e, "reveal") and has(e, "take"))
    view = eng.view(state, None)
    text = renderers.alt_text("six_nimmt", view, events, names=NAMES[:5])
    reveal = next(e for e in events if e["type"] == "reveal")
    for card, seat in reveal["cards"]:
        assert f"{NAMES[seat]} played {card}" in text
    take = next(e for e in events if e["type"] == "take")
    assert f"took row {take['row']} (bullheads: {take['bullheads']})" in text
    eng, state, events = play("six_nimmt", 4, None, 9, lambda s, v, e: sum(
        p is not None for p in v["picked"]) == 2 and v["phase"] == "pick")
    view = eng.view(state, None)
    text = renderers.alt_text("six_nimmt", view, events, names=NAMES[:4])
    done = [NAMES[s] for s in range(4) if view["picked"][s]]
    assert f"Picked face down: {', '.join(done)}." in text
    hidden = eng.view(state, 0)["picked"]  # what the picks were never shows
    assert not any(f" {c}" in text.split("Points")[0].split("Row")[0] for c in hidden
                   if isinstance(c, int) and not isinstance(c, bool))


def test_varanasi_and_cows_say_the_last_move() -> None:
    eng, state, events = play("varanasi", 2, None, 3, lambda s, v, e: has(e, "take"))
    take = next(e for e in events if e["type"] == "take")
    text = renderers.alt_text("varanasi", eng.view(state, None), events, names=NAMES[:2])
    assert f"{NAMES[take['seat']]}: took" in text and "score" in text
    eng, state, events = play("cows_leopards", 2, None, 3, lambda s, v, e: has(e, "jump"))
    jump = next(e for e in events if e["type"] == "jump")
    text = renderers.alt_text("cows_leopards", eng.view(state, None), events, names=NAMES[:2])
    assert f"captured the cow on {jump['over']}" in text and "Cows captured:" in text


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_game_over_alt_text_ranks_the_winner_first(game, players, options) -> None:
    eng, state, _ = play(game, players, options, 4)
    outcome = eng.outcome(state)
    text = renderers.alt_text_game_over(game, eng.view(state, None), outcome,
                                        names=NAMES[:players])
    assert len(text) <= 1024 and "Game over" in text
    best = min(range(players), key=lambda s: (outcome["ranks"][s], s))
    after = text.split("Game over", 1)[1]
    assert after.index(NAMES[best]) == min(after.index(n) for n in NAMES[:players])


def test_long_names_and_ten_seats_stay_within_discords_limit() -> None:
    names = [f"{n} the magnificent, of the very long display name" for n in NAMES]
    eng, state, events = play("six_nimmt", 10, {"cards": "logical", "points": 20}, 5,
                              lambda s, v, e: has(e, "reveal"))
    text = renderers.alt_text("six_nimmt", eng.view(state, None), events, names=names)
    assert len(text) == 1024 and text.endswith("…")


def test_without_names_seats_are_numbered() -> None:
    eng, state, events = after_moves("senet", 2, None, 1, 3)
    text = renderers.alt_text("senet", eng.view(state, None), events)
    assert "Player 1" in text and "Player 2" in text


def test_replay_and_review_alt_text() -> None:
    log = random_log("senet", 2, None, 120)
    played = replay.PlayedGame("senet", None, 2, log)
    text = replay.alt_text(played, names=NAMES[:2])
    assert text.startswith(f"Replay: {len(log)} moves in ") and len(text) <= 1024
    from engines.ai.review import review as judge

    result = judge("senet", {}, 2, log)
    text = review.alt_text_evaluation(result, names=NAMES[:2])
    assert NAMES[0] in text and NAMES[1] in text and len(text) <= 1024
    seat, mistake = next((s["seat"], m) for s in result["seats"] for m in s["mistakes"])
    text = review.alt_text_mistake("senet", {}, 2, log, mistake, seat, names=NAMES[:2])
    assert f"played {mistake['move']}" in text and f"better was {mistake['better']}" in text
    ja = review.alt_text_mistake("senet", {}, 2, log, mistake, seat, names=JA_NAMES[:2],
                                 gettext=catalogue_gettext("ja"))
    assert ja != text and len(ja) <= 1024


def test_tournament_alt_text() -> None:
    text = tournament.alt_text_standings(tournament.sample_standings())
    assert "1st: アキ, points: 2" in text and len(text) <= 1024
    text = tournament.alt_text_bracket(tournament.sample_bracket())
    assert "won by ウンジ" in text


def test_a_game_without_its_own_alt_text_gets_a_plain_one(nim_id: str) -> None:
    eng = get_engine(nim_id)
    state = eng.new(2, None)
    view = eng.view(state, None)
    assert renderers.alt_text(nim_id, view, [], names=NAMES[:2]) == "To move: Ann."
    text = renderers.alt_text_game_over(nim_id, view, {"scores": [0, 1], "ranks": [2, 1]},
                                        names=NAMES)
    assert text == "Game over. 1st: Bo, points: 1; 2nd: Ann, points: 0."
