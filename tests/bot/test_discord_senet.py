"""Senet from /play to the final scores, through the stone buttons and /move, with a bot
restart mid-game (old buttons keep working) and a crash between commit and post."""

from __future__ import annotations

from tests.bot.conftest import Driver, World, button_ids, custom_ids, open_and_start


async def test_senet_whole_game(world: World) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"])
    table = await world.table(table_id)
    place = world.place(table)
    assert place.is_thread, "the game gets its own thread"
    first = world.last_board(place)
    # One button per movable stone (or return/try/pass), each carrying table, ply and move.
    moves = world.bot.service.legal_moves_for(table, table.seats[table.to_act()[0]].user_id)
    assert set(button_ids(first)) == {f"mv:{table_id}:{table.ply}:{m}" for m in moves}
    assert "threw" in first.content  # the opening throw is narrated

    driver = Driver(world, table_id, seed=5)
    table = await driver.play_until(stop=lambda t: t.ply >= 30)

    # Restart: the last board was posted before it, and its buttons still work afterwards.
    before = world.last_board(place)
    assert table.posted_ply == table.ply
    await world.restart()
    assert world.last_board(place).id == before.id  # nothing needed reposting
    table = await driver.step()
    assert driver.seen.by_method, "played on the pre-restart board"

    # A crash after the service committed a move but before the board was posted.
    table = await world.table(table_id)
    seat = table.to_act()[0]
    user = table.seats[seat].user_id
    move = world.bot.service.legal_moves_for(table, user)[0]
    committed = await world.bot.service.play(table_id, user, move, turn=table.ply)
    assert (await world.table(table_id)).posted_ply < committed.table.ply
    await world.restart()
    recovered = world.last_board(place)
    assert recovered.id != before.id
    table = await world.table(table_id)
    assert table.posted_ply == table.ply == committed.table.ply

    table, final = await driver.finish()
    assert "🥇" in final.content and "🥈" in final.content
    assert not custom_ids(final)  # the final board has no controls
    winner = table.outcome["ranks"].index(1)
    gold = next(line for line in final.content.splitlines() if "🥇" in line)
    assert table.seats[winner].name in gold
    assert driver.seen.by_method.get("button") and driver.seen.by_method.get("slash")
