"""/help: every slash command with one line each, privately, in the reader's language.

The list is read from the command tree, so a new command shows up without editing this file;
each command is a mention (clickable, and shown by the client in its own language)."""

from __future__ import annotations

from collections.abc import Iterator

import discord
from discord import app_commands

from bot.features.common.badges import COLOUR
from bot.i18n import has_translation, t
from bot.i18n.commands import mention


def leaves(tree: app_commands.CommandTree) -> Iterator[tuple[str, str]]:
    """(path, English description) of every slash command, subcommands in their group."""
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(command, app_commands.Group):
            for sub in command.walk_commands():
                if isinstance(sub, app_commands.Command):
                    yield sub.qualified_name, _message(sub.description)
        elif isinstance(command, app_commands.Command):
            yield command.qualified_name, _message(command.description)


def _message(description: object) -> str:
    return str(getattr(description, "message", description))


def help_lines(tree: app_commands.CommandTree, locale: object) -> list[str]:
    lines = []
    for path, description in leaves(tree):
        text = t(locale, description) if has_translation(locale, description) else description
        lines.append(f"{mention(locale, path)}: {text}")
    return lines


async def show_help(tree: app_commands.CommandTree,
                    interaction: discord.Interaction) -> None:
    loc = interaction.locale
    embed = discord.Embed(title=t(loc, "Commands"), colour=COLOUR,
                          description="\n".join(help_lines(tree, loc))[:4096])
    embed.set_footer(text=t(loc, "Start with the rules of a game, then open a table."))
    await interaction.response.send_message(embed=embed, ephemeral=True)
