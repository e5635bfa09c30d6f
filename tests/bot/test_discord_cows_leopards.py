"""Cows and Leopards from /play to the end: sides chosen in the lobby, moves through the
select (split into piece → destination when more than 25), /move, and a restart."""

from __future__ import annotations

from tests.bot.conftest import (
    Driver,
    World,
    button_ids,
    png_of,
    select_values,
)


async def test_cows_leopards_whole_game(world: World) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    # The host opens and picks the leopards; bo joins as the cows.
    result = await aki.slash(world.channel, "play cows_leopards", captures=2, board="A",
                             side="leopards")
    lobby = result.response
    ids = button_ids(lobby)
    assert set(ids.values()) >= {"Join as cows", "Join as leopards", "Leave", "Start", "Cancel"}
    table_id = int(next(iter(ids)).split(":")[1])
    start = f"lobby:{table_id}:start"
    assert lobby.message.components[0].children[3].disabled  # one seat: cannot start yet
    taken = await bo.click(lobby, custom_id=f"lobby:{table_id}:join1")  # leopards are taken
    assert taken.followups[0].ephemeral and "already taken" in taken.followups[0].content
    await bo.click(lobby, custom_id=f"lobby:{table_id}:join0")
    embed = result.response.embeds[0]
    assert "🐆 aki" in embed.fields[0].value and "🐄 bo" in embed.fields[0].value
    assert "captures 2" in embed.fields[1].value
    await aki.click(result.response, custom_id=start)
    table = await world.table(table_id)
    assert [s.name for s in table.seats] == ["bo", "aki"]  # seat 0 cows, seat 1 leopards
    assert not result.response.components  # the lobby keeps no buttons once started

    place = world.place(table)
    first = world.last_board(place)
    png_of(await first.attachments[0].read())
    # 36 empty points: too many for one select, so the cows first choose a column.
    selects = select_values(first)
    assert list(selects) == [f"mg:{table_id}:{table.ply}"]
    assert all(key.startswith("d") for key in selects[f"mg:{table_id}:{table.ply}"])

    driver = Driver(world, table_id, seed=11, slash_every=7)
    await driver.play_until(stop=lambda t: t.ply >= 20)
    await world.restart()
    await driver.finish()
    assert driver.seen.by_method.get("group") and driver.seen.by_method.get("slash")
