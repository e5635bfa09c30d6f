"""What every command, button and select does: answer (or defer) at once, ask the table
service, post the result. Cogs and components only call into here; no rules live here."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import t, tn
from bot.tables import MoveResult, Table, TableError
from bot.tables.upkeep import MAX_MOVE_LENGTH
from bot.ui import hands
from bot.ui.board import game_title, is_private_pick
from bot.ui.components import MoveSelect, view_of
from bot.ui.computers import lobby_computer
from bot.ui.errors import missing_permission_text, table_error_text
from bot.ui.faults import choices_in_time, defer, defer_publicly, now
from bot.ui.in_time import SLOW_POST, InTime
from bot.ui.labels import describe, describe_all
from bot.ui.lobbies import LobbyKeeper
from bot.ui.lobby import lobby_embed, lobby_items, shuffle_from_message
from bot.ui.locales import ensure_language, interaction_channel_locale
from bot.ui.moves import MAX_ROWS, chunks, groups, natural, select_options
from bot.ui.publish import Publisher
from engines import get_engine

if TYPE_CHECKING:
    from bot.client import TableBot

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES = 1440
MESSAGE_LIMIT = 2000  # characters of a Discord message
ORPHAN_GRACE = timedelta(minutes=1)  # a lobby without its message for this long is orphaned
BOARD_COOLDOWN = (1, 60.0)  # /board by members without a seat: once per minute per channel


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` cut to Discord's limit (with an ellipsis)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def locale_of(interaction: discord.Interaction) -> object:
    """The user's language: for ephemeral replies."""
    return interaction.locale


