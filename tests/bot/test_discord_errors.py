"""Every bad input gets a clear, private answer: wrong player, stale button, double click,
two players racing, a finished table, an illegal /move, lobby misuse, closed DMs and
missing permissions."""

from __future__ import annotations

import discord

from tests.bot.conftest import (
    Driver,
    World,
    button_ids,
    custom_ids,
    open_and_start,
    race,
    resign,
    select_values,
)


def private_text(result) -> str:
    """The ephemeral answer of an interaction (a followup after a defer, or the reply)."""
    assert result.acknowledged
    # After a deferred update the "response" is the pressed message itself: use followups.
    # A move's board may come as a public follow-up: the answer is the private one.
    replies = [m for m in result.followups if m.content and m.ephemeral] or [result.response]
    assert replies, result
    assert all(m.ephemeral for m in replies)
    return replies[-1].content


async def senet_table(world: World) -> tuple[int, object]:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    table = await world.table(table_id)
    return table_id, table


async def test_wrong_player_stale_double_click_and_finished(world: World) -> None:
    table_id, table = await senet_table(world)
    place = world.place(table)
    board = world.last_board(place)
    aki, bo, cy = world.members["aki"], world.members["bo"], world.member("cy")
    assert table.seats[table.to_act()[0]].name == "aki"  # shuffle:false, seat 0 throws first
    first_button = next(iter(button_ids(board)))

    # The other player, and someone without a seat, are refused politely and privately.
    assert "isn't your turn" in private_text(await bo.click(board, custom_id=first_button))
    assert "don't have a seat" in private_text(await cy.click(board, custom_id=first_button))
    assert (await world.table(table_id)).ply == table.ply

    # A double click: both presses arrive together; one move is made, the other is refused.
    results = await race(world.env, [(aki, board, first_button, None)] * 2)
    after = await world.table(table_id)
    assert after.ply > table.ply
    # the move's board comes as a public follow-up; the refusal privately (at once, as the
    # answer, when the save was quick; else as a follow-up of the deferral)
    answers = [[m for m in [r.response, *r.followups] if m is not None and m.ephemeral]
               for r in results]
    assert sum(1 for a in answers if a) == 1
    refused = next(a for a in answers if a)[0]
    assert "earlier turn" in refused.content

    # The earlier board has no controls left to press (one live board per table).
    mover = world.members[after.seats[after.to_act()[0]].name]
    assert not custom_ids(next(b for b in world.boards(place) if b.id == board.id))

    # An illegal /move is explained with the engine's reason; nothing changes.
    text = private_text(await mover.slash(place, "move", move="move 29"))
    assert text.startswith("That move isn't allowed:")
    text = private_text(await mover.slash(place, "move", move="fly away"))
    assert text.startswith("That move isn't allowed:")
    assert (await world.table(table_id)).ply == after.ply

    # Autocomplete lists only the caller's moves, in words; nothing for the others.
    choices = await mover.autocomplete(place, "move", "move", "")
    legal = world.bot.service.legal_moves_for(after, mover.id)
    assert sorted(c["value"] for c in choices) == sorted(legal)
    assert all("→" in c["name"] or c["value"] in ("pass", "return", "try") for c in choices)
    other = aki if mover is bo else bo
    assert await other.autocomplete(place, "move", "move", "") == []

    # Resigning ends the game; the last board loses its move buttons.
    last = world.last_board(place)
    text = private_text(await resign(other, place))
    assert "resigned" in text
    final = world.last_board(place)
    assert "Game over" in final.content and "resigned" in final.content
    assert not custom_ids(next(b for b in world.boards(place) if b.id == last.id))
    text = private_text(await mover.slash(place, "move", move=legal[0]))
    assert "No game is being played here" in text
    assert "No game is being played here" in private_text(await mover.slash(place, "board"))


async def test_lobby_refusals_and_race_for_the_last_seat(world: World) -> None:
    aki, bo, cy = world.member("aki"), world.member("bo"), world.member("cy")
    result = await aki.slash(world.channel, "play senet")
    lobby = result.response
    table_id = int(next(iter(button_ids(lobby))).split(":")[1])
    start = f"lobby:{table_id}:start"
    start_button = next(c for row in lobby.message.components for c in row.children
                        if c.custom_id == start)
    assert start_button.disabled  # one seat: Start stays disabled
    assert "already have a seat" in private_text(
        await aki.click(lobby, custom_id=f"lobby:{table_id}:join"))
    assert "don't have a seat" in private_text(
        await bo.click(lobby, custom_id=f"lobby:{table_id}:leave"))
    # bo and cy race for the last seat: one sits, the other hears the table is full.
    results = await race(world.env, [(bo, lobby, f"lobby:{table_id}:join", None),
                                     (cy, lobby, f"lobby:{table_id}:join", None)])
    texts = [r.followups[0].content for r in results if r.followups]
    assert texts == ["Sorry, this table is full."]
    table = await world.table(table_id)
    assert len(table.seats) == 2
    assert "Only the host" in private_text(await bo.click(lobby, custom_id=start))
    assert "aren't allowed" in private_text(
        await cy.click(lobby, custom_id=f"lobby:{table_id}:cancel"))
    # A moderator (Manage Messages) may cancel someone else's table.
    mods = world.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = world.member("mod", roles=[mods])
    await mod.click(lobby, custom_id=f"lobby:{table_id}:cancel")
    assert (await world.table(table_id)).status == "cancelled"
    assert "cancelled" in result.response.embeds[0].description
    assert not result.response.components


