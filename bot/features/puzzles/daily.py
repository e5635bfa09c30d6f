"""The daily puzzle: once a day, after local midnight in the server's time zone, a puzzle is
posted in the server's `puzzle_channel` (/settings) with a "Solve" button that opens it
privately for whoever presses.

A sweeper chore (features/table/sweeper.py) runs `post_due` every sweep. Exactly one process
posts a server's day: it first claims the day by inserting the (server, day) row, whose
primary key lets one insert succeed (storage/puzzles.py); only the process that made the row
posts, then records the message. A post that fails gives its claim back (tried again at the
next sweep); a claim whose process died before posting is taken over after ten minutes.
When a day's post is made, the day before's post is edited to show how many solved it and
the fastest three, and the new post says it too.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable

import discord

from bot.features.common.components import view_of
from bot.features.common.drawing import draw
from bot.features.common.places import Place, Places
from bot.features.puzzles import texts
from bot.features.puzzles.components import SolveButton
from bot.features.puzzles.pictures import puzzle_png
from bot.features.puzzles.puzzles import NO_MENTIONS, PuzzleMessage, seat_names
from bot.features.puzzles.service import PuzzleService
from bot.i18n import picture_words, t
from bot.storage.puzzles import DailyRow, DailySolvers, PuzzleRow
from bot.storage.settings import PuzzleChannel
from renderers import puzzle as pictures

log = logging.getLogger(__name__)

TOP = 3  # the fastest solvers named
MAX_PER_SWEEP = 20  # posts per sweep at most: a sweep stays short; the rest come next sweep


class DailyPuzzles:
    def __init__(self, owns_guild: Callable[[int], bool], service: PuzzleService,
                 places: Places) -> None:
        self.owns_guild = owns_guild
        self.service, self.places = service, places
        self._done: dict[int, str] = {}  # guild -> the local day known to be dealt with

    async def post_due(self) -> int:
        """Post today's puzzle in each server of this process that has none yet; returns how
        many this process posted."""
        posted = 0
        for channel in await self.service.daily_channels():
            if not self.owns_guild(channel.guild_id):
                continue
            day = self.service.today(channel).isoformat()
            if self._done.get(channel.guild_id) == day:
                continue
            if posted >= MAX_PER_SWEEP:
                break
            if await self.post(channel, day):
                posted += 1
        return posted

    async def post(self, setting: PuzzleChannel, day: str) -> bool:
        guild = setting.guild_id
        if await self.service.daily(guild, day) is not None:
            self._done[guild] = day
            return False
        channel = await self.places.channel(setting.puzzle_channel_id)
        if channel is None:  # gone or hidden: not again today
            self._done[guild] = day
            return False
        row = await self.service.claim_daily(guild, day, channel.id)
        self._done[guild] = day
        if row is None:  # another process posts it, or no puzzle is left
            return False
        loc = self.places.locale_of(channel)
        previous = await self.service.previous_daily(guild, day)
        solvers = await self.service.solvers(previous, TOP) if previous is not None else None
        try:
            post = await self._message(row, day, loc, solvers)
            message = await channel.send(post.content, file=post.file, view=post.view,
                                         allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as err:
            log.info("guild %s: the daily puzzle could not be posted (%s)", guild, err)
            await self.service.release_daily(guild, day)
            if not isinstance(err, discord.Forbidden):
                self._done.pop(guild, None)  # Discord failing: the next sweep tries again
            return False
        await self.service.daily_posted(guild, day, message.id)
        if previous is not None and solvers is not None:
            await self._results(channel, previous, solvers, loc)
        return True

    async def _message(self, row: PuzzleRow, day: str, loc: object,
                       yesterday: DailySolvers | None) -> PuzzleMessage:
        alt = pictures.alt_text_puzzle(row.data, picture_words(loc), seat_names(row, loc))
        png = await draw(puzzle_png, row.data, loc)
        return PuzzleMessage(
            texts.daily_text(loc, day, row, yesterday),
            discord.File(io.BytesIO(png), filename="daily-puzzle.png", description=alt[:1024]),
            view_of([SolveButton(day, label=t(loc, "Solve"))]))

    async def _results(self, today: Place, previous: DailyRow, solvers: DailySolvers,
                       loc: object) -> None:
        """Yesterday's post now says who solved it (its picture and button stay)."""
        row = await self.service.puzzle(previous.puzzle_id)
        if row is None or previous.message_id is None:
            return
        channel = today if previous.channel_id == today.id else await self.places.channel(
            previous.channel_id)
        if channel is None:
            return
        content = "\n".join([texts.daily_text(loc, previous.day, row, None),
                             texts.daily_results_text(loc, solvers)])
        try:
            await channel.get_partial_message(previous.message_id).edit(
                content=content, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as err:
            log.info("guild %s: the daily puzzle of %s could not be updated (%s)",
                     previous.guild_id, previous.day, err)
