"""Computer players through Discord: the lobby's Add computer buttons, a whole game against a
computer through the board buttons, the leaderboard entry, and /hint."""

from __future__ import annotations

import pytest

from tests.bot.conftest import Driver, World, button_ids, private_text, resign

pytestmark = pytest.mark.usefixtures("fast_computers")


async def open_against_computer(world: World, game: str, **options) -> tuple[int, object]:
    aki = world.member("aki")
    await world.before_play("aki")
    result = await aki.slash(world.channel, f"play {game}", **options)
    lobby = result.response
    table_id = int(next(iter(button_ids(lobby))).split(":")[1])
    assert f"lobby:{table_id}:cpuhard" in button_ids(lobby)
    # only the host may add computers
    refused = await world.member("bo").click(lobby, custom_id=f"lobby:{table_id}:cpueasy")
    assert "Only the host" in private_text(refused)
    await aki.click(lobby, custom_id=f"lobby:{table_id}:cpuhard")
    lobby = result.response
    seats = lobby.embeds[0].fields[0].value
    assert "Computer (hard)" in seats, seats
    # remove it again, then add a normal one
    assert f"lobby:{table_id}:cpuremove" in button_ids(lobby)
    await aki.click(lobby, custom_id=f"lobby:{table_id}:cpuremove")
    assert "Computer" not in result.response.embeds[0].fields[0].value
    await aki.click(result.response, custom_id=f"lobby:{table_id}:cpunormal")
    lobby = result.response
    assert "Computer (normal)" in lobby.embeds[0].fields[0].value
    assert f"lobby:{table_id}:cpunormal" not in button_ids(lobby)  # the table is full
    start = next(i for i in button_ids(lobby) if ":start" in i)
    await aki.click(lobby, custom_id=start)
    assert (await world.table(table_id)).status == "running"
    return table_id, lobby


async def test_senet_against_a_computer_to_the_end(world: World) -> None:
    table_id, lobby = await open_against_computer(world, "senet")
    assert not any(f.name == "Hints" for f in lobby.embeds[0].fields)
    table = await world.table(table_id)
    assert [table.seats[s].user_id for s in table.to_act()] == [world.members["aki"].id]
    driver = Driver(world, table_id, seed=3, slash_every=1000)
    table, _ = await driver.finish()
    assert driver.seen.by_method.get("button")
    computer = next(i for i, s in enumerate(table.seats) if s.user_id < 0)
    assert any(actor == computer for actor, _ in table.log)
    board = await world.member("aki").slash(world.channel, "leaderboard", game="senet")
    (embed,) = board.response.embeds
    assert "Computer (normal)" in embed.description
    assert "aki" in embed.description


async def test_hint_on_and_off(world: World) -> None:
    table_id, _ = await open_against_computer(world, "cows_leopards", side="cows")
    table = await world.table(table_id)
    place = world.place(table)
    aki = world.members["aki"]
    refused = await aki.slash(place, "hint")
    assert "hints are off" in private_text(refused)
    await resign(aki, place)
    table_id, lobby = await open_against_computer(world, "cows_leopards", side="cows",
                                                  hints=True)
    table = await world.table(table_id)
    assert any("don't change ratings" in f.value for f in lobby.embeds[0].fields)
    place = world.place(table)
    reply = await aki.slash(place, "hint")
    text = private_text(reply)
    assert text.startswith("Hint:"), text
    code = text.split("`")[1]
    assert code in world.bot.service.legal_moves_for(table, aki.id)
    refused = await world.member("bo").slash(place, "hint")
    assert "don't have a seat" in private_text(refused)
