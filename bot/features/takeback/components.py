"""The take-back's persistent components: `DynamicItem`s whose custom ids carry everything.

Custom ids:
  tb:ask:<table>:<ply>   "Take back" on a board: the player who just moved asks
  tb:yes:<table>:<ply>   "Accept" on the request: the opponent agrees
  tb:no:<table>:<ply>    "Decline" on the request: the opponent refuses (the asker withdraws)
<ply> is the table's ply when the board or the request was drawn: the asker's move is the
log's last entry then, and the request lapses as soon as the ply moves on. Presses go to
the `TakeBackPresses` handler the bot routed (common/components.py).
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord import ui

from bot.features.common.components import Item, Rebuilt, handler
from bot.features.common.faults import guarded
from bot.i18n import t
from bot.tables import Table, TableError
from bot.tables.takeback import open_request

MAX_ROWS = 5  # a message's rows of components


class TakeBackPresses(Protocol):
    """What the take-back's components ask of the take-back feature."""

    async def ask(self, interaction: discord.Interaction, table_id: int,
                  ply: int | None) -> None: ...

    async def answer(self, interaction: discord.Interaction, table_id: int, ply: int,
                     accept: bool) -> None: ...


STYLES = {"ask": discord.ButtonStyle.secondary, "yes": discord.ButtonStyle.success,
          "no": discord.ButtonStyle.danger}
EMOJIS = {"ask": "↩️", "yes": "✅", "no": "✖️"}


class TakeBackButton(
    Rebuilt, ui.DynamicItem[ui.Button],
    template=r"tb:(?P<act>ask|yes|no):(?P<table>\d+):(?P<ply>\d+)",
):
    def __init__(self, act: str, table_id: int, ply: int, *, label: str = "",
                 row: int | None = None) -> None:
        super().__init__(
            ui.Button(label=label or None, style=STYLES[act], emoji=EMOJIS[act],
                      custom_id=f"tb:{act}:{table_id}:{ply}"),
            row=row,
        )
        self.act, self.table_id, self.ply = act, table_id, ply

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        presses = handler(interaction, TakeBackPresses)
        if self.act == "ask":
            await presses.ask(interaction, self.table_id, self.ply)
        else:
            await presses.answer(interaction, self.table_id, self.ply, self.act == "yes")


def row_of(item: Item) -> int | None:
    """The row an item (or the component a DynamicItem wraps) was placed on."""
    row = getattr(item, "row", None)
    return row if row is not None else getattr(getattr(item, "item", None), "row", None)


def board_items(table: Table, locale: object, items: list[Item]) -> list[Item]:
    """A "Take back" button for a board whose last entry is a move that may be taken back
    (it answers only the player who made it), on the row after `items`; none when the
    board's rows are all taken."""
    try:
        open_request(table)
    except TableError:
        return []
    row = max((r for r in map(row_of, items) if r is not None), default=-1) + 1
    if row >= MAX_ROWS:
        return []
    return [TakeBackButton("ask", table.id, table.ply, label=t(locale, "Take back"), row=row)]


def request_items(table_id: int, ply: int, locale: object) -> list[Item]:
    """Accept and Decline under a request."""
    return [TakeBackButton("yes", table_id, ply, label=t(locale, "Accept")),
            TakeBackButton("no", table_id, ply, label=t(locale, "Decline"))]


TAKEBACK_ITEMS: tuple[type[ui.DynamicItem[ui.Item[ui.View]]], ...] = (TakeBackButton,)
