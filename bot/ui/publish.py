"""Posting boards: picture (rendered off the event loop), narration, mentions, components.

The service has committed every move before anything here runs; a board that could not be
posted is posted later (`recover`), since the table's `posted_ply` stays behind its ply.
One lock per table keeps boards in order when several moves finish at once (6 nimmt! picks).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

import renderers
from bot.i18n import t
from bot.tables import MoveResult, Table, TableError
from bot.ui import hands
from bot.ui.badges import seat_label
from bot.ui.board import board_text, game_over_text, is_private_pick, players_line
from bot.ui.components import PickButton, view_of
from bot.ui.drawing import draw, picture_words
from bot.ui.errors import missing_permission_text
from bot.ui.labels import describe_all
from bot.ui.locales import channel_locale, ensure_language
from bot.ui.moves import board_items

if TYPE_CHECKING:
    from bot.client import TableBot

log = logging.getLogger(__name__)

MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()


def render_png(table: Table, events: Sequence[dict[str, Any]], locale: object = None) -> bytes:
    """The public picture (spectator view only): the board, or the final standings, with its
    words in `locale` (the channel's language)."""
    view = table.view(None)
    words = picture_words(locale)
    if table.status == "finished" and table.outcome is not None:
        return renderers.render_game_over(table.game, view, table.outcome, gettext=words)
    return renderers.render(table.game, view, list(events), gettext=words)


def replay_events(table: Table, after_ply: int) -> list[dict[str, Any]]:
    """Events of the log entries after `after_ply`, asked from the engine by replaying."""
    eng = table.engine
    state = eng.new(len(table.seats), table.options)
    events: list[dict[str, Any]] = []
    for index, (actor, move) in enumerate(table.log):
        if index < after_ply:
            state = eng.apply(state, actor, move)
        else:
            state, happened = eng.apply_events(state, actor, move)
            events.extend(happened)
    return events


class Publisher:
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._events: dict[int, list[tuple[int, list[dict[str, Any]]]]] = {}
        self._dm_closed: dict[int, set[int]] = {}

    @property
    def service(self) -> Any:
        return self.bot.service

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    # -- events ------------------------------------------------------------------------------

    def remember(self, result: MoveResult) -> None:
        """Keep the events of `result` until its board is posted (narration)."""
        first = result.table.ply - len(result.steps)
        buffer = self._events.setdefault(result.table.id, [])
        for index, step in enumerate(result.steps):
            buffer.append((first + index + 1, step.events))

    def _events_since(self, table: Table) -> list[dict[str, Any]]:
        """Events of plies posted_ply+1 .. ply: from memory, or replayed after a restart."""
        start = max(table.posted_ply, 0)
        buffer = [(ply, ev) for ply, ev in self._events.pop(table.id, []) if ply > start]
        plies = {ply for ply, _ in buffer}
        if plies == set(range(start + 1, table.ply + 1)):
            return [event for _, events in sorted(buffer, key=lambda x: x[0]) for event in events]
        try:
            return replay_events(table, start)
        except Exception:
            log.exception("table %s: could not replay events for narration", table.id)
            return []

    # -- places ------------------------------------------------------------------------------

    async def channel(self, place_id: int) -> Any:
        channel = self.bot.get_channel(place_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(place_id)
            except discord.HTTPException:
                return None
        await ensure_language(self.bot, getattr(getattr(channel, "guild", None), "id", None))
        return channel

    def locale_of(self, channel: Any) -> object:
        """The language of messages in `channel` (fetch it with `channel()` first)."""
        guild = getattr(channel, "guild", None)
        return channel_locale(self.bot, getattr(guild, "id", None),
                              getattr(guild, "preferred_locale", None))

    @staticmethod
    def can(channel: Any, permission: str) -> bool:
        guild = getattr(channel, "guild", None)
        if guild is None or not hasattr(channel, "permissions_for"):
            return True
        return bool(getattr(channel.permissions_for(guild.me), permission))

    def place_text(self, table: Table) -> str:
        return f"<#{table.place_id}>"

    # -- posting -----------------------------------------------------------------------------

    async def publish(
        self, result_or_id: MoveResult | int, *, force: bool = False, notes: Sequence[str] = ()
    ) -> bool:
        """Post what changed on the table (a new board, or who has picked); False if the
        place refuses our messages. `force` reposts the current board (/board); `notes` are
        extra lines for this board (a deadline that passed)."""
        if isinstance(result_or_id, MoveResult):
            self.remember(result_or_id)
            table_id = result_or_id.table.id
        else:
            table_id = result_or_id
        async with self._lock(table_id):
            try:
                table = await self.service.get(table_id)
            except TableError:
                return False
            if table.status not in ("running", "finished"):
                return True
            if not force and not table.needs_post:
                return True
            if not force and self._same_decision(table):
                return await self._update_picks(table, notes)
            events = self._events_since(table) if table.posted_ply < table.ply else []
            return await self._post_board(table, events, send_hands=not force, extra=notes)

    @staticmethod
    def _same_decision(table: Table) -> bool:
        """A posted board still asks the same open question (6 nimmt! picks in progress)."""
        if table.message_id is None or table.posted_ply < 0 or not table.since:
            return False
        if not is_private_pick(table):
            return False
        return min(table.since.values()) <= table.posted_ply

    async def _post_board(
        self, table: Table, events: list[dict[str, Any]], *, send_hands: bool,
        extra: Sequence[str] = (),
    ) -> bool:
        channel = await self.channel(table.place_id)
        if channel is None:
            log.warning("table %s: place %s is gone", table.id, table.place_id)
            return False
        locale = self.locale_of(channel)
        notes: list[str] = list(extra)
        if send_hands and is_private_pick(table):
            await self.send_hands(table, locale)
        notes.extend(self._dm_notes(table, locale))
        file = None
        if not self.can(channel, "attach_files"):
            notes.append(missing_permission_text(locale, "attach_files", channel.mention) + " " +
                         t(locale, "Until then the board is only described in words."))
        else:
            file = await self._render(table, events, locale)
            if file is None:
                notes.append(t(locale, "(The picture could not be drawn this time.)"))
        if table.status == "finished":
            content = game_over_text(table, events, locale, notes)
            items: list[Any] = []
        else:
            content = board_text(table, events, locale, notes)
            items = self.items(table, locale)
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": MENTIONS}
        if file is not None:
            kwargs["file"] = file
        if items:
            kwargs["view"] = view_of(items)
        try:
            message = await channel.send(**kwargs)
        except discord.Forbidden:
            log.warning("table %s: cannot post in %s", table.id, table.place_id)
            return False
        await self.service.mark_posted(table.id, table.ply, message.id)
        if table.status == "finished":
            self._dm_closed.pop(table.id, None)
            self._locks.pop(table.id, None)
        return True

    async def _render(self, table: Table, events: list[dict[str, Any]], locale: object = None
                      ) -> discord.File | None:
        try:
            png = await draw(render_png, table, events, locale)
        except Exception:
            log.exception("table %s: the board could not be drawn", table.id)
            return None
        return discord.File(io.BytesIO(png), filename="board.png")

    def items(self, table: Table, locale: object) -> list[Any]:
        """The components of the current decision (who acts is checked on use)."""
        seats = table.to_act()
        if not seats:
            return []
        if is_private_pick(table):
            return [PickButton(table.id, table.ply, label=t(locale, "Pick privately"))]
        seat = seats[0]
        moves = self.service.legal_moves_for(table, table.seats[seat].user_id)
        labels = describe_all(table.engine, table.state, seat, moves, locale)
        return board_items(table.game, table.id, table.ply, moves, labels, locale)

    # -- 6 nimmt! picks ------------------------------------------------------------------------

    def _dm_notes(self, table: Table, locale: object) -> list[str]:
        closed = self._dm_closed.get(table.id, set())
        acting = {table.seats[s].user_id for s in table.to_act()}
        return [
            t(locale, "I couldn't send {player} their hand by DM (their direct messages are "
              "closed): {player}, press **Pick privately** to see your hand here, privately.",
              player=seat_label(i, seat.name, table.game))
            for i, seat in enumerate(table.seats)
            if seat.user_id in closed and seat.user_id in acting
        ]

    async def send_hands(self, table: Table, locale: object) -> None:
        """DM every seat that must pick its hand (picture + select), concurrently."""
        await asyncio.gather(*(self._send_hand(table, s, locale) for s in table.to_act()))

    async def _send_hand(self, table: Table, seat: int, locale: object) -> None:
        user_id = table.seats[seat].user_id
        moves = self.service.legal_moves_for(table, user_id)
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            file = await hands.hand_file(table, seat, locale)
            kwargs: dict[str, Any] = {
                "content": hands.hand_text(table, seat, locale, self.place_text(table)),
                "view": view_of(hands.hand_items(table, moves, locale)),
                "allowed_mentions": NO_MENTIONS,
            }
            if file is not None:
                kwargs["file"] = file
            await user.send(**kwargs)
        except discord.HTTPException as err:
            log.info("table %s: no DM to %s (%s)", table.id, user_id, err)
            self._dm_closed.setdefault(table.id, set()).add(user_id)
        else:
            self._dm_closed.get(table.id, set()).discard(user_id)

    async def _update_picks(self, table: Table, extra: Sequence[str] = ()) -> bool:
        """Edit the posted pick board: who has picked (never what), and who is awaited."""
        channel = await self.channel(table.place_id)
        if channel is None or table.message_id is None:
            return False
        locale = self.locale_of(channel)
        fresh = board_text(table, [], locale, [*extra, *self._dm_notes(table, locale)])
        marker = players_line(table, locale)
        try:
            message = await channel.fetch_message(table.message_id)
            before, found, _ = message.content.partition("\n" + marker)
            after = fresh.partition("\n" + marker)
            content = before + found + after[2] if found and after[1] else fresh
            await message.edit(content=content[:2000], allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as err:
            log.warning("table %s: could not update the pick board (%s)", table.id, err)
            return await self._post_board(table, [], send_hands=False)
        await self.service.mark_posted(table.id, table.ply, table.message_id)
        return True

    # -- restart -------------------------------------------------------------------------------

    async def recover(self) -> int:
        """Post every board that a crash or restart left unposted (running tables, and games
        that finished shortly before, final board included); returns how many."""
        posted = 0
        for table in await self.service.unposted_tables():
            if table.needs_post:
                try:
                    if await self.publish(table.id):
                        posted += 1
                except Exception:
                    log.exception("table %s: recovery failed", table.id)
        return posted
