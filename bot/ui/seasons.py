"""Seasons on Discord: /leaderboard for a season, and the post when a season ends.

With /settings season (month or quarter), /leaderboard shows the current season; its
`season` option shows an earlier one (or `all`, every result). Results are never deleted.
When a season ends, the process serving the server posts its top players per game in the
channel where the season setting was chosen, once (bot/tournaments/seasons.py `ended`, and
the marker is moved by an UPDATE only one process wins).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import t
from bot.i18n.commands import t_plain
from bot.tournaments import seasons
from bot.ui.badges import clean_name
from bot.ui.board import game_title
from bot.ui.computers import player_name
from bot.ui.counts import games_text, wins_text
from bot.ui.lobby import COLOUR

if TYPE_CHECKING:
    from bot.client import TableBot

log = logging.getLogger(__name__)

ALL = "all"
TOP = 3  # players per game in a season's end post


def season_name(locale: object, key: str) -> str:
    start, _ = seasons.bounds(key)
    if "Q" in key:
        return t(locale, "Q{quarter} {year}", quarter=key[-1], year=start.year)
    return t(locale, "{month}/{year}", month=start.month, year=start.year)


async def season_lines(bot: TableBot, guild_id: int, game: str | None, key: str,
                       locale: object, limit: int = 10) -> list[str]:
    start, end = seasons.bounds(key)
    rows = await bot.repo.season_standings(guild_id, game, start, end, limit)
    lines = []
    for rank, row in enumerate(rows, start=1):
        place = "%.2f" % float(row["average_rank"])  # noqa: UP031 - no f-string beside t()
        lines.append(t(locale, "**{rank}.** {name}: {wins} in {games} · average place {place}",
                       rank=rank,
                       name=player_name(locale, row["user_id"], clean_name(row["name"])),
                       wins=wins_text(locale, row["wins"]),
                       games=games_text(locale, row["games"]), place=place))
    return lines


async def season_of(bot: TableBot, guild_id: int, asked: str | None) -> str | None:
    """The season key a /leaderboard shows: None for all results (no seasons, or `all`)."""
    settings = await bot.service.get_settings(guild_id)
    if asked == ALL or (asked is None and settings.season == "none"):
        return None
    if asked is not None:
        seasons.bounds(asked)  # ValueError: not a season
        return asked
    return seasons.key_of(settings.season, bot.service.now())


async def season_embed(bot: TableBot, guild_id: int, game: str | None, key: str,
                       locale: object) -> discord.Embed:
    what = game_title(locale, game) if game else t(locale, "all games")
    embed = discord.Embed(title=t(locale, "Leaderboard: {game}, season {season}", game=what,
                                  season=season_name(locale, key)), colour=COLOUR)
    lines = await season_lines(bot, guild_id, game, key, locale)
    embed.description = "\n".join(lines) if lines else t(
        locale, "No finished games in this season yet.")
    return embed


async def season_choices(bot: TableBot, interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete of /leaderboard season: the server's recent seasons, and all."""
    settings = await bot.service.get_settings(interaction.guild_id)
    kind = settings.season if settings.season != "none" else "month"
    loc = interaction.locale
    keys = seasons.recent(kind, bot.service.now(), 12)
    choices = [app_commands.Choice(name=season_name(loc, k), value=k) for k in keys]
    choices.append(app_commands.Choice(name=t(loc, "all results"), value=ALL))
    needle = current.strip().lower()
    return [c for c in choices if needle in c.name.lower() or needle in c.value][:25]


class Seasons:
    """Posts a season's end once (called by the tournament runner's passes)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def check(self) -> int:
        """Announce the seasons that ended in this process's servers; returns how many."""
        repo, now, done = self.bot.repo, self.bot.service.now(), 0
        for row in await repo.season_guilds():
            guild_id = row["guild_id"]
            if not self.bot.owns_guild(guild_id):
                continue
            marker, ended = seasons.ended(row["season_posted"], row["season"], now)
            if marker == row["season_posted"]:
                continue
            if not await repo.mark_season(guild_id, row["season_posted"], marker):
                continue  # another process moved it
            if ended is not None:
                await self.post(guild_id, row["season_channel_id"], ended)
                done += 1
        return done

    async def post(self, guild_id: int, channel_id: int, key: str) -> None:
        publisher = self.bot.ui.publisher
        channel: Any = await publisher.channel(channel_id)
        if channel is None:
            return
        loc = publisher.locale_of(channel)
        start, end = seasons.bounds(key)
        embed = discord.Embed(title=t(loc, "🏁 Season {season} is over!",
                                      season=season_name(loc, key)), colour=COLOUR)
        for game in await self.bot.repo.season_games(guild_id, start, end):
            lines = await season_lines(self.bot, guild_id, game, key, loc, TOP)
            embed.add_field(name=game_title(loc, game), value="\n".join(lines)[:1024],
                            inline=False)
        if not embed.fields:
            embed.description = t(loc, "No games were finished this season.")
        embed.set_footer(text=t_plain(loc, "A new season has begun: the leaderboard starts "
                                      "afresh. Earlier seasons stay in {/leaderboard}."))
        try:
            await channel.send(embed=embed)
        except discord.HTTPException as err:
            log.warning("season %s of guild %s not posted (%s)", key, guild_id, err)
