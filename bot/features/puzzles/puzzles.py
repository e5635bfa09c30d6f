"""/puzzle play and /puzzle stats, and the presses of the puzzles' components.

A puzzle is an ephemeral message: its picture (drawn in the boards lane, in the member's
language, with alt text), whose move it is, where it came from, and the choices labelled as
on the game's board. One press answers: the same message then shows the answer's picture,
right or wrong, the reason, the rating change, the streak and "Next puzzle".
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from dataclasses import dataclass

import discord
from discord import ui

from bot.features.common.badges import COLOUR, clean_name, shown_name
from bot.features.common.components import Item, view_of
from bot.features.common.drawing import draw
from bot.features.common.faults import defer
from bot.features.common.replies import tell
from bot.features.common.services import Services
from bot.features.puzzles import texts
from bot.features.puzzles.components import ChoiceButton, ChoiceSelect, NextButton
from bot.features.puzzles.pictures import answer_png, puzzle_png
from bot.features.puzzles.service import PuzzleError, PuzzleService, Result, Shown
from bot.features.table.controls import BUTTONS_PER_ROW, MAX_OPTIONS, natural_key
from bot.games import presentation
from bot.i18n import picture_words, t
from bot.storage.puzzles import PuzzleRow
from renderers import puzzle as pictures

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


def seat_names(row: PuzzleRow, locale: object) -> list[str] | None:
    """The names of the game's seats, for the alt text (None: a starter puzzle)."""
    if not row.players:
        return None
    return [clean_name(shown_name(locale, uid, name)) for uid, name in row.players]


