"""Moves, picks, /board and /resign: answer (or defer) at once, ask the table service, post
the result through the publisher. The cog and the components only call into here; no rules
live here."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from functools import partial

import discord
from discord import app_commands

from bot.features.common.components import view_of
from bot.features.common.errors import missing_permission_text
from bot.features.common.faults import choices_in_time, defer, now, saved_then
from bot.features.common.replies import (
    answer_settled,
    fit,
    refuse,
    send_private,
    settle_answer,
    take_answer,
    tell,
)
from bot.features.common.services import Services
from bot.features.table import hands
from bot.features.table import resign as resign_question
from bot.features.table.board import is_private_pick
from bot.features.table.components import MoveSelect
from bot.features.table.controls import (
    MAX_ROWS,
    chunks,
    group_items,
    groups,
    natural,
    select_options,
)
from bot.features.table.in_time import SLOW_POST, InTime
from bot.features.table.labels import describe, labels_of
from bot.features.table.publish import BOARD_ANSWER, Publisher
from bot.i18n import t, tn
from bot.storage.driver import note_player_answered
from bot.tables import MoveResult, Table, TableError
from bot.tables.upkeep import MAX_MOVE_LENGTH

log = logging.getLogger(__name__)

# Seconds a quickly saved typed move waits for its board to be its answer; then it is
# answered privately, as a slow one is, and the board follows. Short: the answer stays as
# quick as a private one (members see something within ~50 ms), and most boards are ready.
BOARD_ANSWER_WAIT = 0.02
BOARD_COOLDOWN = (1, 60.0)  # /board by members without a seat: once per minute per channel


def locale_of(interaction: discord.Interaction) -> object:
    """The user's language: for ephemeral replies."""
    return interaction.locale


async def publish_and_answer(interaction: discord.Interaction, in_time: InTime,
                             publisher: Publisher, work: Awaitable[bool], table: Table) -> None:
    """Post the board (`work`: a publisher.publish call) and tell the member if it can't be
    posted; when the post takes longer than the budget, the member is told it will appear
    shortly, and it goes on in the background."""
    finished, ok = await in_time.wait(work)
    if not finished or (ok and publisher.waiting(table.id)):  # slow, or refused
        await tell(interaction, t(interaction.locale, SLOW_POST))
        return
    await posted_or_explain(interaction, bool(ok), table)


async def _replace_pressed(interaction: discord.Interaction, text: str) -> None:
    """A private hand or choice that was used: it now says what was played, without its
    controls (in the answer itself when the move was saved quickly)."""
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=None)
        else:
            await interaction.response.edit_message(content=text, view=None)
    except discord.HTTPException as err:
        log.info("could not update a private message: %s", err)


async def posted_or_explain(interaction: discord.Interaction, ok: bool, table: Table) -> None:
    """Tell the player when their move is saved but the board cannot be posted."""
    if not ok:
        loc = locale_of(interaction)
        await tell(interaction, t(loc, "Your move is saved, but I can't post the board in "
                                  "<#{place}>.", place=table.place_id) + " " +
                   missing_permission_text(loc, "send_messages", f"<#{table.place_id}>"))


