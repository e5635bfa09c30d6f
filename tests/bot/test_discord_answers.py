"""A move's answer carries its outcome when the save is quick: one request where a deferral
and a follow-up (or a later edit) took two; a slow save is deferred first, as before."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.features.common import faults
from bot.tables import Table
from tests.bot.conftest import World, button_ids, custom_ids, open_and_start, private_text
from tests.bot.test_discord_faults import SlowChannel

CALLBACK, ORIGINAL = "/callback", "/messages/@original"
DEFERRED_UPDATE, UPDATE_MESSAGE, MESSAGE, THINKING = 6, 7, 4, 5


def callbacks(world: World, first: int) -> list[int]:
    """The interaction response types the bot sent since request `first`."""
    return [c.json["type"] for c in world.env.http_requests[first:]
            if c.method == "POST" and c.path.endswith(CALLBACK)]


def original_edits(world: World, first: int) -> int:
    return sum(1 for c in world.env.http_requests[first:]
               if c.method == "PATCH" and c.path.endswith(ORIGINAL))


async def senet(world: World) -> tuple[int, object]:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    return table_id, await world.table(table_id)


@pytest.fixture
def quick_saves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every save counts as quick, whatever the test machine's speed."""
    monkeypatch.setattr(faults, "QUICK_ANSWER", 60.0)


