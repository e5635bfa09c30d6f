"""/play <game>: one subcommand per game, its options typed from the engine's option spec."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs.base import GroupCog
from bot.games import presentation
from bot.i18n import N_
from bot.ui.faults import cooldown
from bot.ui.rules import SHUFFLE_HELP, SIDE_HELP, option_help, playable_options
from bot.ui.settings import ABSENCE_CHOICES, DEADLINE_CHOICES
from engines import Option, game_ids, get_engine

if TYPE_CHECKING:
    from bot.client import TableBot

OPEN_COOLDOWN = (1, 10.0)  # one /play per member per server every 10 s (any game)
DEADLINE_HELP = N_("Time per move at this table (default: the server's settings)")
HINTS_HELP = N_("Allow hints at this table (then it is unrated)")
ABSENCE_HELP = N_("When a player keeps missing turns (default: the server's settings)")


def annotation_for(option: Option) -> Any:
    """The slash option type of an engine option (bool, ranged int, or choices)."""
    if option.kind == "bool":
        return bool
    if option.kind == "int":
        return app_commands.Range[int, option.low, option.high]
    return Literal[tuple(option.choices)]  # type: ignore[valid-type]


def play_callback(
    bot: TableBot, game: str
) -> Callable[..., Coroutine[Any, Any, None]]:
    """A callback whose signature lists the game's options (all optional: engine defaults)."""
    options = playable_options(game)
    shown = presentation(game)
    sides = [str(side) for side in get_engine(game).info.sides] if shown.lobby_sides else []

    async def play(interaction: discord.Interaction, **values: Any) -> None:
        shuffle = values.pop("shuffle", None)
        side = values.pop("side", None)
        deadline = values.pop("deadline", None)
        absence = values.pop("absence", None)
        hints = values.pop("hints", None)
        chosen = {name: value for name, value in values.items() if value is not None}
        await bot.ui.open_table(interaction, game, chosen, shuffle=shuffle is not False,
                                side=sides.index(side) if side else None,
                                deadline=deadline, absence=absence, hints=bool(hints))

    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter("interaction", kind, annotation=discord.Interaction)]
    descriptions: dict[str, locale_str] = {}
    for option in options:
        params.append(inspect.Parameter(option.name, kind, default=None,
                                        annotation=annotation_for(option)))
        descriptions[option.name] = locale_str(option_help(None, game, option))
    if sides:
        params.append(inspect.Parameter("side", kind, default=None,
                                        annotation=Literal[tuple(sides)]))  # type: ignore[valid-type]
        descriptions["side"] = locale_str(shown.side_help or SIDE_HELP)
    else:
        params.append(inspect.Parameter("shuffle", kind, default=True, annotation=bool))
        descriptions["shuffle"] = locale_str(SHUFFLE_HELP)
    params.append(inspect.Parameter("deadline", kind, default=None, annotation=int | None))
    descriptions["deadline"] = locale_str(DEADLINE_HELP)
    params.append(inspect.Parameter("absence", kind, default=None, annotation=str | None))
    descriptions["absence"] = locale_str(ABSENCE_HELP)
    params.append(inspect.Parameter("hints", kind, default=False, annotation=bool))
    descriptions["hints"] = locale_str(HINTS_HELP)
    play.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    play.__name__ = play.__qualname__ = game
    play = app_commands.choices(deadline=DEADLINE_CHOICES, absence=ABSENCE_CHOICES)(play)
    return app_commands.describe(**descriptions)(play)


def play_group(bot: TableBot) -> app_commands.Group:
    """/play with one subcommand per game registered when the bot builds its commands."""
    group = app_commands.Group(name="play", description=locale_str(N_("Open a game table here")),
                               guild_only=True)
    limit = cooldown(*OPEN_COOLDOWN)  # and one open lobby each: see the controller
    for game in game_ids():
        get_engine(game)  # fail loudly at start-up if an engine is missing
        command = app_commands.Command(
            name=game, description=locale_str(presentation(game).play_help()),
            callback=play_callback(bot, game), parent=group)
        command.add_check(limit)
        group.add_command(command)
    return group


class PlayCog(GroupCog):
    def __init__(self, bot: TableBot) -> None:
        super().__init__(bot, play_group(bot))
