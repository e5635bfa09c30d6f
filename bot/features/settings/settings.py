"""/settings: show and change a server's defaults (turn deadline, absent players, where
tables are played, language, who may cancel tables). Labels shared with /play and the lobby."""

from __future__ import annotations

import functools
import zoneinfo

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.features.common.badges import COLOUR
from bot.features.common.errors import table_error_text
from bot.features.common.faults import defer
from bot.features.common.services import Services
from bot.i18n import LANGUAGES, N_, t, t_plain, tn
from bot.tables import PRESETS, GuildSettings, SettingChanges, TableError

DEADLINE_LABELS: dict[int, str] = {
    60: N_("1 minute"),
    300: N_("5 minutes"),
    900: N_("15 minutes"),
    3600: N_("1 hour"),
    21600: N_("6 hours"),
    43200: N_("12 hours"),
    86400: N_("24 hours"),
    172800: N_("48 hours"),
}
ABSENCE_LABELS: dict[str, str] = {
    "takeover": N_("the computer takes over"),
    "forfeit": N_("the player forfeits"),
}
POLICY_LABELS: dict[str, str] = {
    "thread": N_("a new thread for each table"),
    "channel": N_("in the channel itself"),
}
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ja": "日本語"}

DEADLINE_CHOICES = [app_commands.Choice(name=locale_str(DEADLINE_LABELS[s]), value=s)
                    for s in PRESETS]
ABSENCE_CHOICES = [app_commands.Choice(name=locale_str(label), value=rule)
                   for rule, label in ABSENCE_LABELS.items()]
POLICY_CHOICES = [app_commands.Choice(name=locale_str(label), value=policy)
                  for policy, label in POLICY_LABELS.items()]
LANGUAGE_CHOICE_NAMES: dict[str, str] = {"en": "English", "ja": "日本語 (Japanese)"}
LANGUAGE_CHOICES = [app_commands.Choice(name=locale_str(LANGUAGE_CHOICE_NAMES[lang]), value=lang)
                    for lang in LANGUAGES]

# Offered first by /settings time_zone's autocomplete (any IANA name is accepted).
COMMON_ZONES: tuple[str, ...] = (
    "UTC", "Asia/Tokyo", "Asia/Seoul", "Asia/Shanghai", "Asia/Singapore", "Asia/Kolkata",
    "Australia/Sydney", "Pacific/Auckland", "Europe/London", "Europe/Paris", "Europe/Berlin",
    "Europe/Moscow", "Africa/Cairo", "Africa/Johannesburg", "America/Sao_Paulo",
    "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
    "America/Anchorage", "Pacific/Honolulu",
)


def zone_choices(current: str, limit: int = 25) -> list[str]:
    """Time zones for the autocomplete: the common ones, or those whose name holds what was
    typed (common ones first)."""
    needle = current.strip().lower().replace(" ", "_")
    if not needle:
        return list(COMMON_ZONES[:limit])
    known = sorted(available_zones())
    found = [z for z in COMMON_ZONES if needle in z.lower()]
    found += [z for z in known if needle in z.lower() and z not in found]
    return found[:limit]


@functools.cache
def available_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


BAD_SETTING = N_("Sorry, that setting can't be used: {reason}")


def deadline_label(locale: object, seconds: int) -> str:
    label = DEADLINE_LABELS.get(seconds)
    if label is not None:
        return t(locale, label)
    return minutes_text(locale, round(seconds / 60))


def minutes_text(locale: object, minutes: int) -> str:
    """'1 minute', '30 minutes'."""
    return tn(locale, "{minutes} minute", "{minutes} minutes", minutes, minutes=minutes)


def absence_label(locale: object, rule: str) -> str:
    return t(locale, ABSENCE_LABELS[rule]) if rule in ABSENCE_LABELS else rule


def rules_line(locale: object, seconds: int, rule: str, misses: int) -> str:
    """'24 hours per move · after 3 missed turns in a row: the computer takes over'."""
    return tn(locale, "{deadline} per move · after {misses} missed turn: {rule}",
              "{deadline} per move · after {misses} missed turns in a row: {rule}", misses,
              deadline=deadline_label(locale, seconds), misses=misses,
              rule=absence_label(locale, rule))


SEASON_LABELS = {"none": N_("no seasons"), "month": N_("monthly"), "quarter": N_("quarterly")}
SEASON_CHOICES = [app_commands.Choice(name=locale_str(label), value=kind)
                  for kind, label in SEASON_LABELS.items()]


