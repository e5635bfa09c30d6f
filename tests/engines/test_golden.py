"""The golden playthroughs under tests/engines/golden/ are what the engines play today: each
is regenerated in memory and compared line by line. After an intended change of rules,
notation, views or events, run `python -m tests.engines.golden.regen` and read the diff."""

from __future__ import annotations

import difflib

import pytest

from tests.engines.golden.regen import PLAYTHROUGHS, path_of, playthrough


@pytest.mark.parametrize(("name", "game", "players", "options", "seed"), PLAYTHROUGHS,
                         ids=[p[0] for p in PLAYTHROUGHS])
def test_playthrough_matches_its_golden_file(name, game, players, options, seed) -> None:
    expected = path_of(name).read_text(encoding="utf-8")
    actual = playthrough(game, players, options, seed)
    if actual != expected:
        diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                    f"golden/{name}.txt", "regenerated", lineterm="", n=1)
        pytest.fail("\n".join(list(diff)[:40]))


def test_every_game_has_a_golden_playthrough() -> None:
    from engines import GAME_IDS

    assert {p[1] for p in PLAYTHROUGHS} == set(GAME_IDS)
    names = [p[0] for p in PLAYTHROUGHS]
    assert len(names) == len(set(names))
