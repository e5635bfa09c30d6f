"""Seat badges: the emoji and number that match the seat badges drawn in the pictures.

Pictures carry no names (renderers.theme draws seat i as colour SEAT_COLOURS[i] with the number
i + 1); messages name players as "🔵1 Aki" so a reader can map each name to its badge.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.games import presentation
from bot.i18n import N_, t
from bot.tables import Table
from bot.tables.computers import computer_level

COLOUR = discord.Colour.from_rgb(222, 198, 150)  # the accent of the bot's embeds


def game_title(locale: object, game: str) -> str:
    """The game's display name in `locale`."""
    return presentation(game).name(locale)


# Closest emoji to renderers.theme.SEAT_COLOURS, in the same order (seat 0 = badge 1).
SEAT_EMOJI: tuple[str, ...] = ("🔵", "🟠", "🟢", "🟣", "💠", "🔴", "🟡", "⚪", "🔘", "🟤")



def badge(seat: int, game: str | None = None) -> str:
    """'🔵1' for seat 0; for games whose pieces have colours (the presentation's side emoji:
    the picture shows the pieces, the badge the seat), the piece emoji is added."""
    text = f"{SEAT_EMOJI[seat % len(SEAT_EMOJI)]}{seat + 1}"
    return text + presentation(game).side_mark(seat) if game else text


def clean_name(name: str, limit: int = 32) -> str:
    """A display name safe to put in markdown: no mentions, no formatting, short."""
    cleaned = name.replace("@", "@\u200b")
    for char in ("*", "_", "`", "~", "|", ">", "#", "[", "]"):
        cleaned = cleaned.replace(char, "\\" + char)
    cleaned = " ".join(cleaned.split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


def seat_label(seat: int, name: str, game: str | None = None) -> str:
    """'🔵1 Aki': the badge then the player's name."""
    return f"{badge(seat, game)} {clean_name(name)}"


def seat_names(table: Table) -> list[str]:
    return [seat.name for seat in table.seats]


def seat_labels(names: Sequence[str], game: str | None = None) -> list[str]:
    return [seat_label(i, name, game) for i, name in enumerate(names)]


LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}


def computer_label(locale: object, level: str) -> str:
    return t(locale, "Computer ({level})", level=t(locale, LEVEL_NAMES.get(level, level)))


def player_name(locale: object, user_id: int, name: str) -> str:
    """A leaderboard or results name: computers by level, members by their name."""
    level = computer_level(user_id)
    return "🤖 " + computer_label(locale, level) if level is not None else name
