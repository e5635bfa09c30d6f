"""Option descriptions for /play (≤ 100 characters) and the generated parts of /rules: the
options page (localised names, values and the defaults that really apply) and the example
picture. The guide's texts are in bot/ui/guide_texts.py."""

from __future__ import annotations

import re
from typing import Any

from bot.i18n import CHOICE_CONTEXT, N_, t, translate_in_context
from bot.i18n.grammar import join_phrases, option_label
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

def option_help(locale: object, game: str, option: Option) -> str:
    """A description of `option` for a slash option (at most 100 characters)."""
    msgid = OPTION_HELP.get((game, option.name))
    text = t(locale, msgid) if msgid else option.help
    return (text or option.name)[:100]


def playable_options(game: str) -> list[Option]:
    """The engine options a host may set in /play (the seat count comes from the lobby)."""
    return [o for o in get_engine(game).option_spec if o.name != "players"]


DEFAULT_NOTE = re.compile(r"\s*[(（](default|既定)[^)）]*[)）]\s*$")
EXAMPLE_PLIES = {"six_nimmt": 4, "senet": 14, "varanasi": 5, "cows_leopards": 16}


def value_label(locale: object, option: Option, value: Any) -> str:
    """An option value as the reader's client shows it ("on", "セット合計", "66")."""
    if value is None:
        return t(locale, "none")
    if isinstance(value, bool):
        return t(locale, "on") if value else t(locale, "off")
    if option.kind == "choice":
        return translate_in_context(locale, CHOICE_CONTEXT, str(value)) or t(locale, str(value))
    return str(value)


def default_text(locale: object, game: str, option: Option) -> str:
    """The default that really applies: one value, or one per player count when it depends
    on it ("3 with 2 players, 4 with 3 players, ...")."""
    eng = get_engine(game)
    counts = range(eng.min_players, eng.max_players + 1)
    values = {n: eng.default_options(n).get(option.name, option.default) for n in counts}
    if len({repr(v) for v in values.values()}) <= 1:
        return value_label(locale, option, next(iter(values.values()), option.default))
    return join_phrases(locale, [t(locale, "{value} with {players} players",
                                   value=value_label(locale, option, v), players=n)
                                 for n, v in values.items()])


def options_lines(locale: object, game: str) -> list[str]:
    """One line per option a host may set in /play: its name as the slash option shows it,
    its values and its default, then what it does."""
    lines = []
    for option in playable_options(game):
        if option.kind == "choice":
            values = " / ".join(value_label(locale, option, c) for c in option.choices)
        elif option.kind == "int":
            values = t(locale, "{low}–{high}", low=option.low, high=option.high)
        else:
            values = t(locale, "on / off")
        described = DEFAULT_NOTE.sub("", option_help(locale, game, option))
        lines.append(t(locale, "**{name}** ({values}; default: {default})\n{help}",
                       name=option_label(locale, option.name), values=values,
                       default=default_text(locale, game, option), help=described))
    return lines


def example_picture(game: str, locale: object = None, seed: int = 7) -> bytes:
    """A real position a few moves into a seeded game, drawn in `locale`'s language: run in a
    worker thread."""
    import random

    import renderers
    from bot.ui.drawing import picture_words
    from engines import CHANCE

    eng = get_engine(game)
    players = max(eng.min_players, min(4, eng.max_players))
    state = eng.new(players, eng.default_options(players))
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    moves = 0
    while eng.outcome(state) is None:
        actor = eng.to_act(state)[0]
        if actor == CHANCE:
            move = eng.sample_chance(state, rng)
        elif moves >= EXAMPLE_PLIES.get(game, 6):
            break
        else:
            move = rng.choice(eng.legal_moves(state, actor))
            moves += 1
        state, events = eng.apply_events(state, actor, move)
    return renderers.render(game, eng.view(state, None), events,
                            gettext=picture_words(locale))
