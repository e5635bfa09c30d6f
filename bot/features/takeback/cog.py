"""/takeback: ask to take back your last move (as the board's "Take back" button does)."""

from __future__ import annotations

import discord

from bot.features.common.commands import FeatureCog, slash
from bot.features.common.services import Services
from bot.features.takeback.takeback import TakeBackActions
from bot.i18n import N_


class TakeBackCog(FeatureCog):
    def __init__(self, services: Services, actions: TakeBackActions) -> None:
        super().__init__(services)
        self.actions = actions

    @slash("takeback", N_("Ask your opponent to let you take back your last move"))
    async def takeback(self, interaction: discord.Interaction) -> None:
        await self.actions.ask_here(interaction)
