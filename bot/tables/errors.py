"""TableError: a refusal a player should read, with a stable code for translations."""

from __future__ import annotations

from engines.base import Record

# English sentences; the cogs may translate by `code` and format with `params`.
MESSAGES: dict[str, str] = {
    "not_found": "There is no such table.",
    "channel_busy": "This channel already has a table; finish or cancel it first.",
    "not_host": "Only the host of the table can do that.",
    "already_seated": "You already have a seat at this table.",
    "not_seated": "You have no seat at this table.",
    "table_full": "This table is full ({max} seats).",
    "bad_seat_count": "This game needs {min} to {max} players; the table has {seats}.",
    "not_lobby": "This table has already started.",
    "not_running": "This table is not being played.",
    "finished": "This game is over.",
    "not_your_turn": "It is not your turn.",
    "stale": "That button is out of date; use the latest board.",
    "illegal": "That move is not allowed: {reason}",
    "bad_options": "Those options do not work: {reason}",
    "side_taken": "That side is already taken.",
    "not_allowed": "You are not allowed to do that.",
    "bad_side": "This game has no side {side}.",
    "bad_setting": "That setting does not work: {reason}",
    "bad_level": "There is no computer level {level}.",
    "no_hints": "Hints are off at this table.",
    "broken": "This table's move log cannot be replayed; it can only be cancelled.",
    "too_long": "That is too long ({max} characters at most).",
    "lobby_limit": "You already host an open lobby in this server (in {place}).",
    "server_full": "This server has {max} open tables already.",
    "no_takeback": "Moves cannot be taken back at this table.",
    "takeback_nothing": "There is no move to take back now.",
    "takeback_not_yours": "Only the player who just moved can ask to take it back.",
    "takeback_not_asked": "That take-back request is for the two players.",
    "takeback_own_request": "Your opponent answers your take-back request.",
    "takeback_lapsed": "That take-back request has lapsed: the game has moved on.",
}


class TableError(Exception):
    """A refusal with a `code` (a key of MESSAGES) and `params` for the sentence."""

    def __init__(self, code: str, **params: object) -> None:
        if code not in MESSAGES:
            raise ValueError(f"unknown TableError code {code!r}")
        self.code = code
        self.params: Record = params  # the fields of its sentence
        super().__init__(code)

    def __str__(self) -> str:
        try:
            return MESSAGES[self.code].format(**self.params)
        except (KeyError, IndexError):  # a sentence whose params were not all given
            return MESSAGES[self.code].split("{")[0].rstrip(" :(") + "."

    def __repr__(self) -> str:
        return f"TableError({self.code!r}, **{self.params!r})"


def reason_params(err: BaseException) -> Record:
    """TableError params for an engine's refusal: `reason` (the English text) and, when the
    engine gave one (engines.explained.Explained), `reason_template` and `reason_params`, so the bot
    can say it in the player's language."""
    out: Record = {"reason": str(err)}
    template = getattr(err, "template", None)
    if isinstance(template, str):
        out["reason_template"] = template
        out["reason_params"] = dict(getattr(err, "params", None) or {})
    return out
