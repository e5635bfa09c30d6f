"""/leaderboard and /stats."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.features.common.commands import FeatureCog, game_choices, member_command, slash
from bot.features.common.services import Services
from bot.features.info import info
from bot.features.tournaments.seasons import season_choices
from bot.i18n import N_
from bot.tournaments.season_book import SeasonBook


class InfoCog(FeatureCog):
    def __init__(self, services: Services, book: SeasonBook) -> None:
        super().__init__(services)
        self.book = book
        # The game list is read when the bot builds its commands, not at import: a game
        # registered before the bot starts is offered too.
        self.leaderboard._params["game"].choices = game_choices()

    @slash("leaderboard", N_("The best players of this server"),
           game=N_("One game (default: all games)"),
           season=N_("A past season, or all results (servers with seasons)"))
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None,
                          season: str | None = None) -> None:
        await info.show_leaderboard(self.services, self.book, interaction, game, season)

    @leaderboard.autocomplete("season")
    async def season_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        return await season_choices(self.services.tables, interaction, current)

    stats = member_command("stats", N_("A player's games, wins and ratings on this server"),
                           N_("The player (default: you)"), info.show_stats)
