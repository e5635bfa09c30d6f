"""/hint: the hard computer player's suggestion, for tables opened with hints allowed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.i18n import N_
from bot.ui import computers

if TYPE_CHECKING:
    from bot.client import TableBot


class ComputersCog(commands.Cog):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name="hint", description=locale_str(
        N_("A suggested move for you, privately (tables opened with hints)")))
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        await computers.hint(self.bot.ui, interaction)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(ComputersCog(bot))
