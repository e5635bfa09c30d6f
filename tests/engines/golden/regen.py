"""Write the golden playthroughs (OpenSpiel-style): `python -m tests.engines.golden.regen`.

For one seeded random game per game and option set, every position as JSON, who acts, the
legal moves of each seat that acts (chance's odds where it lists them), the view of every
seat and of a spectator, then the move played and its events. tests/engines/test_golden.py
regenerates them in memory and compares: any change in rules, notation, views or events
shows as a diff. Regenerate only for an intended change, and read the diff.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from engines import CHANCE, get_engine
from tests.helpers.playout import random_steps

FOLDER = Path(__file__).resolve().parent

# (file name, game, players, options, seed)
PLAYTHROUGHS: list[tuple[str, str, int, dict[str, Any] | None, int]] = [
    ("varanasi_2p", "varanasi", 2, {"sets": 1}, 1),
    ("varanasi_3p_weighted_last_take_before", "varanasi", 3,
     {"sets": 1, "weighted": True, "scoring": "last_take", "height_rule": "before"}, 2),
    ("varanasi_4p_teams_sum_misere", "varanasi", 4,
     {"sets": 2, "teams": True, "team_scoring": "sum", "misere": True}, 3),
    ("varanasi_2p_target", "varanasi", 2, {"target": 5, "colours": 4}, 4),
    ("six_nimmt_3p_standard", "six_nimmt", 3, {"rounds": 1}, 1),
    ("six_nimmt_4p_professional_tactical", "six_nimmt", 4,
     {"rounds": 1, "professional": True, "cards": "tactical"}, 2),
    ("six_nimmt_3p_logical", "six_nimmt", 3, {"rounds": 1, "cards": "logical"}, 3),
    ("six_nimmt_2p_points", "six_nimmt", 2, {"points": 20, "professional": True}, 6),
    ("senet", "senet", 2, None, 1),
    ("cows_leopards_A", "cows_leopards", 2, {"board": "A", "captures": 3, "quiet_limit": 10}, 1),
    ("cows_leopards_B_deadline", "cows_leopards", 2,
     {"board": "B", "leopard_deadline": True, "captures": 4, "quiet_limit": 10}, 2),
]


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _view_line(eng, state, seat: int | None, position: dict) -> str:
    """The view as the keys where it differs from the position (to_act is listed apart)."""
    view = eng.view(state, seat)
    differ = {k: v for k, v in view.items() if k != "to_act" and position.get(k, v) != v
              or k not in position and k != "to_act"}
    name = "-" if seat is None else seat
    return f"view {name}: " + (f"position but {_json(differ)}" if differ else "= position")


def _view_lines(eng, state, position: dict) -> list[str]:
    seats: list[int | None] = list(range(position["options"]["players"]))
    return [_view_line(eng, state, seat, position) for seat in [*seats, None]]


def playthrough(game: str, players: int, options: dict[str, Any] | None, seed: int) -> str:
    """The text of one seeded game."""
    eng = get_engine(game)
    final = eng.new(players, options)
    lines = [f"game: {game}", f"players: {players}", f"seed: {seed}",
             f"options: {_json(eng.dump(final)['options'])}", ""]
    ply = 0
    for state, actor, move in random_steps(eng, final, random.Random(seed)):
        position = eng.dump(state)
        actors = eng.to_act(state)
        lines += [f"# ply {ply}", f"position: {_json(position)}", f"to_act: {actors}"]
        for who in actors:
            if who == CHANCE:
                odds = (_json(eng.chance_odds(state)) if eng.info.chance.listed
                        else "(sampled)")
                lines.append(f"chance: {odds}")
            else:
                lines.append(f"legal {who}: {_json(eng.legal_moves(state, who))}")
        lines += _view_lines(eng, state, position)
        after, events = eng.apply_events(state, actor, move)
        lines += [f"move: {actor} {move}", f"events: {_json(events)}", ""]
        final = after
        ply += 1
    lines += [f"# end after {ply} moves", f"position: {_json(eng.dump(final))}",
              f"outcome: {_json(eng.outcome(final))}", ""]
    return "\n".join(lines)


def path_of(name: str) -> Path:
    return FOLDER / f"{name}.txt"


def main() -> int:
    for name, game, players, options, seed in PLAYTHROUGHS:
        text = playthrough(game, players, options, seed)
        path_of(name).write_text(text, encoding="utf-8")
        print(f"{path_of(name).relative_to(FOLDER.parents[2])}: {text.count('# ply')} plies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
