"""Answering a member: private replies whatever state the interaction is in, texts cut to
Discord's limit, and the public deferral of server commands."""

from __future__ import annotations

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
