"""The lobby's persistent buttons: `lobby:<table>:<action>` (join, join0, join1, leave,
start, startfixed, cancel, cpu<level>, cpuremove; accept, decline and uninvite while seats
are held for invited members), handled by the `LobbyPresses` the bot routed
(common/components.py); and the final board's `rematch:<table>`, handled by `RematchPresses`."""

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
             r"|cpueasy|cpunormal|cpuhard|cpuremove|accept|decline|uninvite)",
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


class RematchPresses(Protocol):
    async def rematch(self, interaction: discord.Interaction, table_id: int) -> None: ...


class RematchButton(Rebuilt, ui.DynamicItem[ui.Button], template=r"rematch:(?P<table>\d+)"):
    """The final board's Rematch: a new lobby with the same seats and options."""

    def __init__(self, table_id: int, *, label: str = "") -> None:
        super().__init__(ui.Button(label=label or None, emoji="🔁",
                                   style=discord.ButtonStyle.primary,
                                   custom_id=f"rematch:{table_id}"))
        self.table_id = table_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await handler(interaction, RematchPresses).rematch(interaction, self.table_id)
