"""Persistent components: `DynamicItem`s whose custom ids carry everything they need.

Custom ids (all under Discord's 100 characters):
  lobby:<table>:<action>         lobby buttons (join, join0, join1, leave, start, startfixed,
                                 cancel)
  mv:<table>:<ply>:<move>        a button that plays <move>
  ms:<table>:<ply>:<where>       a select whose values are moves; <where> is c<n> in a channel
                                 board, e after an ephemeral group choice, h in a private hand
  mg:<table>:<ply>               a select of move groups (piece → destination when > 25 moves)
  pk:<table>:<ply>               "Pick privately": opens the hand as an ephemeral message
<ply> is the table's ply when the component was drawn; the service uses it to refuse stale
presses. Nothing lives only in a View: after a restart every old message still works, since
the callbacks look the table up through `interaction.client.ui` (bot.ui.controller).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.ui.faults import guarded

if TYPE_CHECKING:
    from bot.ui.controller import Controller

LOBBY_ACTIONS = ("join", "join0", "join1", "leave", "start", "startfixed", "cancel")


class Rebuilt:
    """A DynamicItem mixin: its constructor takes the template's groups, in order, as its
    leading arguments, those named in `custom_id_numbers` as ints; so `from_custom_id`
    rebuilds it from any custom id it made."""

    custom_id_numbers: frozenset[str] = frozenset({"table", "ply"})

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        return cls(*(int(value) if name in cls.custom_id_numbers else value
                     for name, value in match.groupdict().items()))


def _controller(interaction: discord.Interaction) -> Controller:
    return interaction.client.ui  # type: ignore[attr-defined]


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
        await _controller(interaction).lobby_action(interaction, self.table_id, self.action)


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
        await _controller(interaction).play_component(
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
        await _controller(interaction).play_component(
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
        await _controller(interaction).show_group(interaction, self.table_id, self.ply, group)


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
        await _controller(interaction).show_hand(interaction, self.table_id, self.ply)


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    MoveButton,
    MoveSelect,
    GroupSelect,
    PickButton,
)


def view_of(items: Sequence[ui.Item[Any]]) -> ui.View:
    """A View (no timeout) holding `items`; it only carries them to Discord."""
    view = ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
