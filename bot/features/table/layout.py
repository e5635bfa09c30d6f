"""Board messages in Discord's Components V2: one container per board.

A board is a `ui.LayoutView` holding one Container whose accent colour is the colour of the
seat to move (renderers.theme.SEAT_COLOURS, the badge colour in the pictures; the winner's at
the end, the bot's own colour while several seats pick at once): the narration as a
TextDisplay, the picture in a MediaGallery with its alt text (what a screen reader says), and
the controls in action rows below. A V2 message carries no `content`: its text is in the
TextDisplay, and posted.py still recognises the board by its picture's file name.

`Shown` is what a board message shows (its text, picture and alt text, accent), kept by the
publisher for the table's newest board, so that the board can be edited (the 6 nimmt! pick
board, a group's destinations) or its controls removed once a newer board is posted, without
reading the message back; after a restart it is read back from the message (`shown_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import discord
from discord import ui

from bot.features.common.badges import COLOUR
from bot.features.common.components import Item
from bot.tables import Table
from renderers.theme import SEAT_COLOURS

MAX_TEXT = 4000  # Components V2: characters of text in one message
MAX_ALT = 1024  # an attachment's / media item's description


@dataclass(frozen=True)
class Shown:
    """What one board message shows."""

    message_id: int
    text: str
    picture: str | None  # the attachment's file name (board-<table>-<ply>.png)
    alt: str | None
    accent: int | None  # RGB as an int

    def without_controls(self) -> ui.LayoutView:
        return board_view(self.text, self.picture, self.alt, (), self.accent)


def accent_of(table: Table) -> int:
    """The colour of the seat to move; the winner's once the game is over; the bot's while
    several seats decide at once (face-down picks)."""
    seats = table.to_act() if table.status == "running" else []
    if table.status == "finished":
        ranks = (table.outcome or {}).get("ranks") or []
        seats = [s for s, rank in enumerate(ranks) if rank == 1][:1]
    if len(seats) != 1:
        return COLOUR.value
    r, g, b = SEAT_COLOURS[seats[0] % len(SEAT_COLOURS)][:3]
    return discord.Colour.from_rgb(r, g, b).value


def rows_of(items: Iterable[Item]) -> list[list[Item]]:
    """The items in action rows: by their `row` when given, else five buttons or one select
    to a row, in order."""
    rows: dict[int, list[Item]] = {}
    free: list[list[Item]] = []
    for item in items:
        width = getattr(item, "width", 1)
        if item.row is not None:
            rows.setdefault(item.row, []).append(item)
            continue
        if not free or sum(getattr(i, "width", 1) for i in free[-1]) + width > 5:
            free.append([])
        free[-1].append(item)
    return [rows[k] for k in sorted(rows)] + free


def board_view(text: str, picture: str | None, alt: str | None,
               items: Sequence[Item], accent: int | None) -> ui.LayoutView:
    """The board message: text, picture (with alt text), controls, in one container."""
    view = ui.LayoutView(timeout=None)
    container: ui.Container[ui.LayoutView] = ui.Container(
        accent_colour=discord.Colour(accent) if accent is not None else None)
    container.add_item(ui.TextDisplay(text[:MAX_TEXT]))
    if picture is not None:
        container.add_item(ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{picture}", description=alt[:MAX_ALT] if alt else None)))
    rows = rows_of(items)
    for row in rows:
        for item in row:
            item.row = None  # a LayoutView places items by their ActionRow
        container.add_item(ui.ActionRow(*row))
    view.add_item(container)
    return view


def walk(components: Iterable[object]) -> Iterator[object]:
    """Every component of a received message, nested V2 children (and a gallery's items)
    included."""
    for component in components:
        yield component
        for key in ("children", "components", "items"):
            inner = getattr(component, key, None)
            if isinstance(inner, list) and inner is not components:
                yield from walk(inner)
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def shown_of(message: discord.Message) -> Shown:
    """What a board message shows, read back from Discord (after a restart)."""
    texts: list[str] = []
    picture = alt = None
    accent = None
    for component in walk(getattr(message, "components", []) or []):
        if isinstance(component, discord.TextDisplay):
            texts.append(component.content)
        elif isinstance(component, discord.MediaGalleryComponent):
            for item in component.items:
                url = getattr(item.media, "url", "") or ""
                picture = picture or url.rsplit("/", 1)[-1].split("?", 1)[0] or None
                alt = alt or item.description
        elif isinstance(component, discord.Container):
            colour = getattr(component, "accent_colour", None)
            accent = colour.value if colour is not None else None
    attachments = getattr(message, "attachments", []) or []
    if attachments:
        picture = attachments[0].filename
        alt = alt or getattr(attachments[0], "description", None)
    text = "\n".join(texts) or getattr(message, "content", "") or ""
    return Shown(message.id, text, picture, alt, accent)


def is_layout(message: discord.Message) -> bool:
    """A Components V2 message (else a board posted before boards were V2: text content)."""
    flags = getattr(message, "flags", None)
    return bool(getattr(flags, "components_v2", False))
