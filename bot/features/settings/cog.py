"""/settings (Manage Server): a server's defaults for its tables."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.features.common.commands import FeatureCog, slash
from bot.features.settings import settings as ui
from bot.i18n import N_
from bot.tables.settings import setting_changes

# Option help: the defaults of the server's tables, then who may do what.
DEFAULTS_HELP = {
    "deadline": N_("Default time per move"),
    "absence": N_("What happens when a player keeps missing turns"),
    "max_misses": N_("Missed turns in a row before that happens"),
    "channel": N_("Play each table in a new thread, or in the channel itself"),
    "language": N_("Language of the bot's messages in channels"),
    "max_tables": N_("Most tables open at once on this server (default 50)"),
    "lobby_minutes": N_("Minutes a lobby waits to be started before it closes (default 30)"),
    "season": N_("Leaderboard seasons; the season's end is posted in this channel"),
    "result_lines": N_("When a game played in a thread ends, post its result in the channel "
                       "(default on)"),
    "puzzle_channel": N_("Post a daily puzzle in this channel"),
    "clear_puzzle_channel": N_("Stop the daily puzzle"),
    "time_zone": N_("The server's time zone, such as Asia/Tokyo: the daily puzzle comes after "
                    "its midnight (default UTC)"),
}
ROLE_HELP = {
    "cancel_role": N_("A role whose members may cancel any table"),
    "clear_cancel_role": N_("Remove the cancel role"),
    "organiser_role": N_("A role whose members may run tournaments"),
    "clear_organiser_role": N_("Remove the organiser role"),
}


class SettingsCog(FeatureCog):
    @slash("settings", N_("Show or change this server's settings for game tables"),
           **DEFAULTS_HELP, **ROLE_HELP)  # type: ignore[arg-type]  # option help, not guild_only
    # int and str choices together: discord.py's hints want one value type for all of them
    @app_commands.choices(deadline=ui.DEADLINE_CHOICES, absence=ui.ABSENCE_CHOICES,  # type: ignore[misc]
                          channel=ui.POLICY_CHOICES, language=ui.LANGUAGE_CHOICES,
                          season=ui.SEASON_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
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
        result_lines: bool | None = None,
        puzzle_channel: discord.TextChannel | None = None,
        clear_puzzle_channel: bool | None = None,
        time_zone: str | None = None,
    ) -> None:
        # a role or channel chosen, or cleared
        ids = {"cancel_role_id": (cancel_role, clear_cancel_role),
               "organiser_role_id": (organiser_role, clear_organiser_role),
               "puzzle_channel_id": (puzzle_channel, clear_puzzle_channel)}
        changes = setting_changes({
            "deadline_seconds": deadline, "absence_rule": absence, "max_misses": max_misses,
            "channel_policy": channel, "language": language, "max_tables": max_tables,
            "lobby_minutes": lobby_minutes, "season": season, "result_lines": result_lines,
            "time_zone": time_zone.strip() if time_zone is not None else None,
            # the season's end is posted where it was chosen
            "season_channel_id": interaction.channel_id if season is not None else None,
            **{name: chosen.id for name, (chosen, _) in ids.items() if chosen is not None},
        }, cleared=[name for name, (chosen, clear) in ids.items() if chosen is None and clear])
        await ui.settings_command(self.services, interaction, changes)

    @settings.autocomplete("time_zone")
    async def time_zone_autocomplete(self, interaction: discord.Interaction,
                                     current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=zone, value=zone) for zone in ui.zone_choices(current)]
