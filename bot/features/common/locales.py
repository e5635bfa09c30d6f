"""Which language a message is written in.

Ephemeral replies and DMs use the user's Discord locale (`interaction.locale`). Messages
everyone in a channel reads use the server's language: the `language` of /settings once the
server has stored settings, else Discord's guild locale. `ServerLanguages.channel_locale` is
the one place that decides it; it reads a cache that `ensure` fills (one database read per
server and process) and /settings updates.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.tables import GuildSettings


class ServerLanguages:
    """guild id -> the /settings language (None: the server chose none)."""

    def __init__(self, client: discord.Client,
                 chosen_language: Callable[[int], Awaitable[str | None]]) -> None:
        self.client = client
        self._chosen_language = chosen_language
        self._known: dict[int, str | None] = {}
        # Discord's locale of servers outside this process's cache (another shard's server,
        # reached through a DM pick or a deadline): read once over REST.
        self._remote: dict[int, object] = {}

    async def ensure(self, guild_id: int | None) -> None:
        """Read the server's /settings language into the cache (before `channel_locale`)."""
        if guild_id is None or guild_id in self._known:
            return
        self._known[guild_id] = await self._chosen_language(guild_id)
        cached = self.client.get_guild(guild_id)
        if self._known[guild_id] is None and (cached is None or cached.unavailable):
            try:
                self._remote[guild_id] = (
                    await self.client.fetch_guild(guild_id)).preferred_locale
            except Exception:  # unknown: English, as before
                self._remote[guild_id] = None

    def remember(self, settings: GuildSettings) -> None:
        self._known[settings.guild_id] = settings.language

    def get(self, guild_id: int | None) -> str | None:
        return None if guild_id is None else self._known.get(guild_id)

    def channel_locale(self, guild_id: int | None, discord_locale: object) -> object:
        """The language of messages posted in a server's channels: its /settings language
        when set, else `discord_locale` (the guild locale Discord reports, or the one read
        over REST for a server outside this process's cache)."""
        if discord_locale is None and guild_id is not None:
            discord_locale = self._remote.get(guild_id)
        return self.get(guild_id) or discord_locale

    def for_interaction(self, interaction: discord.Interaction) -> object:
        """`channel_locale` for a public reply to an interaction (call `ensure` first)."""
        return self.channel_locale(interaction.guild_id,
                                   interaction.guild_locale or interaction.locale)

    async def of_interaction(self, interaction: discord.Interaction) -> object:
        """`ensure`, then `for_interaction`."""
        await self.ensure(interaction.guild_id)
        return self.for_interaction(interaction)
