"""The table as players see it (issue 25): one live board per table, boards in Components V2
with alt text in the table's language, private hands closed once picked by any route, the
6 nimmt! pick picture filling in, the forced last card playing itself, a cow dropped in two
presses on the board message itself."""

from __future__ import annotations

import random
import re
from typing import Any

import discord

from bot.features.table.posted import marked_ply
from renderers.theme import SEAT_COLOURS
from tests.bot.conftest import (
    Driver,
    World,
    alt_texts,
    as_message,
    custom_ids,
    open_and_start,
    png_of,
    select_values,
)

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def container(message: Any) -> discord.Container:
    (found,) = [c for c in as_message(message).components if isinstance(c, discord.Container)]
    return found


def assert_v2_board(message: Any) -> None:
    """A Components V2 board: no content, one container with text, picture and alt text."""
    message = as_message(message)
    assert message.flags.components_v2
    box = container(message)
    kinds = [type(c) for c in box.children]
    assert kinds[:2] == [discord.TextDisplay, discord.MediaGalleryComponent], kinds
    (gallery_alt, attachment_alt) = alt_texts(message)
    assert gallery_alt and gallery_alt == attachment_alt and len(gallery_alt) <= 1024
    (attachment,) = message.attachments
    assert attachment.filename.startswith("board-")


async def test_only_the_newest_board_can_be_pressed(world: World) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"])
    table = await world.table(table_id)
    place = world.place(table)
    driver = Driver(world, table_id, seed=3, slash_every=4)
    table = await driver.play_until(stop=lambda t: t.ply >= 16)
    boards = world.boards(place)
    assert len(boards) >= 6
    for board in boards:
        assert_v2_board(board)
        assert "Senet" in board.content  # the history stays readable
        assert marked_ply(board, table_id) is not None  # posted.py still recognises it
    for old in boards[:-1]:
        assert not custom_ids(old), (old.id, custom_ids(old))
    newest = boards[-1]
    assert custom_ids(newest) and all(f":{table.ply}:" in i for i in custom_ids(newest))
    png_of(await newest.attachments[0].read())
    # the accent is the colour of the seat to move; its alt text names that player
    (seat,) = table.to_act()
    assert container(newest).accent_colour == discord.Colour.from_rgb(*SEAT_COLOURS[seat])
    (alt, _) = alt_texts(newest)
    assert table.seats[seat].name in alt and "to move" in alt, alt
    assert not JAPANESE.search(alt)
    # after a restart the next board still retires the one before it (read back)
    await world.restart()
    table = await driver.step()
    boards = world.boards(place)
    assert [bool(custom_ids(b)) for b in boards[-2:]] == [False, True]
    table, final = await driver.finish()
    assert all(not custom_ids(b) for b in world.boards(place)[:-1])
    assert custom_ids(final) == [f"rematch:{table_id}"]  # no move is left; Rematch is
    assert_v2_board(final)


async def test_alt_text_in_the_tables_language(world: World) -> None:
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.member("boss", roles=[role])
    changed = await boss.slash(world.channel, "settings", language="ja")
    assert changed.ephemeral
    table_id = await open_and_start(world, "cows_leopards", "aki", ["bo"],
                                    sides={"aki": 1, "bo": 0})
    table = await world.table(table_id)
    board = world.last_board(world.place(table))
    assert_v2_board(board)
    (alt, _) = alt_texts(board)
    assert JAPANESE.search(alt), alt
    (seat,) = table.to_act()
    assert table.seats[seat].name in alt


async def test_dm_hand_closed_after_pick_privately_and_picture_fills_in(world: World) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    table_id = await open_and_start(world, "six_nimmt", "aki", ["bo"], rounds=1, points=20)
    table = await world.table(table_id)
    place = world.place(table)
    board = world.last_board(place)
    assert_v2_board(board)
    first_picture = board.attachments[0].filename
    (hand,) = world.dms(aki)
    assert custom_ids(hand) and hand.attachments[0].description  # the hand has alt text too
    # aki picks through "Pick privately" (an ephemeral hand), not through the DM
    shown = await aki.click(board, custom_id=f"pk:{table_id}:{table.ply}")
    reply = shown.response
    assert reply is not None and reply.ephemeral
    (select_id, values), = select_values(reply).items()
    await aki.select(reply, [values[0]], custom_id=select_id)
    card = values[0].split()[-1]
    (hand,) = world.dms(aki)
    assert not custom_ids(hand), "the DM hand must close once the pick is made"
    assert f"You picked {card}" in hand.content
    # the pick board is edited in place: same message, a new picture, aki picked
    edited = world.last_board(place)
    assert edited.id == board.id
    assert edited.attachments[0].filename != first_picture
    png_of(await edited.attachments[0].read())
    assert "✅" in edited.content
    # bo picks by DM: the board moves on, and no DM offers a card any more
    (bo_hand,) = world.dms(bo)
    (select_id, values), = select_values(bo_hand).items()
    await bo.user.select(bo_hand, [values[0]], custom_id=select_id)
    newer = world.last_board(place)
    assert newer.id != board.id
    assert not custom_ids(next(b for b in world.boards(place) if b.id == board.id))
    # play on to the end: the DMs offer nothing after the game
    driver = Driver(world, table_id, seed=9, slash_every=5)
    await driver.finish()
    for member in (aki, bo):
        assert all(not custom_ids(dm) for dm in world.dms(member))


