"""6 nimmt! as the bot shows it: row buttons, card groups by tens, the take / row-end / draft
prompts, narration, the /rules guide (written from docs/rules/six_nimmt.md). Face-down picks
are private (engine info): bot.features.table.hands asks for them. See bot/games/__init__.py."""

from __future__ import annotations

from bot.games import Phrase, Presentation, Who, events_of, first
from bot.i18n import N_, t, tn
from engines import Engine
from engines.base import Event

N_("6 nimmt!")  # the engine's info.name, for the catalogues


def bullheads_text(locale: object, count: int) -> str:
    return tn(locale, "{count} bullhead", "{count} bullheads", count, count=count)


GUIDE: dict[str, str] = {
    "goal": N_(
        "Don't take cards! Everyone starts with **66 points** and loses one point per "
        "bullhead 🐮 on the cards they take.\n"
        "When someone has no points left, the game ends after that round; whoever has "
        "the most points left wins."
    ),
    "setup": N_(
        "Cards 1 to 104. Each player gets **10 cards**; **four rows** are started with one "
        "card each.\n"
        "Bullheads: 55 has 7, multiples of 11 have 5, multiples of 10 have 3, cards "
        "ending in 5 have 2, every other card has 1."
    ),
    "turn": N_(
        "1. Everyone picks a card from their hand **face down, at the same time** (by DM "
        "or with the button \"Pick privately\").\n"
        "2. The cards are revealed and placed **lowest first**. Each goes at the end of "
        "the row whose last card is the highest one **lower** than it.\n"
        "3. The **sixth** card of a row: its player takes the five cards and the card "
        "starts the row again.\n"
        "4. A card lower than the last card of every row: its player chooses a row, takes "
        "it, and the card starts that row.\n"
        "After 10 turns the hands are empty: the next round is dealt."
    ),
    "special": N_(
        "Rows never hold more than five cards; a card is never put inside a row.\n"
        "**Tactical**: only cards 1 to 10 × players + 4 are used, so every card in play "
        "is known. **Logical**: those cards lie face up and the players draft their "
        "hands one card at a time.\n"
        "**Professional**: a card may also go before the left end of a row, when it is "
        "lower than that row's first card; it goes where the difference is smallest."
    ),
    "notation": N_(
        "Pick with the menu of your hand, or type with {/move}:\n"
        "`play 42`: pick card 42.\n"
        "`take 3`: take row 3 (when your card is lower than every row).\n"
        "`place 2 left` / `place 2 right`: professional, when two ends fit as well."
    ),
}


class SixNimmt(Presentation):
    game = "six_nimmt"
    guide = GUIDE
    command_help = N_("Open a 6 nimmt! table (2–10 players): don't take the sixth card")
    option_help = {
        "points": N_("Starting points; every bullhead taken costs one (default 66)"),
        "professional": N_("Cards may also go before the left end of a row (default off)"),
        "cards": N_("standard: all 104 cards; tactical: only 1 to 10×players+4; "
                    "logical: tactical, drafted"),
        "rounds": N_("Also end after this many rounds (default: no limit)"),
    }
    example_plies = 4
    button_kinds = frozenset({"take", "place"})

    def label(self, engine: Engine, state: object, seat: int, move: str, loc: object) -> str:
        # Picks are never simulated: applying the last pick would reveal the other cards.
        kind, *args = engine.parse_move(move)
        if kind in ("play", "draft"):
            return t(loc, "Card {card}", card=args[0])
        if kind == "take":
            taken = first(events_of(engine, state, seat, move), "take")
            if taken is not None:
                return t(loc, "Take row {row} ({bullheads} 🐮)", row=args[0],
                         bullheads=taken["bullheads"])
            return t(loc, "Take row {row}", row=args[0])
        if kind == "place" and len(args) == 2:
            if args[1] == "left":
                return t(loc, "Row {row}, left end", row=args[0])
            return t(loc, "Row {row}, right end", row=args[0])
        return move

    def group_of(self, move: str, locale: object = None) -> tuple[str, str]:
        kind, *args = self.engine.parse_move(move)
        if kind in ("draft", "play"):
            low = (int(args[0]) - 1) // 10 * 10 + 1
            return f"c{low}", t(locale, "Cards {low}–{high}", low=low, high=low + 9)
        return super().group_of(move, locale)

    def prompt(self, phase: str | None, loc: object, who: str) -> str | None:
        if phase == "pick":
            return t(loc, "➡️ {who}: pick a card privately: use the menu I sent you by DM, "
                     "or press **Pick privately**.", who=who)
        if phase == "take":
            return t(loc, "➡️ {who}: your card is lower than every row; choose a row to take.",
                     who=who)
        if phase == "side":
            return t(loc, "➡️ {who}: choose which row end your card goes to.", who=who)
        if phase == "draft":
            return t(loc, "➡️ {who}: draft a card from the pool.", who=who)
        return None

    def phrase(self, ev: Event, loc: object, who: Who) -> Phrase | None:
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
                return ev["seat"], t(loc, "played {card} at the left end of row {row}",
                                     card=ev["card"], row=ev["row"])
            return ev["seat"], t(loc, "played {card} on row {row}", card=ev["card"],
                                 row=ev["row"])
        if kind == "take":
            return ev["seat"], t(loc, "played {card} and took row {row}: {bullheads}",
                                 card=ev["card"], row=ev["row"],
                                 bullheads=bullheads_text(loc, ev["bullheads"]))
        if kind == "choose":
            if ev.get("kind") == "side":
                return ev["seat"], t(loc, "must choose which row end {card} goes to",
                                     card=ev["card"])
            return ev["seat"], t(loc, "must choose a row to take for {card}", card=ev["card"])
        if kind == "round_end":
            points = " · ".join(f"{who(i)} {p}" for i, p in enumerate(ev["points"]))
            return None, t(loc, "Round {round} is over. Points: {points}.", round=ev["round"],
                           points=points)
        return None


PRESENTATION = SixNimmt()