@pytest.fixture
def slow_saves(monkeypatch: pytest.MonkeyPatch, world: World) -> None:
    """No save is quick: each waits on the clock, which the answer does not."""
    monkeypatch.setattr(faults, "QUICK_ANSWER", 0.0)
    service = world.bot.service
    play = service.play

    async def slow_play(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(0.05)
        return await play(*args, **kwargs)

    monkeypatch.setattr(service, "play", slow_play)


async def test_a_quick_press_retires_the_board_in_its_answer(world: World,
                                                              quick_saves: None) -> None:
    table_id, table = await senet(world)
    place = world.place(table)
    board = world.last_board(place)
    aki = world.members["aki"]
    first = len(world.env.http_requests)
    await aki.click(board, custom_id=next(iter(button_ids(board))))
    after = await world.table(table_id)
    assert after.ply > table.ply
    # One answer: the pressed board without its controls; no deferral, no later edit.
    assert callbacks(world, first) == [UPDATE_MESSAGE]
    assert original_edits(world, first) == 0
    old = next(b for b in world.boards(place) if b.id == board.id)
    assert not custom_ids(old) and old.attachments  # its picture and text stay
    new = world.last_board(place)
    assert new.id != board.id and custom_ids(new)


async def test_a_slow_press_is_deferred_and_the_board_retired_after(world: World,
                                                                     slow_saves: None) -> None:
    table_id, table = await senet(world)
    place = world.place(table)
    board = world.last_board(place)
    first = len(world.env.http_requests)
    await world.members["aki"].click(board, custom_id=next(iter(button_ids(board))))
    assert (await world.table(table_id)).ply > table.ply
    assert callbacks(world, first) == [DEFERRED_UPDATE]
    assert original_edits(world, first) == 1  # the old board's controls, after the new board
    assert not custom_ids(next(b for b in world.boards(place) if b.id == board.id))
    assert custom_ids(world.last_board(place))


@pytest.mark.parametrize("speed", ["quick_saves", "slow_saves"])
async def test_a_refused_press_is_answered_privately(world: World, speed: str,
                                                     request: pytest.FixtureRequest) -> None:
    request.getfixturevalue(speed)
    table_id, table = await senet(world)
    board = world.last_board(world.place(table))
    first = len(world.env.http_requests)
    result = await world.members["bo"].click(board, custom_id=next(iter(button_ids(board))))
    assert "isn't your turn" in private_text(result)
    assert callbacks(world, first) == ([MESSAGE] if speed == "quick_saves" else
                                       [DEFERRED_UPDATE])
    assert (await world.table(table_id)).ply == table.ply
    assert custom_ids(world.last_board(world.place(table)))  # the board keeps its controls


async def type_first_move(world: World, table: Table,
                          before: Callable[[], None] = lambda: None) -> tuple[Any, int]:
    """aki types /move with their first legal move (`before()` just before): the
    interaction's result, and the index of its first request."""
    aki = world.members["aki"]
    move = world.bot.service.legal_moves_for(table, aki.id)[0]
    first = len(world.env.http_requests)
    before()
    return await aki.slash(world.place(table), "move", move=move), first


def follow_ups(world: World, first: int) -> int:
    return sum(1 for c in world.env.http_requests[first:]
               if c.method == "POST" and "/webhooks/" in c.path)


async def board_of_the_move(world: World, table: Table) -> Any:
    """The newest board, once the move after `table` is posted: it shows that move."""
    after = await world.table(table.id)
    assert after.posted_ply == after.ply > table.ply
    board = world.last_board(world.place(table))
    assert board.id == after.message_id and not board.flags.ephemeral
    return board


async def test_a_quick_typed_move_is_answered_by_its_board(world: World,
                                                            quick_saves: None) -> None:
    """/move saved quickly: its one answer is the board itself, public, with the picture
    (no private "Played" and follow-up board: a request fewer)."""
    _, table = await senet(world)
    old = world.last_board(world.place(table))
    result, first = await type_first_move(world, table)
    board = await board_of_the_move(world, table)
    assert board.id != old.id and board.attachments
    assert result.response is not None and result.response.id == board.id
    assert not result.followups
    assert callbacks(world, first) == [MESSAGE] and follow_ups(world, first) == 0
    assert custom_ids(board) and not custom_ids(
        next(b for b in world.boards(world.place(table)) if b.id == old.id))  # one live board


async def test_a_slow_typed_move_is_answered_privately_then_its_board(
        world: World, slow_saves: None) -> None:
    _, table = await senet(world)
    result, first = await type_first_move(world, table)
    assert private_text(result).startswith("Played: ")
    assert callbacks(world, first) == [THINKING]
    await board_of_the_move(world, table)


async def test_a_typed_move_whose_board_is_late_is_answered_privately(
        world: World, quick_saves: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board cannot come within the wait (Discord holding the channel's posts): the
    member is answered privately, and the board follows as a public follow-up."""
    slow = SlowChannel(world, monkeypatch)  # posts wait until the member is told
    monkeypatch.setattr(world.bot.table_actions.in_time, "budget", 0.0)  # no waiting here
    _, table = await senet(world)
    result, first = await type_first_move(world, table, before=slow.refuse)
    assert result.response.ephemeral and result.response.content.startswith("Played: ")
    assert callbacks(world, first) == [MESSAGE]
    await world.env.settle()
    told = f"told: {result.response.content}"
    assert told in slow.events and slow.events.index(told) < slow.events.index("posted")
    await board_of_the_move(world, table)
    assert follow_ups(world, first) >= 1  # the board: a follow-up


async def test_while_boards_queue_a_typed_move_is_answered_privately_at_once(
        world: World, quick_saves: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards queuing (a burst): the member's answer does not wait for the board."""
    from bot.features.table import publish

    monkeypatch.setattr(publish, "BUSY_POSTS", 0)
    _, table = await senet(world)
    result, first = await type_first_move(world, table)
    assert private_text(result).startswith("Played: ")
    assert callbacks(world, first) == [MESSAGE]
    await board_of_the_move(world, table)


async def test_a_typed_pick_stays_private(world: World, quick_saves: None) -> None:
    """A 6 nimmt! pick typed with /move is never answered by a public board."""
    aki = world.member("aki")
    world.member("bo")
    table_id = await open_and_start(world, "six_nimmt", "aki", ["bo"], rounds=1)
    table = await world.table(table_id)
    seat = table.seat_of(aki.id)
    card = min(table.view(seat)["hands"][seat])
    first = len(world.env.http_requests)
    picked = await aki.slash(world.place(table), "move", move=f"play {card}")
    assert picked.ephemeral and f"You picked Card {card}." in private_text(picked)
    assert callbacks(world, first) == [MESSAGE]


async def test_in_a_burst_a_press_is_deferred_at_once(world: World, quick_saves: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """With other saves going on (a burst of moves), a press does not wait for its own save
    to be answered: it is deferred at once, however quick its save would be."""
    monkeypatch.setattr(faults, "QUICK_AT_ONCE", 0)
    table_id, table = await senet(world)
    board = world.last_board(world.place(table))
    first = len(world.env.http_requests)
    await world.members["aki"].click(board, custom_id=next(iter(button_ids(board))))
    assert (await world.table(table_id)).ply > table.ply
    assert callbacks(world, first) == [DEFERRED_UPDATE]
    assert faults._saving == 0  # every save counted out again
