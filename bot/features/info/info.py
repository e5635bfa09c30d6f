"""/leaderboard and /stats: embeds built from the table service."""

from __future__ import annotations

import logging

import discord

from bot.features.common.badges import COLOUR, clean_name, game_title, player_name
from bot.features.common.counts import games_text, wins_text
from bot.features.common.replies import defer_public
from bot.features.common.services import Services
from bot.features.tournaments.seasons import season_embed, season_of
from bot.i18n import t
from bot.tournaments.season_book import SeasonBook

log = logging.getLogger(__name__)


def _rank(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


async def show_leaderboard(
    services: Services, book: SeasonBook, interaction: discord.Interaction, game: str | None,
    season: str | None = None,
) -> None:
    assert interaction.guild_id is not None
    try:
        key = await season_of(services.tables, interaction.guild_id, season)
    except ValueError:
        await interaction.response.send_message(t(
            interaction.locale, "There is no season “{season}”: pick one from the list.",
            season=str(season)[:20]), ephemeral=True)
        return
    loc, guild_id = await defer_public(services.languages, interaction)
    if key is not None:  # the server has seasons (bot/features/tournaments/seasons.py)
        await interaction.followup.send(
            embed=await season_embed(book, guild_id, game, key, loc))
        return
    rows = await services.tables.leaderboard(guild_id, game=game, limit=10)
    title = t(loc, "Leaderboard: {game}", game=game_title(loc, game)) if game else t(
        loc, "Leaderboard: all games")
    embed = discord.Embed(title=title, colour=COLOUR)
    if not rows:
        embed.description = t(loc, "No finished games yet. Open a table with {/play}!")
    lines = []
    for index, row in enumerate(rows, start=1):
        name = player_name(loc, row.user_id, clean_name(row.name))
        if game is not None and row.rating is not None:
            lines.append(t(loc, "**{rank}.** {name}: rating {rating} · {games} · {wins} · "
                           "average place {place}", rank=index, name=name,
                           rating=f"{row.rating:.1f}", games=games_text(loc, row.games),
                           wins=wins_text(loc, row.wins), place=_rank(row.average_rank)))
        else:
            lines.append(t(loc, "**{rank}.** {name}: {wins} in {games} · average place {place}",
                           rank=index, name=name, wins=wins_text(loc, row.wins),
                           games=games_text(loc, row.games), place=_rank(row.average_rank)))
    if lines:
        embed.description = "\n".join(lines)[:4096]
    await interaction.followup.send(embed=embed)


async def show_stats(
    services: Services, interaction: discord.Interaction, member: discord.abc.User | None
) -> None:
    loc, guild_id = await defer_public(services.languages, interaction)
    who = member or interaction.user
    stats = await services.tables.stats(guild_id, who.id)
    name = clean_name(getattr(who, "display_name", None) or stats.name or who.name)
    embed = discord.Embed(title=t(loc, "Stats: {name}", name=name), colour=COLOUR)
    if not stats.games:
        embed.description = t(loc, "No finished games yet.")
    else:
        embed.description = t(loc, "{games} · {wins} · average place {place}",
                              games=games_text(loc, stats.games),
                              wins=wins_text(loc, stats.wins), place=_rank(stats.average_rank))
        for row in stats.by_game[:25]:
            rating = "–" if row.rating is None else f"{row.rating:.1f}"
            embed.add_field(
                name=game_title(loc, row.game or ""),
                value=t(loc, "{games} · {wins} · average place {place} · rating {rating}",
                        games=games_text(loc, row.games), wins=wins_text(loc, row.wins),
                        place=_rank(row.average_rank), rating=rating),
                inline=False)
    await interaction.followup.send(embed=embed)
