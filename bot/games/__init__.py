"""Per-game presentation: how the bot words and shows one game, consumed generically.

Layout (one place per concern, a new game adds one file to each):
- `engines/<game>.py`: the rules, and `eng.info` (name, seats, sides, which decisions are
  simultaneous or private, chance);
- `renderers/<game>.py`: the pictures (no discord, no bot);
- `bot/games/<game>.py`: this module's `Presentation` for the game, as `PRESENTATION`: move
  labels, narration of events, prompts, which moves are buttons and how a long select is
  grouped, side emoji, the /play description, option help and the /rules guide texts. Its
  texts are marked with `t(locale, "…")` / `N_("…")`, so `python -m bot.i18n.extract` finds
  them in the catalogues.

The four built-in games are found by id (`bot.games.<id>`, imported on first use); another
game joins with `register(presentation)`. A game without a presentation still plays: the
base class shows move strings, says nothing about events and puts every move in a select.
Nothing outside a game's own modules branches on its id: bot/ and renderers/ ask
`presentation(game)` and `get_engine(game).info`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import t
from engines import GAME_IDS, Engine, get_engine
from engines.registry import Registry

log = logging.getLogger(__name__)

Phrase = tuple[int | None, str]  # (subject seat or None for a whole sentence, text)
Who = Callable[[int], str]  # seat → "🔵1 Aki"


class Presentation:
    """The defaults, good for any engine; each game's module overrides what it words itself."""

    game: str = ""
    command_help: str = ""  # the /play <game> description (≤ 100 characters); "" = generic
    side_emoji: tuple[str, ...] = ()  # per side (info.sides), added to the seat badges
    lobby_sides: bool = False  # players choose their side (info.sides) in the lobby and /play
    side_help: str = ""  # the /play `side` option's description
    option_help: Mapping[str, str] = {}  # option name → message id (≤ 100 characters)
    guide: Mapping[str, str] = {}  # /rules page ("goal", "setup", …) → message id
    example_plies: int = 6  # how far into a seeded game the /rules picture is drawn
    button_kinds: frozenset[str] = frozenset()  # move kinds (parse_move) shown as buttons

    def __init__(self, game: str = "") -> None:
        if game:
            self.game = game

    @property
    def engine(self) -> Engine:
        return get_engine(self.game)

    def kind(self, move: str) -> str:
        """The move's kind (`parse_move(move)[0]`); "" for a string the engine cannot read."""
        try:
            return str(self.engine.parse_move(move)[0])
        except ValueError:
            return ""

    # ---- names --------------------------------------------------------------------------

    def name(self, locale: object) -> str:
        """The display name (the engine's info.name is its message id)."""
        return t(locale, self.engine.info.name)

    def play_help(self, locale: object = None) -> str:
        """The /play description (English for the command tree, which translates it)."""
        if self.command_help:
            return t(locale, self.command_help)
        return t(locale, "Open a {game} table", game=self.name(locale))

    def side_name(self, locale: object, side: int) -> str:
        return t(locale, self.engine.info.sides[side])

    def side_mark(self, side: int) -> str:
        """The emoji of `side` (seat i plays side i) where pieces have their own colours."""
        return self.side_emoji[side] if 0 <= side < len(self.side_emoji) else ""

    # ---- moves --------------------------------------------------------------------------

    def label(self, engine: Engine, state: Any, seat: int, move: str, locale: object) -> str:
        """Short readable words for `move` by `seat` in `state` (the move string itself)."""
        return move

    def is_button(self, move: str) -> bool:
        """Whether `move` is drawn as a button on the channel board (else in a select)."""
        return self.kind(move) in self.button_kinds

    def button_emoji(self, move: str) -> str | None:
        return None

    def group_of(self, move: str, locale: object = None) -> tuple[str, str]:
        """(key, label) of the group `move` belongs to when its select must be split."""
        return "all", t(locale, "Moves")

    # ---- texts --------------------------------------------------------------------------

    def phrase(self, event: dict[str, Any], locale: object, who: Who) -> Phrase | None:
        """One event (engines/EVENTS.md) as a phrase, or None when it is not worth telling."""
        return None

    def prompt(self, phase: str | None, locale: object, who: str) -> str | None:
        """The "➡️ who: …" line for a decision of `phase`; None: the generic "your turn"."""
        return None

    def guide_page(self, page: str) -> str:
        """The message id of a /rules page ("" where the game has none)."""
        return self.guide.get(page, "")


def events_of(engine: Engine, state: Any, seat: int, move: str) -> list[dict[str, Any]]:
    """The events `move` would report (for labels); [] if it cannot be applied."""
    try:
        return engine.apply_events(state, seat, move)[1]
    except Exception:  # a label must never break a board; the move string still works
        log.exception("%s: could not describe %r", engine.id, move)
        return []


def first(events: list[dict[str, Any]], *kinds: str) -> dict[str, Any] | None:
    """The first event of one of `kinds`."""
    return next((e for e in events if e["type"] in kinds), None)


_PRESENTATIONS: Registry[Presentation] = Registry("bot.games", GAME_IDS, "PRESENTATION",
                                                  Presentation)


def register(presentation_: Presentation) -> None:
    """Make `presentation_` the presentation of its game (a game added with
    `engines.register`)."""
    _PRESENTATIONS.register(presentation_.game, presentation_)


def unregister(game_id: str) -> None:
    _PRESENTATIONS.unregister(game_id)


def presentation(game_id: str) -> Presentation:
    """The presentation of `game_id`: registered, built in, or the generic defaults."""
    return _PRESENTATIONS.get(game_id)


__all__ = ["Phrase", "Presentation", "Who", "events_of", "first", "presentation", "register",
           "unregister"]
