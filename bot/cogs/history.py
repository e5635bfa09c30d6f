"""/history, /replay and /export."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.i18n import N_
from bot.ui import history
from bot.ui.faults import cooldown

if TYPE_CHECKING:
    from bot.client import TableBot

TABLE_HELP = N_("The table number (shown in the game history)")
TABLE_NUMBER = app_commands.Range[int, 1, 2**53]  # bounded before anything parses it
HEAVY_COOLDOWN = (2, 60.0)  # replays and exports per member per minute (queue bounded too)


class HistoryCog(commands.Cog):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.replay.add_check(cooldown(*HEAVY_COOLDOWN))
        self.export.add_check(cooldown(*HEAVY_COOLDOWN))

    @app_commands.command(name="history", description=locale_str(
        N_("Recently finished games on this server")))
    @app_commands.describe(member=locale_str(N_("Only the games of this player")))
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await history.show_history(self.bot, interaction, member)

    @app_commands.command(name="replay", description=locale_str(
        N_("Watch a finished game again as an animation")))
    @app_commands.describe(table=locale_str(TABLE_HELP))
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, table: TABLE_NUMBER) -> None:
        await history.send_replay(self.bot, interaction, table)

    @app_commands.command(name="export", description=locale_str(
        N_("Download a finished game (options and every move) as JSON")))
    @app_commands.describe(table=locale_str(TABLE_HELP))
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction, table: TABLE_NUMBER) -> None:
        await history.send_export(self.bot, interaction, table)

    @replay.autocomplete("table")
    @export.autocomplete("table")
    async def table_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await history.table_choices(self.bot, interaction, current)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(HistoryCog(bot))
