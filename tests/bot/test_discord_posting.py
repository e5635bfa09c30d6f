"""Exactly one narration per move, whatever fails: the record that a board was posted
(`mark_posted`) lost while the database is down, in a running process and across a restart,
on both storage backends (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import Unavailable, open_database
from tests.bot.conftest import World, open_and_start


@pytest.fixture
async def database(backend_target: Any) -> Any:
    """The bot's database on each backend (overrides conftest's SQLite file)."""
    created = await open_database(backend_target)  # created and migrated before the bot
    await created.close()
    return backend_target


class LostMarks:
    """The database stops right after Discord took a board: `mark_posted` fails while `on`
    (each bot's repository, restarts included)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.on = False
        self.lost = 0
        self.monkeypatch = monkeypatch

    def install(self, world: World) -> None:
        driver = world.bot.db.driver
        original = driver.run

        async def run(unit: Any, *args: Any) -> Any:
            if self.on and unit.__name__ == "_mark_posted":
                self.lost += 1
                raise Unavailable("the database stopped") from ConnectionError("gone")
            return await original(unit, *args)

        self.monkeypatch.setattr(driver, "run", run)


def narration(board: Any) -> str:
    """The lines of a board between its title and its players line."""
    lines = board.content.split("\n")
    end = next(i for i, line in enumerate(lines) if line.startswith("Players:"))
    return "\n".join(lines[1:end])


async def move(world: World, table_id: int) -> None:
    table = await world.table(table_id)
    seat = table.to_act()[0]
    member = next(m for m in world.members.values() if m.user.id == table.seats[seat].user_id)
    legal = world.bot.service.legal_moves_for(table, member.user.id)
    await member.slash(world.place(table), "move", move=legal[0])


async def test_a_board_whose_mark_posted_failed_is_not_narrated_twice_after_recovery(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    place = world.place(await world.table(table_id))
    marks = LostMarks(monkeypatch)
    marks.install(world)
    for restart in (False, True):
        boards = len(world.boards(place))
        marks.on = True
        await move(world, table_id)
        assert marks.lost >= 1
        lost = await world.table(table_id)
        assert lost.posted_ply < lost.ply  # the database does not know the board was posted
        assert len(world.boards(place)) == boards + 1
        narrated = narration(world.last_board(place))
        marks.on = False  # the database is back
        if restart:  # and the process that knew of the post is gone
            await world.restart()
            marks.install(world)
        await world.env.advance_time(40)  # the sweeper looks at the unposted boards
        assert len(world.boards(place)) == boards + 1, "the same board was posted again"
        recorded = await world.table(table_id)
        assert recorded.posted_ply == recorded.ply  # the post is recorded after recovery
        await move(world, table_id)  # the next board narrates only the next move
        assert len(world.boards(place)) == boards + 2
        assert narrated not in narration(world.last_board(place))
    table = await world.table(table_id)
    assert table.posted_ply == table.ply
