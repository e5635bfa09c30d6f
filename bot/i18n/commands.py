"""Slash commands named in texts: Discord's command mentions (`</play senet:123>`), which every
client shows in its own language and makes clickable.

Catalogue texts never spell a command: they hold a field `{/name}` (`{/play}`, `{/settings}`)
that `bot.i18n.t` fills with `mention(locale, "name")`; a text about a game's subcommand gets
it as an ordinary field (`{play_game}` = `mention(locale, "play senet")`). The ids come from
the synced commands (`remember`, called with the result of `tree.sync()` or
`tree.fetch_commands()`); before that, or for a command Discord did not report, the mention
falls back to the plain name as the reader's client lists it ("/プレイ セネト").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.i18n.catalogue import COMMAND_CONTEXT, translate_in_context

FIELD = re.compile(r"\{(/[^{}:!]+)\}")

_ids: dict[str, int] = {}  # top-level command name -> its application command id


def remember(commands: Iterable[object]) -> None:
    """Keep the ids of synced application commands (objects with `.name` and `.id`)."""
    for command in commands:
        name, command_id = getattr(command, "name", None), getattr(command, "id", None)
        if isinstance(name, str) and isinstance(command_id, int):
            _ids[name] = command_id


def forget() -> None:
    """Drop the cached ids (tests; a bot that lost its commands)."""
    _ids.clear()


def known() -> dict[str, int]:
    return dict(_ids)


def plain(locale: object, path: str) -> str:
    """'/play senet' as `locale`'s client lists it ('/プレイ セネト')."""
    words = path.split()
    return "/" + " ".join(translate_in_context(locale, COMMAND_CONTEXT, w) or w for w in words)


def mention(locale: object, path: str) -> str:
    """The command mention of `path` ("play senet", "rules"), or `plain` before the ids are
    known."""
    path = " ".join(path.strip().lstrip("/").split())
    command_id = _ids.get(path.split(" ")[0]) if path else None
    if command_id is None:
        return plain(locale, path)
    return f"</{path}:{command_id}>"


def fields(locale: object, *texts: str) -> dict[str, str]:
    """The `{/name}` fields of `texts` with their mentions."""
    return {f: mention(locale, f[1:]) for text in texts for f in FIELD.findall(text)}


__all__ = ["FIELD", "fields", "forget", "known", "mention", "plain", "remember"]
