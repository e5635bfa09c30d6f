"""/move (with autocomplete), /board, /resign (asks to confirm) and /hint for the table in
this channel or thread."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.features.common.commands import FeatureCog, slash
from bot.features.common.services import Services
from bot.features.table import computers, resign
from bot.features.table.moves import TableActions
from bot.i18n import N_


class TableCog(FeatureCog):
    def __init__(self, services: Services, actions: TableActions) -> None:
        super().__init__(services)
        self.actions = actions

    @slash("move", N_("Make your move by typing it (the menu lists your moves)"),
           move=N_("Your move, e.g. 'move 14', 'take r', 'e5xe7'"))
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        await self.actions.play_command(interaction, move)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.actions.move_choices(interaction, current)

    @slash("board", N_("Show the current board here again"))
    async def board(self, interaction: discord.Interaction) -> None:
        await self.actions.repost(interaction)

    @slash("resign", N_("Resign from the game in this channel"))
    async def resign(self, interaction: discord.Interaction) -> None:
        await resign.ask(self.services.tables, interaction)  # resigns when the button confirms

    @slash("hint", N_("A suggested move for you, privately (tables opened with hints)"))
    async def hint(self, interaction: discord.Interaction) -> None:
        await computers.hint(self.services.tables, interaction)
