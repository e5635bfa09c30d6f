"""The table's persistent components: `DynamicItem`s whose custom ids carry everything.

Custom ids (all under Discord's 100 characters):
  mv:<table>:<ply>:<move>        a button that plays <move>
  ms:<table>:<ply>:<where>       a select whose values are moves; <where> is c<n> in a channel
                                 board, e after an ephemeral group choice, h in a private hand
  mg:<table>:<ply>               a select of move groups (piece → destination when > 25 moves)
  pk:<table>:<ply>               "Pick privately": opens the hand as an ephemeral message
<ply> is the table's ply when the component was drawn; the service uses it to refuse stale
presses. Presses go to the `TablePresses` handler the bot routed (common/components.py).
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord import ui

from bot.features.common.components import Rebuilt, handler
from bot.features.common.faults import guarded


class TablePresses(Protocol):
    """What the table's components ask of the table feature."""

    async def play_component(self, interaction: discord.Interaction, table_id: int, ply: int,
                             move: str, where: str) -> None: ...

    async def show_group(self, interaction: discord.Interaction, table_id: int, ply: int,
                         group: str) -> None: ...

    async def show_hand(self, interaction: discord.Interaction, table_id: int,
                        ply: int) -> None: ...


class MoveButton(
    Rebuilt, ui.DynamicItem[ui.Button],
    template=r"mv:(?P<table>\d+):(?P<ply>\d+):(?P<move>[^:]{1,80})",
):
    def __init__(
        self,
        table_id: int,
        ply: int,
        move: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            ui.Button(
                label=(label or move)[:80],
                style=style,
                emoji=emoji,
                custom_id=f"mv:{table_id}:{ply}:{move}",
            ),
            row=row,
        )
        self.table_id, self.ply, self.move = table_id, ply, move

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await handler(interaction, TablePresses).play_component(
            interaction, self.table_id, self.ply, self.move, where="c"
        )


def one_choice(custom_id: str, options: list[discord.SelectOption] | None,
               placeholder: str | None) -> ui.Select:
    """A select of exactly one option."""
    return ui.Select(custom_id=custom_id, options=options or [], placeholder=placeholder,
                     min_values=1, max_values=1)


class MoveSelect(
    Rebuilt, ui.DynamicItem[ui.Select],
    template=r"ms:(?P<table>\d+):(?P<ply>\d+):(?P<where>c\d*|e|h)",
):
    def __init__(self, table_id: int, ply: int, where: str,
                 options: list[discord.SelectOption] | None = None, *,
                 placeholder: str | None = None, row: int | None = None) -> None:
        super().__init__(one_choice(f"ms:{table_id}:{ply}:{where}", options, placeholder),
                         row=row)
        self.table_id, self.ply, self.where = table_id, ply, where

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        move = self.item.values[0] if self.item.values else ""
        await handler(interaction, TablePresses).play_component(
            interaction, self.table_id, self.ply, move, where=self.where[:1]
        )


class GroupSelect(Rebuilt, ui.DynamicItem[ui.Select], template=r"mg:(?P<table>\d+):(?P<ply>\d+)"):
    def __init__(self, table_id: int, ply: int,
                 options: list[discord.SelectOption] | None = None, *,
                 placeholder: str | None = None, row: int | None = None) -> None:
        super().__init__(one_choice(f"mg:{table_id}:{ply}", options, placeholder), row=row)
        self.table_id, self.ply = table_id, ply

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        group = self.item.values[0] if self.item.values else ""
        await handler(interaction, TablePresses).show_group(interaction, self.table_id,
                                                            self.ply, group)


class PickButton(Rebuilt, ui.DynamicItem[ui.Button], template=r"pk:(?P<table>\d+):(?P<ply>\d+)"):
    def __init__(self, table_id: int, ply: int, *, label: str = "", row: int | None = None) -> None:
        super().__init__(
            ui.Button(
                label=label or None,  # the builder passes the translated label
                style=discord.ButtonStyle.primary,
                emoji="🂠",
                custom_id=f"pk:{table_id}:{ply}",
            ),
            row=row,
        )
        self.table_id, self.ply = table_id, ply

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await handler(interaction, TablePresses).show_hand(interaction, self.table_id, self.ply)


TABLE_ITEMS: tuple[type[ui.DynamicItem[ui.Item[ui.View]]], ...] = (
    MoveButton, MoveSelect, GroupSelect, PickButton)
