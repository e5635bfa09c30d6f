"""/review: a finished game judged move by move (the work is in bot.ui.review)."""

from __future__ import annotations

import discord

from bot.cogs.base import BotCog
from bot.cogs.history import table_command
from bot.i18n import N_
from bot.ui import review as review_ui


class ReviewCog(BotCog):
    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(review_ui.MistakeButton)  # buttons survive restarts

    @table_command("review", N_("Each player's accuracy and biggest mistakes in a finished game"))
    async def review(self, interaction: discord.Interaction, table: int) -> None:
        await review_ui.send_review(self.bot, interaction, table)
