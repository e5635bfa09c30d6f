"""The bot: a commands.Bot (an AutoShardedBot serving some shards when BOT_SHARD_COUNT is set)
that opens the database and the table service, adds the cogs, registers the persistent
components, syncs the slash commands and, once connected, posts any board a restart left
unposted."""

from __future__ import annotations

import asyncio
import logging
import random
import tempfile
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path

import discord
from discord.ext import commands

from bot import metrics, workers
from bot.config import Config
from bot.features.common.components import route
from bot.features.common.faults import on_tree_error
from bot.features.common.locales import ServerLanguages
from bot.features.common.places import Places
from bot.features.common.services import Services
from bot.features.guide.cog import GuideCog
from bot.features.guide.guide import GUIDE_ITEMS
from bot.features.history.cog import HistoryCog
from bot.features.info.cog import InfoCog
from bot.features.lobby.cog import LobbyCog
from bot.features.lobby.components import (
    LobbyButton,
    LobbyPresses,
    RematchButton,
    RematchPresses,
)
from bot.features.lobby.endings import Endings
from bot.features.lobby.lobbies import LobbyKeeper, LobbyReplacer, ReplaceLobby
from bot.features.lobby.opening import LobbyActions
from bot.features.puzzles.cog import PuzzleCog
from bot.features.puzzles.components import PUZZLE_ITEMS, PuzzlePresses
from bot.features.puzzles.daily import DailyPuzzles
from bot.features.puzzles.mining import Miner
from bot.features.puzzles.puzzles import PuzzleDesk
from bot.features.puzzles.service import PuzzleService
from bot.features.review.cog import ReviewCog
from bot.features.review.review import MistakeButton
from bot.features.settings.cog import SettingsCog
from bot.features.table.cog import TableCog
from bot.features.table.components import TABLE_ITEMS, TablePresses
from bot.features.table.computers import ComputerRunner
from bot.features.table.deadlines import Deadlines
from bot.features.table.in_time import InTime
from bot.features.table.moves import TableActions
from bot.features.table.publish import Publisher
from bot.features.table.resign import ConfirmResign, Resigner
from bot.features.table.sweeper import Sweeper
from bot.features.takeback.cog import TakeBackCog
from bot.features.takeback.components import TAKEBACK_ITEMS, TakeBackPresses
from bot.features.takeback.components import board_items as takeback_button
from bot.features.takeback.takeback import TakeBackActions
from bot.features.tournaments.cog import TournamentCog
from bot.features.tournaments.seasons import Seasons
from bot.features.tournaments.tournament import (
    TournamentButton,
    TournamentPresses,
    TournamentUI,
)
from bot.health import Health, Outages, quiet_outage_tracebacks
from bot.i18n import commands as command_ids
from bot.i18n.translator import Translator
from bot.storage import Database, Unavailable, open_database
from bot.tables import TableService
from bot.tables.invitations import Invitations
from bot.tables.thinking import choose
from bot.tournaments.season_book import SeasonBook
from bot.tournaments.service import TournamentService
from bot.warmup import warm_up
from bot.workers import Workers
from engines.base import View

log = logging.getLogger(__name__)


async def think(game: str, view: View, legal: list[str], seat: int, level: str, seed: int,
                budget: float) -> str:
    """The computer player's move (`choose`), in the search workers (bot/workers.py)."""
    return await workers.run("search", choose, game, view, legal, seat, level, seed, budget)


