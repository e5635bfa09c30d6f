"""/hint: the hard computer player's suggestion, for tables opened with hints allowed."""

from __future__ import annotations

import discord

from bot.cogs.base import BotCog, slash
from bot.i18n import N_
from bot.ui import computers


class ComputersCog(BotCog):
    @slash("hint", N_("A suggested move for you, privately (tables opened with hints)"))
    async def hint(self, interaction: discord.Interaction) -> None:
        await computers.hint(self.bot.ui, interaction)
