"""The puzzles' persistent components: `DynamicItem`s whose custom ids carry everything, so
a puzzle answers after a restart too.

Custom ids:
  pz:a:<attempt>:<i>      a choice button: the i-th legal move answers attempt <attempt>
  pz:s:<attempt>:<part>   a select of choices (values: their indexes) when there are > 25
  pz:n:<game>             "Next puzzle" (<game>: a game id, or * for any game)
  pz:d:<day>              the daily post's "Solve": that day's puzzle, privately
Presses go to the `PuzzlePresses` handler the bot routed (common/components.py).
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord import ui

from bot.features.common.components import Rebuilt, handler
from bot.features.common.faults import guarded

ANY_GAME = "*"


class PuzzlePresses(Protocol):
    """What the puzzles' components ask of the puzzle feature."""

    async def answer(self, interaction: discord.Interaction, attempt_id: int,
                     index: int) -> None: ...

    async def next_puzzle(self, interaction: discord.Interaction, game: str | None) -> None: ...

    async def solve_daily(self, interaction: discord.Interaction, day: str) -> None: ...


class ChoiceButton(
    Rebuilt, ui.DynamicItem[ui.Button], template=r"pz:a:(?P<attempt>\d+):(?P<index>\d+)",
):
    custom_id_numbers = frozenset({"attempt", "index"})

    def __init__(self, attempt_id: int, index: int, *, label: str = "",
                 emoji: str | None = None, row: int | None = None) -> None:
        super().__init__(ui.Button(label=label[:80] or str(index + 1), emoji=emoji,
                                   style=discord.ButtonStyle.primary,
                                   custom_id=f"pz:a:{attempt_id}:{index}"), row=row)
        self.attempt_id, self.index = attempt_id, index

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await handler(interaction, PuzzlePresses).answer(interaction, self.attempt_id,
                                                         self.index)


class ChoiceSelect(
    Rebuilt, ui.DynamicItem[ui.Select], template=r"pz:s:(?P<attempt>\d+):(?P<part>\d+)",
):
    custom_id_numbers = frozenset({"attempt", "part"})

    def __init__(self, attempt_id: int, part: int,
                 options: list[discord.SelectOption] | None = None, *,
                 placeholder: str | None = None, row: int | None = None) -> None:
        super().__init__(ui.Select(custom_id=f"pz:s:{attempt_id}:{part}", options=options or [],
                                   placeholder=placeholder, min_values=1, max_values=1),
                         row=row)
        self.attempt_id = attempt_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        index = int(value) if value.isdigit() else -1
        await handler(interaction, PuzzlePresses).answer(interaction, self.attempt_id, index)


class NextButton(Rebuilt, ui.DynamicItem[ui.Button], template=r"pz:n:(?P<game>[a-z0-9_*]{1,40})"):
    custom_id_numbers = frozenset()

    def __init__(self, game: str, *, label: str = "") -> None:
        super().__init__(ui.Button(label=label or None, emoji="🧩",
                                   style=discord.ButtonStyle.success,
                                   custom_id=f"pz:n:{game}"))
        self.game = game

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        game = None if self.game == ANY_GAME else self.game
        await handler(interaction, PuzzlePresses).next_puzzle(interaction, game)


class SolveButton(Rebuilt, ui.DynamicItem[ui.Button], template=r"pz:d:(?P<day>\d{4}-\d\d-\d\d)"):
    custom_id_numbers = frozenset()

    def __init__(self, day: str, *, label: str = "") -> None:
        super().__init__(ui.Button(label=label or None, emoji="🧩",
                                   style=discord.ButtonStyle.primary, custom_id=f"pz:d:{day}"))
        self.day = day

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await handler(interaction, PuzzlePresses).solve_daily(interaction, self.day)


PUZZLE_ITEMS: tuple[type[ui.DynamicItem[ui.Item[ui.View]]], ...] = (
    ChoiceButton, ChoiceSelect, NextButton, SolveButton)
