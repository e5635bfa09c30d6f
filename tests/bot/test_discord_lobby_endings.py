"""A table's end reaches the channel: the lobby message shows the result with a link to the
final board, the parent channel gets one result line (unless /settings turns it off), and
the final board's Rematch opens a new lobby with the same seats and options."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.tables import computers as cpu
from tests.bot.conftest import World, admin, button_ids, lobby_id, private_text, resign

pytestmark = pytest.mark.usefixtures("fast_computers")


def embed_text(message: Any) -> str:
    embed = message.embeds[0]
    return "\n".join([embed.description or "", *(f"{f.name}: {f.value}" for f in embed.fields)])


async def two_player_game(world: World, game: str = "senet", **options: Any) -> tuple[Any, int]:
    """aki opens, bo joins, aki starts: (the /play result, the table id)."""
    aki, bo = world.member("aki"), world.member("bo")
    await world.before_play("aki")
    opened = await aki.slash(world.channel, f"play {game}", **options)
    table_id = lobby_id(opened.response)
    join = next(i for i in button_ids(opened.response) if ":join" in i)
    await bo.click(opened.response, custom_id=join)
    start = next(i for i in button_ids(opened.response) if ":start" in i)
    await aki.click(opened.response, custom_id=start)
    assert (await world.table(table_id)).status == "running"
    return opened, table_id


def result_lines(world: World) -> list[str]:
    return [m.content for m in world.bot_messages(world.channel) if m.content.startswith("🏁")]


async def test_the_end_reaches_the_lobby_and_the_channel(world: World) -> None:
    opened, table_id = await two_player_game(world)
    table = await world.table(table_id)
    thread = world.place(table)
    assert thread is not world.channel  # played in its own thread
    assert "The game has started." in embed_text(opened.response)
    await resign(world.members["bo"], thread)
    table = await world.table(table_id)
    assert table.status == "finished"
    final = world.last_board(thread)
    url = f"https://discord.com/channels/{world.guild.id}/{thread.id}/{final.id}"
    # the lobby message: the winner, the standings, the link; no buttons
    shown = embed_text(opened.response.message)
    assert "This game is over: **aki** won." in shown, shown
    assert "Result: 🥇" in shown and "bo resigned." in shown
    assert f"[See the final board]({url})" in shown
    assert "The game has started." not in shown
    assert not button_ids(opened.response)
    # one line in the parent channel, without mentions
    (line,) = result_lines(world)
    assert line.startswith(f"🏁 **Senet** · table {table_id}: 🥇")
    assert "aki" in line and "bo" in line and url in line and "<@" not in line
    # the final board offers a rematch
    assert button_ids(final) == {f"rematch:{table_id}": "Rematch"}


async def test_no_result_line_when_the_server_turns_it_off(world: World) -> None:
    boss = admin(world)
    changed = await boss.slash(world.channel, "settings", result_lines=False)
    assert changed.response.ephemeral
    settings = await world.bot.service.settings.get(world.guild.id)
    assert settings.result_lines is False
    shown = str(changed.response.embeds[0].to_dict())
    assert "only in the thread and on the lobby" in shown
    opened, table_id = await two_player_game(world)
    await resign(world.members["bo"], world.place(await world.table(table_id)))
    assert "**aki** won" in embed_text(opened.response.message)  # the lobby still shows it
    assert result_lines(world) == []
    # and on again
    await boss.slash(world.channel, "settings", result_lines=True)
    assert (await world.bot.service.settings.get(world.guild.id)).result_lines is True


async def test_a_cancelled_game_shows_on_its_lobby(world: World) -> None:
    opened, table_id = await two_player_game(world)
    mod_role = world.guild.create_role("Mods", permissions=discord.Permissions(
        manage_messages=True))
    mod = world.member("mod", roles=[mod_role])
    thread = world.place(await world.table(table_id))
    await mod.slash(thread, "cancel")
    shown = embed_text(opened.response.message)
    assert "This table was cancelled." in shown and "Cancelled by mod" in shown
    assert result_lines(world) == []


async def test_rematch_same_seats_and_options_with_a_computer(world: World) -> None:
    """Three seats of 6 nimmt!: aki, bo and a computer; bo asks for a rematch (bo hosts),
    the computer stays seated and aki's seat is held until aki accepts."""
    aki, bo = world.member("aki"), world.member("bo")
    await world.before_play("aki")
    opened = await aki.slash(world.channel, "play six_nimmt", rounds=1, shuffle=False)
    table_id = lobby_id(opened.response)
    await bo.click(opened.response, custom_id=f"lobby:{table_id}:join")
    await aki.click(opened.response, custom_id=f"lobby:{table_id}:cpueasy")
    await aki.click(opened.response, custom_id=f"lobby:{table_id}:startfixed")
    table = await world.table(table_id)
    thread = world.place(table)
    await resign(aki, thread)
    old = await world.table(table_id)
    assert old.status == "finished"
    final = world.last_board(thread)
    # a member who did not play is refused
    cy = world.member("cy")
    refused = await cy.click(final, custom_id=f"rematch:{table_id}")
    assert "Only the players of this game" in private_text(refused)
    pressed = await bo.click(final, custom_id=f"rematch:{table_id}")
    new_id = await world.bot.service.store.active_id_in_channel(thread.id)
    assert new_id is not None and new_id != table_id
    new = await world.table(new_id)
    assert new.status == "lobby" and new.host_id == bo.id and new.place_id == thread.id
    assert new.chosen_options == {"rounds": 1}
    assert [s.user_id for s in new.seats][0] == bo.id
    assert [cpu.computer_level(s.user_id) for s in new.seats[1:]] == ["easy"]
    assert new.deadline_seconds == old.deadline_seconds
    # the new lobby in the thread: aki mentioned once, their seat held
    (lobby,) = pressed.followups  # posted publicly in the thread
    assert not lobby.ephemeral and lobby.message.channel.id == thread.id
    assert lobby.content.count(f"<@{aki.id}>") == 1
    assert f"rematch of table {table_id}" in lobby.content
    assert "⏳ waiting for aki" in embed_text(lobby)
    assert {f"lobby:{new_id}:accept", f"lobby:{new_id}:decline",
            f"lobby:{new_id}:uninvite"} <= set(button_ids(lobby))
    # a second rematch of the same table is refused
    again = await aki.click(final, custom_id=f"rematch:{table_id}")
    assert f"opened already: table {new_id}" in private_text(again)
    # bo may not start while aki's seat is held
    start = await bo.click(lobby, custom_id=f"lobby:{new_id}:start")
    assert "Waiting for aki to answer" in private_text(start)
    # aki confirms: seated, the invitation line and buttons go
    await aki.click(lobby, custom_id=f"lobby:{new_id}:accept")
    assert lobby.content is None or "<@" not in lobby.content  # answered: the line goes
    assert f"lobby:{new_id}:accept" not in button_ids(lobby)
    new = await world.table(new_id)
    assert {s.user_id for s in new.seats} == {aki.id, bo.id, new.seats[1].user_id}
    assert len(new.computer_seats()) == 1
    start = next(i for i in button_ids(lobby) if ":start" in i)
    await bo.click(lobby, custom_id=start)
    assert (await world.table(new_id)).status == "running"


