"""What every engine shares: the chance actor, ranks, move words, and the `Engine` contract
through which the bot learns about a game (its `GameInfo`) without re-deriving rules."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.explained import OptionError
from engines.info import GameInfo
from engines.options import Option

CHANCE = -1

# The JSON-shaped data an engine exchanges with the bot and the renderers: plain dicts, lists,
# strings, numbers, booleans and None, named by what they hold.
Options = dict[str, Any]  # a game's options: "players" and the game's own (`default_options`)
Position = dict[str, Any]  # a state written out (`dump`, `load`)
View = dict[str, Any]  # what one seat, or the spectators (seat None), may see (`view`)
Event = dict[str, Any]  # one thing a move did, with its "type" (`apply_events`)
Outcome = dict[str, Any]  # a finished game's result: "scores", "ranks", ... (`outcome`)
Record = dict[str, Any]  # any other JSON object: a review, a mistake, a drawing's data


def ranks_from_scores(scores: Sequence[float], higher_is_better: bool = True) -> list[int]:
    """Competition ranking: equal scores share a rank and the next rank is skipped (1, 1, 3)."""
    sign = -1 if higher_is_better else 1
    return [1 + sum(1 for other in scores if sign * other < sign * s) for s in scores]


MovePart = str | int


def parse_move_words(move: str) -> tuple[MovePart, ...]:
    """The parts of a move written as words: the kind, then each word, numbers as ints
    ("place 2 left" -> ("place", 2, "left")). Syntax only: legality is `legal_moves`'."""
    words = move.split(" ") if isinstance(move, str) else [""]
    if not all(words) or not move.isprintable():
        raise ValueError(f"{move!r} is not a move string")
    parts: list[MovePart] = []
    for word in words:
        canonical_number = word.isascii() and word.isdigit() and str(int(word)) == word
        parts.append(int(word) if canonical_number and parts else word)
    return tuple(parts)


def format_move_words(parts: tuple[MovePart, ...] | list[MovePart]) -> str:
    """The inverse of `parse_move_words`."""
    if not parts or not isinstance(parts[0], str):
        raise ValueError(f"{parts!r}: a move starts with its kind")
    return " ".join(str(p) for p in parts)


@dataclass(frozen=True, slots=True)
class Move:
    """A move read once, at the edge, by its engine (`Engine.read_move`): its text as the log,
    the labels and the exports keep it, and its parts (the kind, then each part; numbers as
    ints), so that no layer outside the game's own modules splits move text."""

    text: str
    parts: tuple[MovePart, ...]

    @property
    def kind(self) -> str:
        return str(self.parts[0])

    @classmethod
    def of_words(cls, text: str) -> Move:
        """A move written as words (`parse_move_words`), such as the log's "takeback 3"."""
        return cls(text, parse_move_words(text))

    def __str__(self) -> str:
        return self.text


def require_field(position: dict, name: str) -> Any:
    if not isinstance(position, dict):
        raise ValueError("position must be a JSON object")
    if name not in position:
        raise ValueError(f"position is missing field {name!r}")
    return position[name]


class KeyedState:
    """A position that equals and hashes as its `_key()`: the fields that make the position
    (caches and shared configuration objects left out or replaced by what they hold)."""

    __slots__ = ()

    def _key(self) -> tuple:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


class Engine:
    """The contract of docs/rules/engine-contract.md; each game overrides every method.

    Beyond the contract, `apply_events` returns the next state with a list of JSON-able event
    dicts (each with a "type") saying what happened, for narration and drawing; `apply` may be
    a faster path that records nothing. `option_spec` lists the options for the bot's forms;
    `info` says what the bot must know (names, sides, which decisions are simultaneous or
    private, how chance acts); `parse_move`/`format_move` split and join move strings;
    `standings`, `teams` and `resigned_outcome` give results without re-deriving rules.
    """

    info: GameInfo
    option_spec: list[Option] = []

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def min_players(self) -> int:
        return self.info.min_players

    @property
    def max_players(self) -> int:
        return self.info.max_players

    # ---- moves as parts -------------------------------------------------------------------

    def parse_move(self, move: str) -> tuple[MovePart, ...]:
        """A move string as (kind, *parts), numbers as ints; ValueError if it is not written
        like a move of this game. Syntax only: whether it is legal is `legal_moves`'."""
        return parse_move_words(move)

    def format_move(self, parts: tuple[MovePart, ...] | list[MovePart]) -> str:
        """The move string of `parts` (the inverse of `parse_move`)."""
        return format_move_words(parts)

    def read_move(self, move: str) -> Move:
        """`move` read once into a `Move` (its text in the game's one spelling); ValueError
        if it is not written like a move of this game."""
        parts = self.parse_move(move)
        return Move(self.format_move(parts), parts)

    # ---- results --------------------------------------------------------------------------

    def standings(self, state: Any) -> list[float] | None:
        """Each seat's score so far (higher is better) where the game keeps one, else None."""
        return None

    def teams(self, options: Options) -> list[list[int]] | None:
        """The seats playing together (ranked as one), or None when everyone plays alone."""
        return None

    def resigned_outcome(self, state: Any, seat: int) -> Outcome:
        """The outcome when `seat` resigns: it (and its partners) rank last; the others keep
        the order of `standings`, or share first place where the game keeps no score."""
        options = self.dump(state)["options"]
        players = options["players"]
        scores = self.standings(state)
        teams = self.teams(options) or [[s] for s in range(players)]
        losing = next(team for team in teams if seat in team)
        others = [team for team in teams if team is not losing]
        ranks = [len(others) + 1] * players
        if scores is not None:
            totals = [sum(scores[s] for s in team) for team in others]
            team_ranks = ranks_from_scores(totals)
        else:
            team_ranks = [1] * len(others)
        for team, rank in zip(others, team_ranks, strict=True):
            for s in team:
                ranks[s] = rank
        return {
            "scores": scores if scores is not None else [None] * players,
            "ranks": ranks,
            "resigned": [seat],
        }

    def default_options(self, players: int) -> Options:
        raise NotImplementedError

    def new(self, players: int, options: Options | None = None) -> Any:
        raise NotImplementedError

    def to_act(self, state: Any) -> list[int]:
        raise NotImplementedError

    def legal_moves(self, state: Any, actor: int) -> list[str]:
        raise NotImplementedError

    def chance_odds(self, state: Any) -> dict[str, float]:
        raise NotImplementedError

    def sample_chance(self, state: Any, rng: random.Random) -> str:
        raise NotImplementedError

    def apply(self, state: Any, actor: int, move: str) -> Any:
        return self._resolve(state, actor, move, None)

    def apply_events(self, state: Any, actor: int, move: str) -> tuple[Any, list[Event]]:
        events: list[Event] = []
        return self._resolve(state, actor, move, events), events

    def _resolve(self, state: Any, actor: int, move: str, events: list[Event] | None) -> Any:
        """The next state, appending what happened to `events` unless it is None (the fast
        path of playouts). A game overrides this, or both `apply` and `apply_events`."""
        raise NotImplementedError

    def outcome(self, state: Any) -> Outcome | None:
        raise NotImplementedError

    def dump(self, state: Any) -> Position:
        raise NotImplementedError

    def load(self, position: Position) -> Any:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> View:
        raise NotImplementedError

    def _check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError("option 'players' must be a whole number")
        if not self.min_players <= players <= self.max_players:
            raise OptionError("option 'players' must be from {low} to {high}",
                              low=self.min_players, high=self.max_players)
