"""Senet as the bot shows it: stone buttons, throw narration, the House of Water prompt, the
/rules guide (written from docs/rules/senet.md). See bot/games/__init__.py."""

from __future__ import annotations

from bot.games import Phrase, Presentation, Who, events_of, first
from bot.i18n import N_, t
from engines import Engine
from engines.base import Event

N_("Senet")  # the engine's info.name, for the catalogues


GUIDE: dict[str, str] = {
    "goal": N_(
        "A race for two players on the ancient Egyptian board. Each player has five "
        "stones: White (badge 1) and Black (badge 2).\n"
        "The first player to bear off all five stones wins."
    ),
    "setup": N_(
        "30 squares in a reverse S: 1 to 10 left to right on the top row, 11 to 20 right "
        "to left in the middle, 21 to 30 left to right at the bottom.\n"
        "The stones start alternately on squares 1 to 10: White on the even squares, "
        "Black on the odd ones. White throws first."
    ),
    "turn": N_(
        "1. Throw the four sticks: the number of light sides up is the throw (1 to 4); "
        "no light side counts **5**.\n"
        "2. Move one of your stones exactly that many squares forward. Moving is "
        "compulsory. You may pass over any stones, but not land on your own.\n"
        "3. Landing on a lone enemy stone swaps the two. Two stones of one colour side by "
        "side protect each other: they cannot be attacked.\n"
        "4. After a throw of **1, 4 or 5** you throw again.\n"
        "5. If no stone can move forward, you must move one **backward** by the throw "
        "(no extra throw). If nothing can move at all, your turn ends."
    ),
    "special": N_(
        "**26, House of Beauty**: every stone must stop here exactly; none may pass it. "
        "From 26: 1 goes to 27, 2 to 28, 3 to 29, 4 to 30, 5 bears the stone off.\n"
        "**27, House of Water**: a stone here must either go back to 15 (or the first "
        "free square below), or try to escape: only a throw of 4 bears it off. While it "
        "is there, no other stone of yours may move.\n"
        "**28** bears off only with exactly **3**, **29** only with exactly **2**, "
        "**30** with any throw.\n"
        "A stone on 28, 29 or 30 that is swapped by the opponent **drowns**: it goes to "
        "27. Stones on 27 to 30 never move backward and are never protected."
    ),
    "notation": N_(
        "Use the buttons under the board, or type with {/move}:\n"
        "`move 14`: move the stone on square 14 by your throw.\n"
        "`return` / `try`: the choice on the House of Water.\n"
        "`pass`: only when no stone can move.\n"
        "On the buttons, `14 → 17` moves the stone on 14 to 17; **⇄** means it swaps "
        "places with the enemy stone there; (back) is a backward move; → off bears the "
        "stone off."
    ),
}


class Senet(Presentation):
    game = "senet"
    guide = GUIDE
    command_help = N_("Open a Senet table (2 players): the ancient Egyptian race game")
    side_emoji = ("⚪", "⚫")
    example_plies = 14
    button_kinds = frozenset({"move", "pass", "return", "try"})

    def label(self, engine: Engine, state: object, seat: int, move: str, loc: object) -> str:
        if move == "return":
            back = first(events_of(engine, state, seat, move), "water_return")
            if back is not None:
                return t(loc, "Return to {square}", square=back["to"])
            return t(loc, "Return")
        if move == "try":
            return t(loc, "Try for a 4")
        if move == "pass":
            return t(loc, "Pass (no move)")
        events = events_of(engine, state, seat, move)
        off = first(events, "bear_off")
        if off is not None:
            return t(loc, "{start} → off", start=off["from"])
        step = first(events, "move")
        if step is None:
            return move
        text = t(loc, "{start} → {end}", start=step["from"], end=step["to"])
        if step.get("backward"):
            text = t(loc, "{start} → {end} (back)", start=step["from"], end=step["to"])
        if first(events, "swap") is not None:
            text = t(loc, "{move} ⇄ swap", move=text)  # /rules explains the symbol too
        return text

    def prompt(self, phase: str | None, loc: object, who: str) -> str | None:
        if phase == "water":
            return t(loc, "➡️ {who}: your stone is in the House of Water: return it or try "
                     "for a 4.", who=who)
        return None

    def phrase(self, ev: Event, loc: object, who: Who) -> Phrase | None:
        kind = ev["type"]
        if kind == "throw":
            if ev.get("water"):
                return ev["seat"], t(loc, "tried the House of Water and threw {value}",
                                     value=ev["value"])
            return ev["seat"], t(loc, "threw {value}", value=ev["value"])
        if kind == "move":
            if ev.get("backward"):
                return ev["seat"], t(loc, "moved a stone back {start} → {end}",
                                     start=ev["from"], end=ev["to"])
            return ev["seat"], t(loc, "moved a stone {start} → {end}", start=ev["from"],
                                 end=ev["to"])
        if kind == "bear_off":
            return ev["seat"], t(loc, "bore off a stone from {start}", start=ev["from"])
        if kind == "swap":
            return ev["seat"], t(loc, "swapped with a stone of {victim} (now on {end})",
                                 victim=who(ev["victim"]), end=ev["to"])
        if kind == "drown":
            return ev["seat"], t(loc, "lost a stone to the waters: {start} → {end}",
                                 start=ev["from"], end=ev["to"])
        if kind == "water_return":
            return ev["seat"], t(loc, "went back from the House of Water to {end}",
                                 end=ev["to"])
        if kind == "water_fail":
            return ev["seat"], t(loc, "so the stone stays in the House of Water")
        if kind == "pass":
            return ev["seat"], t(loc, "could not move")
        if kind == "extra_throw":
            return ev["seat"], t(loc, "throws again")
        return None


PRESENTATION = Senet()
