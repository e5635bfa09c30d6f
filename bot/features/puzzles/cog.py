"""/puzzle play [game] and /puzzle stats [member]. Thin: puzzles.py does the work."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.features.common.commands import GroupCog
from bot.features.common.services import Services
from bot.features.puzzles.puzzles import PuzzleDesk
from bot.features.puzzles.service import puzzle_games
from bot.i18n import N_
from engines import get_engine


def puzzle_group(desk: PuzzleDesk) -> app_commands.Group:
    """The group, its game choices read when the bot builds its commands (the games whose
    spec has puzzles then)."""
    group = app_commands.Group(name="puzzle", description=locale_str(
        N_("Puzzles from the games finished on this server")), guild_only=True)

    async def play(interaction: discord.Interaction, game: str | None = None) -> None:
        await desk.play(interaction, game)

    choices = [app_commands.Choice(name=locale_str(get_engine(game).info.name), value=game)
               for game in puzzle_games()]
    if choices:
        play = app_commands.choices(game=choices)(play)
    group.command(name="play", description=locale_str(
        N_("A puzzle for you alone: find the best move")))(app_commands.describe(
            game=locale_str(N_("One game (default: any game with puzzles)")))(play))

    @group.command(name="stats", description=locale_str(
        N_("A member's puzzle ratings, solved puzzles and streaks")))
    @app_commands.describe(member=locale_str(N_("The member (default: you)")))
    async def stats(interaction: discord.Interaction,
                    member: discord.Member | None = None) -> None:
        await desk.stats(interaction, member)

    return group


class PuzzleCog(GroupCog):
    def __init__(self, services: Services, tree: app_commands.CommandTree,
                 desk: PuzzleDesk) -> None:
        super().__init__(services, tree, puzzle_group(desk))
