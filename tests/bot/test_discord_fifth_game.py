"""A fifth game joins with its own three files and nothing else: the test-only Nim (engine and
spec tests/helpers/nim.py, picture tests/helpers/nim_renderer.py, presentation
tests/helpers/nim_presentation.py) is registered with one call, `bot.games.register(SPEC)`,
before the bot builds its commands, then played from /play to the final standings as players
would: lobby, board pictures, move buttons with the presentation's labels, /move with
autocomplete, the game-over board and the leaderboard; and against the computer player its
spec names, then reviewed by its spec's judge."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

import bot.games
import engines
from bot.features.review import review as review_ui
from bot.tables.computers import BUDGETS
from bot.tables.thinking import move_seed
from engines.ai import choose_move
from tests.bot.conftest import Driver, World, button_ids, png_of
from tests.helpers import nim

GAME = nim.GAME_ID


@pytest.fixture(autouse=True)
def fifth_game() -> Iterator[None]:
    """Registered before the `env` fixture makes the bot (autouse fixtures come first)."""
    bot.games.register(nim.SPEC)
    yield
    bot.games.unregister(GAME)


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


async def test_nim_against_a_computer_then_its_review(world: World,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer the spec names (the generic playouts) answers every move through the same
    path as a built-in game's, and /review judges the game with the spec's generic judge."""
    monkeypatch.setenv("BOT_COMPUTER_DELAY", "0")
    review_ui.forget()
    aki = world.member("aki")
    await world.before_play("aki")
    result = await aki.slash(world.channel, f"play {GAME}", heaps=3)
    table_id = int(next(iter(button_ids(result.response))).split(":")[1])
    await aki.click(result.response, custom_id=f"lobby:{table_id}:cpuhard")
    start = next(i for i in button_ids(result.response) if ":start" in i)
    await aki.click(result.response, custom_id=start)
    table = await world.table(table_id)
    assert table.status == "running" and table.computer_seats() == {1: "hard"}

    table, _ = await Driver(world, table_id, seed=5, slash_every=1000).finish()
    assert any(actor == 1 for actor, _ in table.log)
    state = nim.ENGINE.new(2, {"heaps": 3})
    for ply, (actor, move) in enumerate(table.log):  # each computer move is the spec's player's
        if actor == 1:
            assert move == choose_move(GAME, nim.ENGINE.view(state, 1), 1, "hard",
                                       seed=move_seed(table_id, ply, 1), budget=BUDGETS["hard"])
        state = nim.ENGINE.apply(state, actor, move)

    shown = await aki.slash(world.channel, "review", table=table_id)
    message = shown.followups[-1] if shown.followups else shown.response
    names = [field.name for field in message.embeds[0].fields]
    assert len(names) == 2 and any("accuracy" in n for n in names)
    assert png_of(await message.attachments[0].read())


def test_a_spec_whose_parts_do_not_import_is_refused() -> None:
    for bad, words in ((replace(nim.SPEC, renderer="tests.helpers.nowhere"), "renderer"),
                       (replace(nim.SPEC, player="engines.ai.generic:NOBODY"), "player"),
                       (replace(nim.SPEC, presentation="bot.games.senet:PRESENTATION"),
                        "presentation is for 'senet'")):
        with pytest.raises(ValueError, match=words):
            bot.games.register(bad)
    assert engines.spec(GAME) is nim.SPEC  # the good one stays
