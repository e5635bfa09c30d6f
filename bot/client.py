"""The bot: a commands.Bot that opens the database and the table service, adds the cogs,
registers the persistent components, syncs the slash commands and, once connected, posts any
board a restart left unposted."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord
from discord.ext import commands

from bot.cogs.computers import ComputersCog
from bot.cogs.game import GameCog
from bot.cogs.history import HistoryCog
from bot.cogs.info import InfoCog
from bot.cogs.play import PlayCog
from bot.cogs.review import ReviewCog
from bot.cogs.settings import SettingsCog
from bot.config import Config
from bot.i18n import Translator
from bot.storage import open_database
from bot.tables import TableService
from bot.ui.components import DYNAMIC_ITEMS
from bot.ui.controller import Controller
from bot.ui.deadlines import Deadlines
from bot.ui.locales import ServerLanguages

log = logging.getLogger(__name__)


class TableBot(commands.Bot):
    """`service` and `ui` (the controller) exist once `setup_hook` has run."""

    def __init__(
        self, config: Config, *, rng: random.Random | None = None,
        clock: Callable[[], datetime] | None = None, **options: Any
    ) -> None:
        # No privileged intents: everything happens through interactions.
        intents = discord.Intents.default()
        intents.typing = False
        intents.presences = False
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **options)
        self.config = config
        self.rng = rng
        self.clock = clock  # the service's clock (tests pass simulated time)
        self.repo: Any = None
        self.service: TableService = None  # type: ignore[assignment]
        self.ui = Controller(self)
        self.deadlines = Deadlines(self)
        self.languages = ServerLanguages(self)  # /settings language per server
        self._recovery: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.repo = await open_database(self.config.database)
        self.service = TableService(self.repo, rng=self.rng, now=self.clock)
        await self.tree.set_translator(Translator())
        for cog in (PlayCog(self), GameCog(self), InfoCog(self), HistoryCog(self),
                    SettingsCog(self), ComputersCog(self), ReviewCog(self)):
            await self.add_cog(cog)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.config.sync_commands:
            await self.sync_commands()
        self._recovery = asyncio.create_task(self._after_ready(), name="table-recovery")

    async def _after_ready(self) -> None:
        """Once connected: post what a restart left unposted, then watch the deadlines."""
        await self.ui.recover()
        self.deadlines.start()

    async def sync_commands(self) -> None:
        """Register the slash commands: in one guild at once for development, else globally."""
        if self.config.dev_guild_id is not None:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))

    async def close_storage(self) -> None:
        """Close the database (also used by tests that swap bots without closing them)."""
        if self._recovery is not None and not self._recovery.done():
            self._recovery.cancel()
        await self.deadlines.stop()
        if self.repo is not None:
            repo, self.repo = self.repo, None
            await repo.close()

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            await self.close_storage()


def create_bot(config: Config, *, rng: random.Random | None = None) -> TableBot:
    return TableBot(config, rng=rng)
