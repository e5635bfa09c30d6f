"""What the cogs share: the bot they serve, slash command declarations with translated help,
and cogs whose commands are a group built when the bot starts (one subcommand per game)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

if TYPE_CHECKING:
    from bot.client import TableBot


def slash(
    name: str, description: str, *, guild_only: bool = True, **option_help: str
) -> Callable[[Any], app_commands.Command[Any, ..., Any]]:
    """Declare a slash command: `description` and `option_help` (by option name) are message
    ids, translated by the command tree; most commands make sense in a server only."""

    def declare(callback: Any) -> app_commands.Command[Any, ..., Any]:
        if option_help:
            callback = app_commands.describe(
                **{option: locale_str(text) for option, text in option_help.items()}
            )(callback)
        if guild_only:
            callback = app_commands.guild_only()(callback)
        return app_commands.command(name=name, description=locale_str(description))(callback)

    return declare


class BotCog(commands.Cog):
    """A cog of the bot's commands; its callbacks reach the services through `self.bot`."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot


class GroupCog(BotCog):
    """A cog adding one command group that is built at start-up, such as /play with one
    subcommand per registered game."""

    def __init__(self, bot: TableBot, group: app_commands.Group) -> None:
        super().__init__(bot)
        self.group = group

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)
