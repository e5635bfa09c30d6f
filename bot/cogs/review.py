"""/review: a finished game judged move by move (the work is in bot.ui.review)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.cogs.history import TABLE_HELP
from bot.i18n import N_
from bot.ui import history
from bot.ui import review as review_ui

if TYPE_CHECKING:
    from bot.client import TableBot


class ReviewCog(commands.Cog):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(review_ui.MistakeButton)  # buttons survive restarts

    @app_commands.command(name="review", description=locale_str(
        N_("Each player's accuracy and biggest mistakes in a finished game")))
    @app_commands.describe(table=locale_str(TABLE_HELP))
    @app_commands.guild_only()
    async def review(self, interaction: discord.Interaction, table: int) -> None:
        await review_ui.send_review(self.bot, interaction, table)

    @review.autocomplete("table")
    async def table_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await history.table_choices(self.bot, interaction, current)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(ReviewCog(bot))
