"""Seasons on Discord: /leaderboard for a season, and the post when a season ends.

With /settings season (month or quarter), /leaderboard shows the current season; its
`season` option shows an earlier one (or `all`, every result). Results are never deleted.
When a season ends, the process serving the server posts its top players per game in the
channel where the season setting was chosen, once (bot/tournaments/seasons.py `ended`, and
the marker is moved by an UPDATE only one process wins).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord
from discord import app_commands

from bot.features.common.badges import COLOUR, clean_name, game_title, player_name
from bot.features.common.counts import games_text, wins_text
from bot.features.common.places import Places
from bot.i18n import t, t_plain
from bot.tables import TableService
from bot.tournaments import seasons
from bot.tournaments.season_book import SeasonBook

log = logging.getLogger(__name__)

ALL = "all"
TOP = 3  # players per game in a season's end post


def season_name(locale: object, key: str) -> str:
    start, _ = seasons.bounds(key)
    if "Q" in key:
        return t(locale, "Q{quarter} {year}", quarter=key[-1], year=start.year)
    return t(locale, "{month}/{year}", month=start.month, year=start.year)


async def season_lines(book: SeasonBook, guild_id: int, game: str | None, key: str,
                       locale: object, limit: int = 10) -> list[str]:
    rows = await book.standings(guild_id, game, key, limit)
    lines = []
    for rank, row in enumerate(rows, start=1):
        place = "%.2f" % float(row["average_rank"])  # noqa: UP031 - no f-string beside t()
        lines.append(t(locale, "**{rank}.** {name}: {wins} in {games} · average place {place}",
                       rank=rank,
                       name=player_name(locale, row["user_id"], clean_name(row["name"])),
                       wins=wins_text(locale, row["wins"]),
                       games=games_text(locale, row["games"]), place=place))
    return lines


async def season_of(service: TableService, guild_id: int, asked: str | None) -> str | None:
    """The season key a /leaderboard shows: None for all results (no seasons, or `all`)."""
    settings = await service.settings.get(guild_id)
    if asked == ALL or (asked is None and settings.season == "none"):
        return None
    if asked is not None:
        seasons.bounds(asked)  # ValueError: not a season
        return asked
    return seasons.key_of(settings.season, service.now())


async def season_embed(book: SeasonBook, guild_id: int, game: str | None, key: str,
                       locale: object) -> discord.Embed:
    what = game_title(locale, game) if game else t(locale, "all games")
    embed = discord.Embed(title=t(locale, "Leaderboard: {game}, season {season}", game=what,
                                  season=season_name(locale, key)), colour=COLOUR)
    lines = await season_lines(book, guild_id, game, key, locale)
    embed.description = "\n".join(lines) if lines else t(
        locale, "No finished games in this season yet.")
    return embed


async def season_choices(service: TableService, interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete of /leaderboard season: the server's recent seasons, and all."""
    if interaction.guild_id is None:  # the command is guild-only
        return []
    settings = await service.settings.get(interaction.guild_id)
    kind = settings.season if settings.season != "none" else "month"
    loc = interaction.locale
    keys = seasons.recent(kind, service.now(), 12)
    choices = [app_commands.Choice(name=season_name(loc, k), value=k) for k in keys]
    choices.append(app_commands.Choice(name=t(loc, "all results"), value=ALL))
    needle = current.strip().lower()
    return [c for c in choices if needle in c.name.lower() or needle in c.value][:25]


class Seasons:
    """Posts a season's end once (called by the tournament runner's passes)."""

    def __init__(self, book: SeasonBook, places: Places,
                 owns_guild: Callable[[int], bool]) -> None:
        self.book, self.places, self.owns_guild = book, places, owns_guild

    async def check(self) -> int:
        """Announce the seasons that ended in this process's servers; returns how many."""
        ended = await self.book.claim_ended(self.owns_guild)
        for season in ended:
            await self.post(season.guild_id, season.channel_id, season.key)
        return len(ended)

    async def post(self, guild_id: int, channel_id: int, key: str) -> None:
        channel = await self.places.channel(channel_id)
        if channel is None:
            return
        loc = self.places.locale_of(channel)
        embed = discord.Embed(title=t(loc, "🏁 Season {season} is over!",
                                      season=season_name(loc, key)), colour=COLOUR)
        for game in await self.book.games(guild_id, key):
            lines = await season_lines(self.book, guild_id, game, key, loc, TOP)
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
