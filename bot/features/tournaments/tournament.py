"""Tournaments on Discord: the sign-up message and its buttons, the places of the tables,
the standings and bracket pictures, and the runner that steps tournaments when they are due.

Custom ids: `tour:<id>:<action>` (join, leave, checkin): the tournament is looked up when a
button is pressed, so sign-up messages keep working after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

import discord
from discord import ui

from bot.features.common.badges import COLOUR, clean_name, game_title, player_name
from bot.features.common.components import Item, Rebuilt, handler
from bot.features.common.drawing import draw
from bot.features.common.errors import table_error_text
from bot.features.common.faults import defer
from bot.features.common.places import Place, Places
from bot.features.common.replies import tell
from bot.features.common.services import Services
from bot.features.settings.settings import deadline_label
from bot.features.table.publish import Publisher
from bot.features.tournaments.pictures import localised
from bot.features.tournaments.seasons import Seasons
from bot.i18n import N_, t, tn
from bot.storage.tournaments import GameRow
from bot.tables import MoveResult, TableError
from bot.tournaments import pairing
from bot.tournaments.service import Tournament, TournamentError, TournamentService, parse_start
from engines.base import Options, Record
from renderers.tournament import points_text, render_bracket, render_standings

log = logging.getLogger(__name__)

FORMAT_NAMES = {
    "swiss": N_("Swiss"),
    "round_robin": N_("round robin"),
    "elimination": N_("single elimination"),
    "tables": N_("multi-table rounds"),
}
STATUS_NAMES = {
    "signup": N_("open for sign-up"),
    "running": N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
ERRORS = {
    "not_found": N_("I can't find that tournament."),
    "bad_format": N_("This game can't be played in that format."),
    "bad_limit": N_("The seat limit must be from {low} to {high}."),
    "bad_rounds": N_("The number of rounds must be from 1 to {high}."),
    "bad_deadline": N_("Please choose one of the offered times per move."),
    "bad_start": N_("I can't read the start time “{text}”. Use a Discord timestamp "
                    "(<t:1767225600:F>), minutes from now (30, 2h, 1d) or a date like "
                    "2026-12-24 19:00 (UTC)."),
    "started": N_("Sorry, this tournament has already started, so it can't take new "
                  "players."),
    "over": N_("This tournament is already over."),
    "full": N_("Sorry, this tournament is full ({limit} players)."),
    "already": N_("You are already signed up."),
    "not_entered": N_("That player isn't signed up for this tournament."),
    "started_leave": N_("The tournament has started: ask the organiser to drop you."),
    "checked_in": N_("You have already checked in."),
    "dropped": N_("That player was already dropped."),
    "not_organiser": N_("Only members with Manage Server or the organiser role can run "
                        "tournaments."),
    "no_thread": N_("I can't open threads in this channel: I need the Create Public Threads "
                    "and Send Messages in Threads permissions here."),
}


def error_text(err: TournamentError | TableError, locale: object) -> str:
    if isinstance(err, TableError):
        return table_error_text(err, locale)
    return t(locale, ERRORS.get(err.code, ERRORS["not_found"]), **err.params)


def entrant_name(locale: object, user_id: int, name: str) -> str:
    return player_name(locale, user_id, clean_name(name))


def title_of(tournament: Tournament, locale: object) -> str:
    return t(locale, "{game} tournament #{id}", game=game_title(locale, tournament.row.game),
             id=tournament.id)


# -- the sign-up message ------------------------------------------------------------------------


class TournamentPresses(Protocol):
    async def button(self, interaction: discord.Interaction, tournament_id: int,
                     action: str) -> None: ...


class TournamentButton(Rebuilt, ui.DynamicItem[ui.Button],
                       template=r"tour:(?P<id>\d+):(?P<action>join|leave|checkin)"):
    custom_id_numbers = frozenset({"id"})

    def __init__(self, tournament_id: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(ui.Button(label=label or None, style=style,
                                   custom_id=f"tour:{tournament_id}:{action}"))
        self.tournament_id, self.action = tournament_id, action

    async def callback(self, interaction: discord.Interaction) -> None:
        await handler(interaction, TournamentPresses).button(
            interaction, self.tournament_id, self.action)


def signup_embed(tournament: Tournament, locale: object) -> discord.Embed:
    row = tournament.row
    start = int(row.starts_at.timestamp())
    lines = [
        t(locale, "Format: {format}", format=t(locale, FORMAT_NAMES[row.format])),
        t(locale, "Starts: <t:{at}:F> (<t:{at}:R>)", at=start),
        t(locale, "Time per move: {deadline}",
          deadline=deadline_label(locale, row.deadline_seconds)),
        t(locale, "Status: {status}", status=t(locale, STATUS_NAMES[row.status])),
    ]
    if row.rounds:
        lines.insert(1, t(locale, "Rounds: {rounds}", rounds=row.rounds))
    if row.check_in and row.status == "signup":
        lines.append(t(locale, "Check-in is on: press **Check in** before the start, or "
                       "your place is given up."))
    embed = discord.Embed(title=title_of(tournament, locale), description="\n".join(lines),
                          colour=COLOUR)
    names = []
    for e in tournament.seeded if row.status != "signup" else tournament.row.entrants:
        mark = " ✅" if row.check_in and e.checked_in and row.status == "signup" else ""
        names.append(entrant_name(locale, e.user_id, e.name) + mark)
    embed.add_field(name=t(locale, "Players: {count} of {limit}",
                           count=len(row.entrants), limit=row.seat_limit),
                    value=", ".join(names)[:1024] or "—", inline=False)
    return embed


def signup_items(tournament: Tournament, locale: object) -> list[Item]:
    if tournament.row.status != "signup":
        return []
    tid = tournament.id
    items: list[Item] = [
        TournamentButton(tid, "join", label=t(locale, "Join"), style=discord.ButtonStyle.success),
        TournamentButton(tid, "leave", label=t(locale, "Leave")),
    ]
    if tournament.row.check_in:
        items.append(TournamentButton(tid, "checkin", label=t(locale, "Check in"),
                                      style=discord.ButtonStyle.primary))
    return items


def view_with(items: list[Item]) -> ui.View:
    view = ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# -- standings and bracket -----------------------------------------------------------------------


def standings_view(tournament: Tournament, final: bool, locale: object) -> Record:
    seeds = {e.user_id: i for i, e in enumerate(tournament.seeded)}
    dropped = {e.user_id for e in tournament.row.entrants if e.dropped}
    return {
        "game": game_title(locale, tournament.row.game),
        "round": tournament.row.round, "rounds": tournament.row.rounds, "final": final,
        "tiebreaks": tournament.row.format in ("swiss", "round_robin"),
        "rows": [{"rank": s.rank,
                  "name": entrant_name(locale, s.player, tournament.name_of(s.player)),
                  "seed": seeds.get(s.player, 0), "points": s.points,
                  "buchholz": s.buchholz, "sonneborn": s.sonneborn, "games": s.games,
                  "dropped": s.player in dropped} for s in tournament.standings],
    }


def bracket_view(tournament: Tournament, locale: object) -> Record:
    seeds = [e.user_id for e in tournament.seeded]
    index = {p: i for i, p in enumerate(seeds)}
    rounds: list[list[Record]] = []
    for number in range(1, tournament.row.round + 1):
        games = []
        for game in tournament.round_games(number):
            winner = None
            if game.points is not None:
                won = pairing.winner(pairing.Result(game.players, game.points), seeds)
                winner = game.players.index(won)
            games.append({"players": [{"name": entrant_name(locale, p, tournament.name_of(p)),
                                       "seed": index.get(p, 0)} for p in game.players],
                          "winner": winner})
        rounds.append(games)
    while rounds and len(rounds) < tournament.row.rounds:  # the rounds still to come
        count = max(1, len(rounds[-1]) // 2)
        rounds.append([{"players": [None, None], "winner": None} for _ in range(count)])
    return {"game": game_title(locale, tournament.row.game),
            "round": tournament.row.round, "rounds": rounds}


def standings_text(tournament: Tournament, locale: object, limit: int = 20) -> str:
    lines = []
    for s in tournament.standings[:limit]:
        lines.append(tn(locale, "{rank}. {name}: {points} point", "{rank}. {name}: {points} "
                        "points", 1 if s.points == 1 else 2, rank=s.rank,
                        name=entrant_name(locale, s.player, tournament.name_of(s.player)),
                        points=points_text(s.points)))
    return "\n".join(lines)


async def pictures(tournament: Tournament, locale: object, final: bool) -> list[discord.File]:
    """The standings picture (and the bracket for single elimination)."""
    data = await _render(render_standings, standings_view(tournament, final, locale), locale)
    files = [discord.File(io.BytesIO(data), filename="standings.png")]
    if tournament.row.format == "elimination":
        data = await _render(render_bracket, bracket_view(tournament, locale), locale)
        files.append(discord.File(io.BytesIO(data), filename="bracket.png"))
    return files


async def _render(render: Callable[..., bytes], view: Record, locale: object) -> bytes:
    return await draw(localised, render, view, locale)


# -- the Discord side of the service ------------------------------------------------------------


class TournamentUI:
    """Buttons and commands of tournaments, and the service's Host (places and posts)."""

    def __init__(self, services: Services, service: TournamentService, places: Places,
                 publisher: Publisher, seasons: Seasons,
                 wake_deadlines: Callable[[], None]) -> None:
        self.tables, self.languages, self.config = (
            services.tables, services.languages, services.config)
        self.service, self.places, self.publisher = service, places, publisher
        self.seasons, self.wake_deadlines = seasons, wake_deadlines
        self._pass: asyncio.Task[None] | None = None
        self._again = False
        service.host = self
        service.add_listener(self.wake)

    # -- permissions -----------------------------------------------------------------------

    async def is_organiser(self, interaction: discord.Interaction) -> bool:
        perms = interaction.permissions
        if perms.manage_guild or perms.administrator:
            return True
        if interaction.guild_id is None:  # the commands are guild-only
            return False
        settings = await self.tables.settings.get(interaction.guild_id)
        roles = {role.id for role in getattr(interaction.user, "roles", [])}
        return settings.organiser_role_id is not None and settings.organiser_role_id in roles

    async def refuse(self, interaction: discord.Interaction,
                     err: TournamentError | TableError) -> None:
        await tell(interaction, error_text(err, interaction.locale))

    # -- commands --------------------------------------------------------------------------

    async def create(self, interaction: discord.Interaction, game: str, fmt: str,
                     options: Options, start: str | None, seats: int,
                     deadline: int | None, rounds: int | None, check_in: bool) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if not await self.is_organiser(interaction):
            await self.refuse(interaction, TournamentError("not_organiser"))
            return
        channel = interaction.channel
        perms = interaction.app_permissions
        if isinstance(channel, discord.Thread) or not (
                perms.create_public_threads and perms.send_messages_in_threads):
            await self.refuse(interaction, TournamentError("no_thread"))
            return
        await self.languages.ensure(interaction.guild_id)
        settings = await self.tables.settings.get(interaction.guild_id)
        try:
            when = parse_start(start, self.service.now())
            tournament = await self.service.create(
                interaction.guild_id, interaction.channel_id, interaction.user.id, game, fmt,
                options, when, seats, deadline or settings.deadline_seconds, rounds, check_in)
        except (TournamentError, TableError) as err:
            await self.refuse(interaction, err)
            return
        loc = self.languages.for_interaction(interaction)
        await interaction.response.send_message(
            embed=signup_embed(tournament, loc), view=view_with(signup_items(tournament, loc)))
        message = await interaction.original_response()
        await self.service.set_message(tournament.id, message.id)

    async def button(self, interaction: discord.Interaction, tournament_id: int,
                     action: str) -> None:
        await self.languages.ensure(interaction.guild_id)
        user = interaction.user
        name = getattr(user, "display_name", None) or user.name
        try:
            if action == "join":
                tournament = await self.service.join(tournament_id, user.id, name)
            elif action == "leave":
                tournament = await self.service.leave(tournament_id, user.id)
            else:
                tournament = await self.service.check_in(tournament_id, user.id)
        except TournamentError as err:
            await self.refuse(interaction, err)
            return
        loc = self.languages.for_interaction(interaction)
        await interaction.response.edit_message(embed=signup_embed(tournament, loc),
                                                view=view_with(signup_items(tournament, loc)))

    async def organise(self, interaction: discord.Interaction, tournament_id: int,
                       action: str, *, member: discord.Member | None = None,
                       level: str = "normal") -> None:
        """cancel, drop (member), computer (level), start: the organiser's commands."""
        loc = interaction.locale
        if not await self.is_organiser(interaction):
            await self.refuse(interaction, TournamentError("not_organiser"))
            return
        await defer(interaction, ephemeral=True, thinking=True)
        try:
            current = await self.service.get(tournament_id)
            if current.row.guild_id != interaction.guild_id:
                raise TournamentError("not_found")
            if action == "cancel":
                tournament = await self.service.cancel(tournament_id)
                await self.announce(tournament, "cancelled")
                done = t(loc, "Tournament #{id} is cancelled.", id=tournament_id)
            elif action == "drop":
                assert member is not None
                tournament = await self.service.drop(tournament_id, member.id)
                done = t(loc, "{name} is dropped from tournament #{id}.",
                         name=clean_name(member.display_name), id=tournament_id)
            elif action == "computer":
                tournament = await self.service.add_computer(tournament_id, level)
                done = t(loc, "A computer player joined tournament #{id}.", id=tournament_id)
            else:
                tournament = await self.service.start_now(tournament_id)
                done = t(loc, "Tournament #{id} starts now.", id=tournament_id)
        except (TournamentError, TableError) as err:
            await self.refuse(interaction, err)
            return
        if tournament.row.status == "signup":
            await self.update_signup(tournament)
        await interaction.followup.send(done, ephemeral=True)

    async def standings(self, interaction: discord.Interaction,
                        tournament_id: int | None) -> None:
        assert interaction.guild_id is not None
        await self.languages.ensure(interaction.guild_id)
        loc = self.languages.for_interaction(interaction)
        await defer(interaction, thinking=True)
        try:
            if tournament_id is None:
                found = (await self.service.listing(interaction.guild_id)
                         or await self.service.listing(interaction.guild_id, finished=True))
                if not found:
                    raise TournamentError("not_found")
                tournament_id = found[0].id
            tournament = await self.service.get(tournament_id)
            if tournament.row.guild_id != interaction.guild_id:
                raise TournamentError("not_found")
        except TournamentError as err:
            await interaction.followup.send(error_text(err, loc))
            return
        if tournament.row.status == "signup":
            await interaction.followup.send(embed=signup_embed(tournament, loc))
            return
        final = tournament.row.status == "finished"
        await interaction.followup.send(
            content=f"**{title_of(tournament, loc)}**\n" + standings_text(tournament, loc),
            files=await pictures(tournament, loc, final))

    async def listing(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        loc = interaction.locale
        rows = await self.service.listing(interaction.guild_id)
        if not rows:
            text = t(loc, "No tournament is open or running here. Organisers start one with "
                     "{/tournament}.")
        else:
            text = "\n".join(
                f"#{r.id} · {game_title(loc, r.game)} · {t(loc, FORMAT_NAMES[r.format])} · "
                f"{t(loc, STATUS_NAMES[r.status])} · <t:{int(r.starts_at.timestamp())}:f>"
                for r in rows)
        await interaction.response.send_message(text, ephemeral=True)

    # -- Host: what the service asks of Discord ---------------------------------------------

    async def _channel(self, channel_id: int) -> Place | None:
        return await self.places.channel(channel_id)

    async def place(self, tournament: Tournament, game: GameRow) -> tuple[int, int | None]:
        channel = await self._channel(tournament.row.channel_id)
        if channel is None:
            raise RuntimeError(f"tournament {tournament.id}: its channel is gone")
        if not isinstance(channel, discord.TextChannel):  # made in a text channel (`create`)
            raise RuntimeError(f"tournament {tournament.id}: its channel is a thread")
        loc = self.places.locale_of(channel)
        name = t(loc, "{game} · round {round} · table {table}",
                 game=game_title(loc, tournament.row.game), round=game.round,
                 table=game.number + 1)[:100]
        thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                             auto_archive_duration=1440)
        return channel.id, thread.id

    async def table_started(self, tournament: Tournament, game: GameRow,
                            result: MoveResult) -> None:
        table = result.table
        channel = await self._channel(table.place_id)
        if channel is not None:
            loc = self.places.locale_of(channel)
            players = " · ".join(f"<@{p}>" if p > 0 else entrant_name(
                loc, p, tournament.name_of(p)) for p in game.players)
            try:
                await channel.send(
                    t(loc, "**{title}**, round {round}: {players}. Good luck!",
                      title=title_of(tournament, loc), round=game.round, players=players),
                    allowed_mentions=discord.AllowedMentions(users=True, roles=False,
                                                             everyone=False))
            except discord.HTTPException as err:
                log.info("tournament %s: greeting not posted (%s)", tournament.id, err)
        await self.publisher.publish(result)

    async def announce(self, tournament: Tournament, what: str) -> None:
        channel = await self._channel(tournament.row.channel_id)
        if channel is None:
            return
        loc = self.places.locale_of(channel)
        await self.update_signup(tournament)
        title = title_of(tournament, loc)
        files: list[discord.File] = []
        if what == "started":
            count = len(tournament.row.entrants)
            text = tn(loc, "**{title}** has started with {count} player: the tables of "
                      "round 1 open in their own threads.", "**{title}** has started with "
                      "{count} players: the tables of round 1 open in their own threads.",
                      count, title=title, count=count)
        elif what == "cancelled":
            text = t(loc, "**{title}** is cancelled.", title=title)
            if tournament.row.round == 0:
                text = t(loc, "**{title}** is cancelled: not enough players signed up "
                         "(or checked in).", title=title)
        elif what == "round":
            text = t(loc, "**{title}**: round {round} is over. Standings:", title=title,
                     round=tournament.row.round) + "\n" + standings_text(tournament, loc)
            files = await pictures(tournament, loc, final=False)
        else:
            winner = tournament.standings[0].player if tournament.standings else None
            text = t(loc, "🏆 **{title}** is over! The winner is {name}. Final standings:",
                     title=title, name=entrant_name(loc, winner, tournament.name_of(winner))
                     if winner is not None else "—") + "\n" + standings_text(tournament, loc)
            files = await pictures(tournament, loc, final=True)
        try:
            await channel.send(text[:2000], files=files,
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as err:
            log.warning("tournament %s: %s not posted (%s)", tournament.id, what, err)

    async def update_signup(self, tournament: Tournament) -> None:
        """Show the sign-up message as the tournament is now (count, status, buttons)."""
        if tournament.row.message_id is None:
            return
        channel = await self._channel(tournament.row.channel_id)
        if channel is None:
            return
        loc = self.places.locale_of(channel)
        try:
            await channel.get_partial_message(tournament.row.message_id).edit(
                embed=signup_embed(tournament, loc),
                view=view_with(signup_items(tournament, loc)))
        except discord.HTTPException as err:
            log.info("tournament %s: sign-up message not updated (%s)", tournament.id, err)

    # -- the runner ------------------------------------------------------------------------
    # The deadline watcher (features/table/deadlines.py) calls `run_pass` on each of its
    # passes and sleeps until the sooner of the next deadline and the next tournament step;
    # `wake` (a table of a tournament ended) runs a pass at once.

    def stop(self) -> None:
        if self._pass is not None and not self._pass.done():
            self._pass.cancel()

    def wake(self) -> None:
        """A tournament may be due now: run a pass soon (one at a time); the deadline
        watcher looks at its next step again too."""
        self.wake_deadlines()
        if self._pass is not None and not self._pass.done():
            self._again = True
            return
        self._pass = asyncio.get_running_loop().create_task(self._run_pass())

    async def _run_pass(self) -> None:
        self._again = True
        while self._again:
            self._again = False
            await self.run_pass()

    async def run_pass(self, next_at: datetime | None = None) -> datetime | None:
        """Step the due tournaments and look at the seasons; returns the sooner of
        `next_at` and the next tournament step."""
        config = self.config
        guilds = None
        if config.shard_count is not None and config.shard_ids is not None:
            guilds = (config.shard_count, config.shard_ids)
        try:
            for _ in range(10):  # a step may make another due at once
                if not await self.service.run_due(guilds):
                    break
            await self.seasons.check()
            due = await self.service.next_due()
        except Exception:
            log.exception("the tournament pass failed; trying again later")
            return next_at
        if due is None:
            return next_at
        return due if next_at is None else min(due, next_at)
