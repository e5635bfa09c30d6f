"""/play <game> and the lobby's buttons: open a table (in its own thread when the server
wants one), join, leave, add computers, start; a start posts the first board."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final

import discord

from bot.features.common.badges import game_title
from bot.features.common.components import view_of
from bot.features.common.errors import missing_permission_text, table_error_text
from bot.features.common.faults import defer, defer_publicly
from bot.features.common.replies import display_name, refuse, tell
from bot.features.common.services import Services
from bot.features.lobby.computers import lobby_computer
from bot.features.lobby.invites import (
    LineEdit,
    invitation_line,
    invite_problem,
    invited_mentions,
    line_text,
    refusal_text,
)
from bot.features.lobby.lobbies import LobbyKeeper
from bot.features.lobby.lobby import lobby_embed, lobby_items, shuffle_from_message
from bot.features.table.in_time import InTime
from bot.features.table.moves import publish_and_answer
from bot.features.table.publish import Publisher
from bot.i18n import t
from bot.storage.lobbies import InvitationRow
from bot.tables import MoveResult, Table, TableError
from bot.tables.invitations import InvitationError, Invitations
from engines import get_engine
from engines.base import Options

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 1440


class LobbyActions:
    """The lobby feature's handlers (its buttons' `LobbyPresses`)."""

    def __init__(self, services: Services, keeper: LobbyKeeper, publisher: Publisher,
                 in_time: InTime, invitations: Invitations) -> None:
        self.service = services.tables
        self.languages = services.languages
        self.orphans = keeper
        self.publisher = publisher
        self.in_time = in_time
        self.invitations = invitations

    def _thread_plan(self, interaction: discord.Interaction) -> tuple[bool, str | None]:
        """(open a thread?, a note explaining why not when a thread was possible)."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel) or isinstance(channel, discord.Thread):
            return False, None
        perms = interaction.app_permissions
        loc = self.languages.for_interaction(interaction)
        for needed in ("create_public_threads", "send_messages_in_threads"):
            if not getattr(perms, needed):
                return False, missing_permission_text(loc, needed, channel.mention) + " " + t(
                    loc, "So the game is played in this channel instead of its own thread.")
        return True, None

    @staticmethod
    def _check_options(game: str, options: Options) -> str | None:
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
        self, interaction: discord.Interaction, game: str, options: Options, *,
        shuffle: bool = True, side: int | None = None, deadline: int | None = None,
        absence: str | None = None, hints: bool = False,
        invites: Sequence[discord.abc.User] = (),
    ) -> None:
        """/play <game>: a lobby here (or in its own thread), the host seated, and a seat held
        for each member in `invites` (each mentioned once on the lobby message)."""
        loc = interaction.locale
        channel = interaction.channel
        if interaction.guild is None or channel is None:
            await tell(interaction, t(loc, "Tables can only be opened in a server channel."))
            return
        assert not isinstance(channel, discord.abc.PrivateChannel)  # in a server
        perms = interaction.app_permissions
        in_thread = isinstance(channel, discord.Thread)
        send = "send_messages_in_threads" if in_thread else "send_messages"
        if not getattr(perms, send):
            await tell(interaction, missing_permission_text(loc, send, channel.mention))
            return
        refused = invite_problem(loc, game, interaction.user, invites)
        if refused is not None:
            await tell(interaction, refused)
            return
        problem = self._check_options(game, options)
        if problem is not None:
            await tell(interaction, table_error_text(TableError("bad_options",
                                                                    reason=problem), loc))
            return
        try:
            await self.service.upkeep.check_can_open(interaction.guild.id, interaction.user.id)
        except TableError as err:
            if err.code != "lobby_limit":
                await refuse(interaction, err)
                return
            # their own lobby elsewhere: offered for replacement if its message is gone
            await defer(interaction, ephemeral=True, thinking=True)
            await self.orphans.offer_or_refuse(
                interaction, await self.service.get(err.params["table_id"]), err)
            return
        await self.languages.ensure(interaction.guild.id)
        settings = await self.service.settings.get(interaction.guild.id)
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
        public = self.languages.for_interaction(interaction)
        thread = None
        if use_thread:
            name = t(public, "{game} · {host}", game=game_title(public, game),
                     host=display_name(interaction.user))[:100]
            assert isinstance(channel, discord.TextChannel)  # as _thread_plan asked
            try:
                thread = await channel.create_thread(
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
        held: list[InvitationRow] = []
        try:
            if invites:
                held = await self.invitations.invite(
                    table.id, table.host_id,
                    [(member.id, display_name(member), None) for member in invites])
        except BaseException:  # the database failed: the lobby must not block anything
            await self.orphans.discard(table)
            if thread is not None:
                await self._drop_thread(thread)
            raise
        where = f"<#{table.place_id}>" if table.place_id != channel.id else None
        embed = lobby_embed(table, public, shuffle=shuffle, where=where, note=note, held=held)
        line = invitation_line(table, held, public)
        text = line_text(line)
        try:
            lobby = await interaction.followup.send(
                embed=embed, view=view_of(lobby_items(table, public, shuffle=shuffle, held=held)),
                allowed_mentions=invited_mentions(held), wait=True, **text)
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
        # the lobby is read by everyone in the channel
        loc = await self.languages.of_interaction(interaction)
        shuffle = shuffle_from_message(interaction.message)
        await defer(interaction)
        result: MoveResult | None = None
        try:
            table, result = await self._act(interaction, table_id, action)
        except TableError as err:
            await refuse(interaction, err)
            if err.code == "not_lobby":  # a stale lobby message: show what became of it
                await self._refresh_lobby(interaction, table_id, loc, shuffle)
            return
        except InvitationError as err:
            await tell(interaction, refusal_text(err, interaction.locale))
            return
        if action == "decline":
            await tell(interaction, t(interaction.locale, "You declined the invitation to "
                                      "table {table}; your seat is free again.", table=table_id))
        held = await self.invitations.pending(table.id) if table.status == "lobby" else []
        where = f"<#{table.place_id}>" if table.place_id != interaction.channel_id else None
        edits: LineEdit = {}
        if not held:  # the invitation line is answered: only the lobby stays
            edits["content"] = None
        try:
            await interaction.edit_original_response(
                embed=lobby_embed(table, loc, shuffle=shuffle, where=where, held=held),
                view=view_of(lobby_items(table, loc, shuffle=shuffle, held=held)), **edits)
        except discord.HTTPException as err:  # the game goes on; its buttons refuse politely
            log.warning("table %s: the lobby message could not be updated (%s)", table_id, err)
        if result is not None:
            await publish_and_answer(interaction, self.in_time, self.publisher,
                                     self.publisher.publish(result, interaction=interaction),
                                     table)

    async def _act(self, interaction: discord.Interaction, table_id: int,
                   action: str) -> tuple[Table, MoveResult | None]:
        """Do what a lobby button asks: the table afterwards (and the start's first moves).
        Raises TableError or InvitationError for a refusal."""
        user = interaction.user
        if action.startswith("cpu"):  # add or remove a computer player
            if action != "cpuremove":  # not on a seat held for an invited member
                table = await self.service.get(table_id)
                if user.id == table.host_id:
                    await self.invitations.check_computer(table)
            return await lobby_computer(self.service, table_id, user.id, action), None
        if action == "accept":
            return await self.invitations.accept(table_id, user.id, display_name(user)), None
        if action == "decline":
            return await self.invitations.decline(table_id, user.id), None
        if action == "uninvite":
            return await self.invitations.withdraw(table_id, user.id), None
        invited = {row.user_id for row in await self.invitations.pending(table_id)}
        if action.startswith("join"):
            side = int(action[4:]) if action[4:] else None
            if user.id in invited and side is None:  # Join from an invited member: Accept
                return await self.invitations.accept(table_id, user.id, display_name(user)), None
            await self.invitations.check_join(await self.service.get(table_id), user.id, side)
            table = await self.service.join(table_id, user.id, display_name(user), side=side)
            if user.id in invited:  # seated on a side of their choice: the invitation is used
                await self.invitations.forget(table_id, user.id)
            return table, None
        if action == "leave":
            if user.id in invited:  # not seated yet: Leave declines
                return await self.invitations.decline(table_id, user.id), None
            table = await self.service.leave(table_id, user.id)
            if table.status != "lobby":  # the host left: the lobby is cancelled
                await self.invitations.forget(table_id)
            return table, None
        if action == "cancel":
            assert interaction.guild_id is not None  # lobby messages are in servers
            settings = await self.service.settings.get(interaction.guild_id)
            can_manage = settings.may_cancel(
                {role.id for role in getattr(user, "roles", [])},
                can_manage=bool(getattr(interaction.permissions, "manage_messages", False)))
            # lobby_only: this old message can never end the game that followed it
            table = await self.service.cancel(table_id, user.id, can_manage=can_manage,
                                              lobby_only=True)
            await self.invitations.forget(table_id)
            return table, None
        table = await self.service.get(table_id)
        if table.status == "lobby" and user.id == table.host_id:
            await self.invitations.check_start(table_id)
        result = await self.service.start(table_id, user.id, shuffle=action == "start")
        return result.table, result

    async def _refresh_lobby(self, interaction: discord.Interaction, table_id: int,
                             loc: object, shuffle: bool) -> None:
        try:
            table = await self.service.get(table_id)
            where = f"<#{table.place_id}>" if table.place_id != interaction.channel_id else None
            await interaction.edit_original_response(
                content=None, embed=lobby_embed(table, loc, shuffle=shuffle, where=where),
                view=None)
        except (TableError, discord.HTTPException) as err:
            log.info("table %s: stale lobby not refreshed (%s)", table_id, err)

