"""/resign asks first: a private question with a "Resign" button; only the button resigns.

Component: resign:<table> (a dynamic item: it still works after a restart, and it refuses
when the channel's table is no longer that table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import ui

from bot.i18n import t
from bot.ui.board import game_title
from bot.ui.components import Rebuilt, view_of
from bot.ui.faults import guarded

if TYPE_CHECKING:
    from bot.client import TableBot


async def ask(bot: TableBot, interaction: discord.Interaction) -> None:
    loc = interaction.locale
    assert interaction.channel_id is not None
    table = await bot.service.active_in_channel(interaction.channel_id)
    if table is None:
        await interaction.response.send_message(t(loc, "No game is being played here."),
                                                ephemeral=True)
        return
    if table.seat_of(interaction.user.id) is None:
        await interaction.response.send_message(
            t(loc, "You don't have a seat at this table."), ephemeral=True)
        return
    view = view_of([ConfirmResign(table.id, t(loc, "Resign"))])
    await interaction.response.send_message(
        t(loc, "Do you really want to resign from {game} (table {table})? This can't be "
            "undone.", game=game_title(loc, table.game), table=table.id),
        view=view, ephemeral=True)
    view.stop()


async def confirm(bot: TableBot, interaction: discord.Interaction, table_id: int) -> None:
    assert interaction.channel_id is not None
    table = await bot.service.active_in_channel(interaction.channel_id)
    if table is None or table.id != table_id:
        await interaction.response.edit_message(
            content=t(interaction.locale, "That game is no longer being played here."),
            view=None)
        return
    await bot.ui.resign(interaction)


class ConfirmResign(Rebuilt, ui.DynamicItem[ui.Button], template=r"resign:(?P<table>\d+)"):
    def __init__(self, table_id: int, label: str = "") -> None:
        super().__init__(ui.Button(label=label or None, style=discord.ButtonStyle.danger,
                                   custom_id=f"resign:{table_id}"))
        self.table_id = table_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await confirm(interaction.client, interaction, self.table_id)  # type: ignore[arg-type]
