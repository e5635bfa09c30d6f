"""Take-back with consent in the channel: "Take back" on the board (or /takeback) posts one
request that mentions the opponent once, with Accept and Decline; the service decides who
may ask or answer (bot/tables/takeback.py), this only talks.

- Accepted: the request message says so (its buttons go) and a new board is posted, the
  asker to move again.
- Declined: the request message says so and the asker is mentioned in one short line. The
  asker may withdraw the request with Decline. Either way the same move is not asked again
  (one request per move).
- Lapsed (the opponent moved, resigned, the game ended): the request message says so when
  the next board is posted, or when a button of it is pressed.
Requests asked in this process are remembered (which message, which ply) only to update
their message and to refuse asking twice; after a restart the buttons still work, since
their custom ids carry the table and the ply.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import discord

from bot.features.common.badges import mention_of, seat_label, seat_names
from bot.features.common.components import view_of
from bot.features.common.faults import defer
from bot.features.common.places import Places
from bot.features.common.replies import fit, refuse, tell
from bot.features.common.services import Services
from bot.features.table.publish import MENTIONS, NO_MENTIONS, Publisher
from bot.features.takeback.components import request_items
from bot.i18n import t
from bot.narration import narrate
from bot.tables import Table, TableError
from bot.tables.takeback import Request, replay_events

log = logging.getLogger(__name__)

MAX_REMEMBERED = 10_000  # requests and refusals kept per process, at most


@dataclass(frozen=True)
class Asked:
    """A request this process posted: where, at which ply, and its words' language."""

    ply: int
    channel_id: int
    message_id: int
    locale: object
    asker: str  # the asker's badge and name
    answerer: str


def move_story(table: Table, locale: object) -> str:
    """The last move in words ("🐄1 Aki moved g5 → f4."), as the board told it."""
    events = replay_events(table.engine, len(table.seats), table.options, table.log,
                           table.ply - 1)
    return narrate(table.game, events, seat_names(table, locale), locale) or \
        f"`{table.log[-1][1]}`"


