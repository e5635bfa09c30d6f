"""The move path as players see it: the new board comes through the interaction that made
the move; a board Discord failed to take is posted later without anyone asking; pictures
are drawn in worker processes."""

from __future__ import annotations

import multiprocessing.process
from pathlib import Path

import pytest
import simcord

from tests.bot.conftest import SEED, World, button_ids, make_bot, open_and_start, png_of


async def first_move(world: World) -> tuple[int, object, object]:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    table = await world.table(table_id)
    place = world.place(table)
    board = world.last_board(place)
    button = next(iter(button_ids(board)))
    result = await world.members["aki"].click(board, custom_id=button)
    return table_id, place, result


async def test_the_board_comes_through_the_players_interaction(world: World) -> None:
    table_id, place, result = await first_move(world)
    public = [m for m in result.followups if not m.ephemeral]
    assert len(public) == 1 and public[0].attachments, result
    png_of(await public[0].attachments[0].read())
    assert world.last_board(place).id == public[0].id  # everyone sees it in the place
    table = await world.table(table_id)
    assert table.posted_ply == table.ply and table.message_id == public[0].id


async def test_a_board_discord_refused_is_posted_later_by_itself(world: World) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    table = await world.table(table_id)
    place = world.place(table)
    boards_before = len(world.boards(place))
    board = world.last_board(place)
    # Discord answers 500 to every way of posting, for a while
    world.env.inject_error("POST", "/webhooks/*", status=500, times=None)
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    result = await world.members["aki"].click(board, custom_id=next(iter(button_ids(board))))
    assert not [m for m in result.followups if not m.ephemeral]  # no board now ...
    moved = await world.table(table_id)
    assert moved.ply > table.ply and moved.posted_ply < moved.ply  # ... but the move is saved
    world.env.backend.faults.clear()  # Discord is back
    await world.env.advance_time(40)
    boards = world.boards(place)
    assert len(boards) == boards_before + 1  # posted without anyone asking, once
    after = await world.table(table_id)
    assert after.posted_ply == after.ply == moved.ply
    assert button_ids(boards[-1])  # with the next player's controls


async def test_pictures_drawn_in_worker_processes(tmp_path: Path, error_trap,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.config import Config
    from bot.storage import open_database

    # simcord freezes time.monotonic, and multiprocessing's reaping of finished children
    # (run by every Process.start) then polls with a timeout that never runs out: the bot
    # starts its warm workers one after another, so reaping is left out here.
    monkeypatch.setattr(multiprocessing.process, "_cleanup", lambda: None)

    database = tmp_path / "bot.sqlite3"
    await (await open_database(database)).close()
    holder: list[simcord.Env] = []
    bot = make_bot(database, SEED, env=holder)
    bot.config = Config(token=None, database=str(database), workers=1)
    env = simcord.Env(bot)
    holder.append(env)
    await env.start()
    try:
        guild = env.create_guild("Game night")
        world = World(env, database, guild, guild.create_text_channel("games"))
        table_id, place, result = await first_move(world)
        lanes = bot.workers.lanes
        assert lanes["boards"].executor is not None and lanes["search"].executor is not None
        public = [m for m in result.followups if not m.ephemeral]
        png_of(await public[0].attachments[0].read())
    finally:
        await env.shutdown()
        await bot.close_storage()
    assert not error_trap.records, error_trap.text()
