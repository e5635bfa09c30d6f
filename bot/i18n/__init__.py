"""Message catalogues. Every user-visible string goes through `t(locale, msgid, **params)`.

The msgid *is* the English text, formatted with `params` (`str.format` fields). Catalogues are
gettext .po files, one per language, in `bot/i18n/locales/<lang>/LC_MESSAGES/bot.po`; they are
read with Babel and compiled in memory on first use (no .mo files). A language without a
catalogue (or a message without a translation) falls back to English.

A command named in a text is written `{/name}` (`{/play}`, `{/rules}`): `t` fills it with
Discord's command mention (bot/i18n/commands.py), which each client shows in its language.

`N_(msgid)` marks a string for extraction without translating it (module constants);
translate it later with `t(locale, constant)`. A text with a count goes through
`tn(locale, singular, plural, n, **params)`: the language's plural form for `n` (gettext's
`ngettext`; .po entries with `msgid_plural` and `msgstr[0]`, `msgstr[1]` ...; Japanese has one
form); `Nn_(singular, plural)` marks such a pair for later.

Slash-command names, option names and choices are translated by `translator.Translator` from
entries with a message context (`msgctxt`): "command" (command and group names), "option"
(option names) and "choice" (choice names that are not already ordinary messages). That is
the one part that needs discord.py: this package itself does not import it, so that the
worker processes, which draw pictures with these words, never load it.
`python -m tools.messages` refreshes both catalogues.

Which locale: ephemeral replies and DMs use the user's Discord locale (`interaction.locale`);
messages posted in a channel use the server's language (`guild.preferred_locale`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from bot.i18n.catalogue import (
    CHOICE_CONTEXT,
    COMMAND_CONTEXT,
    DOMAIN,
    LANGUAGES,
    OPTION_CONTEXT,
    SOURCE_LANGUAGE,
    _catalogue,
    _language,
    has_translation,
    po_path,
    reload,
    translate_in_context,
)
from bot.i18n.commands import FIELD, fields, plain


def N_(msgid: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark `msgid` for extraction; returns it unchanged."""
    return msgid


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - gettext-style marker
    """Mark a singular/plural pair for extraction; returns it unchanged (for `tn`)."""
    return singular, plural


def t(locale: object, msgid: str, /, **params: object) -> str:
    """`msgid` translated for `locale` (a Discord locale, a language tag or None), formatted."""
    return _format(locale, msgid, _catalogue(_language(locale)).gettext(msgid), params)


def tn(locale: object, singular: str, plural: str, n: int, /, **params: object) -> str:
    """The form of `singular`/`plural` that `locale`'s language uses for the count `n`,
    translated and formatted (give the count among `params` under its own name)."""
    text = _catalogue(_language(locale)).ngettext(singular, plural, n)
    return _format(locale, singular if n == 1 else plural, text, params)


def _format(locale: object, msgid: str, text: str, params: dict[str, object]) -> str:
    if "{/" in msgid or "{/" in text:  # commands named in the text: Discord mentions
        params = {**fields(locale, msgid, text), **params}
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        if text == msgid:
            raise
        return msgid.format(**params)  # a broken translation never hides the message


def t_plain(locale: object, msgid: str, /, **params: object) -> str:
    """`t` for places where Discord shows mentions as raw text (embed titles and footers,
    option descriptions): commands as plain localised names."""
    names = {f: plain(locale, f[1:]) for f in FIELD.findall(msgid)}
    return t(locale, msgid, **names, **params)


def picture_words(locale: object) -> Callable[[str], str]:
    """The `gettext` a renderer takes: the words of a picture in `locale`'s language (a channel's
    language for public pictures, the player's for private ones). Called in the worker: pass
    the locale, which pickles, not this function."""
    return functools.partial(t, locale)


__all__ = [
    "CHOICE_CONTEXT",
    "COMMAND_CONTEXT",
    "DOMAIN",
    "LANGUAGES",
    "N_",
    "Nn_",
    "picture_words",
    "OPTION_CONTEXT",
    "has_translation",
    "po_path",
    "reload",
    "SOURCE_LANGUAGE",
    "t",
    "t_plain",
    "tn",
    "translate_in_context",
]

