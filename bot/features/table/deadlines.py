"""Turn deadlines on Discord: the service's DeadlineDispatcher, and what players are told.

When a deadline passes the service plays the computer's move for the seat (or ends the table
for a forfeit) and we post the board with a short note; a reminder goes by DM for hidden
picks (nothing about the hand is said in the channel) and as a mention in the table's place
otherwise.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import discord
from discord.ext import tasks

from bot.features.common.badges import seat_label, seat_names
from bot.features.common.places import Places
from bot.features.common.services import Services
from bot.features.table.board import is_private_pick
from bot.features.table.publish import Publisher
from bot.health import discord_failing
from bot.i18n import t, tn
from bot.storage import Unavailable
from bot.storage.driver import player_answered
from bot.tables import DeadlineDispatcher, Expiry, Table

# Another feature's timers, run in each deadline pass: given the pass's next due time, the
# sooner of it and its own (tournaments' start times and rounds).
TimerPass = Callable[[datetime | None], Awaitable[datetime | None]]

log = logging.getLogger(__name__)


def expiry_note(expiry: Expiry, locale: object) -> str | None:
    """What the board says about an expiry (never which card a hidden pick was)."""
    table = expiry.result.table
    who = seat_label(expiry.seat, seat_names(table, locale)[expiry.seat], table.game)
    if expiry.forfeited:
        return tn(locale, "⏰ {player} missed {count} deadline and forfeits the game.",
                  "⏰ {player} missed {count} deadlines in a row and forfeits the game.",
                  expiry.misses, player=who, count=expiry.misses)
    if expiry.taken_over:
        return tn(locale, "⏰ {player} missed {count} deadline: the computer plays for them "
                  "from now on.", "⏰ {player} missed {count} deadlines in a row: the computer "
                  "plays for them from now on.", expiry.misses, player=who, count=expiry.misses)
    if expiry.missed:
        return t(locale, "⏰ {player} ran out of time: the computer moved for them.",
                 player=who)
    return None


class Deadlines:
    """Watches the deadlines for the bot's lifetime (started once the bot is ready).

    The service's DeadlineDispatcher does the work (`run_due`: reminders, then expiries);
    a `discord.ext.tasks` loop decides when: after each pass it sleeps until the service's
    next due time (at most MAX_SLEEP). When the timers change (every move) the sleep is cut
    to at most RECHECK seconds, so a new, sooner deadline is seen in time (the shortest is a
    minute, its reminder 30 s in) while a busy server costs one pass per RECHECK, not one per
    move. tasks.loop sleeps also follow simulated time in tests.
    """

    MAX_SLEEP = 3600.0
    RECHECK = 10.0

    def __init__(self, services: Services, places: Places, publisher: Publisher) -> None:
        self.service = services.tables
        self.config = services.config
        self.places, self.publisher = places, publisher
        self.discord_health = services.outages.discord
        self.dispatcher: DeadlineDispatcher | None = None
        self._passes: list[TimerPass] = []

    def add_pass(self, timer_pass: TimerPass) -> None:
        """Run `timer_pass` in each deadline pass (another feature's timers)."""
        self._passes.append(timer_pass)

    def start(self) -> None:
        if self.watch.is_running():
            return
        service = self.service
        config = self.config
        shards = None
        if config.shard_count is not None and config.shard_ids is not None:
            shards = (config.shard_count, config.shard_ids)
        self.dispatcher = DeadlineDispatcher(service.timers, self.on_expire, self.on_remind,
                                             shards=shards)
        service.timers.add_listener(self.wake)
        self.watch.start()

    async def stop(self) -> None:
        self.service.timers.remove_listener(self.wake)
        if self.watch.is_running():
            self.watch.cancel()

    def wake(self) -> None:
        """The timers changed: look again within RECHECK seconds (never later than planned)."""
        loop = self.watch
        last, upcoming = loop._last_iteration, loop.next_iteration  # noqa: SLF001
        if not loop.is_running() or not isinstance(last, datetime) or upcoming is None:
            return
        soon = discord.utils.utcnow() + timedelta(seconds=self.RECHECK)
        if soon < upcoming:
            loop.change_interval(seconds=max((soon - last).total_seconds(), 0.0))

    @tasks.loop(seconds=MAX_SLEEP)
    async def watch(self) -> None:
        service = self.service
        assert self.dispatcher is not None
        if self.watch.current_loop == 0:
            await service.timers.restore_timers(shards=self.dispatcher.shards)
        try:
            with player_answered():  # background work: nobody waits on Discord's 3 seconds
                await self.dispatcher.run_due()
                next_at = await service.timers.next_due()
                for timer_pass in self._passes:
                    next_at = await timer_pass(next_at)
        except Unavailable as err:  # an outage: its Health warned once (bot/health.py)
            log.debug("deadline pass refused (%s); trying again in %s s", err, self.RECHECK)
            delay = self.RECHECK
        except Exception:
            log.exception("deadline pass failed; trying again in %s s", self.RECHECK)
            delay = self.RECHECK
        else:
            delay = self.MAX_SLEEP if next_at is None else (next_at - service.now()).total_seconds()
        self.watch.change_interval(seconds=min(max(delay, 0.0), self.MAX_SLEEP))

    async def on_expire(self, expiry: Expiry) -> None:
        channel = await self.places.channel(expiry.result.table.place_id)
        note = expiry_note(expiry, self.places.locale_of(channel))
        await self.publisher.publish(expiry.result, notes=[note] if note else [])

    async def on_remind(self, table: Table, seats: list[int]) -> None:
        channel = await self.places.channel(table.place_id)
        if channel is None:
            return
        locale = self.places.locale_of(channel)
        timers = await self.service.timers.of_table(table.id)
        loud: list[str] = []
        for seat in seats:
            user_id = table.seats[seat].user_id
            timer = timers.get(seat)
            when = f"<t:{int(timer.deadline_at.timestamp())}:R>" if timer else "?"
            if is_private_pick(table) and await self._dm(user_id, t(
                    locale, "⏰ Table {table} in {place}: please pick your card {when}; after "
                    "that the computer picks for you.", table=table.id,
                    place=f"<#{table.place_id}>", when=when)):
                continue
            loud.append(t(locale, "⏰ <@{user}>, table {table} is waiting for you: please "
                          "play {when}, or the computer moves for you.", user=user_id,
                          table=table.id, when=when))
        if loud:
            try:
                await channel.send("\n".join(loud), allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=True))
            except discord.HTTPException as err:
                if discord_failing(err):
                    self.discord_health.failed(err)  # warned once per outage
                log.info("table %s: reminder not posted (%s)", table.id, err)

    async def _dm(self, user_id: int, text: str) -> bool:
        try:
            await self.places.send_direct(user_id, content=text)
        except discord.HTTPException:
            return False
        return True
