"""/move (with autocomplete), /board and /resign (asks to confirm) for the table in this
channel or thread."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.i18n import N_
from bot.ui import resign

if TYPE_CHECKING:
    from bot.client import TableBot


class GameCog(commands.Cog):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name="move", description=locale_str(N_("Make your move by typing it "
                                                                "(the menu lists your moves)")))
    @app_commands.describe(move=locale_str(N_("Your move, e.g. 'move 14', 'take r', 'e5xe7'")))
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        await self.bot.ui.play_command(interaction, move)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.bot.ui.move_choices(interaction, current)

    @app_commands.command(name="board",
                          description=locale_str(N_("Show the current board here again")))
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction) -> None:
        await self.bot.ui.repost(interaction)

    @app_commands.command(name="cancel", description=locale_str(
        N_("Cancel the table in this channel (host: a lobby; moderators: any game)")))
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.bot.ui.orphans.cancel_here(interaction)

    @app_commands.command(name="resign",
                          description=locale_str(N_("Resign from the game in this channel")))
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        await resign.ask(self.bot, interaction)  # resigns only when the button confirms


async def setup(bot: TableBot) -> None:
    await bot.add_cog(GameCog(bot))
