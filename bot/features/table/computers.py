"""Computer players at the table: their moves (after a short pause) and /hint."""

from __future__ import annotations

import asyncio
import logging
import os

import discord

from bot.features.common.errors import table_error_text
from bot.features.common.faults import defer
from bot.features.common.replies import tell
from bot.features.table.labels import describe
from bot.features.table.publish import Publisher
from bot.i18n import t
from bot.i18n.grammar import option_label
from bot.tables import Table, TableError, TableService
from bot.tables.pipeline import auto_turn

log = logging.getLogger(__name__)

DEFAULT_DELAY = 1.5
MAX_RETHINKS = 5  # a computer's move discarded because someone moved first: think again


def computer_delay() -> float:
    """Seconds to wait before posting computer moves: $BOT_COMPUTER_DELAY, default 1.5."""
    try:
        return max(0.0, float(os.environ.get("BOT_COMPUTER_DELAY", DEFAULT_DELAY)))
    except ValueError:
        return DEFAULT_DELAY


class ComputerRunner:
    """Plays the computer's moves of running tables, one step (and one board) at a time.

    After a board is posted, `poke(table)` starts a task for that table if a computer (or a
    seat taken over) must act. The task thinks in the search workers while the pause
    (`BOT_COMPUTER_DELAY`) runs, so the move reads as an answer, then commits it only if
    nobody moved meanwhile and posts its board with `channel.send` (no interaction to post
    through). If the process dies, the seat's timer (a short grace) lets any process move it.
    """

    def __init__(self, service: TableService, publisher: Publisher) -> None:
        self.service, self.publisher = service, publisher
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def poke(self, table: Table) -> None:
        if auto_turn(table) is None:
            return
        task = self._tasks.get(table.id)
        if task is None or task.done():
            self._tasks[table.id] = asyncio.create_task(self._run(table.id),
                                                        name=f"computer-{table.id}")

    async def _run(self, table_id: int) -> None:
        service, publisher = self.service, self.publisher
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


async def hint(service: TableService, interaction: discord.Interaction) -> None:
    """/hint: the hard computer player's move for the caller's seat, privately."""
    loc = interaction.locale
    await defer(interaction, ephemeral=True, thinking=True)
    assert interaction.channel_id is not None
    table = await service.active_in_channel(interaction.channel_id)
    if table is None or table.status != "running":
        await tell(interaction, t(loc, "No game is being played here."))
        return
    try:
        move = await service.hint(table.id, interaction.user.id)
    except TableError as err:
        if err.code == "no_hints":
            await tell(interaction, t(
                loc, "Sorry, hints are off at this table. The host can allow them when "
                "opening a table: {/play} with the option {option}.",
                option=option_label(loc, "hints")))
        else:
            await tell(interaction, table_error_text(err, loc))
        return
    seat = table.seat_of(interaction.user.id)
    assert seat is not None  # hints are for seated players (service.hint)
    label = describe(table.engine, table.state, seat, move, loc)
    await tell(interaction, t(loc, "Hint: {move} (`{code}`)", move=label, code=move))
