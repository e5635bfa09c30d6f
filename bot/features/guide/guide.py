"""/rules: a short guide per game in pages, answered privately, with a button to share the
page in the channel.

The private answer is in the reader's language (`interaction.locale`); a shared page is in
the channel's language. Each answer carries an example picture drawn by the renderers from a
real position (rules.py). Components (dynamic items, so they work after a restart):
  rules:<game>                 the select of pages (value = page key)
  rshare:<game>:<page>         "Share in channel": posts that page publicly
"""

from __future__ import annotations

import io
import logging

import discord
from discord import ui

from bot.features.common.badges import COLOUR, game_title
from bot.features.common.components import Item, Rebuilt, handler, view_of
from bot.features.common.drawing import draw
from bot.features.common.faults import defer, guarded
from bot.features.common.locales import ServerLanguages
from bot.features.guide.rules import example_picture, options_lines
from bot.features.guide.texts import PAGE_TITLES, PAGES
from bot.games import presentation
from bot.i18n import t, tn
from bot.i18n.commands import mention
from engines import game_ids, get_engine

log = logging.getLogger(__name__)

PICTURE = "rules.png"


def page_text(locale: object, game: str, page: str) -> str:
    if page == "options":
        lines = options_lines(locale, game)
        return "\n\n".join(lines) if lines else t(locale, "This game has no options.")
    msgid = presentation(game).guide_page(page)
    return t(locale, msgid) if msgid else t(locale, "This page is not written for this game yet.")


def players_text(locale: object, game: str) -> str:
    eng = get_engine(game)
    if eng.min_players == eng.max_players:
        return tn(locale, "{count} player", "{count} players", eng.min_players,
                  count=eng.min_players)
    return t(locale, "{low}–{high} players", low=eng.min_players, high=eng.max_players)


def guide_embed(locale: object, game: str, page: str, picture: bool) -> discord.Embed:
    embed = discord.Embed(
        title=t(locale, "How to play {game}: {page}", game=game_title(locale, game),
                page=t(locale, PAGE_TITLES[page])),
        description=page_text(locale, game, page)[:4096], colour=COLOUR)
    if page == "goal":
        embed.add_field(name=t(locale, "Players"), value=players_text(locale, game))
    if page in ("options", "goal"):
        embed.add_field(name=t(locale, "Start a table"), value=_play_mention(locale, game))
    embed.set_footer(text=t(locale, "Page {page} of {pages}", page=PAGES.index(page) + 1,
                            pages=len(PAGES)))
    if picture:
        embed.set_image(url=f"attachment://{PICTURE}")
    return embed


def _play_mention(locale: object, game: str) -> str:
    return mention(locale, f"play {game}")


def guide_items(locale: object, game: str, page: str) -> list[Item]:
    options = [discord.SelectOption(label=t(locale, PAGE_TITLES[p]), value=p,
                                    default=p == page) for p in PAGES]
    return [PageSelect(game, options), ShareButton(game, page, t(locale, "Share in channel"))]


async def picture_file(game: str, locale: object) -> discord.File | None:
    try:
        png = await draw(example_picture, game, locale)
    except Exception:
        log.exception("%s: the rules picture could not be drawn", game)
        return None
    return discord.File(io.BytesIO(png), filename=PICTURE)


def _can_attach(interaction: discord.Interaction) -> bool:
    return bool(interaction.app_permissions.attach_files)


async def show_rules(interaction: discord.Interaction, game: str) -> None:
    """The first page, privately, with the page select and the share button."""
    loc = interaction.locale
    await defer(interaction, ephemeral=True, thinking=True)
    file = await picture_file(game, loc) if _can_attach(interaction) else None
    view = view_of(guide_items(loc, game, "goal"))
    await interaction.followup.send(
        ephemeral=True, embed=guide_embed(loc, game, "goal", file is not None), view=view,
        file=file if file is not None else discord.utils.MISSING)
    view.stop()  # dynamic items: nothing needs the View once sent


async def turn_page(interaction: discord.Interaction, game: str, page: str) -> None:
    loc = interaction.locale
    message = interaction.message
    picture = bool(message is not None and message.attachments)
    view = view_of(guide_items(loc, game, page))
    await interaction.response.edit_message(embed=guide_embed(loc, game, page, picture),
                                            view=view)
    view.stop()


async def share_page(languages: ServerLanguages, interaction: discord.Interaction, game: str,
                     page: str) -> None:
    """Post `page` in the channel, in the channel's language, for everyone."""
    loc = await languages.of_interaction(interaction)
    await defer(interaction, ephemeral=True, thinking=True)
    file = await picture_file(game, loc) if _can_attach(interaction) else None
    embed = guide_embed(loc, game, page, file is not None)
    channel = interaction.channel
    try:
        await channel.send(  # type: ignore[union-attr]
            allowed_mentions=discord.AllowedMentions.none(), embed=embed,
            file=file if file is not None else discord.utils.MISSING)
    except (discord.Forbidden, AttributeError):
        await interaction.followup.send(t(interaction.locale, "I can't post in this channel."),
                                        ephemeral=True)
        return
    await interaction.followup.send(t(interaction.locale, "Shared in the channel."),
                                    ephemeral=True)


class PageSelect(Rebuilt, ui.DynamicItem[ui.Select], template=r"rules:(?P<game>[a-z_]{1,40})"):
    def __init__(self, game: str, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(ui.Select(custom_id=f"rules:{game}", options=options or [],
                                   min_values=1, max_values=1))
        self.game = game

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        page = self.item.values[0] if self.item.values else "goal"
        if self.game not in game_ids() or page not in PAGES:
            return
        await turn_page(interaction, self.game, page)


class ShareButton(Rebuilt, ui.DynamicItem[ui.Button],
                  template=r"rshare:(?P<game>[a-z_]{1,40}):(?P<page>[a-z]{1,20})"):
    def __init__(self, game: str, page: str, label: str = "") -> None:
        super().__init__(ui.Button(label=label or None, style=discord.ButtonStyle.secondary,
                                   emoji="📣", custom_id=f"rshare:{game}:{page}"))
        self.game, self.page = game, page

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.game not in game_ids() or self.page not in PAGES:
            return
        await share_page(handler(interaction, ServerLanguages), interaction, self.game,
                         self.page)


GUIDE_ITEMS: tuple[type[ui.DynamicItem[Item]], ...] = (PageSelect, ShareButton)
