"""/move (with autocomplete), /board and /resign (asks to confirm) for the table in this
channel or thread."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.base import BotCog, slash
from bot.i18n import N_
from bot.ui import resign


class GameCog(BotCog):
    @slash("move", N_("Make your move by typing it (the menu lists your moves)"),
           move=N_("Your move, e.g. 'move 14', 'take r', 'e5xe7'"))
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        await self.bot.ui.play_command(interaction, move)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.bot.ui.move_choices(interaction, current)

    @slash("board", N_("Show the current board here again"))
    async def board(self, interaction: discord.Interaction) -> None:
        await self.bot.ui.repost(interaction)

    @slash("cancel", N_("Cancel the table in this channel (host: a lobby; moderators: any game)"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.bot.ui.orphans.cancel_here(interaction)

    @slash("resign", N_("Resign from the game in this channel"))
    async def resign(self, interaction: discord.Interaction) -> None:
        await resign.ask(self.bot, interaction)  # resigns only when the button confirms

