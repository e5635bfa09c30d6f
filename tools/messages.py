"""Refresh the message catalogues: `python -m tools.messages` (from the project root).

1. Extracts every marked string from the `bot` package with Babel: `t(locale, "…")` (the
   second argument), `N_("…")` and `locale_str("…")`, and singular/plural pairs (entries
   with `msgid_plural`): `tn(locale, "…", "…", n)` and `Nn_("…", "…")`; and from the
   `engines` package the templates of the refusals the bot shows players:
   `IllegalMove("…", **params)` and `OptionError("…", **params)` (see
   bot/i18n/refusals.py); and from `renderers` the words drawn in the pictures: `tr("…")`
   and `N_("…")` (see renderers/theme.py).
2. Asks discord.py for every string of the slash commands it would localise (command, group
   and option names, descriptions, choices) through a recording Translator, so names that are
   plain identifiers (`name="move"`, engine option names, `Literal` choices) are listed too:
   names under the message contexts "command" / "option", choices under "choice" (unless
   the choice is already an ordinary message, like the game titles).
3. Updates `bot/i18n/locales/<lang>/LC_MESSAGES/bot.po` for every language: existing
   translations are kept, new messages are added (empty in Japanese: translate them), a
   changed message gets its old translation flagged `#, fuzzy` (ignored at run time until
   someone checks it), and messages no longer in the code are kept as obsolete `#~` entries.

`--check` only reports what would change (exit status 1 if a catalogue is out of date).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.features.guide.cog import GuideCog
from bot.features.history.cog import HistoryCog
from bot.features.info.cog import InfoCog
from bot.features.lobby.cog import LobbyCog, play_group
from bot.features.puzzles.cog import puzzle_group
from bot.features.review.cog import ReviewCog
from bot.features.settings.cog import SettingsCog
from bot.features.table.cog import TableCog
from bot.features.takeback.cog import TakeBackCog
from bot.features.tournaments.cog import tournament_group
from bot.i18n import (
    CHOICE_CONTEXT,
    COMMAND_CONTEXT,
    DOMAIN,
    LANGUAGES,
    OPTION_CONTEXT,
    SOURCE_LANGUAGE,
    po_path,
)

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bot"
KEYWORDS = {
    "t": (2,),
    "t_plain": (2,),
    "N_": None,
    "locale_str": None,
    "tn": (2, 3),  # tn(locale, singular, plural, n)
    "Nn_": (1, 2),
}
# Engine refusals (engines.explained.Explained subclasses): the first argument is the template.
ENGINES = ROOT / "engines"
ENGINE_KEYWORDS = {
    "IllegalMove": None,
    "OptionError": None,
    "Explained": None,
}
# Words drawn in the pictures: renderers.theme.tr("…") and its N_("…") marker.
RENDERERS = ROOT / "renderers"
RENDERER_KEYWORDS = {
    "tr": None,
    "N_": None,
}
METHOD_MAP = [("**.py", "python")]
TREE_LOCATION = "bot/features/(slash-commands)"

HEADER = ("# Messages of the board-game bot. Refresh with `python -m tools.messages`;\n"
          "# msgctxt \"command\"/\"option\": slash-command and option names (lowercase, no\n"
          "# spaces, at most 32 characters); keep {placeholders}, **markdown** and <#mentions>.")

MsgId = str | tuple[str, str]  # a message, or a (singular, plural) pair
Message = tuple[MsgId, str | None, str]  # (msgid, msgctxt, location)


def source_messages() -> list[Message]:
    """Marked strings in the source: (msgid, None, file)."""
    out = []
    for folder, keywords in ((PACKAGE, KEYWORDS), (ENGINES, ENGINE_KEYWORDS),
                             (RENDERERS, RENDERER_KEYWORDS)):
        for filename, _lineno, message, _comments, context in extract_from_dir(
            str(folder), method_map=METHOD_MAP, keywords=keywords
        ):
            if isinstance(message, (tuple, list)):  # only the plural markers give pairs
                message = (message[0], message[1]) if len(message) == 2 and all(message) \
                    else message[0]
            if not message:
                continue
            out.append((message, context, f"{folder.name}/{Path(filename).as_posix()}"))
    return out


def app_commands_list() -> list[object]:
    """The bot's slash commands (built without a running bot)."""
    commands: list[object] = [play_group(None), tournament_group(None),  # type: ignore[arg-type]
                              puzzle_group(None)]  # type: ignore[arg-type]
    for cog in (LobbyCog, TableCog, GuideCog, InfoCog, HistoryCog, SettingsCog, ReviewCog,
                TakeBackCog):
        commands.extend(cog.__cog_app_commands__)
    return commands


