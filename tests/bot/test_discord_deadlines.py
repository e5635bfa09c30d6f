"""Turn deadlines: a reminder before the deadline (a mention in the place, or a DM for a
hidden pick), then the computer's move for the absent player, posted with a note."""

from __future__ import annotations

from tests.bot.conftest import World, open_and_start, select_values


async def test_reminder_then_computer_move(world: World) -> None:
    await world.bot.service.settings.update(world.guild.id, deadline_seconds=60)
    table_id = await open_and_start(world, "senet", "aki", ["bo"])
    table = await world.table(table_id)
    place = world.place(table)
    absent = table.seats[table.to_act()[0]]
    board = world.last_board(place)
    await world.env.advance_time(31)  # the reminder comes 30 s before a 1-minute deadline
    reminder = world.bot_messages(place)[-1]
    assert f"<@{absent.user_id}>" in reminder.content and "waiting for you" in reminder.content
    assert (await world.table(table_id)).ply == table.ply
    await world.env.advance_time(30)
    after = await world.table(table_id)
    assert after.ply > table.ply and after.posted_ply == after.ply
    latest = world.last_board(place)
    assert latest.id != board.id
    assert "ran out of time: the computer moved for them" in latest.content
    assert absent.name in latest.content.split("ran out of time")[0]


async def test_hidden_pick_reminder_goes_by_dm(world: World) -> None:
    await world.bot.service.settings.update(world.guild.id, deadline_seconds=60)
    table_id = await open_and_start(world, "six_nimmt", "aki", ["bo"], rounds=1)
    table = await world.table(table_id)
    place = world.place(table)
    aki = world.members["aki"]
    # aki picks in time; bo does not.
    (dm,) = world.dms(aki)
    (select_id, values), = select_values(dm).items()
    await aki.user.select(dm, [values[0]], custom_id=select_id)
    before = len(world.bot_messages(place))
    await world.env.advance_time(31)
    bo_dms = world.dms(world.members["bo"])
    assert "please pick your card" in bo_dms[-1].content
    assert len(world.bot_messages(place)) == before  # nothing about hands in the channel
    await world.env.advance_time(30)
    latest = world.last_board(place)
    assert "Revealed:" in latest.content
    assert "ran out of time" in latest.content
