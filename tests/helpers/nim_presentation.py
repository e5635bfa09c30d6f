"""How the bot shows the test-only fifth game (tests/helpers/nim.py): one button per move,
labels and narration; named by its spec (tests/helpers/nim.py)."""

from __future__ import annotations

from typing import Any

from bot.games import Phrase, Presentation, Who
from bot.i18n import t
from engines import Engine
from tests.helpers.nim import GAME_ID


class NimPresentation(Presentation):
    game = GAME_ID
    command_help = "Open a Nim table: take the last stone"
    button_kinds = frozenset({"take"})

    def label(self, engine: Engine, state: Any, seat: int, move: str, loc: object) -> str:
        _, count, _, heap = engine.parse_move(move)
        return t(loc, "Take {count} from heap {heap}", count=count, heap=heap)

    def phrase(self, event: dict[str, Any], loc: object, who: Who) -> Phrase | None:
        if event["type"] == "take":
            return event["seat"], t(loc, "took {count} from heap {heap}", count=event["count"],
                                    heap=event["heap"])
        return None


PRESENTATION = NimPresentation()
