"""Computer players in the Discord layer: lobby buttons, names, the pause, /hint."""

from __future__ import annotations

import asyncio
import logging
import os
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.i18n import N_, t
from bot.i18n.grammar import option_label
from bot.tables import MoveResult, Table, TableError
from bot.tables.computers import LEVELS, computer_level
from bot.ui.components import LobbyButton
from bot.ui.errors import table_error_text
from bot.ui.labels import describe

if TYPE_CHECKING:
    from bot.ui.controller import Controller

log = logging.getLogger(__name__)

LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
DEFAULT_DELAY = 1.5


def computer_delay() -> float:
    """Seconds to wait before posting computer moves: $BOT_COMPUTER_DELAY, default 1.5."""
    try:
        return max(0.0, float(os.environ.get("BOT_COMPUTER_DELAY", DEFAULT_DELAY)))
    except ValueError:
        return DEFAULT_DELAY


def computer_label(locale: object, level: str) -> str:
    return t(locale, "Computer ({level})", level=t(locale, LEVEL_NAMES.get(level, level)))


def player_name(locale: object, user_id: int, name: str) -> str:
    """A leaderboard or results name: computers by level, members by their name."""
    level = computer_level(user_id)
    return "🤖 " + computer_label(locale, level) if level is not None else name


def computer_items(table: Table, locale: object) -> list[ui.Item[Any]]:
    """Add computer (one button per level) and Remove computer; the host's to press."""
    items: list[ui.Item[Any]] = []
    if len(table.seats) < table.engine.max_players:
        for level in LEVELS:
            items.append(LobbyButton(table.id, f"cpu{level}", emoji="🤖", label=t(
                locale, "Add computer ({level})", level=t(locale, LEVEL_NAMES[level]))))
    if table.computer_seats():
        items.append(LobbyButton(table.id, "cpuremove", label=t(locale, "Remove computer")))
    return items


async def lobby_computer(service: Any, table_id: int, user_id: int, action: str) -> Table:
    """A lobby's computer button: `cpu<level>` adds one, `cpuremove` removes the last."""
    if action == "cpuremove":
        return await service.remove_computer(table_id, user_id)
    table = await service.get(table_id)
    side = None
    eng = table.engine
    if eng.min_players == eng.max_players and any(s.side is not None for s in table.seats):
        free = [side for side in range(eng.max_players)
                if all(s.side != side for s in table.seats)]
        side = free[0] if free else None
    return await service.add_computer(table_id, user_id, action[3:], side=side)


async def pause_for_computers(result: MoveResult) -> None:
    """A short pause before a board that shows computer moves, so they read as answers."""
    seats = result.table.computer_seats()
    if any(step.auto and step.actor in seats for step in result.steps):
        delay = computer_delay()
        if delay > 0:
            await asyncio.sleep(delay)


async def hint(controller: Controller, interaction: discord.Interaction) -> None:
    """/hint: the hard computer player's move for the caller's seat, privately."""
    loc = interaction.locale
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = controller.service
    table = await service.active_in_channel(interaction.channel_id)
    if table is None or table.status != "running":
        await controller.tell(interaction, t(loc, "No game is being played here."))
        return
    try:
        move = await service.hint(table.id, interaction.user.id)
    except TableError as err:
        if err.code == "no_hints":
            await controller.tell(interaction, t(
                loc, "Sorry, hints are off at this table. The host can allow them when "
                "opening a table: {/play} with the option {option}.",
                option=option_label(loc, "hints")))
        else:
            await controller.tell(interaction, table_error_text(err, loc))
        return
    seat = table.seat_of(interaction.user.id)
    label = describe(table.engine, table.state, seat, move, loc)
    await controller.tell(interaction, t(loc, "Hint: {move} (`{code}`)", move=label, code=move))