class TableBot(commands.Bot):
    """Opens the database, assembles the features (bot/features/) with the services they
    need, and keeps what it assembled for shutdown (and for tests to look at)."""

    def __init__(
        self, config: Config, *, rng: random.Random | None = None,
        clock: Callable[[], datetime] | None = None, shard_count: int | None = None,
    ) -> None:
        # Everything happens through interactions: the servers and their channels are all the
        # bot listens to. With the message intents Discord would send it every message and
        # every edit in its channels (each of its own boards too), each decoded for nothing.
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, shard_count=shard_count)
        self.config = config
        self.rng = rng
        self.clock = clock  # the service's clock (tests pass simulated time)
        self.db: Database | None = None
        self.workers: Workers | None = None
        self._recovery: asyncio.Task[None] | None = None
        self._timing: set[asyncio.Task[None]] = set()
        self._ready_work: tuple[Callable[[], Awaitable[None]], *tuple[Callable[[], None], ...]]
        self._stopping: list[Callable[[], Awaitable[None] | None]] = []

    async def setup_hook(self) -> None:
        quiet_outage_tracebacks(Unavailable)  # an outage is told once, by its Health
        self.db = db = await open_database(self.config.database)
        self.service = TableService(db, rng=self.rng, now=self.clock, think=think)
        self.workers = Workers(self.config.workers,
                               processes_here=self.config.processes_here)
        workers.install(self.workers)
        self.tournaments = TournamentService(db.tournaments, db.results, self.service,
                                             rng=self.rng)
        warming = asyncio.ensure_future(self.workers.warm(warm_up))  # while commands sync
        try:
            await self.assemble()
            if self.config.sync_commands:
                await self.sync_commands()
            else:
                await self.learn_command_ids()
        finally:
            warm = await warming  # before the first interaction: setup_hook precedes the gateway
        if warm:
            log.info("worker processes started and warm: %s",
                     ", ".join(f"{lane} {count}" for lane, count in warm.items()))
        await self.load_starter_puzzles()
        self._recovery = asyncio.create_task(self._after_ready(), name="table-recovery")

    async def load_starter_puzzles(self) -> None:
        """The shipped starter puzzles, stored once (every start checks: known ones stay)."""
        try:
            added = await self.puzzles.load_starter()
        except Unavailable as err:  # the database's Health warned; the next start retries
            log.warning("starter puzzles not loaded now (%r)", err)
        else:
            if added:
                log.info("starter puzzles: %d new", added)

    async def assemble(self) -> None:
        """Every feature with what it needs, its slash commands (with their translations)
        and its persistent components, routed to their handlers."""
        await self.tree.set_translator(Translator())
        self.tree.on_error = on_tree_error  # type: ignore[method-assign]
        assert self.db is not None
        languages = ServerLanguages(self, self.service.settings.chosen_language)
        outages = Outages(self.db.health, Health("discord"))
        services = Services(self, self.config, self.service, languages, outages)
        places = Places(self, services.languages, outages.discord)
        publisher = Publisher(services, places)
        computers = ComputerRunner(services.tables, publisher)
        publisher.on_posted(computers.poke)
        deadlines = Deadlines(services, places, publisher)
        sweeper = Sweeper(services.tables, publisher)
        sweeper.add_chore(services.tables.store.keep_hearing)  # other processes' changes
        invitations = Invitations(services.tables, self.db.lobbies)
        keeper = LobbyKeeper(services, places, invitations)
        sweeper.add_chore(keeper.expire)
        in_time = InTime()  # replies wait for a board's post at most ~2 s
        endings = Endings(services, places, keeper, invitations)
        publisher.on_finished(endings.finished, endings.final_items)
        table = TableActions(services, publisher, in_time)
        lobby = LobbyActions(services, keeper, publisher, in_time, invitations)
        takebacks = TakeBackActions(services, places, publisher)
        publisher.add_controls(takeback_button)
        book = SeasonBook(self.db.tournaments, self.db.settings, services.tables.now)
        seasons = Seasons(book, places, services.owns_guild)
        tournaments = TournamentUI(services, self.tournaments, places, publisher, seasons,
                                   deadlines.wake)
        deadlines.add_pass(tournaments.run_pass)
        self.puzzles = PuzzleService(self.db.puzzles, services.tables.settings,
                                     services.tables.now)
        miner = Miner(self.puzzles)
        publisher.on_finished(miner.finished)
        desk = PuzzleDesk(services, self.puzzles)
        daily = DailyPuzzles(services.owns_guild, self.puzzles, places)
        sweeper.add_chore(daily.post_due)
        self.puzzle_miner, self.daily_puzzles = miner, daily
        self.seasons, self.publisher, self.table_actions = seasons, publisher, table
        self.lobby_invitations = invitations
        for kind, target in ((TablePresses, table), (Resigner, table), (LobbyPresses, lobby),
                             (LobbyReplacer, keeper), (RematchPresses, endings),
                             (TournamentPresses, tournaments), (TakeBackPresses, takebacks),
                             (PuzzlePresses, desk),
                             (Services, services), (ServerLanguages, services.languages),
                             (Outages, outages)):
            route(self, kind, target)
        for cog in (LobbyCog(services, self.tree, lobby, keeper), TableCog(services, table),
                    GuideCog(services, self.tree), InfoCog(services, book),
                    HistoryCog(services), SettingsCog(services), ReviewCog(services),
                    TournamentCog(services, self.tree, tournaments),
                    TakeBackCog(services, takebacks), PuzzleCog(services, self.tree, desk)):
            await self.add_cog(cog)
        self.add_dynamic_items(*TABLE_ITEMS, LobbyButton, *GUIDE_ITEMS, ConfirmResign,
                               ReplaceLobby, TournamentButton, MistakeButton, RematchButton,
                               *TAKEBACK_ITEMS, *PUZZLE_ITEMS)
        self._ready_work = (table.recover, deadlines.start, sweeper.start)
        self._stopping = [deadlines.stop, sweeper.stop, tournaments.stop, computers.stop,
                          in_time.stop, takebacks.stop, miner.stop]

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
        recover, *starts = self._ready_work
        await recover()
        for start in starts:
            start()

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
        for stop in self._stopping:
            stopped = stop()
            if stopped is not None:
                await stopped
        if self.workers is not None:
            workers.install(None)
            self.workers.close()
            self.workers = None
        if self.db is not None:
            db, self.db = self.db, None
            await self.service.release_postings()  # the next process need not wait
            await db.close()

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            await self.close_storage()


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """A TableBot on the shards `config.shard_ids` of `config.shard_count` (one gateway
    connection per shard, one process-wide cache)."""

    def __init__(self, config: Config, *, rng: random.Random | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        if config.shard_count is None:
            raise ValueError("ShardedTableBot needs config.shard_count")
        ids = list(config.shard_ids) if config.shard_ids is not None else None
        super().__init__(config, rng=rng, clock=clock, shard_count=config.shard_count)
        # AutoShardedClient's own option, which commands.Bot's signature does not list; read
        # when it connects (all shards when None)
        self.shard_ids = ids


class _CommandsOnly(TableBot):
    """For `python -m bot sync`: the slash commands without the gateway, assembled over a
    throwaway database (nothing is read or kept)."""

    async def setup_hook(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            self.db = db = await open_database(Path(folder) / "commands.sqlite3")
            self.service = TableService(db)
            self.tournaments = TournamentService(db.tournaments, db.results, self.service)
            await self.assemble()
            await db.close()
            self.db = None


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
