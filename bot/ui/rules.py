"""Rule summaries for /rules and short option descriptions for /play (≤ 100 characters)."""

from __future__ import annotations

import re
from typing import Any

from bot.i18n import N_, t
from engines import Option, get_engine

OPTION_HELP: dict[tuple[str, str], str] = {
    ("varanasi", "colours"): N_("Colours of discs in play, 3–6 (default 3, 4 or 5 for 2, 3 or "
                                "4 players)"),
    ("varanasi", "height_rule"): N_("after: the destination ends higher than the source was; "
                                    "before: already higher"),
    ("varanasi", "scoring"): N_("set_total: the set winner scores all discs taken; last_take: "
                                "only the last take"),
    ("varanasi", "weighted"): N_("A disc scores its size (1–4) instead of 1 point"),
    ("varanasi", "misere"): N_("Taking the last disc loses the set (2 players or teams)"),
    ("varanasi", "teams"): N_("Doubles for 4 players: seats 1 and 3 against seats 2 and 4"),
    ("varanasi", "team_scoring"): N_("With teams: winner = only the set winner's discs score; "
                                     "sum = both partners'"),
    ("varanasi", "sets"): N_("How many sets the match lasts (default 3)"),
    ("varanasi", "target"): N_("Instead of a number of sets: play until someone has this many "
                               "points"),
    ("six_nimmt", "points"): N_("Starting points; every bullhead taken costs one (default 66)"),
    ("six_nimmt", "professional"): N_("Cards may also go before the left end of a row "
                                      "(default off)"),
    ("six_nimmt", "cards"): N_("standard: all 104 cards; tactical: only 1 to 10×players+4; "
                               "logical: tactical, drafted"),
    ("six_nimmt", "rounds"): N_("Also end after this many rounds (default: no limit)"),
    ("cows_leopards", "board"): N_("A: 37 points (top and bottom triangles); B: 49 points, four "
                                   "triangles (default)"),
    ("cows_leopards", "captures"): N_("The leopards win after capturing this many cows "
                                      "(default 8)"),
    ("cows_leopards", "leopard_deadline"): N_("The second leopard must be dropped right after "
                                              "the last cow (default off)"),
    ("cows_leopards", "quiet_limit"): N_("Moves in a row without a capture that end the game in a "
                                         "draw (default 100)"),
}

SHUFFLE_HELP = N_("Shuffle the turn order when the game starts (default true)")
SIDE_HELP = N_("Your side: cows or leopards (default: decided when the game starts)")

SUMMARIES: dict[str, str] = {
    "varanasi": N_(
        "Towers of discs stand on numbered spots; every player may move every piece.\n"
        "On your turn either **take a colour** (the top disc of every tower topped with that "
        "colour) or **move** the top discs of a tower onto another tower: the lowest moved "
        "disc must be smaller than the top it lands on, and the destination must end higher "
        "than the source was.\n"
        "Whoever takes the last disc wins the set and scores the discs they took in it."
    ),
    "six_nimmt": N_(
        "Everyone picks a card from their hand face down, at the same time. The cards are then "
        "revealed and placed lowest first, each at the end of the row whose last card is the "
        "highest one below it.\n"
        "The **sixth** card of a row takes the five before it; a card lower than every row "
        "takes a row of its player's choice. Taken cards cost their bullheads 🐮.\n"
        "When someone runs out of points, the game ends after that round: most points left wins."
    ),
    "senet": N_(
        "Two players race five stones each along 30 squares in a reverse S. Throw the sticks "
        "(1–5) and move one stone exactly that far; 1, 4 and 5 throw again.\n"
        "Landing on a lone enemy stone swaps the two; two stones side by side protect each "
        "other. Every stone must stop on 26, the House of Beauty; 27 is the House of Water.\n"
        "The first to bear off all five stones wins."
    ),
    "cows_leopards": N_(
        "24 cows hunt down 2 leopards on an Alquerque board with triangles.\n"
        "The cows drop one cow per turn until all are on the board, then step to a neighbouring "
        "point. The leopards drop their second leopard, step, or **jump** over a cow to capture "
        "it (one jump per turn).\n"
        "The leopards win by capturing enough cows; the cows win by trapping both leopards."
    ),
}


def option_help(locale: object, game: str, option: Option) -> str:
    """A description of `option` for a slash option (at most 100 characters)."""
    msgid = OPTION_HELP.get((game, option.name))
    text = t(locale, msgid) if msgid else option.help
    return (text or option.name)[:100]


def playable_options(game: str) -> list[Option]:
    """The engine options a host may set in /play (the seat count comes from the lobby)."""
    return [o for o in get_engine(game).option_spec if o.name != "players"]


def default_text(locale: object, option: Option) -> str:
    value: Any = option.default
    if value is None:
        return t(locale, "none")
    if isinstance(value, bool):
        return t(locale, "on") if value else t(locale, "off")
    return str(value)


def options_lines(locale: object, game: str) -> list[str]:
    lines = []
    for option in playable_options(game):
        if option.kind == "choice":
            values = " / ".join(option.choices)
        elif option.kind == "int":
            values = f"{option.low}–{option.high}"
        else:
            values = t(locale, "on / off")
        described = re.sub(r"\s*\(default[^)]*\)$", "", option_help(locale, game, option))
        lines.append(t(locale, "`{name}` ({values}, default {default}): {help}",
                       name=option.name, values=values, default=default_text(locale, option),
                       help=described))
    return lines


def summary(locale: object, game: str) -> str:
    return t(locale, SUMMARIES[game])


def opening_picture(game: str, seed: int = 7) -> bytes:
    """The picture of a fresh game (chance moves drawn with a fixed seed): run in a thread."""
    import random

    import renderers
    from engines import CHANCE

    eng = get_engine(game)
    players = max(eng.min_players, min(4, eng.max_players))
    state = eng.new(players, eng.default_options(players))
    rng = random.Random(seed)
    while eng.to_act(state) == [CHANCE]:
        state = eng.apply(state, CHANCE, eng.sample_chance(state, rng))
    return renderers.render(game, eng.view(state, None), [])
