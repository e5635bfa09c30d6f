"""/resign asks first: a private question with a "Resign" button; only the button resigns.

Component: resign:<table> (a dynamic item: it still works after a restart, and it refuses
when the channel's table is no longer that table).
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord import ui

from bot.features.common.badges import game_title
from bot.features.common.components import Rebuilt, handler, view_of
from bot.features.common.faults import guarded
from bot.i18n import t
from bot.tables import TableService


class Resigner(Protocol):
    async def confirm_resign(self, interaction: discord.Interaction, table_id: int) -> None: ...


async def ask(service: TableService, interaction: discord.Interaction) -> None:
    loc = interaction.locale
    assert interaction.channel_id is not None
    table = await service.active_in_channel(interaction.channel_id)
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


async def refuse_stale(interaction: discord.Interaction) -> None:
    """The Resign button of a game no longer played in this channel."""
    await interaction.response.edit_message(
        content=t(interaction.locale, "That game is no longer being played here."), view=None)


class ConfirmResign(Rebuilt, ui.DynamicItem[ui.Button], template=r"resign:(?P<table>\d+)"):
    def __init__(self, table_id: int, label: str = "") -> None:
        super().__init__(ui.Button(label=label or None, style=discord.ButtonStyle.danger,
                                   custom_id=f"resign:{table_id}"))
        self.table_id = table_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await handler(interaction, Resigner).confirm_resign(interaction, self.table_id)
