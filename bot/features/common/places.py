"""The channels and threads the bot posts in: found in the cache or over REST, their
language, and whether the bot may do something there; and the members' DM channels."""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TypedDict, Unpack

import discord

from bot.features.common.locales import ServerLanguages
from bot.health import Health, discord_failing

log = logging.getLogger(__name__)

# Where tables are played and lobbies posted: a server's text channel or one of its threads.
Place = discord.TextChannel | discord.Thread
# Members whose DM channel id is remembered (an int each; discord.py keeps only 128 channels).
DM_CHANNELS_KEPT = 20_000


class Places:
    def __init__(self, client: discord.Client, languages: ServerLanguages,
                 discord_health: Health) -> None:
        self.client = client
        self.languages = languages
        self.discord_health = discord_health
        self._dms: OrderedDict[int, int] = OrderedDict()  # user id -> DM channel id, LRU

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

    async def direct(self, user_id: int) -> discord.abc.Messageable:
        """The DM channel with a member: one REST call the first time (opening it), none
        after that (a DM channel's id never changes). Raises HTTPException."""
        channel_id = self._dms.get(user_id)
        if channel_id is not None:
            self._dms.move_to_end(user_id)
            return self.client.get_partial_messageable(channel_id,
                                                       type=discord.ChannelType.private)
        channel = await self.client.create_dm(discord.Object(user_id))
        self._dms[user_id] = channel.id
        if len(self._dms) > DM_CHANNELS_KEPT:
            self._dms.popitem(last=False)
        return channel

    async def send_direct(self, user_id: int, **message: Unpack[DirectMessage]
                          ) -> discord.Message:
        """Send `message` (`send`'s arguments) by DM to a member. Raises HTTPException (e.g.
        Forbidden: their DMs are closed); the channel is then opened again next time."""
        channel = await self.direct(user_id)
        try:
            return await channel.send(**message)
        except (discord.Forbidden, discord.NotFound):
            self._dms.pop(user_id, None)
            raise

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


class DirectMessage(TypedDict, total=False):
    """What a DM from the bot carries (`send`'s arguments)."""

    content: str
    view: discord.ui.View
    file: discord.File
    allowed_mentions: discord.AllowedMentions


def guild_id_of(channel: object) -> int | None:
    return getattr(getattr(channel, "guild", None), "id", None)
