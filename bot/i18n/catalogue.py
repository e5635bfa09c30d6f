"""The gettext catalogues themselves: one .po file per language, read with Babel and compiled
in memory on first use, and looked up by message (with or without a context). `bot.i18n`
formats texts over them; `bot.i18n.commands` names slash commands from them.
"""

from __future__ import annotations

import gettext
import io
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "bot"
_LOCALE_DIR = Path(__file__).parent / "locales"
LANGUAGES = ("en", "ja")
SOURCE_LANGUAGE = "en"

# Message contexts of the slash-command names (see Translator).
COMMAND_CONTEXT = "command"
OPTION_CONTEXT = "option"
CHOICE_CONTEXT = "choice"


@lru_cache(maxsize=256)  # a few locales, asked for on every text
def _language(locale: object) -> str:
    """'ja' from 'ja', 'ja-JP', discord.Locale.japanese, ...; '' for none."""
    if locale is None:
        return ""
    text = str(getattr(locale, "value", locale))
    return text.replace("_", "-").split("-")[0].lower()


def po_path(language: str) -> Path:
    return _LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def _compile(path: Path, language: str) -> gettext.NullTranslations:
    """The .po file as a GNUTranslations object (fuzzy and obsolete entries left out)."""
    with path.open("rb") as fp:
        catalog = read_po(fp, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@lru_cache(maxsize=32)
def _catalogue(language: str) -> gettext.NullTranslations:
    path = po_path(language) if language else None
    if path is None or not path.is_file():
        return gettext.NullTranslations()
    return _compile(path, language)


def reload() -> None:
    """Forget the loaded catalogues (after editing a .po file in a running process)."""
    _catalogue.cache_clear()


def has_translation(locale: object, msgid: str) -> bool:
    """Whether a catalogue for `locale` translates `msgid` (English never needs one)."""
    return _catalogue(_language(locale)).gettext(msgid) != msgid


def translate_in_context(locale: object, context: str, msgid: str) -> str | None:
    """The translation of `msgid` under `msgctxt` `context`, or None when there is none."""
    text = _catalogue(_language(locale)).pgettext(context, msgid)
    return None if text == msgid else text
