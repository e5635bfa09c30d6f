"""/play <game> (one subcommand per game, its options typed from the engine's option spec)
and /cancel."""

from __future__ import annotations

from typing import Literal, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.features.common.commands import Callback, GroupCog, SlashOption, slash, with_options
from bot.features.common.faults import cooldown
from bot.features.common.services import Services
from bot.features.guide.rules import SHUFFLE_HELP, SIDE_HELP, option_help, playable_options
from bot.features.lobby.invites import INVITE_HELP, INVITE_OPTIONS, unique_members
from bot.features.lobby.lobbies import LobbyKeeper
from bot.features.lobby.opening import LobbyActions
from bot.features.settings.settings import ABSENCE_CHOICES, DEADLINE_CHOICES
from bot.games import presentation
from bot.i18n import N_
from engines import Option, game_ids, get_engine

T = TypeVar("T")

OPEN_COOLDOWN = (1, 10.0)  # one /play per member per server every 10 s (any game)
# The options of /play <game> after the game's own and the side (or shuffle) option.
TABLE_OPTIONS = (
    SlashOption("deadline", int | None,
                N_("Time per move at this table (default: the server's settings)"), None),
    SlashOption("absence", str | None,
                N_("When a player keeps missing turns (default: the server's settings)"), None),
    SlashOption("hints", bool, N_("Allow hints at this table (then it is unrated)"), False),
)


def annotation_for(option: Option) -> object:
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


def invite_options(game: str) -> list[SlashOption]:
    """invite1, invite2, ...: one member option per seat besides the host's (three at most)."""
    count = min(len(INVITE_OPTIONS), get_engine(game).max_players - 1)
    return [SlashOption(name, discord.Member | None, INVITE_HELP, None)
            for name in INVITE_OPTIONS[:count]]


def given(values: dict[str, object], name: str, kind: type[T]) -> T | None:
    """The option `name` taken out of a command's `values`, if it was given (discord.py
    converts each to the type its signature declares, see `with_options`)."""
    value = values.pop(name, None)
    return value if isinstance(value, kind) else None


def play_callback(actions: LobbyActions, game: str) -> Callback:
    """A callback whose signature lists the game's options, then the table's, then the
    members to invite."""
    shown = presentation(game)
    sides = [str(side) for side in get_engine(game).info.sides] if shown.lobby_sides else []

    async def play(interaction: discord.Interaction, **values: object) -> None:
        shuffle = given(values, "shuffle", bool)
        side = given(values, "side", str)
        deadline = given(values, "deadline", int)
        absence = given(values, "absence", str)
        hints = given(values, "hints", bool)
        invites = unique_members([given(values, name, discord.abc.User)
                                  for name in INVITE_OPTIONS])
        chosen = {name: value for name, value in values.items() if value is not None}
        await actions.open_table(interaction, game, chosen, shuffle=shuffle is not False,
                                 side=sides.index(side) if side else None,
                                 deadline=deadline, absence=absence, hints=bool(hints),
                                 invites=invites)

    seating = (SlashOption("side", Literal[tuple(sides)], shown.side_help or SIDE_HELP, None)
               if sides else SlashOption("shuffle", bool, SHUFFLE_HELP, True))
    options = [*game_options(game), seating, *TABLE_OPTIONS, *invite_options(game)]
    play = with_options(play, game, options)
    return app_commands.choices(  # type: ignore[misc]  # int and str choices: see settings/cog.py
        deadline=DEADLINE_CHOICES, absence=ABSENCE_CHOICES)(play)


def play_group(actions: LobbyActions) -> app_commands.Group:
    """/play with one subcommand per game registered when the bot builds its commands."""
    group = app_commands.Group(name="play", description=locale_str(N_("Open a game table here")),
                               guild_only=True)
    limit = cooldown(*OPEN_COOLDOWN)  # and one open lobby each: see LobbyActions
    for game in game_ids():
        get_engine(game)  # fail loudly at start-up if an engine is missing
        command: app_commands.Command[app_commands.Group, ..., None] = app_commands.Command(
            name=game, description=locale_str(presentation(game).play_help()),
            callback=play_callback(actions, game), parent=group)
        command.add_check(limit)
        group.add_command(command)
    return group


class LobbyCog(GroupCog):
    def __init__(self, services: Services, tree: app_commands.CommandTree[discord.Client],
                 actions: LobbyActions, keeper: LobbyKeeper) -> None:
        super().__init__(services, tree, play_group(actions))
        self.keeper = keeper

    @slash("cancel", N_("Cancel the table in this channel (host: a lobby; moderators: any game)"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.keeper.cancel_here(interaction)
