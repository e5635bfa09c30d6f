"""Which language a message is written in.

Ephemeral replies and DMs use the user's Discord locale (`interaction.locale`). Messages
everyone in a channel reads use the server's language: the `language` of /settings once the
server has stored settings, else Discord's guild locale. `channel_locale` is the one place
that decides it; it reads a cache that `ensure_language` fills (one database read per server
and process) and /settings updates.
"""

from __future__ import annotations

from typing import Any

from bot.tables import GuildSettings


class ServerLanguages:
    """guild id -> the /settings language (None: the server never stored settings)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._known: dict[int, str | None] = {}
        # Discord's locale of servers outside this process's cache (another shard's server,
        # reached through a DM pick or a deadline): read once over REST.
        self._remote: dict[int, object] = {}

    async def load(self, guild_id: int | None) -> None:
        if guild_id is None or guild_id in self._known or self.bot.repo is None:
            return
        stored = await self.bot.repo.get_guild_settings(guild_id)
        self._known[guild_id] = stored.get("language") if stored else None
        cached = self.bot.get_guild(guild_id)
        if self._known[guild_id] is None and (cached is None or cached.unavailable):
            try:
                self._remote[guild_id] = (await self.bot.fetch_guild(guild_id)).preferred_locale
            except Exception:  # unknown: English, as before
                self._remote[guild_id] = None

    def discord_locale(self, guild_id: int | None) -> object:
        """Discord's locale of a server fetched over REST (not in this process's cache)."""
        return None if guild_id is None else self._remote.get(guild_id)

    def remember(self, settings: GuildSettings) -> None:
        self._known[settings.guild_id] = settings.language

    def get(self, guild_id: int | None) -> str | None:
        return None if guild_id is None else self._known.get(guild_id)


def _languages(bot: Any) -> ServerLanguages | None:
    return getattr(bot, "languages", None)


async def ensure_language(bot: Any, guild_id: int | None) -> None:
    """Read the server's /settings language into the cache (call before `channel_locale`)."""
    languages = _languages(bot)
    if languages is not None:
        await languages.load(guild_id)


def channel_locale(bot: Any, guild_id: int | None, discord_locale: object) -> object:
    """The language of messages posted in a server's channels: its /settings language when
    set, else `discord_locale` (the guild locale Discord reports)."""
    languages = _languages(bot)
    language = languages.get(guild_id) if languages is not None else None
    if discord_locale is None and languages is not None:
        discord_locale = languages.discord_locale(guild_id)
    return language or discord_locale


def interaction_channel_locale(interaction: Any) -> object:
    """`channel_locale` for a public reply to an interaction."""
    return channel_locale(interaction.client, interaction.guild_id,
                          interaction.guild_locale or interaction.locale)


async def defer_public(bot: Any, interaction: Any) -> tuple[object, int]:
    """Defer a public answer to a server command: (the channel's locale, the guild id)."""
    await ensure_language(bot, interaction.guild_id)
    loc = interaction_channel_locale(interaction)
    from bot.ui.faults import defer_publicly  # remembered: a failure then deletes it

    await defer_publicly(interaction)
    assert interaction.guild_id is not None  # the commands are guild-only
    return loc, interaction.guild_id
