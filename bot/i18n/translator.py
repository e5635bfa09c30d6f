"""Slash commands in the members' languages: discord.py's `Translator` for command, group
and option names, descriptions and choices, from the same catalogues as every message
(bot/i18n/__init__.py, entries with a message context)."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.i18n import t
from bot.i18n.catalogue import (
    CHOICE_CONTEXT,
    COMMAND_CONTEXT,
    OPTION_CONTEXT,
    has_translation,
    translate_in_context,
)

# What Discord accepts as a (localised) command or option name.
NAME_PATTERN = re.compile(
    r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$"  # \w covers \p{L} and \p{N} in Python
)
DESCRIPTION_LIMIT = 100
CHOICE_LIMIT = 100


def valid_name(name: str) -> bool:
    """Whether Discord accepts `name` as a command or option name (lowercase, no spaces)."""
    return bool(NAME_PATTERN.match(name)) and name == name.lower()


class Translator(app_commands.Translator):
    """Localises slash commands through the same catalogues.

    discord.py 2.7.1 wraps every name, description and choice in a `locale_str` (commands are
    created with auto_locale_strings) and asks once per Discord locale while syncing:
    command_name / group_name / parameter_name (data: the Command, Group or Parameter),
    command_description / group_description / parameter_description, and choice_name (data:
    the Choice). Returning None keeps the English default.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        where = context.location
        message = string.message
        names = app_commands.TranslationContextLocation
        if where in (names.command_name, names.group_name):
            text = translate_in_context(locale, COMMAND_CONTEXT, message)
            return text if text is not None and valid_name(text) else None
        if where is names.parameter_name:
            text = translate_in_context(locale, OPTION_CONTEXT, message)
            return text if text is not None and valid_name(text) else None
        if where is names.choice_name:
            text = translate_in_context(locale, CHOICE_CONTEXT, message)
            if text is None and has_translation(locale, message):
                text = t(locale, message)
            return text[:CHOICE_LIMIT] if text else None
        if not has_translation(locale, message):
            return None
        return t(locale, message)[:DESCRIPTION_LIMIT]
