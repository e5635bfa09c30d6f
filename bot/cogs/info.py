"""/rules, /help, /leaderboard and /stats."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs.base import BotCog, member_command, slash
from bot.i18n import N_
from bot.ui import guide, info
from bot.ui.help import show_help
from bot.ui.seasons import season_choices
from engines import game_ids, get_engine

if TYPE_CHECKING:
    from bot.client import TableBot


def game_choices() -> list[app_commands.Choice[str]]:
    """Every game registered now (engines.game_ids), by its display name (translated)."""
    return [app_commands.Choice(name=locale_str(get_engine(game).info.name), value=game)
            for game in game_ids()]


class InfoCog(BotCog):
    def __init__(self, bot: TableBot) -> None:
        super().__init__(bot)
        # The game lists are read when the bot builds its commands, not at import: a game
        # registered before the bot starts is offered too.
        for command in (self.rules, self.leaderboard):
            command._params["game"].choices = game_choices()

    @slash("rules", N_("How to play a game: a short illustrated guide (only you see it)"),
           guild_only=False, game=N_("The game"))
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        await guide.show_rules(self.bot, interaction, game)

    @slash("help", N_("Every command of the bot, one line each (only you see it)"),
           guild_only=False)
    async def help(self, interaction: discord.Interaction) -> None:
        await show_help(self.bot, interaction)

    @slash("leaderboard", N_("The best players of this server"),
           game=N_("One game (default: all games)"),
           season=N_("A past season, or all results (servers with seasons)"))
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None,
                          season: str | None = None) -> None:
        await info.show_leaderboard(self.bot, interaction, game, season)

    @leaderboard.autocomplete("season")
    async def season_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        return await season_choices(self.bot, interaction, current)

    stats = member_command("stats", N_("A player's games, wins and ratings on this server"),
                           N_("The player (default: you)"), info.show_stats)

