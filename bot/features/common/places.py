"""The channels and threads the bot posts in: found in the cache or over REST, their
language, and whether the bot may do something there."""

from __future__ import annotations

import logging

import discord

from bot.features.common.locales import ServerLanguages
from bot.health import Health, discord_failing

log = logging.getLogger(__name__)

# Where tables are played and lobbies posted: a server's text channel or one of its threads.
Place = discord.TextChannel | discord.Thread


class Places:
    def __init__(self, client: discord.Client, languages: ServerLanguages,
                 discord_health: Health) -> None:
        self.client = client
        self.languages = languages
        self.discord_health = discord_health

    async def fetch(self, place_id: int) -> Place:
        """The place from the cache, else over REST; raises NotFound, Forbidden (gone for
        us) or HTTPException (Discord failing)."""
        channel = self.client.get_channel(place_id) or await self.client.fetch_channel(place_id)
        await self.languages.ensure(guild_id_of(channel))
        return channel  # type: ignore[return-value]  # the bot only stores such places

    async def channel(self, place_id: int) -> Place | None:
        """The place, or None when it is gone or Discord is failing (try again later)."""
        try:
            return await self.fetch(place_id)
        except (discord.NotFound, discord.Forbidden):
            return None  # deleted, or hidden from us
        except discord.HTTPException as err:  # Discord is failing: try again later
            if discord_failing(err):
                self.discord_health.failed(err)  # warned once per outage
            log.info("place %s could not be fetched (%s)", place_id, err)
            return None

    def locale_of(self, channel: object) -> object:
        """The language of messages in `channel` (fetch it with `channel()` first)."""
        guild = getattr(channel, "guild", None)
        # a server outside this process's cache is an "unavailable" stub saying en-US
        known = None if getattr(guild, "unavailable", False) else getattr(
            guild, "preferred_locale", None)
        return self.languages.channel_locale(getattr(guild, "id", None), known)

    @staticmethod
    def can(channel: object, permission: str) -> bool:
        guild = getattr(channel, "guild", None)
        me = getattr(guild, "me", None)  # None for a server another process serves
        permissions_for = getattr(channel, "permissions_for", None)
        if me is None or permissions_for is None:
            return True  # unknown: try, and a 403 is handled where the post fails
        return bool(getattr(permissions_for(me), permission))


def guild_id_of(channel: object) -> int | None:
    return getattr(getattr(channel, "guild", None), "id", None)
