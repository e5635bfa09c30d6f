"""Answering a member: private replies whatever state the interaction is in, texts cut to
Discord's limit, and the public deferral of server commands."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

import discord
from discord import ui

from bot.features.common.errors import table_error_text
from bot.features.common.faults import defer_publicly
from bot.features.common.locales import ServerLanguages
from bot.tables import TableError

T = TypeVar("T")

MESSAGE_LIMIT = 2000  # characters of a Discord message
ANSWERING = "answering"  # interaction.extras key: its first answer, claimed (a future)


def take_answer(interaction: discord.Interaction) -> bool:
    """Claim the interaction's first answer: False when it is answered or claimed already.
    Claimed before its request is awaited (discord.py marks the response done only after
    it), so two tasks never both send it; the claimant calls `settle_answer` after."""
    if interaction.response.is_done() or ANSWERING in interaction.extras:
        return False
    interaction.extras[ANSWERING] = asyncio.get_running_loop().create_future()
    return True


def settle_answer(interaction: discord.Interaction, *, sent: bool = True) -> None:
    """The claimed first answer's request has ended; `sent=False`: it failed, and another
    task may claim it again."""
    claim = interaction.extras.get(ANSWERING) if sent else \
        interaction.extras.pop(ANSWERING, None)
    if claim is not None and not claim.done():
        claim.set_result(None)


async def answer_settled(interaction: discord.Interaction) -> None:
    """Wait until a first answer that another task claimed has been sent or has failed (a
    follow-up must not reach Discord before the first answer)."""
    claim = interaction.extras.get(ANSWERING)
    if claim is not None:
        await asyncio.shield(claim)


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` cut to Discord's limit (with an ellipsis)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


async def tell(interaction: discord.Interaction, text: str) -> None:
    """A private answer, whether or not the interaction was answered already."""
    text = fit(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def refuse(interaction: discord.Interaction, error: TableError) -> None:
    """A refusal only the user reads, in their language, answered already or not."""
    await tell(interaction, table_error_text(error, interaction.locale))


async def unless_refused(interaction: discord.Interaction, check: Awaitable[T]) -> T | None:
    """What `check` gives, or None once the TableError it raised is told privately."""
    try:
        return await check
    except TableError as err:
        await refuse(interaction, err)
        return None


async def send_private(interaction: discord.Interaction, *, view: ui.View | None = None,
                       **kwargs: object) -> None:
    """An ephemeral followup. Its View is let go at once: the components are dynamic items,
    so nothing needs the View (discord.py would otherwise keep a 15-minute timer per
    ephemeral message)."""
    if view is None:
        await interaction.followup.send(ephemeral=True, **kwargs)  # type: ignore[call-overload]
        return
    await interaction.followup.send(ephemeral=True, view=view, **kwargs)  # type: ignore[call-overload]
    view.stop()


async def defer_public(languages: ServerLanguages,
                       interaction: discord.Interaction) -> tuple[object, int]:
    """Defer a public answer to a server command: (the channel's locale, the guild id)."""
    loc = await languages.of_interaction(interaction)
    await defer_publicly(interaction)  # remembered: a failure then deletes it
    assert interaction.guild_id is not None  # the commands are guild-only
    return loc, interaction.guild_id
