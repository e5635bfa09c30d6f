"""/history, /replay and /export."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands

from bot.features.common.commands import CogT, FeatureCog, Method, P, member_command, slash
from bot.features.common.components import handler
from bot.features.common.faults import cooldown
from bot.features.common.services import Services
from bot.features.history import history
from bot.i18n import N_

TABLE_HELP = N_("The table number (shown in the game history)")
TABLE_NUMBER = app_commands.Range[int, 1, 2**53]  # bounded before anything parses it
HEAVY_COOLDOWN = (2, 60.0)  # replays and exports per member per minute (queue bounded too)


async def finished_table_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Autocomplete of a `table` option: the caller's recent finished tables here."""
    return await history.table_choices(handler(interaction, Services), interaction, current)


def table_command(
    name: str, description: str
) -> Callable[[Method[CogT, P]], app_commands.Command[CogT, P, None]]:
    """A command about one finished table of this server, given by its number (`table`)."""

    def declare(callback: Method[CogT, P]) -> app_commands.Command[CogT, P, None]:
        callback = app_commands.autocomplete(table=finished_table_choices)(callback)
        return slash(name, description, table=TABLE_HELP)(callback)

    return declare


class HistoryCog(FeatureCog):
    def __init__(self, services: Services) -> None:
        super().__init__(services)
        # a new list: the cog's copy of a command shares the class's (a second bot in the
        # process, as after a restart in tests, would also count this one's uses)
        self.replay.checks = [*self.replay.checks, cooldown(*HEAVY_COOLDOWN)]
        self.export.checks = [*self.export.checks, cooldown(*HEAVY_COOLDOWN)]

    history = member_command("history", N_("Recently finished games on this server"),
                             N_("Only the games of this player"), history.show_history)

    @table_command("replay", N_("Watch a finished game again as an animation"))
    async def replay(self, interaction: discord.Interaction, table: TABLE_NUMBER) -> None:
        await history.send_replay(self.services, interaction, table)

    @table_command("export", N_("Download a finished game (options and every move) as JSON"))
    async def export(self, interaction: discord.Interaction, table: TABLE_NUMBER) -> None:
        await history.send_export(self.services, interaction, table)
