"""What every persistent component shares: `Rebuilt` (a DynamicItem rebuilt from its custom
id), `view_of`, and the routes from a component class to the object that handles its presses.

Nothing lives only in a View: after a restart every old message still works, since a
component's callback finds its handler with `handler(interaction, Kind)`, where `Kind` is the
Protocol the feature's components need; the bot installs each handler once (`route`) when it
assembles the features. A press in a process whose handler is gone is answered politely.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Self, TypeVar, cast
from weakref import WeakKeyDictionary

import discord
from discord import ui

H = TypeVar("H")
Item = ui.Item[ui.View | ui.LayoutView]  # a component of a message (a DynamicItem is one)

_ROUTES: WeakKeyDictionary[discord.Client, dict[type[object], object]] = WeakKeyDictionary()


def route(client: discord.Client, kind: type[H], target: H) -> None:
    """Presses of components that ask for `kind` are handled by `target` in `client`."""
    _ROUTES.setdefault(client, {})[kind] = target


def handler(interaction: discord.Interaction, kind: type[H]) -> H:
    """The object that handles `kind` for the bot this interaction came to."""
    return cast(H, _ROUTES[interaction.client][kind])


def handler_if_any(interaction: discord.Interaction, kind: type[H]) -> H | None:
    """`handler`, or None for a bot that routed none (one being assembled or closed)."""
    return cast(H | None, _ROUTES.get(interaction.client, {}).get(kind))


class Rebuilt:
    """A DynamicItem mixin: its constructor takes the template's groups, in order, as its
    leading arguments, those named in `custom_id_numbers` as ints; so `from_custom_id`
    rebuilds it from any custom id it made."""

    custom_id_numbers: frozenset[str] = frozenset({"table", "ply"})

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(*(int(value) if name in cls.custom_id_numbers else value
                     for name, value in match.groupdict().items()))


def view_of(items: Sequence[Item]) -> ui.View:
    """A View (no timeout) holding `items`; it only carries them to Discord."""
    view = ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
