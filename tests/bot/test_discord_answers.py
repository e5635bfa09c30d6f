"""A move's answer carries its outcome when the save is quick: one request where a deferral
and a follow-up (or a later edit) took two; a slow save is deferred first, as before."""

from __future__ import annotations

import asyncio

import pytest

from bot.features.common import faults
from tests.bot.conftest import World, button_ids, custom_ids, open_and_start, private_text

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


@pytest.mark.parametrize("speed", ["quick_saves", "slow_saves"])
async def test_a_typed_move_is_answered_privately_with_what_was_played(
        world: World, speed: str, request: pytest.FixtureRequest) -> None:
    request.getfixturevalue(speed)
    table_id, table = await senet(world)
    place = world.place(table)
    aki = world.members["aki"]
    move = world.bot.service.legal_moves_for(table, aki.id)[0]
    first = len(world.env.http_requests)
    result = await aki.slash(place, "move", move=move)
    assert private_text(result).startswith("Played: ")
    assert callbacks(world, first) == ([MESSAGE] if speed == "quick_saves" else [THINKING])
    after = await world.table(table_id)
    assert after.ply > table.ply and after.posted_ply == after.ply


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