def dm_of(world: World, member: Any, message_id: int) -> Any:
    """The member's DM `message_id` as it is now."""
    return next(m for m in world.dms(member) if m.id == message_id)


async def test_dm_hands_sent_before_a_restart_close_after_the_pick(world: World) -> None:
    """The bot restarts while both hands are open: a pick by /move, then the computer's
    pick for a player out of time (after another restart), still close the old DMs."""
    await world.bot.service.settings.update(world.guild.id, deadline_seconds=60)
    aki, bo = world.member("aki"), world.member("bo")
    table_id = await open_and_start(world, "six_nimmt", "aki", ["bo"], rounds=1)
    table = await world.table(table_id)
    place = world.place(table)
    (aki_hand,), (bo_hand,) = world.dms(aki), world.dms(bo)
    assert custom_ids(aki_hand) and custom_ids(bo_hand)
    await world.restart()
    seat = table.seat_of(aki.id)
    card = min(table.view(seat)["hands"][seat])
    picked = await aki.slash(place, "move", move=f"play {card}")
    assert picked.ephemeral
    hand = dm_of(world, aki, aki_hand.id)
    assert not custom_ids(hand), "the DM hand sent before the restart must close"
    assert f"You picked {card}" in hand.content
    assert custom_ids(dm_of(world, bo, bo_hand.id))  # bo has not picked: still open
    await world.restart()
    await world.env.advance_time(61)  # bo's deadline: the computer picks for bo
    assert (await world.table(table_id)).ply > table.ply + 1
    assert not custom_ids(dm_of(world, bo, bo_hand.id))
    assert "This pick is over" in dm_of(world, bo, bo_hand.id).content


async def test_forced_last_card_plays_itself(world: World) -> None:
    service = world.bot.service
    table_id = await open_and_start(world, "six_nimmt", "aki", ["bo", "cy"], rounds=1)
    rng = random.Random(4)
    table = await world.table(table_id)
    autos = []
    while table.status == "running":
        view = table.view(None)
        if table.engine.info.is_private(view.get("phase")):
            for seat in table.to_act():
                assert len(table.legal_moves(seat)) > 1, "a forced pick waited for a player"
        seat = rng.choice(table.to_act())
        user = table.seats[seat].user_id
        result = await service.play(table_id, user, rng.choice(table.legal_moves(seat)))
        autos += [s for s in result.steps if s.auto and s.actor >= 0]
        table = result.table
    assert len(autos) == 3  # each seat's tenth card
    assert all(s.move.kind == "play" for s in autos)


async def test_cow_drop_in_two_presses_on_the_board(world: World) -> None:
    bo = world.member("bo")
    table_id = await open_and_start(world, "cows_leopards", "aki", ["bo"],
                                    sides={"aki": 1, "bo": 0})
    table = await world.table(table_id)
    place = world.place(table)
    assert table.seats[table.to_act()[0]].name == "bo"  # the cows move first
    board = world.last_board(place)
    (group_id, keys), = select_values(board).items()
    assert group_id.startswith("mg:")
    first = await bo.select(board, [keys[0]], custom_id=group_id)  # press 1: a column
    assert first.response is None or not first.response.ephemeral
    assert not first.followups
    board = next(m for m in world.bot_messages(place) if m.id == board.id)
    drops = {k: v for k, v in select_values(board).items() if k.startswith("ms:")}
    (drop_id, points), = drops.items()
    assert points and all(p.startswith("drop") for p in points), points
    await bo.select(board, [points[0]], custom_id=drop_id)  # press 2: the point
    after = await world.table(table_id)
    assert after.ply > table.ply and after.log[table.ply] == (0, points[0])
    assert not custom_ids(next(m for m in world.bot_messages(place) if m.id == board.id))
