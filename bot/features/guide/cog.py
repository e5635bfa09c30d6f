"""/rules (a private illustrated guide per game) and /help (every command)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.features.common.commands import FeatureCog, game_choices, slash
from bot.features.common.services import Services
from bot.features.guide import guide
from bot.features.guide.help import show_help
from bot.i18n import N_


class GuideCog(FeatureCog):
    def __init__(self, services: Services, tree: app_commands.CommandTree) -> None:
        super().__init__(services)
        self.tree = tree
        # The game list is read when the bot builds its commands (see InfoCog).
        self.rules._params["game"].choices = game_choices()

    @slash("rules", N_("How to play a game: a short illustrated guide (only you see it)"),
           guild_only=False, game=N_("The game"))
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        await guide.show_rules(interaction, game)

    @slash("help", N_("Every command of the bot, one line each (only you see it)"),
           guild_only=False)
    async def help(self, interaction: discord.Interaction) -> None:
        await show_help(self.tree, interaction)