def choice_items(shown: Shown, labels: texts.Labels, locale: object) -> list[Item]:
    """The choices: buttons labelled as the board's (at most 25), else selects of 25."""
    puzzle = shown.puzzle.data
    legal: list[str] = list(puzzle["legal"])
    order = sorted(range(len(legal)), key=lambda i: natural_key(shown.puzzle.game, legal[i]))
    attempt = shown.attempt.id
    if len(legal) <= MAX_OPTIONS:
        words = presentation(shown.puzzle.game)
        return [ChoiceButton(attempt, index, label=labels[legal[index]],
                             emoji=words.button_emoji(legal[index]),
                             row=place // BUTTONS_PER_ROW)
                for place, index in enumerate(order)]
    placeholder = t(locale, "Choose your move…")
    return [ChoiceSelect(attempt, part, [
        discord.SelectOption(label=labels[legal[i]][:100], value=str(i),
                             description=legal[i][:100]) for i in indexes],
        placeholder=placeholder, row=part)
        for part, indexes in enumerate(
            order[start:start + MAX_OPTIONS] for start in range(0, len(order), MAX_OPTIONS))]


@dataclass(frozen=True)
class PuzzleMessage:
    """A puzzle or answer as sent: its text, its picture (with alt text) and its buttons."""

    content: str
    file: discord.File
    view: ui.View

    async def send(self, interaction: discord.Interaction) -> None:
        """A new private message (a follow-up of the deferred interaction)."""
        await interaction.followup.send(self.content, file=self.file, view=self.view,
                                        ephemeral=True, allowed_mentions=NO_MENTIONS)

    async def replace(self, interaction: discord.Interaction) -> None:
        """The interaction's message becomes this one, picture included."""
        await interaction.edit_original_response(content=self.content, attachments=[self.file],
                                                 view=self.view, allowed_mentions=NO_MENTIONS)


async def _picture(render: Callable[..., bytes], name: str, alt: str,
                   *args: object) -> discord.File:
    png = await draw(render, *args)
    return discord.File(io.BytesIO(png), filename=name, description=alt[:1024])


async def question_message(shown: Shown, locale: object) -> PuzzleMessage:
    """The puzzle as a message: text, picture (with alt text) and the choices."""
    row = shown.puzzle
    labels = texts.labels_of(row.data, locale)
    alt = pictures.alt_text_puzzle(row.data, picture_words(locale), seat_names(row, locale))
    file = await _picture(puzzle_png, "puzzle.png", alt, row.data, locale)
    return PuzzleMessage(texts.question_text(locale, row, labels), file,
                         view_of(choice_items(shown, labels, locale)))


async def answer_message(result: Result, locale: object) -> PuzzleMessage:
    row, answered = result.shown.puzzle, result.answered
    labels = texts.labels_of(row.data, locale)
    alt = pictures.alt_text_answer(row.data, result.answer, picture_words(locale),
                                   seat_names(row, locale))
    file = await _picture(answer_png, "answer.png", alt, row.data, result.answer, locale)
    content = texts.answer_text(locale, row, result.answer, result.correct, answered.rated,
                                answered.before, answered.after, answered.streak,
                                answered.best_streak, labels)
    return PuzzleMessage(content, file,
                         view_of([NextButton(row.game, label=t(locale, "Next puzzle"))]))


def refusal(locale: object, code: str) -> str:
    return t(locale, texts.REFUSALS.get(code, texts.REFUSALS["gone"]))


class PuzzleDesk:
    """/puzzle's commands and the presses of its components (PuzzlePresses)."""

    def __init__(self, services: Services, service: PuzzleService) -> None:
        self.services, self.service = services, service

    async def play(self, interaction: discord.Interaction, game: str | None) -> None:
        loc = interaction.locale
        if interaction.guild_id is None:
            await tell(interaction, refusal(loc, "gone"))
            return
        if game is not None and game not in self.service.games():
            await tell(interaction, refusal(loc, "no_puzzles"))
            return
        await defer(interaction, ephemeral=True, thinking=True)
        try:
            shown = await self.service.next_puzzle(interaction.guild_id, interaction.user.id,
                                                   game)
        except PuzzleError as err:
            code = "no_puzzles_any" if err.code == "no_puzzles" and game is None else err.code
            await tell(interaction, refusal(loc, code))
            return
        await (await question_message(shown, loc)).send(interaction)

    async def answer(self, interaction: discord.Interaction, attempt_id: int,
                     index: int) -> None:
        loc = interaction.locale
        try:  # refusals first, privately, before the message is touched
            shown = await self.service.shown(attempt_id)
            if shown.attempt.user_id != interaction.user.id:
                raise PuzzleError("not_yours")
            if shown.attempt.answer is not None:
                raise PuzzleError("answered")
        except PuzzleError as err:
            await tell(interaction, refusal(loc, err.code))
            return
        await defer(interaction)  # the answer edits this message
        try:
            result = await self.service.answer(attempt_id, interaction.user.id, index)
        except PuzzleError as err:  # another press was first
            await tell(interaction, refusal(loc, err.code))
            return
        message = await answer_message(result, loc)
        try:
            await message.replace(interaction)
        except discord.HTTPException as err:  # stored all the same: say it in a new message
            log.info("puzzle attempt %s: the answer could not be shown in place (%s)",
                     attempt_id, err)
            await interaction.followup.send(content=message.content, ephemeral=True,
                                            allowed_mentions=NO_MENTIONS)

    async def next_puzzle(self, interaction: discord.Interaction, game: str | None) -> None:
        loc = interaction.locale
        if interaction.guild_id is None:
            await tell(interaction, refusal(loc, "gone"))
            return
        await defer(interaction)  # the next puzzle replaces the answered one
        guild, user = interaction.guild_id, interaction.user.id
        try:
            shown = await self.service.next_puzzle(guild, user, game)
        except PuzzleError:
            try:  # none left of that game: any game
                shown = await self.service.next_puzzle(guild, user, None)
            except PuzzleError as err:
                await tell(interaction, refusal(loc, "no_puzzles_any" if err.code ==
                                                "no_puzzles" else err.code))
                return
        await (await question_message(shown, loc)).replace(interaction)

    async def solve_daily(self, interaction: discord.Interaction, day: str) -> None:
        loc = interaction.locale
        if interaction.guild_id is None:
            await tell(interaction, refusal(loc, "gone"))
            return
        await defer(interaction, ephemeral=True, thinking=True)
        try:
            shown = await self.service.open_daily(interaction.guild_id, interaction.user.id,
                                                  day)
        except PuzzleError as err:
            await tell(interaction, refusal(loc, err.code))
            return
        if shown.attempt.answer is not None:
            text = (t(loc, "You solved this daily puzzle already. Well done!")
                    if shown.attempt.correct else
                    t(loc, "You answered this daily puzzle already: one answer each. Try "
                           "{/puzzle play} for more puzzles."))
            await tell(interaction, text)
            return
        await (await question_message(shown, loc)).send(interaction)

    async def stats(self, interaction: discord.Interaction,
                    member: discord.Member | discord.User | None) -> None:
        loc = interaction.locale
        if interaction.guild_id is None:
            await tell(interaction, refusal(loc, "gone"))
            return
        who = member or interaction.user
        await defer(interaction, ephemeral=True, thinking=True)
        rows = await self.service.stats(interaction.guild_id, who.id)
        embed = discord.Embed(title=t(loc, "Puzzles of {name}",
                                      name=clean_name(who.display_name)), colour=COLOUR)
        for name, line in texts.stats_lines(loc, rows):
            embed.add_field(name=name, value=line, inline=False)
        if not rows:
            embed.description = t(loc, "No puzzles answered yet. Try {/puzzle play}!")
        await interaction.followup.send(embed=embed, ephemeral=True)
