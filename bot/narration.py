"""Events (engines/EVENTS.md) → one short paragraph for the board message.

Consecutive phrases by the same player share the subject: "🔵1 Aki threw 3, moved a stone
8 → 11 and throws again." Hidden information never appears: 6 nimmt! `pick` events carry no
card and are skipped; cards are named only once revealed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.i18n import N_, t
from bot.i18n.grammar import join_phrases, subject_sentence
from bot.ui.badges import seat_label

Phrase = tuple[int | None, str]  # (subject seat or None for a whole sentence, text)

COLOUR_NAMES = {
    "r": N_("red"),
    "b": N_("blue"),
    "g": N_("green"),
    "y": N_("yellow"),
    "w": N_("white"),
    "k": N_("black"),
}

END_REASONS = {
    "captures": N_("The leopards have captured enough cows."),
    "leopards_trapped": N_("The leopards are trapped."),
    "cows_stuck": N_("The cows cannot move."),
    "quiet": N_("Too many moves without a capture: a draw."),
}


def colour_name(locale: object, code: str) -> str:
    return t(locale, COLOUR_NAMES.get(code, code))


def _bullheads(locale: object, count: int) -> str:
    if count == 1:
        return t(locale, "1 bullhead")
    return t(locale, "{count} bullheads", count=count)


def _six_nimmt(ev: dict[str, Any], loc: object, who: Callable[[int], str]) -> Phrase | None:
    kind = ev["type"]
    if kind == "deal":
        return None, t(loc, "Round {round}: the cards are dealt.", round=ev["round"])
    if kind == "draft":
        return ev["seat"], t(loc, "drafted {card}", card=ev["card"])
    if kind == "rows_start":
        starts = " · ".join(str(row[-1]) if row else "–" for row in ev["rows"])
        return None, t(loc, "The rows start with {cards}.", cards=starts)
    if kind == "reveal":
        cards = ", ".join(f"{card} ({who(seat)})" for card, seat in ev["cards"])
        return None, t(loc, "Revealed: {cards}.", cards=cards)
    if kind == "place":
        if ev.get("end") == "left":
            return ev["seat"], t(
                loc, "played {card} at the left end of row {row}", card=ev["card"], row=ev["row"]
            )
        return ev["seat"], t(loc, "played {card} on row {row}", card=ev["card"], row=ev["row"])
    if kind == "take":
        return ev["seat"], t(
            loc,
            "played {card} and took row {row}: {bullheads}",
            card=ev["card"],
            row=ev["row"],
            bullheads=_bullheads(loc, ev["bullheads"]),
        )
    if kind == "choose":
        if ev.get("kind") == "side":
            return ev["seat"], t(loc, "must choose which row end {card} goes to", card=ev["card"])
        return ev["seat"], t(loc, "must choose a row to take for {card}", card=ev["card"])
    if kind == "round_end":
        points = " · ".join(f"{who(i)} {p}" for i, p in enumerate(ev["points"]))
        return None, t(loc, "Round {round} is over. Points: {points}.", round=ev["round"],
                       points=points)
    return None


def _senet(ev: dict[str, Any], loc: object, who: Callable[[int], str]) -> Phrase | None:
    kind = ev["type"]
    if kind == "throw":
        if ev.get("water"):
            return ev["seat"], t(loc, "tried the House of Water and threw {value}",
                                 value=ev["value"])
        return ev["seat"], t(loc, "threw {value}", value=ev["value"])
    if kind == "move":
        if ev.get("backward"):
            return ev["seat"], t(loc, "moved a stone back {start} → {end}", start=ev["from"],
                                 end=ev["to"])
        return ev["seat"], t(loc, "moved a stone {start} → {end}", start=ev["from"], end=ev["to"])
    if kind == "bear_off":
        return ev["seat"], t(loc, "bore off a stone from {start}", start=ev["from"])
    if kind == "swap":
        return ev["seat"], t(loc, "swapped with a stone of {victim} (now on {end})",
                             victim=who(ev["victim"]), end=ev["to"])
    if kind == "drown":
        return ev["seat"], t(loc, "lost a stone to the waters: {start} → {end}", start=ev["from"],
                             end=ev["to"])
    if kind == "water_return":
        return ev["seat"], t(loc, "went back from the House of Water to {end}", end=ev["to"])
    if kind == "water_fail":
        return ev["seat"], t(loc, "so the stone stays in the House of Water")
    if kind == "pass":
        return ev["seat"], t(loc, "could not move")
    if kind == "extra_throw":
        return ev["seat"], t(loc, "throws again")
    return None


def _varanasi(ev: dict[str, Any], loc: object, who: Callable[[int], str]) -> Phrase | None:
    kind = ev["type"]
    if kind == "setup":
        return None, t(loc, "Set {set}: {count} towers are set up.", set=ev["set"],
                       count=len(ev["towers"]))
    if kind == "take":
        count = len(ev["discs"])
        colour = colour_name(loc, ev["colour"])
        if count == 1:
            return ev["seat"], t(loc, "took {colour}: 1 disc", colour=colour)
        return ev["seat"], t(loc, "took {colour}: {count} discs", colour=colour, count=count)
    if kind == "move":
        if ev["count"] == 1:
            return ev["seat"], t(loc, "moved 1 disc from spot {start} onto spot {end}",
                                 start=ev["from"], end=ev["to"])
        return ev["seat"], t(loc, "moved {count} discs from spot {start} onto spot {end}",
                             count=ev["count"], start=ev["from"], end=ev["to"])
    if kind == "set_end":
        scores = " · ".join(f"{who(i)} {s}" for i, s in enumerate(ev["scores"]))
        return None, t(loc, "Set {set} goes to {winner} (+{points}). Scores: {scores}.",
                       set=ev["set"], winner=who(ev["winner"]),
                       points=ev["points"][ev["winner"]], scores=scores)
    return None


def _cows_leopards(ev: dict[str, Any], loc: object, who: Callable[[int], str]) -> Phrase | None:
    kind = ev["type"]
    if kind == "drop":
        if ev["seat"] == 0:
            return 0, t(loc, "dropped a cow on {point}", point=ev["point"])
        return 1, t(loc, "dropped a leopard on {point}", point=ev["point"])
    if kind == "step":
        return ev["seat"], t(loc, "moved {start} → {end}", start=ev["from"], end=ev["to"])
    if kind == "jump":
        return ev["seat"], t(loc, "jumped {start} → {end}, capturing the cow on {over} "
                             "({captured} captured)", start=ev["from"], end=ev["to"],
                             over=ev["over"], captured=ev["captured"])
    if kind == "game_over" and ev.get("reason") in END_REASONS:
        return None, t(loc, END_REASONS[ev["reason"]])
    return None


_GAMES: dict[str, Callable[[dict[str, Any], object, Callable[[int], str]], Phrase | None]] = {
    "six_nimmt": _six_nimmt,
    "senet": _senet,
    "varanasi": _varanasi,
    "cows_leopards": _cows_leopards,
}


def phrases(game: str, events: Sequence[dict[str, Any]], names: Sequence[str],
            locale: object = None) -> list[Phrase]:
    """One (subject, text) per event worth telling, in order."""
    narrate_one = _GAMES.get(game)
    if narrate_one is None:
        return []

    def who(seat: int) -> str:
        return seat_label(seat, names[seat], game) if 0 <= seat < len(names) else f"#{seat + 1}"

    out: list[Phrase] = []
    for event in events:
        phrase = narrate_one(event, locale, who)
        if phrase is not None:
            out.append(phrase)
    return out


def narrate(game: str, events: Sequence[dict[str, Any]], names: Sequence[str],
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
