"""Events (engines/EVENTS.md) → one short paragraph for the board message.

Each game's presentation (bot/games/<game>.py, `phrase`) words its events. Consecutive
phrases by the same player share the subject: "🔵1 Aki threw 3, moved a stone 8 → 11 and
throws again." Hidden information never appears: 6 nimmt! `pick` events carry no
card and are skipped; cards are named only once revealed.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.common.badges import seat_label
from bot.games import Phrase, presentation
from bot.i18n.grammar import join_phrases, subject_sentence
from engines.base import Event


def phrases(game: str, events: Sequence[Event], names: Sequence[str],
            locale: object = None) -> list[Phrase]:
    """One (subject, text) per event worth telling (the game's presentation says which)."""
    narrate_one = presentation(game).phrase

    def who(seat: int) -> str:
        return seat_label(seat, names[seat], game) if 0 <= seat < len(names) else f"#{seat + 1}"

    out: list[Phrase] = []
    for event in events:
        phrase = narrate_one(event, locale, who)
        if phrase is not None:
            out.append(phrase)
    return out


def narrate(game: str, events: Sequence[Event], names: Sequence[str],
            locale: object = None) -> str:
    """The events as short sentences; phrases of one player in a row share the subject."""
    sentences: list[str] = []
    run: list[str] = []
    subject: int | None = None

    def flush() -> None:
        if not run:
            return
        who = seat_label(subject, names[subject], game) if subject is not None and \
            0 <= subject < len(names) else "?"
        sentences.append(subject_sentence(locale, who, join_phrases(locale, run)))
        run.clear()

    for seat, text in phrases(game, events, names, locale):
        if seat is None:
            flush()
            sentences.append(text)
            subject = None
            continue
        if seat != subject:
            flush()
            subject = seat
        run.append(text)
    flush()
    return " ".join(sentences)
