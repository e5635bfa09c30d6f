"""Sentence glue that differs between languages, for callers that build sentences from parts.

bot.narration joins a player's phrases as f"{who} {body}." with ", " between phrases, which
reads well only in English; these helpers give the same result in English and natural
punctuation in Japanese ("🔵1 Aki：3を出した、駒を8 → 11へ進めた。"):

    body = join_phrases(locale, run)          # instead of t("{first} and {last}", ", ".join)
    sentences.append(subject_sentence(locale, who, body))   # instead of f"{who} {body}."
    return " ".join(sentences)
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import COMMAND_CONTEXT, OPTION_CONTEXT, t, translate_in_context


def join_phrases(locale: object, phrases: Sequence[str]) -> str:
    """'a, b and c' (English) / 'a、b、c' (Japanese)."""
    if not phrases:
        return ""
    if len(phrases) == 1:
        return phrases[0]
    return t(locale, "{first} and {last}", first=t(locale, ", ").join(phrases[:-1]),
             last=phrases[-1])


def subject_sentence(locale: object, player: str, actions: str) -> str:
    """'🔵1 Aki threw 3.' / '🔵1 Aki：3を出した。'"""
    return t(locale, "{player} {actions}.", player=player, actions=actions)


def command_label(locale: object, name: str) -> str:
    """A slash-command name as the user's client shows it ('rules' → 'ルール' in Japanese)."""
    return translate_in_context(locale, COMMAND_CONTEXT, name) or name


def option_label(locale: object, name: str) -> str:
    """An option name as the user's client shows it ('height_rule' → '高さルール')."""
    return translate_in_context(locale, OPTION_CONTEXT, name) or name