async def test_the_end_in_japanese_and_in_the_channel_itself(world: World) -> None:
    """A game played in the channel (no thread): its lobby shows the result, and no line
    is added (the final board is in the channel already); the texts in Japanese."""
    await world.bot.service.settings.update(world.guild.id, language="ja",
                                            channel_policy="channel")
    opened, table_id = await two_player_game(world)
    assert world.place(await world.table(table_id)) is world.channel
    await resign(world.members["bo"], world.channel)
    shown = embed_text(opened.response.message)
    assert "このゲームは終了しました。**aki**の勝ちです。" in shown, shown
    assert "結果: 🥇" in shown and "[最終盤面を見る](https://discord.com/channels/" in shown
    assert result_lines(world) == []
    final = world.last_board(world.channel)
    assert button_ids(final) == {f"rematch:{table_id}": "再戦"}


async def test_japanese_result_line(world: World) -> None:
    await world.bot.service.settings.update(world.guild.id, language="ja")
    _, table_id = await two_player_game(world)
    await resign(world.members["bo"], world.place(await world.table(table_id)))
    (line,) = result_lines(world)
    assert line.startswith(f"🏁 **セネト** · 卓{table_id}：🥇 🔵1⚪ aki"), line
    assert "boが投了しました。 — [最終盤面](https://discord.com/channels/" in line, line


async def test_rematch_and_accept_after_a_restart(world: World) -> None:
    """The final board's Rematch and the lobby's Accept are persistent: a restart between
    the end and the presses changes nothing."""
    _, table_id = await two_player_game(world)
    thread = world.place(await world.table(table_id))
    await resign(world.members["aki"], thread)
    final = world.last_board(thread)
    await world.restart()
    aki, bo = world.members["aki"], world.members["bo"]
    pressed = await aki.click(final, custom_id=f"rematch:{table_id}")
    (lobby,) = pressed.followups
    new_id = lobby_id(lobby)
    await world.restart(seed=99)
    await bo.click(lobby, custom_id=f"lobby:{new_id}:accept")
    new = await world.table(new_id)
    assert [s.user_id for s in new.seats] == [aki.id, bo.id] and new.host_id == aki.id
    start = next(i for i in button_ids(lobby) if ":start" in i)
    await aki.click(lobby, custom_id=start)
    assert (await world.table(new_id)).status == "running"
    assert world.last_board(thread).id != final.id  # the rematch's first board, same thread
