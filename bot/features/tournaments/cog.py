"""/tournament: create (one subcommand per game, its options typed like /play), standings,
list, cancel, drop, computer and start. Thin: tournament.py does the work."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.features.common.commands import Callback, GroupCog, SlashOption, with_options
from bot.features.common.services import Services
from bot.features.lobby.cog import game_options
from bot.features.settings.settings import DEADLINE_CHOICES
from bot.features.tournaments.tournament import FORMAT_NAMES, TournamentUI
from bot.i18n import N_
from bot.tables.computers import LEVELS
from bot.tournaments.pairing import FORMATS
from bot.tournaments.service import MAX_PLAYERS, MAX_ROUNDS, formats_for
from engines import game_ids

CREATE_HELP = N_("Create a tournament of this game here (Manage Server or the organiser "
                 "role)")
# The tournament's own options of /tournament create <game>; the game's options follow.
TOURNAMENT_OPTIONS = (
    SlashOption("format", str,
                N_("Swiss, round robin, single elimination or multi-table rounds")),
    SlashOption("start", str | None, N_("When it starts: a Discord timestamp, minutes from now "
                                        "(30, 2h) or a date (UTC)"), None),
    SlashOption("seats", app_commands.Range[int, 2, MAX_PLAYERS],
                N_("The most players who may sign up"), 16),
    SlashOption("deadline", int | None,
                N_("Time per move at its tables (default: the server's settings)"), None),
    SlashOption("round_count", app_commands.Range[int, 1, MAX_ROUNDS] | None,
                N_("Rounds (Swiss and multi-table; default: enough for a clear winner)"), None),
    SlashOption("check_in", bool, N_("Players must check in before the start"), False),
)
ID_HELP = N_("The tournament's number (#)")


def create_callback(ui: TournamentUI, game: str) -> Callback:
    """A callback whose signature lists the tournament's options, then the game's."""
    formats = formats_for(game)

    # discord.py passes every option by name: TOURNAMENT_OPTIONS', then the game's (`values`)
    async def create(interaction: discord.Interaction, *, format: str, start: str | None,
                     seats: int, deadline: int | None, round_count: int | None,
                     check_in: bool, **values: object) -> None:
        chosen = {k: v for k, v in values.items() if v is not None}
        await ui.create(interaction, game, format, chosen, start, seats, deadline, round_count,
                        bool(check_in))

    create = with_options(create, game, [*TOURNAMENT_OPTIONS, *game_options(game)])
    return app_commands.choices(  # type: ignore[misc]  # int and str choices: see settings/cog.py
        deadline=DEADLINE_CHOICES,
        format=[app_commands.Choice(name=locale_str(FORMAT_NAMES[f]), value=f)
                for f in FORMATS if f in formats])(create)


def tournament_group(ui: TournamentUI) -> app_commands.Group:
    group = app_commands.Group(name="tournament", description=locale_str(
        N_("Tournaments on this server")), guild_only=True)
    create = app_commands.Group(name="create", description=locale_str(
        N_("Create a tournament (Manage Server or the organiser role)")), parent=group)
    for game in game_ids():
        create.add_command(app_commands.Command(
            name=game, description=locale_str(CREATE_HELP),
            callback=create_callback(ui, game), parent=create))

    @group.command(name="standings", description=locale_str(
        N_("The standings of a tournament (default: the latest)")))
    @app_commands.describe(tournament=locale_str(ID_HELP))
    async def standings(interaction: discord.Interaction,
                        tournament: int | None = None) -> None:
        await ui.standings(interaction, tournament)

    @group.command(name="list", description=locale_str(
        N_("The tournaments open or running on this server")))
    async def listing(interaction: discord.Interaction) -> None:
        await ui.listing(interaction)

    @group.command(name="cancel", description=locale_str(N_("Cancel a tournament (organisers)")))
    @app_commands.describe(tournament=locale_str(ID_HELP))
    async def cancel(interaction: discord.Interaction, tournament: int) -> None:
        await ui.organise(interaction, tournament, "cancel")

    @group.command(name="start", description=locale_str(
        N_("Start a tournament now instead of at its start time (organisers)")))
    @app_commands.describe(tournament=locale_str(ID_HELP))
    async def start(interaction: discord.Interaction, tournament: int) -> None:
        await ui.organise(interaction, tournament, "start")

    @group.command(name="drop", description=locale_str(
        N_("Drop a player: their games are forfeited (organisers)")))
    @app_commands.describe(tournament=locale_str(ID_HELP),
                           member=locale_str(N_("The player to drop")))
    async def drop(interaction: discord.Interaction, tournament: int,
                   member: discord.Member) -> None:
        await ui.organise(interaction, tournament, "drop", member=member)

    @group.command(name="computer", description=locale_str(
        N_("Sign up a computer player to fill a seat (organisers)")))
    @app_commands.describe(tournament=locale_str(ID_HELP),
                           level=locale_str(N_("How strong it plays")))
    async def computer(interaction: discord.Interaction, tournament: int,
                       level: Literal[LEVELS] = "normal") -> None:  # type: ignore[valid-type]
        await ui.organise(interaction, tournament, "computer", level=level)

    return group


class TournamentCog(GroupCog):
    def __init__(self, services: Services, tree: app_commands.CommandTree,
                 ui: TournamentUI) -> None:
        super().__init__(services, tree, tournament_group(ui))
