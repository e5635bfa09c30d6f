"""/history, /replay and /export: a server's finished tables, their animated replays and
their JSON exports (the work is in bot.tables.history)."""

from __future__ import annotations

import io
import logging
from typing import cast

import discord
from discord import app_commands

from bot.features.common.badges import COLOUR, clean_name, game_title, seat_names, shown_name
from bot.features.common.faults import choices_in_time, defer_publicly
from bot.features.common.replies import defer_public, refuse, unless_refused
from bot.features.common.services import Services
from bot.i18n import t, t_plain
from bot.tables import Table, TableError
from bot.tables.history import (
    FinishedTable,
    export_of,
    exported_table,
    played_game,
    recent_games,
    replay_file,
    shown_table,
)
from bot.workers import Busy
from renderers import replay

log = logging.getLogger(__name__)

HISTORY_LIMIT = 10
REPLAY_SECONDS = 75_000  # a whole replay lasts about this long (ms), however long the game
FRAME_MS = (250, 900)  # the shortest and longest time a frame is shown


def frame_ms(frames: int) -> int:
    """The time per frame so that the whole replay lasts about REPLAY_SECONDS."""
    return max(FRAME_MS[0], min(FRAME_MS[1], REPLAY_SECONDS // max(frames, 1)))


def _score(value: float | None) -> str:
    if value is None:
        return "–"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def history_line(game: FinishedTable, locale: object) -> str:
    when = f"<t:{int(game.finished_at.timestamp())}:f>"
    players = ", ".join(
        t(locale, "#{rank} {name} ({score})", rank=p.rank,
          name=clean_name(shown_name(locale, p.user_id, p.name)), score=_score(p.score))
        for p in sorted(game.players, key=lambda p: (p.rank, p.seat))
    )
    return t(locale, "{when} · **{game}** · table {table}\n{players}", when=when,
             game=game_title(locale, game.game), table=game.table_id, players=players)


async def show_history(
    services: Services, interaction: discord.Interaction, member: discord.abc.User | None
) -> None:
    loc, guild_id = await defer_public(services.languages, interaction)
    games = await recent_games(services.tables, guild_id,
                               member.id if member is not None else None, HISTORY_LIMIT)
    if member is not None:
        name = clean_name(getattr(member, "display_name", None) or member.name)
        title = t(loc, "Recent games of {name}", name=name)
    else:
        title = t(loc, "Recent games on this server")
    embed = discord.Embed(title=title, colour=COLOUR)
    if games:
        embed.description = "\n\n".join(history_line(g, loc) for g in games)[:4096]
    else:
        embed.description = t(loc, "No finished games yet. Open a table with {/play}!")
    embed.set_footer(text=t_plain(loc, "Watch one again with {/replay}, see its mistakes with "
                            "{/review}, download it with {/export}."))
    await interaction.followup.send(embed=embed)


async def table_choices(
    services: Services, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Autocomplete: the caller's recent finished tables in this server."""
    if interaction.guild_id is None:
        return []
    games = await choices_in_time(recent_games(services.tables, interaction.guild_id,
                                               interaction.user.id, 25))
    loc = interaction.locale
    needle = current[:100].strip().lower()
    choices = []
    for game in games:
        names = ", ".join(shown_name(loc, p.user_id, p.name) for p in game.players)
        label = t(loc, "Table {table} · {game} · {date} · {players}", table=game.table_id,
                  game=game_title(loc, game.game),
                  date=game.finished_at.strftime("%Y-%m-%d"), players=names)
        if needle and needle not in label.lower():
            continue
        choices.append(app_commands.Choice(name=label[:100], value=game.table_id))
    return choices[:25]


async def _replayable(services: Services, table_id: int, guild_id: int) -> tuple[Table, int]:
    """The table and the number of frames of its replay; TableError if it has none to show."""
    table = await shown_table(services.tables, table_id, guild_id)
    return table, len(replay.replay_plan(played_game(table)))


async def send_replay(services: Services, interaction: discord.Interaction, table_id: int) -> None:
    assert interaction.guild_id is not None
    # refusals first, privately; then the (slow) public replay
    replayable = await unless_refused(interaction,
                                      _replayable(services, table_id, interaction.guild_id))
    if replayable is None:
        return
    table, frames = replayable
    await defer_publicly(interaction)
    loc = await services.languages.of_interaction(interaction)
    try:
        file = await replay_file(services.tables, table_id, interaction.guild_id,
                                 locale=cast("str | None", getattr(loc, "value", loc)),
                                 names=seat_names(table, loc), frame_ms=frame_ms(frames))
    except Busy:
        await interaction.followup.send(t(
            interaction.locale, "Sorry, many replays are being drawn right now. Please try "
            "again in a minute."), ephemeral=True)
        return
    except TableError as err:
        await refuse(interaction, err)
        return
    text = t(loc, "Replay of table {table} ({frames} pictures).", table=table_id,
             frames=file.frames)
    await interaction.followup.send(
        text, file=discord.File(io.BytesIO(file.data), filename=file.filename,
                                description=file.description or None))


async def send_export(services: Services, interaction: discord.Interaction, table_id: int) -> None:
    assert interaction.guild_id is not None
    table = await unless_refused(interaction,
                                 exported_table(services.tables, table_id, interaction.guild_id))
    if table is None:
        return
    await defer_publicly(interaction)
    loc = await services.languages.of_interaction(interaction)
    file = export_of(table, seat_names(table, loc))
    await interaction.followup.send(
        t(loc, "Table {table}: options, players and every move, as JSON.", table=table_id),
        file=discord.File(io.BytesIO(file.data), filename=file.filename))


__all__ = ["frame_ms", "send_export", "send_replay", "show_history", "table_choices"]
