"""Varanasi as the bot shows it: take-colour buttons with colour emoji, moves grouped by their
source spot, narration of takes, moves and sets, the /rules guide (written from
docs/rules/varanasi.md). See bot/games/__init__.py."""

from __future__ import annotations

from bot.games import Phrase, Presentation, Who, events_of, first
from bot.i18n import N_, t, tn
from engines import Engine
from engines.base import Event

N_("Varanasi")  # the engine's info.name, for the catalogues

COLOUR_NAMES = {
    "r": N_("red"),
    "b": N_("blue"),
    "g": N_("green"),
    "y": N_("yellow"),
    "w": N_("white"),
    "k": N_("black"),
}
COLOUR_EMOJI = {"r": "🟥", "b": "🟦", "g": "🟩", "y": "🟨", "w": "⬜", "k": "⬛"}


def colour_name(locale: object, code: str) -> str:
    return t(locale, COLOUR_NAMES.get(code, code))


GUIDE: dict[str, str] = {
    "goal": N_(
        "Towers of discs stand on numbered spots; every player may move every disc. "
        "Whoever takes the **last disc** wins the set and scores the discs they took "
        "in it (one point each).\n"
        "The match lasts several sets (3 by default); the highest total wins."
    ),
    "setup": N_(
        "Each colour has four discs: **large (4), medium (3), small (2) and tip (1)**. "
        "The discs in play are stacked at random into towers, one tower per spot, each "
        "disc smaller than the one below.\n"
        "A spot that becomes empty stays empty for the rest of the set."
    ),
    "turn": N_(
        "Do one of these; **passing is not allowed**:\n"
        "**Take a colour**: remove the top disc of every tower whose top disc has that "
        "colour, and keep them.\n"
        "**Move**: take the top discs of one tower (one or more, even the whole tower) "
        "and put them on **another tower**, in the same order. The lowest moved disc must "
        "be **smaller** than the top disc it lands on, and the destination must end "
        "**higher** than the source tower was before the move.\n"
        "Moving onto an **empty spot** is never allowed."
    ),
    "special": N_(
        "Each disc carries the mark of its colour: red ●, blue ■, green ▲, yellow ◆, "
        "white ★, black ✖.\n"
        "**Misère**: taking the last disc loses the set (2 players or teams).\n"
        "**Teams** (4 players): seats 1 and 3 play against seats 2 and 4.\n"
        "**Weighted**: a disc scores its size (1 to 4). **Last take**: the set winner "
        "scores only the discs of the final take."
    ),
    "notation": N_(
        "Use the buttons under the board, or type with {/move}:\n"
        "`take r`: take red (r red, b blue, g green, y yellow, w white, k black).\n"
        "`move 3 2 5`: move the top 2 discs of spot 3 onto spot 5."
    ),
}


class Varanasi(Presentation):
    game = "varanasi"
    guide = GUIDE
    command_help = N_("Open a Varanasi table (2–4 players): towers of discs, take colours or "
                      "stack")
    option_help = {
        "colours": N_("Colours of discs in play, 3–6 (default 3, 4 or 5 for 2, 3 or 4 players)"),
        "height_rule": N_("after: the destination ends higher than the source was; "
                          "before: already higher"),
        "scoring": N_("set_total: the set winner scores all discs taken; last_take: "
                      "only the last take"),
        "weighted": N_("A disc scores its size (1–4) instead of 1 point"),
        "misere": N_("Taking the last disc loses the set (2 players or teams)"),
        "teams": N_("Doubles for 4 players: seats 1 and 3 against seats 2 and 4"),
        "team_scoring": N_("With teams: winner = only the set winner's discs score; "
                           "sum = both partners'"),
        "sets": N_("How many sets the match lasts (default 3)"),
        "target": N_("Instead of a number of sets: play until someone has this many points"),
    }
    example_plies = 5
    button_kinds = frozenset({"take"})

    def label(self, engine: Engine, state: object, seat: int, move: str, loc: object) -> str:
        events = events_of(engine, state, seat, move)
        taken = first(events, "take")
        if taken is not None:
            return t(loc, "Take {colour} ({count})", colour=colour_name(loc, taken["colour"]),
                     count=len(taken["discs"]))
        moved = first(events, "move")
        if moved is not None:
            return t(loc, "Spot {start} → spot {end}: {discs}", start=moved["from"],
                     end=moved["to"], discs=" ".join(moved["discs"]))
        return move

    def button_emoji(self, move: str) -> str | None:
        kind, *args = self.engine.parse_move(move)
        return COLOUR_EMOJI.get(str(args[0])) if kind == "take" else None

    def group_of(self, move: str, locale: object = None) -> tuple[str, str]:
        kind, *args = self.engine.parse_move(move)
        if kind == "move":
            return f"s{args[0]}", t(locale, "From spot {spot}", spot=args[0])
        return super().group_of(move, locale)

    def phrase(self, ev: Event, loc: object, who: Who) -> Phrase | None:
        kind = ev["type"]
        if kind == "setup":
            count = len(ev["towers"])
            return None, tn(loc, "Set {set}: {count} tower is set up.",
                            "Set {set}: {count} towers are set up.", count, set=ev["set"],
                            count=count)
        if kind == "take":
            count = len(ev["discs"])
            colour = colour_name(loc, ev["colour"])
            return ev["seat"], tn(loc, "took {colour}: {count} disc",
                                  "took {colour}: {count} discs", count, colour=colour,
                                  count=count)
        if kind == "move":
            return ev["seat"], tn(loc, "moved {count} disc from spot {start} onto spot {end}",
                                  "moved {count} discs from spot {start} onto spot {end}",
                                  ev["count"], count=ev["count"], start=ev["from"], end=ev["to"])
        if kind == "set_end":
            scores = " · ".join(f"{who(i)} {s}" for i, s in enumerate(ev["scores"]))
            return None, t(loc, "Set {set} goes to {winner} (+{points}). Scores: {scores}.",
                           set=ev["set"], winner=who(ev["winner"]),
                           points=ev["points"][ev["winner"]], scores=scores)
        return None


PRESENTATION = Varanasi()
