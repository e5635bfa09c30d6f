"""The lobby's computer buttons: Add computer (one per level) and Remove computer."""

from __future__ import annotations

from bot.features.common.badges import LEVEL_NAMES
from bot.features.common.components import Item
from bot.features.lobby.components import LobbyButton
from bot.i18n import t
from bot.tables import Table, TableService
from bot.tables.computers import LEVELS


def computer_items(table: Table, locale: object, held: int = 0) -> list[Item]:
    """Add computer (one button per level, while a seat is free and not `held` for an
    invited member) and Remove computer; the host's to press."""
    items: list[Item] = []
    if len(table.seats) + held < table.engine.max_players:
        for level in LEVELS:
            items.append(LobbyButton(table.id, f"cpu{level}", emoji="🤖", label=t(
                locale, "Add computer ({level})", level=t(locale, LEVEL_NAMES[level]))))
    if table.computer_seats():
        items.append(LobbyButton(table.id, "cpuremove", label=t(locale, "Remove computer")))
    return items


async def lobby_computer(service: TableService, table_id: int, user_id: int, action: str) -> Table:
    """A lobby's computer button: `cpu<level>` adds one, `cpuremove` removes the last."""
    if action == "cpuremove":
        return await service.remove_computer(table_id, user_id)
    table = await service.get(table_id)
    side = None
    eng = table.engine
    if eng.min_players == eng.max_players and any(s.side is not None for s in table.seats):
        free = [side for side in range(eng.max_players)
                if all(s.side != side for s in table.seats)]
        side = free[0] if free else None
    return await service.add_computer(table_id, user_id, action[3:], side=side)