def season_label(locale: object, settings: GuildSettings) -> str:
    label = t(locale, SEASON_LABELS.get(settings.season, settings.season))
    if settings.season != "none" and settings.season_channel_id is not None:
        channel = "<#" + str(settings.season_channel_id) + ">"
        label = t(locale, "{seasons}, announced in {channel}", seasons=label, channel=channel)
    return label


def settings_embed(settings: GuildSettings, locale: object, language: str) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "Settings of this server"), colour=COLOUR)
    role = (f"<@&{settings.cancel_role_id}>" if settings.cancel_role_id is not None
            else t(locale, "none (Manage Messages only)"))
    organisers = (f"<@&{settings.organiser_role_id}>" if settings.organiser_role_id is not None
                  else t(locale, "none (Manage Server only)"))
    rows = [
        (t(locale, "Time per move"), deadline_label(locale, settings.deadline_seconds)),
        (t(locale, "When a player misses turns"), absence_label(locale, settings.absence_rule)),
        (t(locale, "Missed turns in a row before that"), str(settings.max_misses)),
        (t(locale, "Where tables are played"),
         t(locale, POLICY_LABELS.get(settings.channel_policy, settings.channel_policy))),
        (t(locale, "Language of the bot's messages"), LANGUAGE_NAMES.get(language, language)),
        (t(locale, "Role that may cancel any table"), role),
        (t(locale, "Tables open at once, at most"), str(settings.max_tables)),
        (t(locale, "A lobby not started closes after"),
         minutes_text(locale, settings.lobby_minutes)),
        (t(locale, "Role that may run tournaments"), organisers),
        (t(locale, "Leaderboard seasons"), season_label(locale, settings)),
        (t(locale, "Results of games in threads"),
         t(locale, "posted in the channel") if settings.result_lines
         else t(locale, "only in the thread and on the lobby")),
        (t(locale, "Daily puzzle"),
         f"<#{settings.puzzle_channel_id}>" if settings.puzzle_channel_id is not None
         else t(locale, "off")),
        (t(locale, "Time zone"), settings.time_zone),
    ]
    for name, value in rows:
        embed.add_field(name=name, value=value, inline=False)
    embed.set_footer(text=t_plain(locale, "Change them with the options of {/settings}. "
                                  "Tables already open keep their rules."))
    return embed


def _guild_language(guild: discord.Guild) -> str:
    """Discord's guild locale as one of our languages (for a server's first settings)."""
    text = str(getattr(getattr(guild, "preferred_locale", None), "value", "") or "")
    language = text.split("-")[0].lower()
    return language if language in LANGUAGES else "en"


async def settings_command(
    services: Services, interaction: discord.Interaction, changes: SettingChanges
) -> None:
    """/settings: without options show them, else change them (Manage Server only)."""
    loc = interaction.locale
    guild = interaction.guild
    if guild is None:
        await interaction.response.send_message(
            t(loc, "Settings belong to a server: use {/settings} in one."), ephemeral=True)
        return
    perms = interaction.permissions
    if not (perms.manage_guild or perms.administrator):
        await interaction.response.send_message(
            t(loc, "Only members with the Manage Server permission can use {/settings}."),
            ephemeral=True)
        return
    await defer(interaction, ephemeral=True, thinking=True)
    service, languages = services.tables, services.languages
    try:
        if changes:
            chosen = await service.settings.chosen_language(guild.id)
            if chosen is None and "language" not in changes:
                # a server's first settings keep the language it already had
                changes = {**changes, "language": _guild_language(guild)}
            settings = await service.settings.update(guild.id, **changes)
            languages.remember(settings)
        else:
            settings = await service.settings.get(guild.id)
            await languages.ensure(guild.id)
    except TableError as err:
        if err.code == "bad_setting":
            text = t(loc, BAD_SETTING, reason=(err.params or {}).get("reason", ""))
        else:
            text = table_error_text(err, loc)
        await interaction.followup.send(text, ephemeral=True)
        return
    language = languages.get(guild.id) or _guild_language(guild)
    embed = settings_embed(settings, loc, language)
    content = t(loc, "Saved.") if changes else None
    # content None sends no text: discord.py accepts it, though its hints say str
    await interaction.followup.send(content=content, embed=embed,  # type: ignore[arg-type]
                                    ephemeral=True)
