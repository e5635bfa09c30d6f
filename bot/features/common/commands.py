"""What the features' cogs share: the services they are given, slash command declarations
with translated help, and cogs whose commands are a group built when the bot starts (one
subcommand per game)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.features.common.services import Services
from engines import game_ids, get_engine

Callback = Callable[..., Coroutine[object, object, None]]  # a command's: (cog?, interaction, ...)
CogT = TypeVar("CogT", bound=commands.Cog)
P = ParamSpec("P")
# A command declared in a cog: (cog, interaction, *options).
Method = Callable[Concatenate[CogT, discord.Interaction, P], Coroutine[object, object, None]]


def slash(
    name: str, description: str, *, guild_only: bool = True, **option_help: str
) -> Callable[[Method[CogT, P]], app_commands.Command[CogT, P, None]]:
    """Declare a slash command: `description` and `option_help` (by option name) are message
    ids, translated by the command tree; most commands make sense in a server only."""

    def declare(callback: Method[CogT, P]) -> app_commands.Command[CogT, P, None]:
        if option_help:
            callback = app_commands.describe(
                **{option: locale_str(text) for option, text in option_help.items()}
            )(callback)
        if guild_only:
            callback = app_commands.guild_only()(callback)
        return app_commands.command(name=name, description=locale_str(description))(callback)

    return declare


def member_command(
    name: str, description: str, member_help: str,
    show: Callable[[Services, discord.Interaction, discord.Member | None], Awaitable[None]],
) -> app_commands.Command[FeatureCog, [discord.Member | None], None]:
    """A cog's command whose one option is a member of the server (optional), answered by
    `show(services, interaction, member)`."""

    async def callback(cog: FeatureCog, interaction: discord.Interaction,
                       member: discord.Member | None = None) -> None:
        await show(cog.services, interaction, member)

    # A method's dotted name: discord.py then passes the cog first, not as an option.
    callback.__name__, callback.__qualname__ = name, f"{FeatureCog.__name__}.{name}"
    return slash(name, description, member=member_help)(callback)


@dataclass(frozen=True)
class SlashOption:
    """An option of a command built at start-up (/play <game>: the game's own options)."""

    name: str
    annotation: object  # as in a callback's signature: bool, str | None, a Range, a Literal
    help: str  # message id
    default: object = inspect.Parameter.empty  # empty: the option is required


def with_options(callback: Callback, name: str, options: Sequence[SlashOption]) -> Callback:
    """`callback(interaction, **values)` given a signature that lists `options`, from which
    discord.py reads the command's options, and their translated help."""
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter("interaction", kind, annotation=discord.Interaction)]
    params += [inspect.Parameter(option.name, kind, default=option.default,
                                 annotation=option.annotation) for option in options]
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = name
    return app_commands.describe(
        **{option.name: locale_str(option.help) for option in options})(callback)


def game_choices() -> list[app_commands.Choice[str | int | float]]:  # a Parameter's
    """Every game registered now (engines.game_ids), by its display name (translated); read
    when the bot builds its commands, so a game registered before the bot starts is offered."""
    return [app_commands.Choice(name=locale_str(get_engine(game).info.name), value=game)
            for game in game_ids()]


class FeatureCog(commands.Cog):
    """A feature's slash commands; its callbacks use the `services` they were given."""

    def __init__(self, services: Services) -> None:
        self.services = services


class GroupCog(FeatureCog):
    """A cog adding one command group that is built at start-up, such as /play with one
    subcommand per registered game."""

    def __init__(self, services: Services, tree: app_commands.CommandTree,
                 group: app_commands.Group) -> None:
        super().__init__(services)
        self.tree, self.group = tree, group

    async def cog_load(self) -> None:
        self.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.tree.remove_command(self.group.name)