class TakeBackActions:
    """The take-back feature's handlers (its components' `TakeBackPresses`, /takeback)."""

    def __init__(self, services: Services, places: Places, publisher: Publisher) -> None:
        self.service = services.tables
        self.places = places
        self.publisher = publisher
        self._asked: dict[int, Asked] = {}  # table -> its open request
        # table -> (the ply, "declined" or "withdrawn"): one request per move
        self._closed: dict[int, tuple[int, str]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        publisher.on_posted(self.lapse)
        self.service.add_end_listener(self.lapse)

    # -- asking --------------------------------------------------------------------------------

    async def ask_here(self, interaction: discord.Interaction) -> None:
        """/takeback: ask for the table in this channel or thread."""
        await defer(interaction, ephemeral=True, thinking=True)
        place = interaction.channel_id
        table = await self.service.running_in_channel(place) if place is not None else None
        if table is None:
            await tell(interaction, t(interaction.locale, "No game is being played here."))
            return
        await self._ask(interaction, table.id, None)

    async def ask(self, interaction: discord.Interaction, table_id: int,
                  ply: int | None) -> None:
        """"Take back" on a board."""
        await defer(interaction, ephemeral=True, thinking=True)
        await self._ask(interaction, table_id, ply)

    async def _ask(self, interaction: discord.Interaction, table_id: int,
                   ply: int | None) -> None:
        loc = interaction.locale
        try:
            request = await self.service.takebacks.ask(table_id, interaction.user.id, ply)
            table = await self.service.get(table_id)
        except TableError as err:
            await refuse(interaction, err)
            return
        asked = self._asked.get(table_id)
        if asked is not None and asked.ply == request.ply:
            await tell(interaction, t(loc, "You have already asked: waiting for {player} to "
                                           "answer.", player=asked.answerer))
            return
        closed = self._closed.get(table_id)
        if closed is not None and closed[0] == request.ply:
            await tell(interaction, t(loc, "Your opponent declined to take this move back; "
                                           "the game goes on.") if closed[1] == "declined"
                       else t(loc, "You withdrew your request for this move: one request "
                                   "per move, please."))
            return
        channel = await self.places.channel(table.place_id)
        if channel is None:
            await tell(interaction, t(loc, "Sorry, I can't post in <#{place}> right now.",
                                      place=table.place_id))
            return
        place_loc = self.places.locale_of(channel)
        names = seat_names(table, place_loc)
        asker = seat_label(request.asker, names[request.asker], table.game)
        answerer = seat_label(request.answerer, names[request.answerer], table.game)
        text = t(place_loc, "↩️ **Take-back request** · {asker} would like to take back "
                 "their last move:\n> {move}\n{opponent}, do you accept? (Making your move "
                 "instead declines.)", asker=asker, move=move_story(table, place_loc),
                 opponent=mention_of(table, request.answerer, place_loc))
        view = view_of(request_items(table.id, request.ply, place_loc))
        try:
            message = await channel.send(fit(text), view=view, allowed_mentions=MENTIONS)
        except discord.HTTPException as err:
            log.info("table %s: no take-back request posted (%s)", table.id, err)
            await tell(interaction, t(loc, "Sorry, I can't post in <#{place}> right now.",
                                      place=table.place_id))
            return
        finally:
            view.stop()
        self._remember(table_id, Asked(request.ply, table.place_id, message.id, place_loc,
                                       asker, answerer))
        await tell(interaction, t(loc, "I've asked {player}. You can withdraw the request "
                                       "with **Decline** on it.", player=answerer))

    def _remember(self, table_id: int, asked: Asked) -> None:
        if len(self._asked) > MAX_REMEMBERED:
            self._asked.clear()
        if len(self._closed) > MAX_REMEMBERED:
            self._closed.clear()
        self._asked[table_id] = asked

    # -- answering -----------------------------------------------------------------------------

    async def answer(self, interaction: discord.Interaction, table_id: int, ply: int,
                     accept: bool) -> None:
        """Accept or Decline on a request."""
        await defer(interaction)  # the request message is edited below
        user_id = interaction.user.id
        try:
            table = await self.service.get(table_id)
            request = await self.service.takebacks.decline(table_id, user_id, ply)
            if accept and table.seat_of(user_id) == request.asker:
                raise TableError("takeback_own_request")
        except TableError as err:
            if err.code in ("takeback_lapsed", "finished", "not_running"):
                await self._close(interaction, table_id, ply, "lapsed")
            await refuse(interaction, err)
            return
        if not accept:
            await self._declined_by(interaction, table, request)
            return
        try:
            result = await self.service.takebacks.accept(table_id, user_id, ply)
        except TableError as err:
            if err.code in ("takeback_lapsed", "finished", "not_running"):
                await self._close(interaction, table_id, ply, "lapsed")
            await refuse(interaction, err)
            return
        await self._close(interaction, table_id, ply, "accepted", table=table,
                          request=request)
        channel = await self.places.channel(table.place_id)
        place_loc = self.places.locale_of(channel) if channel is not None else None
        names = seat_names(table, place_loc)
        note = t(place_loc, "↩️ {opponent} agreed: {asker}'s last move was taken back.",
                 opponent=seat_label(request.answerer, names[request.answerer], table.game),
                 asker=seat_label(request.asker, names[request.asker], table.game))
        await self.publisher.publish(result, notes=[note], interaction=interaction)

    async def _declined_by(self, interaction: discord.Interaction, table: Table,
                           request: Request) -> None:
        withdrawn = table.seat_of(interaction.user.id) == request.asker
        how = "withdrawn" if withdrawn else "declined"
        loc = await self._place_locale(interaction, self._asked.get(table.id))
        await self._close(interaction, table.id, request.ply, how, table=table,
                          request=request)
        self._closed[table.id] = (request.ply, how)
        if withdrawn:
            return
        names = seat_names(table, loc)
        try:
            await interaction.followup.send(
                t(loc, "{asker}: {opponent} declined your take-back request. The game goes "
                  "on.", asker=mention_of(table, request.asker, loc),
                  opponent=seat_label(request.answerer, names[request.answerer], table.game)),
                allowed_mentions=MENTIONS)
        except discord.HTTPException as err:
            log.info("table %s: the asker was not told of the decline (%s)", table.id, err)

    async def _close(self, interaction: discord.Interaction, table_id: int, ply: int,
                     how: str, table: Table | None = None,
                     request: Request | None = None) -> None:
        """Edit the request message that was pressed: what became of it, no buttons."""
        asked = self._asked.get(table_id)
        if asked is not None and asked.ply == ply:
            del self._asked[table_id]
        loc = await self._place_locale(interaction, asked)
        asker = answerer = "?"
        if table is not None and request is not None:
            names = seat_names(table, loc)
            asker = seat_label(request.asker, names[request.asker], table.game)
            answerer = seat_label(request.answerer, names[request.answerer], table.game)
        elif asked is not None:
            asker, answerer = asked.asker, asked.answerer
        try:
            await interaction.edit_original_response(
                content=closed_text(loc, how, asker, answerer), view=None,
                allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as err:
            log.info("table %s: the take-back request was not updated (%s)", table_id, err)

    async def _place_locale(self, interaction: discord.Interaction,
                            asked: Asked | None) -> object:
        """The language of the request's channel (as it was asked, or as the server says)."""
        if asked is not None:
            return asked.locale
        channel = await self.places.channel(interaction.channel_id) \
            if interaction.channel_id is not None else None
        return self.places.locale_of(channel) if channel is not None else None

    # -- lapsing -------------------------------------------------------------------------------

    def lapse(self, table: Table) -> None:
        """A board was posted (or the game ended): an older request of this process has
        lapsed, so its message says so and loses its buttons."""
        asked = self._asked.get(table.id)
        if asked is None or (asked.ply == table.ply and table.status == "running"):
            return
        del self._asked[table.id]
        task = asyncio.get_running_loop().create_task(self._lapsed(table.id, asked))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _lapsed(self, table_id: int, asked: Asked) -> None:
        channel = await self.places.channel(asked.channel_id)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return
        try:
            await channel.get_partial_message(asked.message_id).edit(
                content=closed_text(asked.locale, "lapsed", asked.asker, asked.answerer),
                view=None, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as err:
            log.info("table %s: the lapsed take-back request was not updated (%s)",
                     table_id, err)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()


def closed_text(loc: object, how: str, asker: str, answerer: str) -> str:
    """What a request message says once it is answered or has lapsed."""
    if how == "accepted":
        return t(loc, "↩️ {opponent} accepted: {asker}'s move was taken back.",
                 opponent=answerer, asker=asker)
    if how == "declined":
        return t(loc, "↩️ {opponent} declined {asker}'s take-back request.",
                 opponent=answerer, asker=asker)
    if how == "withdrawn":
        return t(loc, "↩️ {asker} withdrew the take-back request.", asker=asker)
    return t(loc, "↩️ This take-back request has lapsed: the game has moved on.")