async def test_one_table_per_channel_without_threads(world: World) -> None:
    me = world.guild.me
    plain = world.guild.create_text_channel("no-threads", overwrites={
        me: discord.PermissionOverwrite(create_public_threads=False)})
    aki, bo = world.member("aki"), world.member("bo")
    result = await aki.slash(plain, "play senet")
    embed = result.response.embeds[0]
    note = next(f.value for f in embed.fields if f.name == "Note")
    assert "Create Public Threads" in note and "played in this channel" in note
    assert not plain.threads
    busy = await bo.slash(plain, "play varanasi")
    assert "already a table here" in private_text(busy)
    table_id = int(next(iter(button_ids(result.response))).split(":")[1])
    await bo.click(result.response, custom_id=f"lobby:{table_id}:join")
    await aki.click(result.response, custom_id=f"lobby:{table_id}:start")
    table = await world.table(table_id)
    assert table.place_id == plain.id and world.boards(plain)


async def test_missing_permissions_are_explained(world: World) -> None:
    me = world.guild.me
    aki, bo = world.member("aki"), world.member("bo")
    silent = world.guild.create_text_channel("read-only", overwrites={
        me: discord.PermissionOverwrite(send_messages=False)})
    await world.before_play("aki")
    text = private_text(await aki.slash(silent, "play senet"))
    assert "missing the **Send Messages** permission" in text
    assert world.bot_messages(silent) == []

    no_files = world.guild.create_text_channel("no-files", overwrites={
        me: discord.PermissionOverwrite(attach_files=False, create_public_threads=False)})
    await world.before_play("aki")
    result = await aki.slash(no_files, "play senet")
    table_id = int(next(iter(button_ids(result.response))).split(":")[1])
    await bo.click(result.response, custom_id=f"lobby:{table_id}:join")
    await aki.click(result.response, custom_id=f"lobby:{table_id}:start")
    board = world.bot_messages(no_files)[-1]
    assert not board.attachments
    assert "Attach Files" in board.content and "described in words" in board.content
    assert custom_ids(board), "the game stays playable with the buttons"


async def test_pick_privately_refusals_and_racing_picks(world: World) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    cy = world.member("cy")
    table_id = await open_and_start(world, "six_nimmt", "aki", ["bo"], rounds=1)
    table = await world.table(table_id)
    place = world.place(table)
    board = world.last_board(place)
    pick = f"pk:{table_id}:{table.ply}"
    assert "don't have a seat" in private_text(await cy.click(board, custom_id=pick))
    # aki picks from the ephemeral hand; pressing again shows the face-down pick to aki only.
    shown = await aki.click(board, custom_id=pick)
    (select_id, values), = select_values(shown.response).items()
    await aki.select(shown.response, [values[0]], custom_id=select_id)
    now = world.last_board(place)  # the pick board, edited in place as players pick
    again = private_text(await aki.click(now, custom_id=next(
        i for i in custom_ids(now) if i.startswith("pk:"))))
    assert again.startswith(f"You already picked {values[0].split()[1]}")
    assert values[0].split()[1] not in world.last_board(place).content.split("Players:")[1]
    # Both DM hands answered at the same instant by the last picker and a stale double.
    (dm,) = world.dms(bo)
    (hand_id, hand), = select_values(dm).items()
    results = await race(world.env, [(bo.user, dm, hand_id, [hand[0]]),
                                     (bo.user, dm, hand_id, [hand[1]])])
    after = await world.table(table_id)
    assert after.ply > table.ply + 1
    refusals = [m.content for r in results for m in [r.response, *r.followups]
                if m is not None and m.ephemeral]
    assert len(refusals) == 1 and ("earlier turn" in refusals[0] or "isn't your turn"
                                   in refusals[0])
    assert "Revealed:" in world.last_board(place).content
    driver = Driver(world, table_id, seed=9, slash_every=1000)
    assert (await driver.play_until()).status == "finished"
