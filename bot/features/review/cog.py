"""/review: a finished game judged move by move (the work is in review.py)."""

from __future__ import annotations

import discord

from bot.features.common.commands import FeatureCog
from bot.features.history.cog import table_command
from bot.features.review import review
from bot.i18n import N_


class ReviewCog(FeatureCog):
    @table_command("review", N_("Each player's accuracy and biggest mistakes in a finished game"))
    async def review(self, interaction: discord.Interaction, table: int) -> None:
        await review.send_review(self.services, interaction, table)
