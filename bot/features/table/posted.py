"""Which board of a table the channel already shows: posting is idempotent per table and ply.

The record that a board was posted (`mark_posted`) is a second write after Discord accepted
the message; when the database stops in between (or the process dies), the table still looks
unposted, and posting it again would narrate the same moves twice. The database cannot close
that gap by itself: only Discord knows whether its message exists (a marker written with the
move, before the post, could not say whether the post then happened). So a board whose post
outcome is unknown is looked for in the channel before it is posted again: every board
carries its table and ply, in its picture's file name (`board-<table>-<ply>.png`) and in the
custom ids of its components (`mv:<table>:<ply>:…`, nested in the board's Components V2
container; a board posted without a picture has only these), and the bot's last few messages
in the place are read for the newest such mark.
"""

from __future__ import annotations

import logging
import re

import discord

from bot.features.common.places import Place
from bot.features.table.layout import walk

log = logging.getLogger(__name__)

LOOK_BACK = 10  # messages read back from the channel
FILENAME = re.compile(r"^board-(\d+)-(\d+)\.png$")
CUSTOM_ID = re.compile(r"^(?:mv|ms|mg|pk):(\d+):(\d+)")


def picture_name(table_id: int, ply: int) -> str:
    """The file name of a board's picture: it marks which table and ply the board shows."""
    return f"board-{table_id}-{ply}.png"


def marked_ply(message: discord.Message, table_id: int) -> int | None:
    """The ply of `table_id` whose board `message` is, from its marks; None if it is none."""
    found: list[int] = []
    for attachment in message.attachments:
        match = FILENAME.match(attachment.filename or "")
        if match and int(match[1]) == table_id:
            found.append(int(match[2]))
    for child in walk(message.components):  # V2 containers too
        match = CUSTOM_ID.match(getattr(child, "custom_id", None) or "")
        if match and int(match[1]) == table_id:
            found.append(int(match[2]))
    return max(found) if found else None


async def last_posted(channel: Place | None, me: int | None,
                      table_id: int) -> tuple[int, int] | None:
    """(ply, message id) of the newest board of `table_id` among the bot's last messages in
    `channel`; None when there is none, or the channel cannot be read (then the board is
    posted: a repeat is better than a board never shown)."""
    if channel is None:
        return None
    try:
        async for message in channel.history(limit=LOOK_BACK):
            if me is not None and getattr(message.author, "id", None) != me:
                continue
            ply = marked_ply(message, table_id)
            if ply is not None:
                return ply, message.id
    except discord.HTTPException as err:
        log.info("table %s: the channel could not be read back (%s)", table_id, err)
    return None
