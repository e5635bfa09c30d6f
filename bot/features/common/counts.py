"""Counts in words, each through its language's plural forms ('1 game', '2 games')."""

from __future__ import annotations

from bot.i18n import tn


def games_text(locale: object, games: int) -> str:
    return tn(locale, "{count} game", "{count} games", games, count=games)


def wins_text(locale: object, wins: int) -> str:
    return tn(locale, "{count} win", "{count} wins", wins, count=wins)
