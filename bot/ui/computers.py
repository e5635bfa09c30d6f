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
from bot.tables import Table, TableError
from bot.tables.computers import LEVELS, computer_level
from bot.tables.pipeline import auto_turn
from bot.ui.components import LobbyButton
from bot.ui.errors import table_error_text
from bot.ui.faults import defer
from bot.ui.labels import describe

if TYPE_CHECKING:
    from bot.client import TableBot
    from bot.ui.controller import Controller

log = logging.getLogger(__name__)

LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
DEFAULT_DELAY = 1.5
MAX_RETHINKS = 5  # a computer's move discarded because someone moved first: think again


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


class ComputerRunner:
    """Plays the computer's moves of running tables, one step (and one board) at a time.

    After a board is posted, `poke(table)` starts a task for that table if a computer (or a
    seat taken over) must act. The task thinks in the search workers while the pause
    (`BOT_COMPUTER_DELAY`) runs, so the move reads as an answer, then commits it only if
    nobody moved meanwhile and posts its board with `channel.send` (no interaction to post
    through). If the process dies, the seat's timer (a short grace) lets any process move it.
    """

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def poke(self, table: Table) -> None:
        if auto_turn(table) is None:
            return
        task = self._tasks.get(table.id)
        if task is None or task.done():
            self._tasks[table.id] = asyncio.create_task(self._run(table.id),
                                                        name=f"computer-{table.id}")

    async def _run(self, table_id: int) -> None:
        service, publisher = self.bot.service, self.bot.ui.publisher
        try:
            for _ in range(MAX_RETHINKS):
                pause = asyncio.sleep(computer_delay())
                result, _ = await asyncio.gather(service.computer_step(table_id), pause)
                if result is not None:
                    self._tasks.pop(table_id, None)
                    await publisher.publish(result)  # pokes us again for the next move
                    return
                if auto_turn(await service.get(table_id)) is None:
                    return  # a member's turn now, or the end
        except Exception:
            log.exception("table %s: the computer's move failed", table_id)
        finally:
            if self._tasks.get(table_id) is asyncio.current_task():
                self._tasks.pop(table_id, None)

    async def stop(self) -> None:
        tasks, self._tasks = list(self._tasks.values()), {}
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def hint(controller: Controller, interaction: discord.Interaction) -> None:
    """/hint: the hard computer player's move for the caller's seat, privately."""
    loc = interaction.locale
    await defer(interaction, ephemeral=True, thinking=True)
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
