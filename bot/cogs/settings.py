"""/settings (Manage Server): a server's defaults for its tables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.i18n import N_
from bot.ui import settings as ui

if TYPE_CHECKING:
    from bot.client import TableBot


class SettingsCog(commands.Cog):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description=locale_str(
        N_("Show or change this server's settings for game tables")))
    @app_commands.describe(
        deadline=locale_str(N_("Default time per move")),
        absence=locale_str(N_("What happens when a player keeps missing turns")),
        max_misses=locale_str(N_("Missed turns in a row before that happens")),
        channel=locale_str(N_("Play each table in a new thread, or in the channel itself")),
        language=locale_str(N_("Language of the bot's messages in channels")),
        cancel_role=locale_str(N_("A role whose members may cancel any table")),
        clear_cancel_role=locale_str(N_("Remove the cancel role")),
        max_tables=locale_str(N_("Most tables open at once on this server (default 50)")),
        lobby_minutes=locale_str(N_("Minutes a lobby waits to be started before it closes "
                                    "(default 30)")),
        organiser_role=locale_str(N_("A role whose members may run tournaments")),
        clear_organiser_role=locale_str(N_("Remove the organiser role")),
        season=locale_str(N_("Leaderboard seasons; the season's end is posted in this "
                             "channel")),
    )
    @app_commands.choices(deadline=ui.DEADLINE_CHOICES, absence=ui.ABSENCE_CHOICES,
                          channel=ui.POLICY_CHOICES, language=ui.LANGUAGE_CHOICES,
                          season=ui.SEASON_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self, interaction: discord.Interaction,
        deadline: int | None = None,
        absence: str | None = None,
        max_misses: app_commands.Range[int, 1, 10] | None = None,
        channel: str | None = None,
        language: str | None = None,
        cancel_role: discord.Role | None = None,
        clear_cancel_role: bool | None = None,
        max_tables: app_commands.Range[int, 1, 500] | None = None,
        lobby_minutes: app_commands.Range[int, 5, 1440] | None = None,
        organiser_role: discord.Role | None = None,
        clear_organiser_role: bool | None = None,
        season: str | None = None,
    ) -> None:
        values = {"deadline_seconds": deadline, "absence_rule": absence,
                  "max_misses": max_misses, "channel_policy": channel, "language": language,
                  "max_tables": max_tables, "lobby_minutes": lobby_minutes, "season": season}
        changes: dict[str, Any] = {k: v for k, v in values.items() if v is not None}
        for name, role, clear in (("cancel_role_id", cancel_role, clear_cancel_role),
                                  ("organiser_role_id", organiser_role, clear_organiser_role)):
            if role is not None:
                changes[name] = role.id
            elif clear:
                changes[name] = None
        if season is not None:  # the season's end is posted where it was chosen
            changes["season_channel_id"] = interaction.channel_id
        await ui.settings_command(self.bot, interaction, changes)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(SettingsCog(bot))
