"""/settings: only for Manage Server, stored across restarts, and used by tables opened
afterwards (deadline, absence rule, thread or channel, language, cancel role); /play's own
deadline option."""

from __future__ import annotations

import discord
import pytest

from tests.bot.conftest import World, admin, button_ids


def field(embed: discord.Embed, name: str) -> str:
    return next(f.value for f in embed.fields if f.name == name)


async def test_settings_need_manage_server(world: World) -> None:
    bo = world.member("bo")
    assert "settings" not in bo.available_commands(world.channel)
    with pytest.raises(Exception):  # noqa: B017 - simcord refuses like Discord's picker
        await bo.slash(world.channel, "settings")
    boss = admin(world)
    assert "settings" in boss.available_commands(world.channel)
    shown = await boss.slash(world.channel, "settings")
    assert shown.ephemeral
    embed = shown.response.embeds[0]
    assert field(embed, "Time per move") == "24 hours"
    assert field(embed, "When a player misses turns") == "the computer takes over"
    assert field(embed, "Language of the bot's messages") == "English"


async def test_settings_persist_and_apply(world: World) -> None:
    boss = admin(world)
    changed = await boss.slash(world.channel, "settings", deadline=300, absence="forfeit",
                               max_misses=2, channel="channel", language="ja")
    assert changed.ephemeral and "Saved." in changed.response.content
    await world.restart()
    settings = await world.bot.service.settings.get(world.guild.id)
    assert (settings.deadline_seconds, settings.absence_rule, settings.max_misses,
            settings.channel_policy, settings.language) == (300, "forfeit", 2, "channel", "ja")
    embed = (await boss.slash(world.channel, "settings")).response.embeds[0]
    assert field(embed, "Time per move") == "5 minutes"
    assert field(embed, "Missed turns in a row before that") == "2"
    assert field(embed, "Language of the bot's messages") == "日本語"
    # A table opened now: 5 minutes, forfeit, in the channel itself, lobby in Japanese.
    aki, bo = world.member("aki"), world.member("bo")
    opened = await aki.slash(world.channel, "play senet")
    lobby = opened.response
    table_id = int(next(iter(button_ids(lobby))).split(":")[1])
    table = await world.table(table_id)
    assert (table.deadline_seconds, table.absence_rule, table.max_misses) == (300, "forfeit", 2)
    assert table.thread_id is None and not world.channel.threads
    names = [f.name for f in lobby.embeds[0].fields]
    assert "参加者" in names and "Seats" not in names
    await bo.click(lobby, custom_id=f"lobby:{table_id}:join")
    await aki.click(lobby, custom_id=f"lobby:{table_id}:start")
    assert "ゲームが始まりました。" in opened.response.embeds[0].description
    board = world.last_board(world.channel)
    assert board.content and board.content.isascii() is False


async def test_cancel_role_may_cancel(world: World) -> None:
    boss = admin(world)
    referees = world.guild.create_role("Referees")
    ref = world.member("ref", roles=[referees])
    aki, cy = world.member("aki"), world.member("cy")
    opened = await aki.slash(world.channel, "play senet")
    table_id = int(next(iter(button_ids(opened.response))).split(":")[1])
    refused = await ref.click(opened.response, custom_id=f"lobby:{table_id}:cancel")
    assert "aren't allowed" in refused.followups[-1].content
    await boss.slash(world.channel, "settings", cancel_role=referees)
    await cy.click(opened.response, custom_id=f"lobby:{table_id}:cancel")
    assert (await world.table(table_id)).status == "lobby"  # cy has no such role
    await ref.click(opened.response, custom_id=f"lobby:{table_id}:cancel")
    assert (await world.table(table_id)).status == "cancelled"


async def test_play_deadline_option(world: World) -> None:
    aki = world.member("aki")
    opened = await aki.slash(world.channel, "play varanasi", deadline=60, absence="forfeit")
    lobby = opened.response
    table_id = int(next(iter(button_ids(lobby))).split(":")[1])
    table = await world.table(table_id)
    assert (table.deadline_seconds, table.absence_rule) == (60, "forfeit")
    shown = field(lobby.embeds[0], "Time per move")
    assert "1 minute per move" in shown and "the player forfeits" in shown
    # Without the option, the server's default (24 hours, takeover) is used.
    other = world.guild.create_text_channel("more-games")
    opened = await world.member("bo").slash(other, "play senet")
    table_id = int(next(iter(button_ids(opened.response))).split(":")[1])
    assert (await world.table(table_id)).deadline_seconds == 86400
    assert "24 hours per move" in field(opened.response.embeds[0], "Time per move")


async def test_a_role_and_the_puzzle_channel_are_set_then_cleared(world: World) -> None:
    boss = admin(world)
    referees = world.guild.create_role("Referees")
    await boss.slash(world.channel, "settings", cancel_role=referees,
                     puzzle_channel=world.channel, time_zone=" Asia/Tokyo ")
    stored = await world.bot.service.settings.get(world.guild.id)
    assert (stored.cancel_role_id, stored.puzzle_channel_id, stored.time_zone) == (
        referees.id, world.channel.id, "Asia/Tokyo")
    await boss.slash(world.channel, "settings", clear_cancel_role=True,
                     clear_puzzle_channel=True)
    stored = await world.bot.service.settings.get(world.guild.id)
    assert (stored.cancel_role_id, stored.puzzle_channel_id, stored.time_zone) == (
        None, None, "Asia/Tokyo")  # what was not named stays