def server_locale(interaction: discord.Interaction) -> object:
    """The server's language: for messages everyone in the channel reads (/settings, else
    Discord's guild locale; `ensure_language` must have read the settings)."""
    return interaction_channel_locale(interaction)


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class Controller:
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.publisher = Publisher(bot)
        self._board_cooldowns: dict[tuple[int, int], app_commands.Cooldown] = {}
        self.orphans = LobbyKeeper(bot)
        self.in_time = InTime()  # replies wait for a board's post at most ~2 s

    @property
    def service(self) -> Any:
        return self.bot.service

    # -- answering ---------------------------------------------------------------------------

    @staticmethod
    async def send_private(interaction: discord.Interaction, **kwargs: Any) -> None:
        """An ephemeral followup. Its View is let go at once: the components are dynamic
        items, so nothing needs the View (discord.py would otherwise keep a 15-minute timer
        per ephemeral message)."""
        view = kwargs.get("view")
        await interaction.followup.send(ephemeral=True, **kwargs)
        if view is not None:
            view.stop()

    async def tell(self, interaction: discord.Interaction, text: str) -> None:
        """A private answer, whether or not the interaction was answered already."""
        text = fit(text)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def refuse(self, interaction: discord.Interaction, error: TableError) -> None:
        await self.tell(interaction, table_error_text(error, locale_of(interaction)))

    async def _publish_and_answer(
        self, interaction: discord.Interaction, work: Any, table: Table
    ) -> bool | None:
        """Post the board (`work`: a publisher.publish call) and tell the member if it can't
        be posted; None when the post took longer than the budget: the member is told it
        comes as soon as Discord accepts it, and it goes on in the background."""
        finished, ok = await self.in_time.wait(work)
        if not finished or (ok and self.publisher.waiting(table.id)):  # slow, or refused
            await self.tell(interaction, t(locale_of(interaction), SLOW_POST))
            return None
        await self._posted_or_explain(interaction, bool(ok), table)
        return bool(ok)

    async def _posted_or_explain(
        self, interaction: discord.Interaction, ok: bool, table: Table
    ) -> None:
        if not ok:
            loc = locale_of(interaction)
            await self.tell(interaction, t(loc, "Your move is saved, but I can't post the board "
                                           "in <#{place}>.", place=table.place_id) + " " +
                            missing_permission_text(loc, "send_messages", f"<#{table.place_id}>"))

    # -- /play and the lobby -------------------------------------------------------------------

    def _thread_plan(self, interaction: discord.Interaction) -> tuple[bool, str | None]:
        """(open a thread?, a note explaining why not when a thread was possible)."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel) or isinstance(channel, discord.Thread):
            return False, None
        perms = interaction.app_permissions
        loc = server_locale(interaction)
        for needed in ("create_public_threads", "send_messages_in_threads"):
            if not getattr(perms, needed):
                return False, missing_permission_text(loc, needed, channel.mention) + " " + t(
                    loc, "So the game is played in this channel instead of its own thread.")
        return True, None

    @staticmethod
    def _check_options(game: str, options: dict[str, Any]) -> str | None:
        """Ask the engine whether the options suit at least one seat count (None = fine)."""
        eng = get_engine(game)
        problems = []
        for players in range(eng.min_players, eng.max_players + 1):
            try:
                eng.new(players, options)
                return None
            except ValueError as err:
                problems.append(str(err))
        return problems[0] if problems else None

    async def open_table(
        self, interaction: discord.Interaction, game: str, options: dict[str, Any], *,
        shuffle: bool = True, side: int | None = None, deadline: int | None = None,
        absence: str | None = None, hints: bool = False,
    ) -> None:
        loc = locale_of(interaction)
        channel = interaction.channel
        if interaction.guild is None or channel is None:
            await self.tell(interaction, t(loc, "Tables can only be opened in a server channel."))
            return
        perms = interaction.app_permissions
        in_thread = isinstance(channel, discord.Thread)
        send = "send_messages_in_threads" if in_thread else "send_messages"
        if not getattr(perms, send):
            await self.tell(interaction, missing_permission_text(loc, send, channel.mention))
            return
        problem = self._check_options(game, options)
        if problem is not None:
            await self.tell(interaction, table_error_text(TableError("bad_options",
                                                                    reason=problem), loc))
            return
        try:
            await self.service.check_can_open(interaction.guild.id, interaction.user.id)
        except TableError as err:
            if err.code != "lobby_limit":
                await self.refuse(interaction, err)
                return
            # their own lobby elsewhere: offered for replacement if its message is gone
            await defer(interaction, ephemeral=True, thinking=True)
            await self.orphans.offer_or_refuse(
                interaction, await self.service.get(err.params["table_id"]), err)
            return
        await ensure_language(self.bot, interaction.guild.id)
        settings = await self.service.get_settings(interaction.guild.id)
        if settings.channel_policy == "thread":
            use_thread, note = self._thread_plan(interaction)
        else:
            use_thread, note = False, None
        busy = await self.service.active_in_channel(channel.id) if not use_thread else None
        if busy is not None:
            await defer(interaction, ephemeral=True, thinking=True)
            await self.orphans.offer_or_refuse(interaction, busy, TableError("channel_busy"))
            return
        await defer_publicly(interaction)
        public = server_locale(interaction)
        thread = None
        if use_thread:
            name = t(public, "{game} · {host}", game=game_title(public, game),
                     host=display_name(interaction.user))[:100]
            try:
                thread = await channel.create_thread(  # type: ignore[union-attr]
                    name=name, type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            except discord.HTTPException as err:
                log.info("no thread in %s: %s", channel.id, err)
                note = missing_permission_text(public, "create_public_threads", channel.mention)
        parent_id = channel.parent_id if in_thread else channel.id  # type: ignore[union-attr]
        thread_id = channel.id if in_thread else (thread.id if thread else None)
        try:
            table = await self.service.open_table(
                interaction.guild.id, parent_id, game, options, interaction.user.id,
                display_name(interaction.user), thread_id=thread_id, side=side,
                deadline_seconds=deadline, absence_rule=absence, hints=hints, one_per_host=True)
        except TableError as err:
            if thread is not None:
                await self._drop_thread(thread)
            # Rare (a race with another /play): the public "thinking" reply says why.
            await interaction.edit_original_response(content=table_error_text(err, public))
            return
        except BaseException:  # the database failed: no table, so no empty thread either
            if thread is not None:
                await self._drop_thread(thread)
            raise
        where = f"<#{table.place_id}>" if table.place_id != channel.id else None
        embed = lobby_embed(table, public, shuffle=shuffle, where=where, note=note)
        try:
            lobby = await interaction.followup.send(
                embed=embed, view=view_of(lobby_items(table, public, shuffle=shuffle)),
                wait=True)
        except discord.HTTPException:  # nobody can see or join it: it must not block
            await self.orphans.discard(table)
            if thread is not None:
                await self._drop_thread(thread)
            raise
        await self.orphans.remember(table, lobby)
        if thread is not None:
            try:
                await thread.send(t(public, "Table {table} for **{game}**: join from the lobby "
                                    "in {channel}; the boards will be posted here.",
                                    table=table.id, game=game_title(public, game),
                                    channel=channel.mention))
            except discord.HTTPException as err:
                log.info("table %s: thread greeting failed: %s", table.id, err)

    async def _drop_thread(self, thread: discord.Thread) -> None:
        try:
            await thread.delete()
        except discord.HTTPException:
            log.info("could not delete unused thread %s", thread.id)

    async def lobby_action(
        self, interaction: discord.Interaction, table_id: int, action: str
    ) -> None:
        await ensure_language(self.bot, interaction.guild_id)
        loc = server_locale(interaction)  # the lobby is read by everyone in the channel
        shuffle = shuffle_from_message(interaction.message)
        await defer(interaction)
        user = interaction.user
        result: MoveResult | None = None
        try:
            if action.startswith("cpu"):  # add or remove a computer player
                table = await lobby_computer(self.service, table_id, user.id, action)
            elif action.startswith("join"):
                side = int(action[4:]) if action[4:] else None
                table = await self.service.join(table_id, user.id, display_name(user), side=side)
            elif action == "leave":
                table = await self.service.leave(table_id, user.id)
            elif action == "cancel":
                settings = await self.service.get_settings(interaction.guild_id)
                can_manage = settings.may_cancel(
                    {role.id for role in getattr(user, "roles", [])},
                    can_manage=bool(getattr(interaction.permissions, "manage_messages", False)))
                # lobby_only: this old message can never end the game that followed it
                table = await self.service.cancel(table_id, user.id, can_manage=can_manage,
                                                  lobby_only=True)
            else:
                result = await self.service.start(table_id, user.id, shuffle=action == "start")
                table = result.table
        except TableError as err:
            await self.refuse(interaction, err)
            if err.code == "not_lobby":  # a stale lobby message: show what became of it
                await self._refresh_lobby(interaction, table_id, loc, shuffle)
            return
        where = f"<#{table.place_id}>" if table.place_id != interaction.channel_id else None
        try:
            await interaction.edit_original_response(
                embed=lobby_embed(table, loc, shuffle=shuffle, where=where),
                view=view_of(lobby_items(table, loc, shuffle=shuffle)))
        except discord.HTTPException as err:  # the game goes on; its buttons refuse politely
            log.warning("table %s: the lobby message could not be updated (%s)", table_id, err)
        if result is not None:
            await self._publish_and_answer(
                interaction, self.publisher.publish(result, interaction=interaction), table)

    async def _refresh_lobby(self, interaction: discord.Interaction, table_id: int,
                             loc: object, shuffle: bool) -> None:
        try:
            table = await self.service.get(table_id)
            where = f"<#{table.place_id}>" if table.place_id != interaction.channel_id else None
            await interaction.edit_original_response(
                embed=lobby_embed(table, loc, shuffle=shuffle, where=where), view=None)
        except (TableError, discord.HTTPException) as err:
            log.info("table %s: stale lobby not refreshed (%s)", table_id, err)

    # -- moves -------------------------------------------------------------------------------

    async def play_component(
        self, interaction: discord.Interaction, table_id: int, ply: int, move: str, where: str
    ) -> None:
        """A move button or select: `where` is c (channel board), e (ephemeral group
        choice) or h (a private hand, by DM or ephemeral)."""
        loc = locale_of(interaction)
        await defer(interaction)
        label = move
        try:
            result = await self.service.play(table_id, interaction.user.id, move, turn=ply)
        except TableError as err:
            await self.refuse(interaction, err)
            return
        if where == "h":
            label = t(loc, "You picked {card}. It stays face down until everyone has picked.",
                      card=move.split()[-1])
        elif where == "e":
            label = t(loc, "Played: {move}", move=move)
        if where in ("h", "e"):
            try:
                await interaction.edit_original_response(content=label, view=None)
            except discord.HTTPException as err:
                log.info("could not update a private message: %s", err)
        await self._publish_and_answer(
            interaction, self.publisher.publish(result, interaction=interaction), result.table)

    async def _running_here(self, interaction: discord.Interaction) -> Table | None:
        table = await self.service.active_in_channel(interaction.channel_id)
        if table is None or table.status != "running":
            return None
        return table

    async def play_command(self, interaction: discord.Interaction, move: str) -> None:
        """/move: always answered privately (a 6 nimmt! pick must stay hidden)."""
        loc = locale_of(interaction)
        if len(move) > MAX_MOVE_LENGTH:  # refused before anything reads it
            await self.refuse(interaction, TableError("too_long", max=MAX_MOVE_LENGTH))
            return
        await defer(interaction, ephemeral=True, thinking=True)
        table = await self.service.active_in_channel(interaction.channel_id)
        if table is None:
            await interaction.followup.send(t(loc, "No game is being played here. Start one "
                                              "with {/play}."), ephemeral=True)
            return
        seat = table.seat_of(interaction.user.id)
        label = move
        if seat is not None and table.status == "running":
            legal = self.service.legal_moves_for(table, interaction.user.id)
            if move in legal:
                label = describe(table.engine, table.state, seat, move, loc)
        try:
            result = await self.service.play(table.id, interaction.user.id, move)
        except TableError as err:
            await self.refuse(interaction, err)
            return
        if is_private_pick(table):
            text = t(loc, "You picked {card}. It stays face down until everyone has picked.",
                     card=move.split()[-1])
        else:
            text = t(loc, "Played: {move}", move=label)
        await interaction.followup.send(fit(text), ephemeral=True)
        await self._publish_and_answer(
            interaction, self.publisher.publish(result, interaction=interaction), table)

    async def move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for /move: the caller's legal moves in readable words; nothing when
        the database cannot answer in time (Discord drops late answers anyway)."""
        return await choices_in_time(self._move_choices(interaction, current[:100]))

    async def _move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await self._running_here(interaction)
        if table is None:
            return []
        seat = table.seat_of(interaction.user.id)
        moves = self.service.legal_moves_for(table, interaction.user.id)
        if seat is None or not moves:
            return []
        labels = describe_all(table.engine, table.state, seat, moves, locale_of(interaction))
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
            return await self.service.get(table_id)
        except TableError as err:
            await self.refuse(interaction, err)
            return None

    async def show_group(
        self, interaction: discord.Interaction, table_id: int, ply: int, group: str
    ) -> None:
        """A group (piece) was chosen: answer privately with the moves of that group."""
        loc = locale_of(interaction)
        table = await self._private_answer_about(interaction, table_id)
        if table is None:
            return
        refusal = self.service.refusal(table, interaction.user.id, ply)
        if refusal is not None:
            await self.refuse(interaction, refusal)
            return
        seat = table.seat_of(interaction.user.id)
        moves = self.service.legal_moves_for(table, interaction.user.id)
        label, chosen = groups(table.game, natural(moves), loc).get(group, ("", []))
        if not chosen or seat is None:
            await self.tell(interaction, t(loc, "That choice has no moves any more; please use "
                                           "the latest board."))
            return
        labels = describe_all(table.engine, table.state, seat, chosen, loc)
        items = [
            MoveSelect(table.id, table.ply, "e", select_options(part, labels),
                       placeholder=t(loc, "Choose the destination…"), row=index)
            for index, part in enumerate(chunks(chosen)[:MAX_ROWS])
        ]
        await self.send_private(interaction, content=t(loc, "{group}: where to?", group=label),
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
                await self.tell(interaction, t(loc, "You already picked {card} this turn. "
                                               "Waiting for the others…", card=card))
                return
        refusal = self.service.refusal(table, interaction.user.id, ply)
        if refusal is None and (seat is None or not is_private_pick(table)):
            refusal = TableError("stale")
        if refusal is not None:
            await self.refuse(interaction, refusal)
            return
        assert seat is not None
        moves = self.service.legal_moves_for(table, interaction.user.id)
        file = await hands.hand_file(table, seat, loc)
        kwargs: dict[str, Any] = {
            "content": hands.hand_text(table, seat, loc, f"<#{table.place_id}>"),
            "view": view_of(hands.hand_items(table, seat, moves, loc)),
        }
        if file is not None:
            kwargs["file"] = file
        await self.send_private(interaction, **kwargs)

    # -- /board, /resign -----------------------------------------------------------------------

    async def repost(self, interaction: discord.Interaction) -> None:
        loc = locale_of(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        table = await self.service.active_in_channel(interaction.channel_id)
        if table is None:
            await self.tell(interaction, t(loc, "No game is being played here. Start one with "
                                           "{/play}."))
            return
        if table.status == "lobby":
            await self.tell(interaction, t(loc, "This table hasn't started yet: the host starts "
                                           "it from the lobby message."))
            return
        wait = self._board_cooldown(interaction, table)
        if wait:
            seconds = max(1, round(wait))
            await self.tell(interaction, tn(loc, "Spectators can show the board once a minute; "
                                            "please wait {seconds} second.", "Spectators can "
                                            "show the board once a minute; please wait "
                                            "{seconds} seconds.", seconds, seconds=seconds))
            return
        finished, ok = await self.in_time.wait(self.publisher.publish(table.id, force=True))
        if not finished or (ok and self.publisher.waiting(table.id)):  # slow, or refused
            await self.tell(interaction, t(loc, SLOW_POST))
        elif ok:
            await self.tell(interaction, t(loc, "Here is the board again."))
        else:
            await self._posted_or_explain(interaction, False, table)

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
            await self.tell(interaction, t(loc, "No game is being played here."))
            return
        try:
            result = await self.service.resign(table.id, interaction.user.id)
        except TableError as err:
            await self.refuse(interaction, err)
            return
        await self.tell(interaction, t(loc, "You resigned. Thanks for playing!"))
        await self._publish_and_answer(
            interaction, self.publisher.publish(result, interaction=interaction), table)

    # -- restart -----------------------------------------------------------------------------

    async def recover(self) -> None:
        await self.bot.wait_until_ready()
        posted = await self.publisher.recover()
        if posted:
            log.info("posted %d board(s) left unposted before the restart", posted)
