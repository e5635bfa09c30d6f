"""/leaderboard and /stats: embeds built from the service (/rules is bot/ui/guide.py)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.ui.badges import clean_name
from bot.ui.board import game_title
from bot.ui.computers import player_name
from bot.ui.counts import games_text, wins_text
from bot.ui.lobby import COLOUR
from bot.ui.locales import defer_public, ensure_language
from bot.ui.seasons import season_embed, season_of

if TYPE_CHECKING:
    from bot.client import TableBot

log = logging.getLogger(__name__)


def _rank(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


async def show_leaderboard(
    bot: TableBot, interaction: discord.Interaction, game: str | None,
    season: str | None = None,
) -> None:
    await ensure_language(bot, interaction.guild_id)
    assert interaction.guild_id is not None
    try:
        key = await season_of(bot, interaction.guild_id, season)
    except ValueError:
        await interaction.response.send_message(t(
            interaction.locale, "There is no season “{season}”: pick one from the list.",
            season=str(season)[:20]), ephemeral=True)
        return
    loc, guild_id = await defer_public(bot, interaction)
    if key is not None:  # the server has seasons (bot/ui/seasons.py)
        await interaction.followup.send(
            embed=await season_embed(bot, guild_id, game, key, loc))
        return
    rows = await bot.service.leaderboard(guild_id, game=game, limit=10)
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
    bot: TableBot, interaction: discord.Interaction, member: discord.abc.User | None
) -> None:
    loc, guild_id = await defer_public(bot, interaction)
    who = member or interaction.user
    stats = await bot.service.stats(guild_id, who.id)
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