class TableActions:
    """The table feature's handlers (its components' `TablePresses`)."""

    def __init__(self, services: Services, publisher: Publisher, in_time: InTime) -> None:
        self.service = services.tables
        self.client = services.client
        self.publisher = publisher
        self.in_time = in_time  # replies wait for a board's post at most ~2 s
        self._board_cooldowns: dict[tuple[int, int], app_commands.Cooldown] = {}

    # -- moves -------------------------------------------------------------------------------

    async def play_component(
        self, interaction: discord.Interaction, table_id: int, ply: int, move: str, where: str
    ) -> None:
        """A move button or select: `where` is c (channel board), e (ephemeral group
        choice) or h (a private hand, by DM or ephemeral). Saved first when that is quick,
        so that one answer says the outcome (`saved_then`)."""
        loc = locale_of(interaction)
        try:
            result = await saved_then(interaction, partial(
                self.service.play, table_id, interaction.user.id, move, turn=ply))
        except TableError as err:
            await refuse(interaction, err)
            return
        if where == "h":
            await _replace_pressed(interaction, t(
                loc, "You picked {card}. It stays face down until everyone has picked.",
                card=describe(result.table.engine, result.table.state,
                              result.table.seat_of(interaction.user.id) or 0, move, loc)))
        elif where == "e":
            await _replace_pressed(interaction, t(loc, "Played: {move}", move=move))
        elif not interaction.response.is_done():
            await self.publisher.answer_press(interaction, result.table)
        note_player_answered()
        await publish_and_answer(interaction, self.in_time, self.publisher,
                                 self.publisher.publish(result, interaction=interaction),
                                 result.table)

    async def _running_here(self, interaction: discord.Interaction) -> Table | None:
        return await self.service.running_in_channel(interaction.channel_id)

    async def play_command(self, interaction: discord.Interaction, move: str) -> None:
        """/move: always answered privately (a 6 nimmt! pick must stay hidden)."""
        loc = locale_of(interaction)
        if len(move) > MAX_MOVE_LENGTH:  # refused before anything reads it
            await refuse(interaction, TableError("too_long", max=MAX_MOVE_LENGTH))
            return
        try:
            played = await saved_then(interaction, partial(self._play_typed, interaction, move),
                                      ephemeral=True, thinking=True)
        except TableError as err:
            await refuse(interaction, err)
            return
        if played is None:
            await tell(interaction, t(loc, "No game is being played here. Start one with "
                                           "{/play}."))
            return
        result, text, private = played
        post: Awaitable[bool] | None = None
        if not private and not interaction.response.is_done() and not self.publisher.busy:
            interaction.extras[BOARD_ANSWER] = True  # its board may answer it
            post = asyncio.ensure_future(self.publisher.publish(result, interaction=interaction))
            await self.in_time.glance(post, min(BOARD_ANSWER_WAIT, self.in_time.budget))
            await answer_settled(interaction)  # the board's answer, when it is being sent
            if interaction.response.is_done():  # answered by the board
                await self.in_time.wait(post)  # the rest (the old board retired) may go on
                return
        # A private pick, a deferred save, boards queuing (`busy`), or no board in time
        # (another board of the table posting first, the board left to another process).
        if interaction.response.is_done() or take_answer(interaction):
            try:
                await tell(interaction, text)
            except discord.HTTPException as err:  # the move is saved: its board still goes out
                log.info("could not answer a typed move (%s)", err)
            finally:
                settle_answer(interaction, sent=interaction.response.is_done())
        note_player_answered()
        if post is None:
            post = self.publisher.publish(result, interaction=interaction)
        await publish_and_answer(interaction, self.in_time, self.publisher, post, result.table)

    async def _play_typed(self, interaction: discord.Interaction, move: str
                          ) -> tuple[MoveResult, str, bool] | None:
        """Play a typed move at the game running in the channel: the result, the player's
        private answer and whether the move is a private pick; None when no game is running
        there."""
        loc = locale_of(interaction)
        table = await self.service.running_in_channel(interaction.channel_id)
        if table is None:
            table = await self.service.active_in_channel(interaction.channel_id)
        if table is None:
            return None
        seat = table.seat_of(interaction.user.id)
        label = move
        if seat is not None and move in table.legal_moves(seat):
            label = labels_of(table, seat, loc)[move]
        result = await self.service.play(table.id, interaction.user.id, move)
        private = is_private_pick(table)
        if private:
            text = t(loc, "You picked {card}. It stays face down until everyone has picked.",
                     card=label)
        else:
            text = t(loc, "Played: {move}", move=label)
        return result, fit(text), private

    async def move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for /move: the caller's legal moves in readable words. When the
        database cannot answer in time: those of the table as this process last saw it
        (the move is checked when played), or none if it saw none."""
        typed = current[:100]
        return await choices_in_time(
            self._move_choices(interaction, typed),
            lambda: self._choices(self.service.last_seen_in(interaction.channel_id),
                                  interaction, typed))

    async def _move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._choices(await self._running_here(interaction), interaction, current)

    def _choices(self, table: Table | None, interaction: discord.Interaction,
                 current: str) -> list[app_commands.Choice[str]]:
        if table is None:
            return []
        seat = table.seat_of(interaction.user.id)
        moves = self.service.legal_moves_for(table, interaction.user.id)
        if seat is None or not moves:
            return []
        labels = labels_of(table, seat, locale_of(interaction))
        needle = current.strip().lower()
        choices = []
        for move in moves:
            label = labels.get(move, move)
            name = label if label == move else f"{label} · {move}"
            if needle and needle not in name.lower():
                continue
            choices.append(app_commands.Choice(name=name[:100], value=move))
        return choices[:25]

    async def _private_answer_about(
        self, interaction: discord.Interaction, table_id: int
    ) -> Table | None:
        """Defer a private answer about the table and read it; None (refused) when it is gone."""
        await defer(interaction, ephemeral=True, thinking=True)
        try:
            return await self.service.current(table_id)
        except TableError as err:
            await refuse(interaction, err)
            return None

    async def show_group(
        self, interaction: discord.Interaction, table_id: int, ply: int, group: str
    ) -> None:
        """A group (piece, column) was chosen: the board shows that group's moves in a
        second select on the same message (else, privately, as before)."""
        loc = locale_of(interaction)
        await defer(interaction)  # an update of the board message
        try:
            table = await self.service.current(table_id)
        except TableError as err:
            await refuse(interaction, err)
            return
        refusal = self.service.refusal(table, interaction.user.id, ply)
        if refusal is not None:
            await refuse(interaction, refusal)
            return
        seat = table.seat_of(interaction.user.id)
        moves = self.service.legal_moves_for(table, interaction.user.id)
        label, chosen = groups(table.game, natural(table.game, moves), loc).get(group, ("", []))
        if not chosen or seat is None:
            await tell(interaction, t(loc, "That choice has no moves any more; please use "
                                           "the latest board."))
            return
        shown_in = self.publisher.places.locale_of(interaction.channel)  # the board's
        board = group_items(table.game, table.id, table.ply, moves,
                            labels_of(table, seat, shown_in), group, shown_in)
        if await self.publisher.show_controls(interaction, table, board):
            return
        labels = labels_of(table, seat, loc)
        items = [
            MoveSelect(table.id, table.ply, "e", select_options(part, labels),
                       placeholder=t(loc, "Choose the destination…"), row=index)
            for index, part in enumerate(chunks(chosen)[:MAX_ROWS])
        ]
        await send_private(interaction, content=t(loc, "{group}: where to?", group=label),
                           view=view_of(items))

    async def show_hand(self, interaction: discord.Interaction, table_id: int, ply: int) -> None:
        """"Pick privately": the hand as an ephemeral message (for closed DMs)."""
        loc = locale_of(interaction)
        table = await self._private_answer_about(interaction, table_id)
        if table is None:
            return
        seat = table.seat_of(interaction.user.id)
        if seat is not None and table.status == "running" and is_private_pick(table) and \
                seat not in table.to_act():
            card = hands.own_pick(table, seat)
            if card is not None:
                await tell(interaction, t(loc, "You already picked {card} this turn. "
                                               "Waiting for the others…", card=card))
                return
        refusal = self.service.refusal(table, interaction.user.id, ply)
        if refusal is None and (seat is None or not is_private_pick(table)):
            refusal = TableError("stale")
        if refusal is not None:
            await refuse(interaction, refusal)
            return
        assert seat is not None
        moves = self.service.legal_moves_for(table, interaction.user.id)
        hand = await hands.hand_message(table, seat, moves, loc, f"<#{table.place_id}>")
        await send_private(interaction, **hand)
        self.publisher.hand_opened(table, seat, interaction, loc)

    # -- /board, /resign -----------------------------------------------------------------------

    async def repost(self, interaction: discord.Interaction) -> None:
        loc = locale_of(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        table = await self.service.active_in_channel(interaction.channel_id)
        if table is None:
            await tell(interaction, t(loc, "No game is being played here. Start one with "
                                           "{/play}."))
            return
        if table.status == "lobby":
            await tell(interaction, t(loc, "This table hasn't started yet: the host starts "
                                           "it from the lobby message."))
            return
        wait = self._board_cooldown(interaction, table)
        if wait:
            seconds = max(1, round(wait))
            await tell(interaction, tn(loc, "Spectators can show the board once a minute; "
                                       "please wait {seconds} second.", "Spectators can show "
                                       "the board once a minute; please wait {seconds} "
                                       "seconds.", seconds, seconds=seconds))
            return
        finished, ok = await self.in_time.wait(self.publisher.publish(table.id, force=True))
        if not finished or (ok and self.publisher.waiting(table.id)):  # slow, or refused
            await tell(interaction, t(loc, SLOW_POST))
        elif ok:
            await tell(interaction, t(loc, "Here is the board again."))
        else:
            await posted_or_explain(interaction, False, table)

    def _board_cooldown(self, interaction: discord.Interaction, table: Table) -> float | None:
        """Seconds a member without a seat must still wait for /board (players never do):
        discord.py's app-command Cooldown, one bucket per member and channel."""
        if table.seat_of(interaction.user.id) is not None:
            return None
        key = (interaction.user.id, table.place_id)
        if len(self._board_cooldowns) > 10_000:  # forget old buckets now and then
            self._board_cooldowns.clear()
        bucket = self._board_cooldowns.setdefault(key, app_commands.Cooldown(*BOARD_COOLDOWN))
        return bucket.update_rate_limit(now())

    async def resign(self, interaction: discord.Interaction) -> None:
        loc = locale_of(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        table = await self.service.active_in_channel(interaction.channel_id)
        if table is None:
            await tell(interaction, t(loc, "No game is being played here."))
            return
        try:
            result = await self.service.resign(table.id, interaction.user.id)
        except TableError as err:
            await refuse(interaction, err)
            return
        await tell(interaction, t(loc, "You resigned. Thanks for playing!"))
        await publish_and_answer(interaction, self.in_time, self.publisher,
                                 self.publisher.publish(result, interaction=interaction), table)

    async def confirm_resign(self, interaction: discord.Interaction, table_id: int) -> None:
        """The private "Resign" button of /resign: resigns if that game is still here."""
        table = await self.service.active_in_channel(interaction.channel_id)
        if table is None or table.id != table_id:
            await resign_question.refuse_stale(interaction)
            return
        await self.resign(interaction)

    # -- restart -----------------------------------------------------------------------------

    async def recover(self) -> None:
        await self.client.wait_until_ready()
        posted = await self.publisher.recover()
        if posted:
            log.info("posted %d board(s) left unposted before the restart", posted)
