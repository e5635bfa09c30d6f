"""A test-only fifth game, Nim, written only against the public engine contract: it proves
that a game joins through one spec registered once (`SPEC`, with `bot.games.register`, or
`engines.register` where only the engine layer is used) with nothing changed elsewhere: the
generic computer player and review judge, its own pictures (tests/helpers/nim_renderer.py)
and presentation (tests/helpers/nim_presentation.py), the standard gallery samples.

Heaps of stones; a move `take K from H` removes K (1..3) stones from heap H (1-based); who
takes the last stone wins. Option `heaps`: how many heaps (2..5), heap i holding i + 2 stones.
"""

from __future__ import annotations

import random
from typing import Any

from engines import Decision, Engine, GameInfo, GameSpec, IllegalMove, Option, ranks_from_scores
from engines.base import require_field
from engines.options import check_options
from engines.registry import PLAYOUT_PLAYER, PLAYOUT_REVIEWER

GAME_ID = "test_nim"


class NimState(tuple):
    """(heaps, turn, winner): an immutable tuple."""


class Nim(Engine):
    option_spec = [Option("heaps", "int", 3, 2, 5, help="how many heaps")]
    info = GameInfo(id=GAME_ID, name="Nim", min_players=2, max_players=3,
                    decisions=(Decision("play", ("take",)),))

    def default_options(self, players: int) -> dict[str, Any]:
        self._check_players(players)
        return {"players": players, "heaps": 3}

    def new(self, players: int, options: dict[str, Any] | None = None) -> dict:
        self._check_players(players)
        opts = check_options(self.option_spec, self.default_options(players), players, options)
        return {"options": opts, "heaps": [i + 2 for i in range(opts["heaps"])], "turn": 0,
                "winner": None}

    def to_act(self, state: dict) -> list[int]:
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_moves(self, state: dict, actor: int) -> list[str]:
        if actor not in self.to_act(state):
            return []
        return sorted(f"take {k} from {h + 1}" for h, size in enumerate(state["heaps"])
                      for k in range(1, min(3, size) + 1))

    def chance_odds(self, state: dict) -> dict[str, float]:
        raise NotImplementedError("Nim has no chance")

    def sample_chance(self, state: dict, rng: random.Random) -> str:
        raise ValueError("chance does not act in Nim")

    def _resolve(self, state: dict, actor: int, move: str, events: list[dict] | None) -> dict:
        if move not in self.legal_moves(state, actor):
            raise IllegalMove("{move!r} is not a move now", move=move)
        _, k, _, h = self.parse_move(move)
        heaps = list(state["heaps"])
        heaps[h - 1] -= k
        n = state["options"]["players"]
        winner = actor if not any(heaps) else None
        after = {"options": state["options"], "heaps": heaps, "turn": (actor + 1) % n,
                 "winner": winner}
        if events is not None:
            events.append({"type": "take", "seat": actor, "count": k, "heap": h})
            if winner is not None:
                events.append({"type": "game_over", **self.outcome(after)})
        return after

    def outcome(self, state: dict) -> dict | None:
        if state["winner"] is None:
            return None
        scores = [1 if s == state["winner"] else 0 for s in range(state["options"]["players"])]
        return {"scores": scores, "ranks": ranks_from_scores(scores)}

    def dump(self, state: dict) -> dict:
        return {"game": GAME_ID, "options": dict(state["options"]), "heaps": list(state["heaps"]),
                "turn": state["turn"], "winner": state["winner"],
                "phase": "over" if state["winner"] is not None else "play"}

    def load(self, position: dict) -> dict:
        if require_field(position, "game") != GAME_ID:
            raise ValueError("position field 'game' must be 'test_nim'")
        return {k: position[k] for k in ("options", "heaps", "turn", "winner")}

    def view(self, state: dict, seat: int | None) -> dict:
        return {**self.dump(state), "to_act": self.to_act(state)}


ENGINE = Nim()

SPEC = GameSpec(
    id=GAME_ID,
    engine="tests.helpers.nim:ENGINE",
    player=PLAYOUT_PLAYER,  # no player of its own: the generic playouts
    reviewer=PLAYOUT_REVIEWER,
    renderer="tests.helpers.nim_renderer",
    presentation="tests.helpers.nim_presentation:PRESENTATION",
)
