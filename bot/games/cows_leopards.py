"""Cows and Leopards as the bot shows it: sides chosen in the lobby (🐄 / 🐆), moves grouped
by piece or drop column, narration with the end reasons, the /rules guide (written from
docs/rules/cows_leopards.md). See bot/games/__init__.py."""

from __future__ import annotations

from bot.games import Phrase, Presentation, Who, events_of, first
from bot.i18n import N_, t
from engines import Engine
from engines.base import Event

N_("Cows and Leopards")  # the engine's info.name, for the catalogues
N_("cows"), N_("leopards")  # the engine's info.sides, for the catalogues

END_REASONS = {
    "captures": N_("The leopards have captured enough cows."),
    "leopards_trapped": N_("The leopards are trapped."),
    "cows_stuck": N_("The cows cannot move."),
    "quiet": N_("Too many moves without a capture: a draw."),
}


GUIDE: dict[str, str] = {
    "goal": N_(
        "A hunt: **24 cows** against **2 leopards**. The leopards win by capturing 8 "
        "cows; the cows win by trapping both leopards so that they cannot move."
    ),
    "setup": N_(
        "The board is an Alquerque square with triangles (board B: four triangles, 49 "
        "points; board A: two triangles, 37 points). Points are named like a chess "
        "board: columns a to i, rows 1 to 9.\n"
        "**One leopard starts on e5**, the centre; the other leopard and all 24 cows "
        "start in hand. **The cows move first.**"
    ),
    "turn": N_(
        "**Cows**: while cows are in hand, drop one on any empty point; cows on the "
        "board may not move until all 24 are dropped. Then step one cow along a line to "
        "the next empty point. Cows never capture.\n"
        "**Leopards**: drop the second leopard, step along a line, or **jump** over an "
        "adjacent cow to the empty point just beyond it, capturing that cow. One jump "
        "per turn; jumping is never compulsory."
    ),
    "special": N_(
        "A side that must move but cannot loses.\n"
        "Once all cows are dropped, 100 moves in a row without a capture end the game in "
        "a draw.\n"
        "Option: the second leopard may have to be dropped right after the last cow."
    ),
    "notation": N_(
        "Use the buttons and menus under the board, or type with {/move}:\n"
        "`drop d4`: put a piece from your hand on d4.\n"
        "`e5-e6`: step from e5 to e6.\n"
        "`e5xe7`: jump from e5 over the cow on e6 to e7."
    ),
}


class CowsLeopards(Presentation):
    game = "cows_leopards"
    guide = GUIDE
    command_help = N_("Open a Cows and Leopards table (2 players): 24 cows hunt 2 leopards")
    side_emoji = ("🐄", "🐆")
    lobby_sides = True
    side_help = N_("Your side: cows or leopards (default: decided when the game starts)")
    option_help = {
        "board": N_("A: 37 points (top and bottom triangles); B: 49 points, four "
                    "triangles (default)"),
        "captures": N_("The leopards win after capturing this many cows (default 8)"),
        "leopard_deadline": N_("The second leopard must be dropped right after the last cow "
                               "(default off)"),
        "quiet_limit": N_("Moves in a row without a capture that end the game in a draw "
                          "(default 100)"),
    }
    example_plies = 16

    def label(self, engine: Engine, state: object, seat: int, move: str, loc: object) -> str:
        events = events_of(engine, state, seat, move)
        drop = first(events, "drop")
        if drop is not None:
            return t(loc, "Drop on {point}", point=drop["point"])
        jump = first(events, "jump")
        if jump is not None:
            return t(loc, "{start} → {end}, capturing {over}", start=jump["from"],
                     end=jump["to"], over=jump["over"])
        step = first(events, "step")
        if step is not None:
            return t(loc, "{start} → {end}", start=step["from"], end=step["to"])
        return move

    def group_of(self, move: str, locale: object = None) -> tuple[str, str]:
        kind, point, *_ = self.engine.parse_move(move)
        if kind == "drop":
            column = str(point)[:1]
            return f"d{column}", t(locale, "Drop in column {column}", column=column)
        return f"p{point}", t(locale, "Piece on {point}", point=point)

    def phrase(self, ev: Event, loc: object, who: Who) -> Phrase | None:
        kind = ev["type"]
        if kind == "drop":
            if self.engine.info.sides[ev["seat"]] == "cows":
                return ev["seat"], t(loc, "dropped a cow on {point}", point=ev["point"])
            return ev["seat"], t(loc, "dropped a leopard on {point}", point=ev["point"])
        if kind == "step":
            return ev["seat"], t(loc, "moved {start} → {end}", start=ev["from"], end=ev["to"])
        if kind == "jump":
            return ev["seat"], t(loc, "jumped {start} → {end}, capturing the cow on {over} "
                                 "({captured} captured)", start=ev["from"], end=ev["to"],
                                 over=ev["over"], captured=ev["captured"])
        if kind == "game_over" and ev.get("reason") in END_REASONS:
            return None, t(loc, END_REASONS[ev["reason"]])
        return None


PRESENTATION = CowsLeopards()
