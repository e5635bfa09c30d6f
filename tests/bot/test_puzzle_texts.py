"""The one-line reason under an answered puzzle: amounts in the puzzle's unit, and a move that
wins or loses the game outright said in words, never as the search's win score."""

from __future__ import annotations

from bot.features.puzzles.texts import labels_of, reason_line
from engines.ai.puzzles import decided, mine
from tests.engines.test_puzzles import _missed_capture


def test_a_move_that_loses_outright_is_said_in_words() -> None:
    log, index = _missed_capture(2)
    [puzzle] = [p for p in mine("cows_leopards", {}, 2, log) if len(p["log"]) == index]
    played, best = puzzle["played"], puzzle["best"]
    assert decided(puzzle, best) == decided(puzzle, played) == 0  # a capture, not a win
    amounts = reason_line("en", puzzle, played, False, labels_of(puzzle, "en"))
    assert f"{puzzle['values'][best]:+.1f}" in amounts

    lost = {**puzzle, "values": {**puzzle["values"], played: -1000.0}}  # the search's loss
    assert decided(lost, played) == -1
    for locale, word in (("en", "loses"), ("ja", "負け")):
        line = reason_line(locale, lost, played, False, labels_of(lost, locale))
        assert word in line and "1000" not in line, line
