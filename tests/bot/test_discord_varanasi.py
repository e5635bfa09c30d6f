"""Varanasi from /play to the final scores (take-colour buttons, the move select, /move),
a restart mid-game, and the leaderboard and stats after several games."""

from __future__ import annotations

from tests.bot.conftest import (
    Driver,
    World,
    button_ids,
    open_and_start,
    png_of,
    select_values,
)


async def test_varanasi_whole_game(world: World) -> None:
    table_id = await open_and_start(world, "varanasi", "aki", ["bo", "cy"], sets=1, shuffle=False)
    table = await world.table(table_id)
    # shuffle:false keeps the join order.
    assert [s.name for s in table.seats] == ["aki", "bo", "cy"]
    assert table.options["colours"] == 4  # the engine's default for 3 players
    place = world.place(table)
    first = world.last_board(place)
    png_of(await first.attachments[0].read())
    moves = world.bot.service.legal_moves_for(table, table.seats[table.to_act()[0]].user_id)
    takes = {m for m in moves if m.startswith("take ")}
    buttons = button_ids(first)
    assert {i.split(":", 3)[3] for i in buttons} == takes
    assert all(label.startswith("Take ") for label in buttons.values())
    selected = [v for values in select_values(first).values() for v in values]
    assert sorted(selected) == sorted(m for m in moves if m.startswith("move "))

    driver = Driver(world, table_id, seed=3, slash_every=4)
    await driver.play_until(stop=lambda t: t.ply >= 6)
    await world.restart()
    _, final = await driver.finish()
    assert "Set 1 goes to" in final.content
    assert driver.seen.by_method.get("button") and driver.seen.by_method.get("slash")


async def test_leaderboard_after_several_games(world: World) -> None:
    winners = []
    for index in range(3):
        table_id = await open_and_start(world, "varanasi", "aki", ["bo"], sets=1)
        table = await Driver(world, table_id, seed=index, slash_every=1000).play_until()
        winners.append(table.seats[table.outcome["ranks"].index(1)].name)
    aki = world.member("aki")
    board = await aki.slash(world.channel, "leaderboard", game="varanasi")
    text = board.response.embeds[0].description
    assert "aki" in text and "bo" in text and "rating" in text
    best = max(set(winners), key=winners.count)
    assert text.index(best) < text.index("bo" if best == "aki" else "aki")
    overall = await aki.slash(world.channel, "leaderboard")
    assert "3 games" in overall.response.embeds[0].description
    stats = await aki.slash(world.channel, "stats", member=world.member("bo"))
    embed = stats.response.embeds[0]
    assert embed.title == "Stats: bo"
    wins = winners.count("bo")
    assert f"3 games · {wins} {'win' if wins == 1 else 'wins'}" in embed.description
    assert embed.fields[0].name == "Varanasi"
    mine = await world.member("cy").slash(world.channel, "stats")
    assert "No finished games" in mine.response.embeds[0].description
