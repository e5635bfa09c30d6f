"""/review <table>: each player's accuracy and three biggest mistakes in a finished game, the
evaluation picture, and a button per mistake showing the board after it beside the better move.

The work is `engines.ai.review.review` (plain data in, plain data out) and `renderers.review`;
it runs in the background lane of the worker processes (bot/workers.py), never in front of a
board; a full lane refuses at once (`Busy`). A review is kept in memory per
table and log length (a finished table's log no longer changes), CACHE_SIZE of them.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord
from discord import ui

from bot import workers
from bot.features.common.badges import COLOUR, clean_name, game_title, seat_names
from bot.features.common.components import Rebuilt, handler
from bot.features.common.drawing import draw
from bot.features.common.faults import defer
from bot.features.common.replies import refuse, unless_refused
from bot.features.common.services import Services
from bot.features.review.pictures import evaluation_png, mistake_png
from bot.i18n import N_, picture_words, t
from bot.tables import TableError
from bot.tables.export import exportable
from bot.tables.history import shown_table
from bot.tables.takeback import played
from engines.ai.review import review, reviewable
from engines.base import Record
from renderers import review as pictures

if TYPE_CHECKING:
    from bot.tables import Table

log = logging.getLogger(__name__)

CACHE_SIZE = 32
MAX_BUTTONS = 25  # Discord's limit per message (5 rows of 5)

# How a mistake's loss reads, by the review's unit.
LOSS_TEXT: dict[str, str] = {
    "win": N_("turns a won game into a lost one"),
    "chance": N_("{drop}% less chance to win"),
    "bullheads": N_("{loss} more bullheads expected"),
    "cows": N_("{loss} cows worse by the evaluation"),
}

_cache: OrderedDict[tuple[int, int], Record] = OrderedDict()
_running: dict[tuple[int, int], asyncio.Future[Record]] = {}


async def table_review(table: Table) -> Record:
    """The review of `table`, from the cache or computed off the event loop (a second request
    for the same table while the first is computing waits for it)."""
    key = (table.id, len(table.log))
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    pending = _running.get(key)
    if pending is not None:
        return await asyncio.shield(pending)
    future: asyncio.Future[Record] = asyncio.get_running_loop().create_future()
    _running[key] = future
    try:
        result = await workers.run(
            "background", review, table.game, dict(table.options), len(table.seats),
            played(table.log), seed=0)
    except asyncio.CancelledError:
        future.cancel()  # a waiting request asks again (and computes it) next time
        raise
    except Exception as err:
        future.set_exception(err)
        future.exception()  # retrieved: no "never retrieved" warning when nobody else waits
        raise
    finally:
        _running.pop(key, None)
    future.set_result(result)
    _cache[key] = result
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return result


def forget() -> None:
    """Empty the cache (tests)."""
    _cache.clear()


async def _reviewable_table(services: Services, table_id: int, guild_id: int) -> Table:
    table = await shown_table(services.tables, table_id, guild_id)
    if not exportable(table) or not reviewable(table.game):
        # A running game is not reviewed: the review would be a strong player's advice.
        raise TableError("not_allowed")
    return table


def loss_text(locale: object, unit: str, mistake: Record) -> str:
    drop = format(mistake["drop"], "g")
    loss = format(abs(mistake["loss"]), ".1f")
    return t(locale, LOSS_TEXT[unit], drop=drop, loss=loss)


def mistake_line(locale: object, unit: str, mistake: Record) -> str:
    return t(locale, "Move {turn}: played `{move}`, better `{better}` ({loss})",
             turn=mistake["turn"], move=mistake["move"], better=mistake["better"],
             loss=loss_text(locale, unit, mistake))


def review_embed(table: Table, result: Record, locale: object) -> discord.Embed:
    names = seat_names(table, locale)
    embed = discord.Embed(
        title=t(locale, "Review of table {table} · {game}", table=table.id,
                game=game_title(locale, table.game)),
        colour=COLOUR,
        description=t(locale, "Every decision judged by the hard computer from what that "
                              "player could see at the time."),
    )
    for seat in result["seats"]:
        name = clean_name(names[seat["seat"]])
        if seat["accuracy"] is None:
            head = t(locale, "{number}. {name}: nothing to judge", number=seat["seat"] + 1,
                     name=name)
        else:
            accuracy = format(seat["accuracy"], "g")
            head = t(locale, "{number}. {name}: accuracy {accuracy}%", number=seat["seat"] + 1,
                     name=name, accuracy=accuracy)
        lines = [mistake_line(locale, result["unit"], m) for m in seat["mistakes"]]
        body = "\n".join(lines) if lines else t(locale, "No mistakes found.")
        embed.add_field(name=head[:256], value=body[:1024], inline=False)
    embed.set_image(url="attachment://review.png")
    embed.set_footer(text=t(locale, "The picture shows each player's outlook after their "
                                    "moves; red rings mark the mistakes."))
    return embed


class MistakeButton(
    Rebuilt, ui.DynamicItem[ui.Button],
    template=r"rv:(?P<table>\d+):(?P<seat>\d+):(?P<k>\d)",
):
    """Shows the board after one listed mistake beside the board after the better move."""

    custom_id_numbers = frozenset({"table", "seat", "k"})

    def __init__(self, table_id: int, seat: int, k: int, *, label: str = "") -> None:
        super().__init__(ui.Button(label=label or None, style=discord.ButtonStyle.secondary,
                                   custom_id=f"rv:{table_id}:{seat}:{k}"))
        self.table_id, self.seat, self.k = table_id, seat, k

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_mistake(handler(interaction, Services), interaction,
                           self.table_id, self.seat, self.k)


def review_view(table: Table, result: Record, locale: object) -> ui.View:
    view = ui.View(timeout=None)
    for seat in result["seats"]:
        for k, mistake in enumerate(seat["mistakes"]):
            if len(view.children) >= MAX_BUTTONS:
                return view
            label = t(locale, "Player {number} · move {turn}", number=seat["seat"] + 1,
                      turn=mistake["turn"])
            view.add_item(MistakeButton(table.id, seat["seat"], k, label=label[:80]))
    return view


async def send_review(services: Services, interaction: discord.Interaction, table_id: int) -> None:
    assert interaction.guild_id is not None
    # refusals first, privately; then the (slow) public review
    table = await unless_refused(interaction,
                                 _reviewable_table(services, table_id, interaction.guild_id))
    if table is None:
        return
    loc = await services.languages.of_interaction(interaction)
    await defer(interaction, thinking=True)
    try:
        result = await table_review(table)
    except workers.Busy:
        await interaction.edit_original_response(content=t(
            loc, "Sorry, many reviews are being worked out right now. Please try again in a "
            "minute."))
        return
    picture = await draw(evaluation_png, result, loc)
    await interaction.followup.send(
        embed=review_embed(table, result, loc), view=review_view(table, result, loc),
        file=discord.File(io.BytesIO(picture), filename="review.png",
                          description=pictures.alt_text_evaluation(
                              result, picture_words(loc), seat_names(table, loc))[:1024]))


async def show_mistake(services: Services, interaction: discord.Interaction, table_id: int,
                       seat: int, k: int) -> None:
    """A button of a review: the board after the mistake (red) and after the better move
    (green), as a private reply."""
    assert interaction.guild_id is not None
    table = await unless_refused(interaction,
                                 _reviewable_table(services, table_id, interaction.guild_id))
    if table is None:
        return
    await defer(interaction, ephemeral=True, thinking=True)
    try:
        result = await table_review(table)
    except workers.Busy:
        await interaction.followup.send(t(
            interaction.locale, "Sorry, many reviews are being worked out right now. Please "
            "try again in a minute."), ephemeral=True)
        return
    seats = result["seats"]
    if seat >= len(seats) or k >= len(seats[seat]["mistakes"]):
        await refuse(interaction, TableError("not_found", table_id=table_id))
        return
    mistake = seats[seat]["mistakes"][k]
    loc = interaction.locale
    picture = await draw(mistake_png, table.game, dict(table.options), len(table.seats),
                         played(table.log), mistake, seat, loc)
    name = clean_name(seat_names(table, loc)[seat])
    text = t(loc, "{name}, move {turn}: red is the move played (`{move}`), green the better "
                  "move (`{better}`): {loss}.", name=name, turn=mistake["turn"],
             move=mistake["move"], better=mistake["better"],
             loss=loss_text(loc, result["unit"], mistake))
    alt = pictures.alt_text_mistake(table.game, dict(table.options), len(table.seats),
                                    [tuple(s) for s in table.log], mistake, seat,
                                    picture_words(loc), seat_names(table, loc))[:1024]
    await interaction.followup.send(text, ephemeral=True, file=discord.File(
        io.BytesIO(picture), filename="mistake.png", description=alt))


__all__ = ["MistakeButton", "send_review", "show_mistake", "table_review"]
