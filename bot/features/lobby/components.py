"""The lobby's persistent buttons: `lobby:<table>:<action>` (join, join0, join1, leave,
start, startfixed, cancel, cpu<level>, cpuremove), handled by the `LobbyPresses` the bot
routed (common/components.py)."""

from __future__ import annotations

from typing import Protocol

import discord
from discord import ui

from bot.features.common.components import Rebuilt, handler
from bot.features.common.faults import guarded


class LobbyPresses(Protocol):
    async def lobby_action(self, interaction: discord.Interaction, table_id: int,
                           action: str) -> None: ...


class LobbyButton(
    Rebuilt, ui.DynamicItem[ui.Button],
    template=r"lobby:(?P<table>\d+):(?P<action>join0|join1|join|leave|startfixed|start|cancel"
             r"|cpueasy|cpunormal|cpuhard|cpuremove)",
):
    def __init__(
        self,
        table_id: int,
        action: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: str | None = None,
    ) -> None:
        super().__init__(
            ui.Button(
                label=label or None,
                style=style,
                disabled=disabled,
                emoji=emoji,
                custom_id=f"lobby:{table_id}:{action}",
            )
        )
        self.table_id = table_id
        self.action = action

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await handler(interaction, LobbyPresses).lobby_action(interaction, self.table_id,
                                                              self.action)
