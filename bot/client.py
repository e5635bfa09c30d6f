"""The bot: a commands.Bot (an AutoShardedBot serving some shards when BOT_SHARD_COUNT is set)
that opens the database and the table service, adds the cogs, registers the persistent
components, syncs the slash commands and, once connected, posts any board a restart left
unposted."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord
from discord.ext import commands

from bot import metrics, workers
from bot.cogs.computers import ComputersCog
from bot.cogs.game import GameCog
from bot.cogs.history import HistoryCog
from bot.cogs.info import InfoCog
from bot.cogs.play import PlayCog
from bot.cogs.review import ReviewCog
from bot.cogs.settings import SettingsCog
from bot.cogs.tournament import TournamentCog
from bot.config import Config
from bot.health import Health, quiet_outage_tracebacks
from bot.i18n import Translator
from bot.i18n import commands as command_ids
from bot.storage import Unavailable, open_database
from bot.tables import TableService
from bot.tables.thinking import choose
from bot.tournaments.service import TournamentService
from bot.ui.components import DYNAMIC_ITEMS
from bot.ui.computers import ComputerRunner
from bot.ui.controller import Controller
from bot.ui.deadlines import Deadlines
from bot.ui.faults import on_tree_error
from bot.ui.guide import GUIDE_ITEMS
from bot.ui.lobbies import ReplaceLobby
from bot.ui.locales import ServerLanguages
from bot.ui.resign import ConfirmResign
from bot.ui.seasons import Seasons
from bot.ui.sweeper import Sweeper
from bot.ui.tournament import TournamentButton, TournamentUI
from bot.warmup import warm_up
from bot.workers import Workers

log = logging.getLogger(__name__)


async def think(*args: Any) -> str:
    """The computer player's move, in the search workers (bot/workers.py)."""
    return await workers.run("search", choose, *args)


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
        self.computers = ComputerRunner(self)
        self.sweeper = Sweeper(self)
        self.workers: Workers | None = None
        self.deadlines = Deadlines(self)
        self.languages = ServerLanguages(self)  # /settings language per server
        self.tournaments: TournamentService | None = None
        self.tournaments_ui = TournamentUI(self)  # also the runner of tournament steps
        self.seasons = Seasons(self)
        self.discord_health = Health("discord")  # Discord refusing posts: logged once
        self._recovery: asyncio.Task[None] | None = None
        self._timing: set[asyncio.Task[None]] = set()

    async def setup_hook(self) -> None:
        quiet_outage_tracebacks(Unavailable)  # an outage is told once, by its Health
        self.repo = await open_database(self.config.database)
        self.workers = Workers(self.config.workers)
        workers.install(self.workers)
        self.service = TableService(self.repo, rng=self.rng, now=self.clock, think=think)
        self.tournaments = TournamentService(self.repo, self.service, rng=self.rng)
        self.tournaments_ui.install(self.tournaments)
        warming = asyncio.ensure_future(self.workers.warm(warm_up))  # while commands sync
        try:
            await self.add_commands()
            if self.config.sync_commands:
                await self.sync_commands()
            else:
                await self.learn_command_ids()
        finally:
            warm = await warming  # before the first interaction: setup_hook precedes the gateway
        if warm:
            log.info("worker processes started and warm: %s",
                     ", ".join(f"{lane} {count}" for lane, count in warm.items()))
        self._recovery = asyncio.create_task(self._after_ready(), name="table-recovery")

    async def add_commands(self) -> None:
        """The slash commands (with their translations) and the persistent components."""
        await self.tree.set_translator(Translator())
        self.tree.on_error = on_tree_error  # type: ignore[method-assign]
        for cog in (PlayCog(self), GameCog(self), InfoCog(self), HistoryCog(self),
                    SettingsCog(self), ComputersCog(self), TournamentCog(self), ReviewCog(self)):
            await self.add_cog(cog)
        self.add_dynamic_items(*DYNAMIC_ITEMS, *GUIDE_ITEMS, ConfirmResign, ReplaceLobby,
                               TournamentButton)

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process receives the server's events (always without sharding): the
        process that should do unprompted work for it, such as posting unposted boards."""
        return self.config.serves_guild(guild_id)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """With metrics on: time until the interaction is answered (or deferred)."""
        if metrics.enabled():
            task = asyncio.create_task(self._time_answer(interaction))
            self._timing.add(task)
            task.add_done_callback(self._timing.discard)

    @staticmethod
    async def _time_answer(interaction: discord.Interaction) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        while loop.time() - start < 15.0:
            if interaction.response.is_done():
                metrics.answered(loop.time() - start)
                return
            await asyncio.sleep(0.02)
        metrics.error("unanswered")

    async def on_ready(self) -> None:
        shards = "" if self.config.shard_ids is None else (
            f" on shards {','.join(map(str, self.config.shard_ids))} of {self.config.shard_count}")
        log.info("connected as %s: %d server(s)%s", self.user, len(self.guilds), shards)

    async def _after_ready(self) -> None:
        """Once connected: post what a restart left unposted, then watch the deadlines."""
        await self.ui.recover()
        self.deadlines.start()
        self.sweeper.start()

    async def sync_commands(self) -> int:
        """Register the slash commands: in one guild at once for development, else globally;
        returns how many."""
        if self.config.dev_guild_id is not None:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
        command_ids.remember(synced)
        return len(synced)

    async def learn_command_ids(self) -> None:
        """The ids of the commands synced earlier, for command mentions in texts (until then
        texts name commands in plain words)."""
        guild = None if self.config.dev_guild_id is None else discord.Object(
            self.config.dev_guild_id)
        try:
            command_ids.remember(await self.tree.fetch_commands(guild=guild))
        except (discord.HTTPException, discord.ClientException) as err:
            log.info("command ids unknown for now (%s): texts name commands in words", err)

    async def close_storage(self) -> None:
        """Close the database (also used by tests that swap bots without closing them)."""
        if self._recovery is not None and not self._recovery.done():
            self._recovery.cancel()
        await self.deadlines.stop()
        self.sweeper.stop()
        self.tournaments_ui.stop()
        await self.computers.stop()
        self.ui.in_time.stop()
        if self.workers is not None:
            workers.install(None)
            self.workers.close()
            self.workers = None
        if self.repo is not None:
            repo, self.repo = self.repo, None
            await repo.close()

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            await self.close_storage()


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """A TableBot on the shards `config.shard_ids` of `config.shard_count` (one gateway
    connection per shard, one process-wide cache)."""

    def __init__(self, config: Config, **options: Any) -> None:
        if config.shard_count is None:
            raise ValueError("ShardedTableBot needs config.shard_count")
        ids = list(config.shard_ids) if config.shard_ids is not None else None
        super().__init__(config, shard_count=config.shard_count, shard_ids=ids, **options)


class _CommandsOnly(TableBot):
    """For `python -m bot sync`: the slash commands without the database or the gateway."""

    async def setup_hook(self) -> None:
        await self.add_commands()


def create_bot(config: Config, *, rng: random.Random | None = None) -> TableBot:
    if config.shard_count is not None:
        return ShardedTableBot(config, rng=rng)
    return TableBot(config, rng=rng)


async def sync_only(config: Config) -> int:
    """Log in over REST (no gateway connection), register the slash commands, return how
    many: for clusters whose processes all run with BOT_SYNC_COMMANDS=0."""
    assert config.token is not None
    bot = _CommandsOnly(config)
    async with bot:
        await bot.login(config.token)
        return await bot.sync_commands()
