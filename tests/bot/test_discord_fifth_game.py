"""A fifth game joins with its own three files and nothing else: the test-only Nim (engine
tests/helpers/nim.py, picture tests/helpers/nim_renderer.py, presentation
tests/helpers/nim_presentation.py) is registered through the public registries before the bot
builds its commands, then played from /play to the final standings as players would: lobby,
board pictures, move buttons with the presentation's labels, /move with autocomplete, the
game-over board and the leaderboard."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import bot.games
import engines
import renderers
from tests.bot.conftest import Driver, World, button_ids, png_of
from tests.helpers import nim, nim_presentation, nim_renderer

GAME = nim.GAME_ID


@pytest.fixture(autouse=True)
def fifth_game() -> Iterator[None]:
    """Registered before the `env` fixture makes the bot (autouse fixtures come first)."""
    engines.register(nim.ENGINE)
    renderers.register(GAME, nim_renderer)
    bot.games.register(nim_presentation.PRESENTATION)
    yield
    bot.games.unregister(GAME)
    renderers.unregister(GAME)
    engines.unregister(GAME)


async def test_nim_from_play_to_leaderboard(world: World) -> None:
    commands = {c.name: c for c in await world.bot.tree.fetch_commands()}
    games = {sub.name: sub for sub in commands["play"].options}
    assert set(games) == set(engines.game_ids()) and GAME in games
    assert games[GAME].description == "Open a Nim table: take the last stone"
    assert [o.name for o in games[GAME].options][:1] == ["heaps"]  # the engine's option
    rules = {o.name: o for o in commands["rules"].options}["game"]
    assert GAME in [c.value for c in rules.choices]

    aki, bo = world.member("aki"), world.member("bo")
    lobby = (await aki.slash(world.channel, f"play {GAME}", heaps=4)).response
    assert lobby.embeds[0].title.startswith("Nim · table")
    assert "heaps 4" in lobby.embeds[0].fields[1].value
    table_id = int(next(iter(button_ids(lobby))).split(":")[1])
    await bo.click(lobby, custom_id=f"lobby:{table_id}:join")
    start = next(i for i in button_ids(lobby) if ":start" in i)
    await aki.click(lobby, custom_id=start)
    table = await world.table(table_id)
    assert table.status == "running" and table.state["heaps"] == [2, 3, 4, 5]

    # The first board: the picture, one button per legal move labelled by the presentation.
    board = world.last_board(world.place(table))
    png_of(await board.attachments[0].read())
    mover = table.seats[table.to_act()[0]].user_id
    moves = world.bot.service.legal_moves_for(table, mover)
    buttons = button_ids(board)
    assert set(buttons) == {f"mv:{table_id}:{table.ply}:{m}" for m in moves}
    assert buttons[f"mv:{table_id}:{table.ply}:take 3 from 4"] == "Take 3 from heap 4"

    driver = Driver(world, table_id, seed=3, slash_every=3)
    table, final = await driver.finish()
    assert driver.seen.by_method.get("button") and driver.seen.by_method.get("slash")
    assert driver.seen.pictures == driver.seen.boards > 3
    assert "took" in final.content  # narrated takes
    winner = table.outcome["ranks"].index(1)
    gold = next(line for line in final.content.splitlines() if "🥇" in line)
    assert table.seats[winner].name in gold

    answer = await aki.slash(world.channel, "leaderboard", game=GAME)
    (embed,) = answer.response.embeds
    assert embed.title == "Leaderboard: Nim"
    first_line = embed.description.splitlines()[0]
    assert table.seats[winner].name in first_line and "1 win " in first_line
