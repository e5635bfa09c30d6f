"""Per-game presentation: how the bot words and shows one game, consumed generically.

Every game is one `GameSpec` (engines/registry.py), registered once; its parts, one place per
concern:
- `engines/<game>.py`: the rules, and `eng.info` (name, seats, sides, which decisions are
  simultaneous or private, chance);
- `engines/ai/<game>.py`: the computer player (or, named explicitly, a generic one), and its
  review's judge (engines/ai/review.py);
- `renderers/<game>.py`: the pictures and the gallery's samples (no discord, no bot);
- `bot/games/<game>.py`: this module's `Presentation` for the game, as `PRESENTATION`: move
  labels, narration of events, prompts, which moves are buttons and how a long select is
  grouped, side emoji, the /play description, option help and the /rules guide texts. Its
  texts are marked with `t(locale, "…")` / `N_("…")`, so `python -m tools.messages` finds
  them in the catalogues.

The four built-in games are listed in `engines.registry.BUILTIN`; another game joins with one
call, `register(spec)`, before the bot builds its commands. A game without a presentation
still plays: the base class shows move strings, says nothing about events and puts every move
in a select. Nothing outside a game's own modules branches on its id: bot/ and renderers/ ask
`presentation(game)` and `get_engine(game).info`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import lru_cache

from bot.i18n import t
from engines import Engine, GameSpec, OptionError, get_engine
from engines import register as register_game
from engines import unregister as unregister_game
from engines.base import Event
from engines.registry import PART_NAMES, load, part

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
        return move_kind(self.game, move)

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

    def label(self, engine: Engine, state: object, seat: int, move: str, locale: object) -> str:
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

    def phrase(self, event: Event, locale: object, who: Who) -> Phrase | None:
        """One event (engines/EVENTS.md) as a phrase, or None when it is not worth telling."""
        return None

    def prompt(self, phase: str | None, locale: object, who: str) -> str | None:
        """The "➡️ who: …" line for a decision of `phase`; None: the generic "your turn"."""
        return None

    def guide_page(self, page: str) -> str:
        """The message id of a /rules page ("" where the game has none)."""
        return self.guide.get(page, "")


@lru_cache(maxsize=16384)  # asked for every legal move of every board (is it a button?)
def move_kind(game: str, move: str) -> str:
    """The kind of `move` as `game`'s engine reads it; "" for a string it cannot read."""
    try:
        return str(get_engine(game).parse_move(move)[0])
    except ValueError:
        return ""


def events_of(engine: Engine, state: object, seat: int, move: str) -> list[Event]:
    """The events `move` would report (for labels); [] if it cannot be applied."""
    try:
        return engine.apply_events(state, seat, move)[1]
    except Exception:  # a label must never break a board; the move string still works
        log.exception("%s: could not describe %r", engine.id, move)
        return []


def first(events: list[Event], *kinds: str) -> Event | None:
    """The first event of one of `kinds`."""
    return next((e for e in events if e["type"] in kinds), None)


def register(spec: GameSpec) -> None:
    """Add the game of `spec`: every part it names must import (checked here, once), then
    every layer finds them by the game's id, in this process and in the worker processes."""
    for name in PART_NAMES:
        path = getattr(spec, name)
        try:
            found = load(path) if path else None
        except (ImportError, AttributeError) as err:
            raise ValueError(f"{spec.id}: its {name} {path!r} does not import: {err}") from err
        if name == "presentation" and found is not None and found.game != spec.id:
            raise ValueError(f"{spec.id}: its presentation is for {found.game!r}")
    register_game(spec)


def unregister(game_id: str) -> None:
    unregister_game(game_id)


def presentation(game_id: str) -> Presentation:
    """The presentation of `game_id`: its own, else (or for an unknown game) the generic
    defaults."""
    try:
        found: Presentation | None = part(game_id, "presentation")
    except OptionError:
        found = None
    return found if found is not None else Presentation(game_id)


__all__ = ["GameSpec", "Phrase", "Presentation", "Who", "events_of", "first", "presentation",
           "register", "unregister"]