async def command_strings() -> list[tuple[str, str]]:
    """(location, message) for everything discord.py asks a Translator while syncing."""
    import discord
    from discord import app_commands

    seen: list[tuple[str, str]] = []

    class Recorder(app_commands.Translator):
        async def translate(self, string, locale, context):
            if locale is discord.Locale.japanese:
                seen.append((context.location.name, string.message))
            return None

    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    recorder = Recorder()
    for command in app_commands_list():
        await command.get_translated_payload(tree, recorder)  # type: ignore[attr-defined]
    return seen


def tree_messages(plain: set[str]) -> list[Message]:
    """Slash-command strings as catalogue entries (names with a context, see module doc)."""
    out: list[Message] = []
    for location, message in asyncio.run(command_strings()):
        if location in ("command_name", "group_name"):
            out.append((message, COMMAND_CONTEXT, TREE_LOCATION))
        elif location == "parameter_name":
            out.append((message, OPTION_CONTEXT, TREE_LOCATION))
        elif location == "choice_name":
            if message not in plain:
                out.append((message, CHOICE_CONTEXT, TREE_LOCATION))
        else:
            out.append((message, None, TREE_LOCATION))
    return out


def template(messages: Iterable[Message]) -> Catalog:
    catalog = Catalog(domain=DOMAIN, project="board-game bot", charset="utf-8",
                      fuzzy=False, header_comment=HEADER)
    for msgid, context, location in messages:
        text = msgid if isinstance(msgid, str) else "".join(msgid)
        catalog.add(msgid, locations=[(location, None)],  # type: ignore[list-item]  # no line
                    context=context, flags=["python-brace-format"] if "{" in text else [])
    return catalog


def all_messages() -> Catalog:
    source = source_messages()
    plain = {msgid for msgid, context, _ in source if context is None and isinstance(msgid, str)}
    return template([*source, *tree_messages(plain)])


def render(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_by_file=True, include_lineno=False,
             ignore_obsolete=False)
    return buffer.getvalue()


def updated(language: str, pot: Catalog) -> tuple[Catalog, bytes]:
    path = po_path(language)
    if path.is_file():
        with path.open("rb") as fp:
            catalog = read_po(fp, locale=language, domain=DOMAIN)
        catalog.update(pot, update_header_comment=False, update_creation_date=False)
    else:
        catalog = Catalog(locale=language, domain=DOMAIN, project="board-game bot",
                          charset="utf-8", fuzzy=False, header_comment=HEADER)
        catalog.update(pot, update_creation_date=False)
    catalog.revision_date = catalog.creation_date  # keep the files stable between runs
    catalog.fuzzy = False
    return catalog, render(catalog)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if a catalogue is out of date")
    args = parser.parse_args(argv)
    pot = all_messages()
    stale = False
    for language in LANGUAGES:
        path = po_path(language)
        catalog, data = updated(language, pot)
        old = path.read_bytes() if path.is_file() else b""
        missing = [m.id for m in catalog if m.id and language != SOURCE_LANGUAGE and
                   (not m.string or m.fuzzy)]
        changed = data != old
        stale = stale or changed
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, "
              f"{len(catalog.obsolete)} obsolete, {len(missing)} to translate"
              + (" (updated)" if changed and not args.check else
                 " (out of date)" if changed else ""))
        if not args.check and changed:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
