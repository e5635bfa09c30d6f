"""Exactly one narration per move, whatever fails: the record that a board was posted
(`mark_posted`) lost while the database is down, in a running process and across a restart,
and two bot processes on one database (a shard cluster) posting the same table, one of them
dying before it posts; on both storage backends (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.features.common.locales import ServerLanguages
from bot.features.common.places import Places
from bot.features.common.services import Services
from bot.features.table.publish import Publisher
from bot.health import Health, Outages
from bot.storage import Unavailable, open_database
from bot.tables import MoveResult, TableService
from tests.bot.conftest import SEED, World, open_and_start


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


# -- two processes ---------------------------------------------------------------------------


@dataclass
class Process:
    """Another bot process on the same database and the same Discord application: its own
    table service (and so its own name on claims) and Publisher, posting to the same channels."""

    service: TableService
    publisher: Publisher

    async def move(self, world: World, table_id: int) -> MoveResult:
        """A move made in this process (a DM pick, a deadline, a computer): committed here."""
        table = await self.service.get(table_id)
        user_id = table.seats[table.to_act()[0]].user_id
        return await self.service.play(table_id, user_id,
                                       self.service.legal_moves_for(table, user_id)[0])


@pytest.fixture
async def other(world: World) -> AsyncIterator[Process]:
    db = await open_database(world.database)
    service = TableService(db, rng=random.Random(SEED + 2), now=world.env.now)
    bot = world.bot
    languages = ServerLanguages(bot, service.settings.chosen_language)
    outages = Outages(db.health, Health("discord"))
    services = Services(bot, bot.config, service, languages, outages)
    yield Process(service, Publisher(services, Places(bot, languages, outages.discord)))
    await db.close()


async def board_count(world: World, table_id: int) -> tuple[Any, int]:
    place = world.place(await world.table(table_id))
    return place, len(world.boards(place))


@pytest.mark.parametrize("catching_up", ["sweeper", "recovery"])
async def test_two_processes_posting_the_same_ply_post_one_board(
        world: World, other: Process, catching_up: str) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    place, boards = await board_count(world, table_id)
    for _ in range(3):
        result = await other.move(world, table_id)
        # the other process posts the board of its move while this one catches up on the
        # table, whose board it finds unposted (a sweep that read it before the commit, or
        # the recovery of a process that has just started)
        mine = world.bot.publisher
        catch_up = mine.publish(table_id) if catching_up == "sweeper" else mine.recover()
        await asyncio.gather(catch_up, other.publisher.publish(result))
        await world.env.settle()
        boards += 1
        assert len(world.boards(place)) == boards, "two boards for one ply"
        table = await world.table(table_id)
        assert table.posted_ply == table.ply
    await world.env.advance_time(60)  # and no sweep posts it again later
    assert len(world.boards(place)) == boards


async def test_a_move_made_while_another_process_posts_is_posted_by_it_after_its_own(
        world: World, other: Process) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    place, boards = await board_count(world, table_id)
    first = await other.move(world, table_id)  # the other process moves, about to post
    await move(world, table_id)  # meanwhile the next move is made here: it must not post
    await world.env.settle()
    assert len(world.boards(place)) == boards
    await other.publisher.publish(first)  # its board, then the board of the move made here
    await world.env.settle()
    assert len(world.boards(place)) == boards + 2
    older, newer = (narration(board) for board in world.boards(place)[-2:])
    assert older and newer and older not in newer  # each move narrated once
    table = await world.table(table_id)
    assert table.posted_ply == table.ply


async def test_a_process_that_died_before_posting_delays_the_board_only_for_its_lease(
        world: World, other: Process) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    place, boards = await board_count(world, table_id)
    await other.move(world, table_id)  # committed and claimed its board, then died
    await world.env.advance_time(20)  # the sweeper finds the board behind, but claimed
    assert len(world.boards(place)) == boards
    await world.env.advance_time(30)  # the claim ran out: this process's sweeper posts it
    assert len(world.boards(place)) == boards + 1
    table = await world.table(table_id)
    assert table.posted_ply == table.ply
    await world.env.advance_time(60)
    assert len(world.boards(place)) == boards + 1
