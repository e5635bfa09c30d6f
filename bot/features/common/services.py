"""What every feature is given when the bot assembles it (bot/client.py): typed, passed in,
never looked up on the bot object by name."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.config import Config
from bot.features.common.locales import ServerLanguages
from bot.health import Outages
from bot.tables import TableService


@dataclass(frozen=True)
class Services:
    """`client`: Discord (channels, users, the command tree); `tables`: the table service;
    `languages`: the language of each server's channel messages; `outages`: the database's
    and Discord's health (an outage is logged once)."""

    client: discord.Client
    config: Config
    tables: TableService
    languages: ServerLanguages
    outages: Outages

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process receives the server's events (always without sharding): the
        process that should do unprompted work for it, such as posting unposted boards."""
        return self.config.serves_guild(guild_id)
