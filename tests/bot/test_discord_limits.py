"""Limits with clear answers, /cancel, lobby expiry, broken tables and oversized input, as
players and moderators meet them in Discord."""

from __future__ import annotations

import sqlite3
from typing import Any

import discord

from tests.bot.conftest import World, button_ids, open_and_start, resign
from tests.bot.test_discord_faults import private_text


def lobby_id(result: Any) -> int:
    return int(next(iter(button_ids(result.response))).split(":")[1])


async def test_one_open_lobby_per_member_and_a_server_cap(world: World) -> None:
    aki, bo, cy = world.member("aki"), world.member("bo"), world.member("cy")
    first = await aki.slash(world.channel, "play senet")
    assert not first.response.ephemeral
    # the same member again at once: the cooldown answers first ...
    assert "wait 10 seconds" in private_text(await aki.slash(world.channel, "play senet"))
    await world.env.advance_time(10)
    # ... then the one-lobby rule, naming where it is
    text = private_text(await aki.slash(world.guild.create_text_channel("b"), "play senet"))
    assert "already have an open lobby" in text and "<#" in text
    await world.bot.service.settings.update(world.guild.id, max_tables=2)
    await bo.slash(world.channel, "play senet")
    text = private_text(await cy.slash(world.channel, "play senet"))
    assert "already has 2 open tables" in text
    assert len(world.channel.threads) == 2  # no thread for the refused ones
    # the host cancels their lobby: the place and the quota are free again
    await aki.click(first.response, custom_id=f"lobby:{lobby_id(first)}:cancel")
    assert not private_text(await cy.slash(world.channel, "play senet")).startswith("This")


async def test_replay_and_export_cooldowns_and_spectator_board(world: World) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"])
    table = await world.table(table_id)
    place = world.place(table)
    spectator = world.member("cy")
    boards = len(world.boards(place))
    assert "Here is the board again" in private_text(await spectator.slash(place, "board"))
    assert "once a minute" in private_text(await spectator.slash(place, "board"))
    assert len(world.boards(place)) == boards + 1  # one public picture, not a flood
    # players are never held back
    for _ in range(2):
        assert "Here is the board" in private_text(await world.members["aki"].slash(place,
                                                                                      "board"))
    await world.env.advance_time(60)
    assert "Here is the board again" in private_text(await spectator.slash(place, "board"))
    # Ended by a resignation, so the replay has few frames and draws quickly on a busy machine.
    await resign(world.members["aki"], place)
    bo = world.members["bo"]
    for _ in range(2):
        result = await bo.slash(world.channel, "export", table=table_id)
        assert result.followups or result.response
    assert "wait" in private_text(await bo.slash(world.channel, "export", table=table_id))
    result = await bo.slash(world.channel, "replay", table=table_id)  # its own limit
    assert not result.ephemeral


async def test_cancel_permissions_in_discord(world: World) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    await world.bot.service.settings.update(world.guild.id, channel_policy="channel")
    result = await aki.slash(world.channel, "play senet")
    table_id = lobby_id(result)
    assert "Only the host can cancel a lobby" in private_text(
        await bo.slash(world.channel, "cancel"))
    assert "is cancelled" in private_text(await aki.slash(world.channel, "cancel"))
    assert (await world.table(table_id)).status == "cancelled"
    lobby = result.response.message
    assert not button_ids(result.response) and "Cancelled by aki" in str(
        lobby.embeds[0].to_dict())
    await world.env.advance_time(10)
    running = await open_and_start(world, "senet", "aki", ["bo"])
    table = await world.table(running)
    before = table.log
    # in a running game neither the host nor a player may cancel ...
    for member in (aki, bo):
        assert "Manage Messages" in private_text(await member.slash(world.channel, "cancel"))
    # ... a member with the server's cancel role may: unrated, log kept, channel told
    referees = world.guild.create_role("Referees")
    await world.bot.service.settings.update(world.guild.id, cancel_role_id=referees.id)
    referee = world.member("ref", roles=[referees])
    assert "is cancelled" in private_text(await referee.slash(world.channel, "cancel"))
    ended = await world.table(running)
    assert ended.status == "cancelled" and ended.log == before and ended.outcome is None
    assert await world.bot.db.results.get_results(running) == []
    notice = [m for m in world.bot_messages(world.channel) if "was cancelled by ref" in m.content]
    assert len(notice) == 1 and "unrated" in notice[0].content
    assert "No game is being played here" in private_text(
        await aki.slash(world.channel, "cancel"))


async def test_a_lobby_expires_and_says_so(world: World) -> None:
    aki = world.member("aki")
    await world.bot.service.settings.update(world.guild.id, lobby_minutes=10)
    result = await aki.slash(world.channel, "play senet")
    table_id = lobby_id(result)
    await world.env.advance_time(9 * 60)
    assert (await world.table(table_id)).status == "lobby"
    await world.env.advance_time(60 + 15)
    assert (await world.table(table_id)).status == "cancelled"
    embed = str(result.response.message.embeds[0].to_dict())
    assert "expired" in embed and "10 minutes" in embed
    assert not button_ids(result.response)  # nothing left to press
    # the channel is free again, and the host's quota too
    await world.bot.service.settings.update(world.guild.id, channel_policy="channel")
    assert not (await aki.slash(world.channel, "play senet")).response.ephemeral


async def test_a_broken_table_is_answered_and_can_be_cancelled(world: World) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    table = await world.table(table_id)
    place = world.place(table)
    aki = world.members["aki"]
    with sqlite3.connect(world.database) as db:  # the log no longer replays
        db.execute("UPDATE moves SET move = 'fly away' WHERE table_id = ?", (table_id,))
    world.bot.service.store.forget(table_id)  # a fresh process: nothing cached
    text = private_text(await aki.slash(place, "move", move="try"))
    assert "is damaged" in text and "/cancel" in text
    assert "is damaged" in private_text(await aki.slash(place, "board"))
    assert await world.bot.service.unposted_tables() == []  # no sweep or timer touches it
    assert "is cancelled" in private_text(await aki.slash(place, "cancel"))
    assert (await world.bot.db.tables.get_table(table_id)).status == "cancelled"
    await world.env.advance_time(10)
    assert "Waiting for players" in str(
        (await aki.slash(world.channel, "play senet")).response.message.embeds[0].to_dict())


async def test_oversized_input_is_refused_at_once(world: World) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    place = world.place(await world.table(table_id))
    before = (await world.table(table_id)).ply
    aki = world.members["aki"]
    for move in ("x" * 6000, "9" * 5995, "move " + "1" * 96):
        result = await aki.slash(place, "move", move=move)
        text = private_text(result)
        assert text == "That's too long: at most 100 characters, please."
        assert len(text) <= 2000 and not result.deferred  # answered at once
    assert "4300" not in private_text(await aki.slash(place, "move", move="move " + "9" * 90))
    choices = await aki.autocomplete(place, "move", "move", "y" * 6000)
    assert choices == []
    assert (await world.table(table_id)).ply == before


async def test_moderator_permissions_come_from_discord(world: World) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"])
    table = await world.table(table_id)
    mods = world.guild.create_role("Mods", permissions=discord.Permissions(
        manage_messages=True))
    mod = world.member("mod", roles=[mods])
    assert "is cancelled" in private_text(await mod.slash(world.place(table), "cancel"))
