"""Refusals written for players: an error carries an English template and its params, so the
bot can show it in the reader's language; `Word` params are words of the rules it translates."""

from __future__ import annotations

from typing import Any


class Word(str):
    """A message param that is a word of the rules ("blue", "left"): the bot translates it,
    where card numbers, squares, spots and point names are shown as they are."""

    __slots__ = ()


class OptionName(Word):
    """A message param that is an option name ("height_rule"): the bot shows its label."""

    __slots__ = ()


class Explained(ValueError):
    """A refusal whose message is a `template` (English, `str.format` fields) and `params`.

    `str(err)` is the formatted English; the bot translates `template` and formats it with the
    same params (translating the `Word` ones). One plain string works too (no params).
    """

    def __init__(self, template: str, /, **params: Any) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params


class IllegalMove(Explained):
    """A move the rules forbid; the message is written for the player who tried it."""


class OptionError(Explained):
    """Options (or a player count) the game cannot be set up with."""
