"""No table blocks a channel: orphaned lobbies, expired lobbies and /cancel, on Discord.

- A lobby's message is remembered once posted (`remember`); if it could not be posted the
  lobby is cancelled at once (`discard`). A /play that finds a lobby whose message is gone
  (deleted, or never posted because the process died) offers to replace it: a private
  "Close that lobby" button (`ReplaceLobby`).
- Expired lobbies (the sweeper, `expire`): the lobby message is edited to say so.
- /cancel (`cancel_here`): the host cancels a lobby; in a running game a member with Manage
  Messages or the server's cancel role ends it unrated, its log kept; the channel is told.
- A table's end (`edit_lobby`, `show_result`): the lobby message says what became of the
  table (expired, cancelled, or the result with a link to the final board), without buttons.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Protocol

import discord
from discord import ui

from bot.features.common.components import Rebuilt, handler, view_of
from bot.features.common.errors import table_error_text
from bot.features.common.faults import defer, guarded
from bot.features.common.places import Places
from bot.features.common.services import Services
from bot.features.lobby.lobby import lobby_embed
from bot.features.table.board import final_lines
from bot.i18n import N_, t, tn
from bot.tables import GuildSettings, Table, TableError
from bot.tables.invitations import Invitations

log = logging.getLogger(__name__)

ORPHAN_GRACE = timedelta(minutes=1)  # a lobby without its message for this long is orphaned


def _may_cancel(interaction: discord.Interaction, settings: GuildSettings) -> bool:
    roles = {role.id for role in getattr(interaction.user, "roles", [])}
    return settings.may_cancel(
        roles, can_manage=bool(getattr(interaction.permissions, "manage_messages", False)))


def _expired_note(locale: object, minutes: int) -> str:
    return tn(locale, "This lobby expired: nobody started it within {minutes} minute. Open a "
              "new one with {/play}.", "This lobby expired: nobody started it within "
              "{minutes} minutes. Open a new one with {/play}.", minutes, minutes=minutes)


class LobbyKeeper:
    def __init__(self, services: Services, places: Places, invitations: Invitations) -> None:
        self.service = services.tables
        self.languages = services.languages
        self.owns_guild = services.owns_guild
        self.places = places
        self.invitations = invitations

    # -- the lobby message -------------------------------------------------------------------

    async def remember(self, table: Table, message: discord.Message) -> None:
        try:
            await self.service.upkeep.set_lobby_message(table.id, message.channel.id, message.id)
        except Exception as err:  # the lobby works; only expiry cannot edit it then
            log.warning("table %s: lobby message not recorded (%r)", table.id, err)

    async def discard(self, table: Table) -> None:
        """The lobby message could not be posted: cancel the lobby (nobody can join it)."""
        try:
            await self.service.cancel(table.id, table.host_id, lobby_only=True)
        except Exception as err:
            log.warning("table %s: unposted lobby not cancelled (%r)", table.id, err)

    async def message_gone(self, table: Table) -> bool:
        """Whether the lobby's message is gone: deleted, or never posted long enough ago."""
        if table.lobby_message_id is None or table.lobby_channel_id is None:
            return self.service.now() - table.created_at >= ORPHAN_GRACE
        channel = await self.places.channel(table.lobby_channel_id)
        if channel is None:
            return False  # unknown (Discord failing): not gone for sure
        try:
            await channel.fetch_message(table.lobby_message_id)
        except discord.NotFound:
            return True
        except discord.HTTPException:
            return False
        return False

    async def offer_or_refuse(self, interaction: discord.Interaction, busy: Table,
                              refusal: TableError) -> None:
        """/play found a table in its way (here, or the member's own lobby elsewhere): offer
        to close it if it is a lobby whose message is gone, else refuse (the interaction is
        deferred privately)."""
        loc = interaction.locale
        if busy.status == "lobby" and await self.message_gone(busy):
            text = t(loc, "The lobby of table {table} in {place} lost its message, so nobody "
                     "can join it. Close it, then use {/play} again.", table=busy.id,
                     place=f"<#{busy.place_id}>")
            button = ReplaceLobby(busy.id, label=t(loc, "Close that lobby"))
            await interaction.followup.send(text, view=view_of([button]), ephemeral=True)
            return
        await interaction.followup.send(table_error_text(refusal, loc), ephemeral=True)

    async def replace(self, interaction: discord.Interaction, table_id: int) -> None:
        """The "Close that lobby" button: only while it is a lobby whose message is gone."""
        loc = interaction.locale
        await defer(interaction, ephemeral=True, thinking=True)
        try:
            table = await self.service.get(table_id)
            if table.status != "lobby" or not await self.message_gone(table):
                raise TableError("not_lobby")
            await self.service.cancel(table_id, interaction.user.id, can_manage=True,
                                      lobby_only=True)
        except TableError as err:
            await interaction.followup.send(table_error_text(err, loc), ephemeral=True)
            return
        await interaction.followup.send(t(loc, "Closed. You can open a table with {/play} "
                                          "now."), ephemeral=True)

    # -- expiry ------------------------------------------------------------------------------

    async def expire(self) -> int:
        """Cancel the lobbies that waited too long (this process's servers) and say so on
        their messages; returns how many."""
        ended = await self.service.upkeep.expire_lobbies(guilds=self.owns_guild)
        for table, minutes in ended:
            await self.invitations.forget(table.id)
            await self.edit_lobby(table, functools.partial(_expired_note, minutes=minutes))
        return len(ended)

    async def edit_lobby(self, table: Table, note: str | Callable[[object], str],
                         **params: object) -> None:
        """Show the table's end on its lobby message, without buttons (`note`: a msgid, or
        the text for a locale)."""

        def embed(loc: object) -> discord.Embed:
            text = note(loc) if callable(note) else t(loc, note, **params)
            return lobby_embed(table, loc, note=text)

        await self._edit(table, embed)
    async def show_result(self, table: Table, board_url: str | None) -> None:
        """A finished table's lobby message: the winner, the standings and a link to the
        final board."""

        def embed(loc: object) -> discord.Embed:
            shown = lobby_embed(table, loc)
            lines = final_lines(table, loc)
            if board_url is not None:
                lines.append(t(loc, "[See the final board]({url})", url=board_url))
            shown.add_field(name=t(loc, "Result"), value="\n".join(lines)[:1024] or "—",
                            inline=False)
            return shown

        await self._edit(table, embed)

    async def _edit(self, table: Table, embed: Callable[[object], discord.Embed]) -> None:
        if table.lobby_message_id is None or table.lobby_channel_id is None:
            return
        channel = await self.places.channel(table.lobby_channel_id)
        if channel is None:
            return
        loc = self.places.locale_of(channel)
        try:  # no text: an invitation line there is answered once the lobby has ended
            await channel.get_partial_message(table.lobby_message_id).edit(
                content=None, embed=embed(loc), view=None)
        except discord.HTTPException as err:
            log.info("table %s: lobby message not edited (%s)", table.id, err)

    # -- /cancel -----------------------------------------------------------------------------

    async def cancel_here(self, interaction: discord.Interaction) -> None:
        loc = interaction.locale
        await defer(interaction, ephemeral=True, thinking=True)
        table_id = await self.service.store.active_id_in_channel(interaction.channel_id)
        if table_id is None or interaction.guild_id is None:
            await interaction.followup.send(t(loc, "No game is being played here."),
                                            ephemeral=True)
            return
        settings = await self.service.settings.get(interaction.guild_id)
        try:
            table = await self.service.cancel(table_id, interaction.user.id,
                                              can_manage=_may_cancel(interaction, settings))
        except TableError as err:
            if err.code == "not_allowed":
                text = t(loc, "Only the host can cancel a lobby; a running game can be "
                         "cancelled by members with Manage Messages or the server's cancel "
                         "role.")
            else:
                text = table_error_text(err, loc)
            await interaction.followup.send(text, ephemeral=True)
            return
        await interaction.followup.send(t(loc, "Table {table} is cancelled.", table=table.id),
                                        ephemeral=True)
        public = await self.languages.of_interaction(interaction)
        name = getattr(interaction.user, "display_name", interaction.user.name)
        if table.started_at is not None:
            text = t(public, "Table {table} was cancelled by {name}. The game is unrated; its "
                     "moves are kept.", table=table.id, name=discord.utils.escape_markdown(name))
            channel = await self.places.channel(table.place_id)
            if channel is not None:
                try:
                    await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
                except discord.HTTPException as err:
                    log.info("table %s: cancel notice not posted (%s)", table.id, err)
        else:
            await self.invitations.forget(table.id)
        await self.edit_lobby(table, N_("Cancelled by {name} with {/cancel}."), name=name)


class ReplaceLobby(Rebuilt, ui.DynamicItem[ui.Button], template=r"lobbyclose:(?P<table>\d+)"):
    """"Close that lobby": offered privately by /play for a lobby whose message is gone."""

    def __init__(self, table_id: int, *, label: str = "") -> None:
        super().__init__(ui.Button(label=label or None, style=discord.ButtonStyle.danger,
                                   custom_id=f"lobbyclose:{table_id}"))
        self.table_id = table_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await handler(interaction, LobbyReplacer).replace(interaction, self.table_id)


class LobbyReplacer(Protocol):
    async def replace(self, interaction: discord.Interaction, table_id: int) -> None: ...
