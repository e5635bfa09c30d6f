"""/play <game>: one subcommand per game, its options typed from the engine's option spec."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs.base import Callback, GroupCog, SlashOption, with_options
from bot.games import presentation
from bot.i18n import N_
from bot.ui.faults import cooldown
from bot.ui.rules import SHUFFLE_HELP, SIDE_HELP, option_help, playable_options
from bot.ui.settings import ABSENCE_CHOICES, DEADLINE_CHOICES
from engines import Option, game_ids, get_engine

if TYPE_CHECKING:
    from bot.client import TableBot

OPEN_COOLDOWN = (1, 10.0)  # one /play per member per server every 10 s (any game)
# The options of /play <game> after the game's own and the side (or shuffle) option.
TABLE_OPTIONS = (
    SlashOption("deadline", int | None,
                N_("Time per move at this table (default: the server's settings)"), None),
    SlashOption("absence", str | None,
                N_("When a player keeps missing turns (default: the server's settings)"), None),
    SlashOption("hints", bool, N_("Allow hints at this table (then it is unrated)"), False),
)


def annotation_for(option: Option) -> Any:
    """The slash option type of an engine option (bool, ranged int, or choices)."""
    if option.kind == "bool":
        return bool
    if option.kind == "int":
        return app_commands.Range[int, option.low, option.high]
    return Literal[tuple(option.choices)]


def game_options(game: str) -> list[SlashOption]:
    """The game's options as slash options, all optional: unset ones take the engine's
    defaults."""
    return [SlashOption(option.name, annotation_for(option), option_help(None, game, option), None)
            for option in playable_options(game)]


def play_callback(bot: TableBot, game: str) -> Callback:
    """A callback whose signature lists the game's options, then the table's."""
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

    seating = (SlashOption("side", Literal[tuple(sides)], shown.side_help or SIDE_HELP, None)
               if sides else SlashOption("shuffle", bool, SHUFFLE_HELP, True))
    options = [*game_options(game), seating, *TABLE_OPTIONS]
    play = with_options(play, game, options)
    return app_commands.choices(deadline=DEADLINE_CHOICES, absence=ABSENCE_CHOICES)(play)


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
