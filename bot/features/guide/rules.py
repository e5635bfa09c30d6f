"""Option descriptions for /play (≤ 100 characters; each game's own are in its presentation,
bot/games/<game>.py) and the generated parts of /rules: the options page (localised names,
values and the defaults that really apply) and the example picture."""

from __future__ import annotations

import random
import re

import renderers
from bot.games import presentation
from bot.i18n import CHOICE_CONTEXT, N_, picture_words, t, translate_in_context
from bot.i18n.grammar import join_phrases, option_label
from engines import CHANCE, Option, get_engine
from engines.base import Event

SHUFFLE_HELP = N_("Shuffle the turn order when the game starts (default true)")
SIDE_HELP = N_("Your side (default: decided when the game starts)")


def option_help(locale: object, game: str, option: Option) -> str:
    """A description of `option` for a slash option (at most 100 characters)."""
    msgid = presentation(game).option_help.get(option.name)
    text = t(locale, msgid) if msgid else option.help
    return (text or option.name)[:100]


def playable_options(game: str) -> list[Option]:
    """The engine options a host may set in /play (the seat count comes from the lobby)."""
    return [o for o in get_engine(game).option_spec if o.name != "players"]


DEFAULT_NOTE = re.compile(r"\s*[(（](default|既定)[^)）]*[)）]\s*$")


def value_label(locale: object, option: Option, value: object) -> str:
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
    eng = get_engine(game)
    players = max(eng.min_players, min(4, eng.max_players))
    state = eng.new(players, eng.default_options(players))
    rng = random.Random(seed)
    events: list[Event] = []
    moves = 0
    while eng.outcome(state) is None:
        actor = eng.to_act(state)[0]
        if actor == CHANCE:
            move = eng.sample_chance(state, rng)
        elif moves >= presentation(game).example_plies:
            break
        else:
            move = rng.choice(eng.legal_moves(state, actor))
            moves += 1
        state, events = eng.apply_events(state, actor, move)
    return renderers.render(game, eng.view(state, None), events,
                            gettext=picture_words(locale))
