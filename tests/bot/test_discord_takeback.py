"""Take-back through Discord: the board's "Take back" button for the player who just moved,
the request mentioning the opponent once with Accept/Decline, who may press what, a new board
after an accept, the decline line, a request lapsing when the opponent moves, /takeback, the
export, Japanese texts, and no take-back in Senet or against a computer."""

from __future__ import annotations

import json
from typing import Any

import pytest
import simcord

from bot.tables import Table
from bot.tables.export import export_table, load_export, to_json_bytes
from bot.tables.takeback import TAKEBACK
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

pytestmark = pytest.mark.usefixtures("fast_computers")


def private(result: simcord.InteractionResult) -> str:
    """The last private answer of an interaction."""
    replies = [m for m in result.followups if m.ephemeral and m.content]
    if not replies and result.response is not None and result.response.ephemeral:
        replies = [result.response]
    assert replies, result
    return replies[-1].content


def requests(world: World, table: Table) -> list[Any]:
    """The public take-back request messages in the table's place, oldest first."""
    return [m for m in world.bot_messages(world.place(table))
            if not m.flags.ephemeral and not m.attachments
            and ("tb:yes:" in " ".join(custom_ids(m)) or "↩️" in m.content)
            and "agreed" not in m.content]


def member_of(world: World, table: Table, seat: int) -> simcord.MemberActor:
    user_id = table.seats[seat].user_id
    return next(m for m in world.members.values() if m.id == user_id)


async def one_move(world: World, table_id: int, seed: int = 1) -> Table:
    """One move through the latest board's controls."""
    return await Driver(world, table_id, seed=seed, slash_every=1000).step()


async def test_take_back_accepted(world: World) -> None:
    table_id = await open_and_start(world, "cows_leopards", "aki", ["bo"], sides={"bo": 0})
    cy = world.member("cy")
    start = await world.table(table_id)
    place = world.place(start)
    assert not [i for i in custom_ids(world.last_board(place)) if i.startswith("tb:")]
    moved = await one_move(world, table_id)
    mover, opponent = moved.log[-1][0], 1 - moved.log[-1][0]
    asker, answerer = member_of(world, moved, mover), member_of(world, moved, opponent)
    board = world.last_board(place)
    ask = f"tb:ask:{table_id}:{moved.ply}"
    assert button_ids(board)[ask] == "Take back"
    # Only the player who just moved may ask.
    assert "Only the player who just moved" in private(await answerer.click(board,
                                                                             custom_id=ask))
    assert "don't have a seat" in private(await cy.click(board, custom_id=ask))
    assert not requests(world, moved)
    asked = await asker.click(board, custom_id=ask)
    assert "I've asked" in private(asked) and answerer.user.name in private(asked)
    request, = requests(world, moved)
    assert "Take-back request" in request.content
    assert request.content.count(f"<@{answerer.id}>") == 1 and f"<@{asker.id}>" not in \
        request.content
    assert request.mentions and [u.id for u in request.mentions] == [answerer.id]
    ids = button_ids(request)
    assert ids == {f"tb:yes:{table_id}:{moved.ply}": "Accept",
                   f"tb:no:{table_id}:{moved.ply}": "Decline"}
    # Asking twice posts nothing more; the asker cannot accept; others cannot answer.
    assert "already asked" in private(await asker.click(board, custom_id=ask))
    assert "your own request" in private(await asker.click(
        request, custom_id=f"tb:yes:{table_id}:{moved.ply}"))
    assert "don't have a seat" in private(await cy.click(
        request, custom_id=f"tb:yes:{table_id}:{moved.ply}"))
    assert len(requests(world, moved)) == 1
    boards = len(world.boards(place))
    await answerer.click(request, custom_id=f"tb:yes:{table_id}:{moved.ply}")
    after = await world.table(table_id)
    assert after.log[-1] == (TAKEBACK, f"takeback {moved.ply - 1}")
    assert after.engine.dump(after.state) == after.engine.dump(start.state)
    assert after.to_act() == [mover]
    closed, = requests(world, moved)
    assert "accepted" in closed.content and not closed.components
    assert len(world.boards(place)) == boards + 1
    new = world.last_board(place)
    assert "agreed" in new.content and f"<@{asker.id}>" in new.content
    assert not [i for i in custom_ids(new) if i.startswith("tb:")]  # nothing to take back
    # The old board lost its controls (one live board), and the game goes on from the new one.
    assert not custom_ids(world.boards(place)[-2])
    again = await one_move(world, table_id, seed=2)
    assert again.ply == after.ply + 1
    # The export (once the game is over) holds the take-back and replays.
    await resign(answerer, place)
    data = json.loads(to_json_bytes(export_table(await world.table(table_id))))
    assert [TAKEBACK, f"takeback {moved.ply - 1}"] in data["log"]
    state, steps = load_export(data)
    final = await world.table(table_id)
    assert final.engine.dump(state) == final.engine.dump(final.state)
    assert len(steps) == final.ply


async def test_take_back_declined_and_lapsed(world: World) -> None:
    table_id = await open_and_start(world, "varanasi", "aki", ["bo"], sets=1)
    moved = await one_move(world, table_id)
    place = world.place(moved)
    mover = moved.log[-1][0]
    asker, answerer = member_of(world, moved, mover), member_of(world, moved, 1 - mover)
    # /takeback asks as the button does.
    asked = await asker.slash(place, "takeback")
    assert asked.ephemeral and "I've asked" in private(asked)
    request, = requests(world, moved)
    await answerer.click(request, custom_id=f"tb:no:{table_id}:{moved.ply}")
    declined = next(m for m in world.bot_messages(place) if m.id == request.id)
    assert "declined" in declined.content and not declined.components
    told = world.bot_messages(place)[-1]
    assert told.content.startswith(f"<@{asker.id}>") and "declined your take-back" in \
        told.content
    assert (await world.table(table_id)).log == moved.log  # nothing changed
    # The same move is not asked again.
    board = world.last_board(place)
    assert "declined" in private(await asker.click(board,
                                                   custom_id=f"tb:ask:{table_id}:{moved.ply}"))
    # The opponent moves and asks; the first player moves instead of answering: it lapses.
    replied = await one_move(world, table_id, seed=2)
    assert replied.log[-1][0] == 1 - mover
    await answerer.slash(place, "takeback")
    second = next(m for m in world.bot_messages(place)
                  if f"tb:yes:{table_id}:{replied.ply}" in custom_ids(m))
    assert f"<@{asker.id}>" in second.content
    await one_move(world, table_id, seed=3)
    lapsed = next(m for m in world.bot_messages(place) if m.id == second.id)
    assert "lapsed" in lapsed.content and not lapsed.components
    # A withdrawn request.
    last = await world.table(table_id)
    withdrawer = member_of(world, last, last.log[-1][0])
    await withdrawer.slash(place, "takeback")
    third = next(m for m in world.bot_messages(place)
                 if f"tb:no:{table_id}:{last.ply}" in custom_ids(m))
    await withdrawer.click(third, custom_id=f"tb:no:{table_id}:{last.ply}")
    withdrawn = next(m for m in world.bot_messages(place) if m.id == third.id)
    assert "withdrew" in withdrawn.content and not withdrawn.components
    again = await withdrawer.slash(place, "takeback")
    assert "one request per move" in private(again)
    # The opponent moves and asks, then a restart: the new process does not know the
    # request, whose buttons still answer (and say it lapsed once the other player moved).
    other = member_of(world, last, 1 - last.log[-1][0])
    moved_again = await one_move(world, table_id, seed=4)
    await other.slash(place, "takeback")
    fourth = next(m for m in world.bot_messages(place)
                  if f"tb:yes:{table_id}:{moved_again.ply}" in custom_ids(m))
    await world.restart()
    await one_move(world, table_id, seed=5)
    assert custom_ids(next(m for m in world.bot_messages(place) if m.id == fourth.id))
    late = await withdrawer.click(fourth, custom_id=f"tb:yes:{table_id}:{moved_again.ply}")
    assert "lapsed" in private(late)
    closed = next(m for m in world.bot_messages(place) if m.id == fourth.id)
    assert "lapsed" in closed.content and not closed.components


async def test_take_back_in_japanese(env: simcord.Env, database: Any,
                                     user_locales: dict[int, str]) -> None:
    guild = env.create_guild("ゲーム会", preferred_locale="ja")
    world = World(env, database, guild, guild.create_text_channel("ボードゲーム"))
    table_id = await open_and_start(world, "cows_leopards", "aki", ["bo"], sides={"bo": 0})
    for member in world.members.values():
        user_locales[member.user.id] = "ja"
    moved = await one_move(world, table_id)
    place = world.place(moved)
    mover = moved.log[-1][0]
    asker, answerer = member_of(world, moved, mover), member_of(world, moved, 1 - mover)
    board = world.last_board(place)
    ask = f"tb:ask:{table_id}:{moved.ply}"
    assert button_ids(board)[ask] == "待った"
    refused = await answerer.click(board, custom_id=ask)
    assert private(refused) == \
        "手の取り消しをお願いできるのは、直前に手を選んだプレイヤーだけです。"
    asked = await asker.click(board, custom_id=ask)
    assert "さんにお願いしました" in private(asked)
    request, = requests(world, moved)
    assert "「待った」のお願い" in request.content and "受け入れますか" in request.content
    assert set(button_ids(request).values()) == {"受け入れる", "断る"}
    await answerer.click(request, custom_id=f"tb:yes:{table_id}:{moved.ply}")
    closed = next(m for m in world.bot_messages(place) if m.id == request.id)
    assert "受け入れました" in closed.content
    assert "直前の手を取り消しました" in world.last_board(place).content
    # Declined: the request says so, and the asker is told in one line.
    again = await one_move(world, table_id, seed=7)
    assert again.log[-1][0] == mover
    await asker.slash(place, "takeback")
    second = next(m for m in world.bot_messages(place)
                  if f"tb:no:{table_id}:{again.ply}" in custom_ids(m))
    await answerer.click(second, custom_id=f"tb:no:{table_id}:{again.ply}")
    declined = next(m for m in world.bot_messages(place) if m.id == second.id)
    assert "断りました" in declined.content and not declined.components
    told = world.bot_messages(place)[-1]
    assert told.content.startswith(f"<@{asker.id}>さん、") and "断りました" in told.content
    refused = await asker.slash(place, "takeback")
    assert private(refused) == "相手はこの手の取り消しを断りました。対局を続けます。"


async def test_no_take_back_in_senet_or_against_a_computer(world: World) -> None:
    senet = await open_and_start(world, "senet", "aki", ["bo"])
    table = await world.table(senet)
    for seed in range(3):
        table = await one_move(world, senet, seed=seed)
        assert not [i for i in custom_ids(world.last_board(world.place(table)))
                    if i.startswith("tb:")]
    mover = next(a for a, _ in reversed(table.log) if a >= 0)
    refused = await member_of(world, table, mover).slash(world.place(table), "takeback")
    assert "can't be taken back at this table" in private(refused)
    await resign(world.member("aki"), world.place(table))
    # Against a computer: the computer answers at once, so there is never a button.
    await world.before_play("aki")
    result = await world.member("aki").slash(world.channel, "play cows_leopards")
    lobby = result.response
    table_id = int(next(iter(button_ids(lobby))).split(":")[1])
    await world.member("aki").click(lobby, custom_id=f"lobby:{table_id}:cpunormal")
    start = next(i for i in button_ids(result.response) if ":start" in i)
    await world.member("aki").click(result.response, custom_id=start)
    for seed in range(2):
        table = await world.table(table_id)
        if table.seats[table.to_act()[0]].user_id != world.member("aki").id:
            await world.env.settle()
            table = await world.table(table_id)
        await one_move(world, table_id, seed=seed)
        await world.env.settle()
        for board in world.boards(world.place(table)):
            assert not [i for i in custom_ids(board) if i.startswith("tb:")]
    refused = await world.member("aki").slash(world.place(table), "takeback")
    assert "can't be taken back at this table" in private(refused)


async def test_accept_and_a_move_racing(world: World) -> None:
    """A double Accept applies once; an Accept racing the opponent's own move: one wins."""
    table_id = await open_and_start(world, "cows_leopards", "aki", ["bo"], sides={"bo": 0})
    for round_ in range(2):
        moved = await one_move(world, table_id, seed=round_)
        place = world.place(moved)
        mover = moved.log[-1][0]
        asker, answerer = member_of(world, moved, mover), member_of(world, moved, 1 - mover)
        await asker.slash(place, "takeback")
        request = next(m for m in world.bot_messages(place)
                       if f"tb:yes:{table_id}:{moved.ply}" in custom_ids(m))
        accept = f"tb:yes:{table_id}:{moved.ply}"
        boards = len(world.boards(place))
        if round_ == 0:
            results = await race(world.env, [(answerer, request, accept, None),
                                             (answerer, request, accept, None)])
        else:
            board = world.last_board(place)
            move = next(i for i in button_ids(board) if i.startswith("mv:")) \
                if any(i.startswith("mv:") for i in button_ids(board)) else None
            presses: list[tuple[Any, Any, str, list[str] | None]] = [
                (answerer, request, accept, None)]
            if move is not None:
                presses.append((answerer, board, move, None))
            else:
                select, values = next((k, v) for k, v in select_values(board).items()
                                      if k.startswith(("ms:", "mg:")))
                where = board
                if select.startswith("mg:"):  # a piece or column first, then the move
                    await answerer.select(board, [values[0]], custom_id=select)
                    where = world.last_board(place)  # its moves shown on the same board
                    select, values = next((k, v) for k, v in select_values(where).items()
                                          if k.startswith("ms:"))
                presses.append((answerer, where, select, [values[0]]))
            results = await race(world.env, presses)
        after = await world.table(table_id)
        assert after.ply == moved.ply + 1  # exactly one change
        assert len(world.boards(place)) == boards + 1
        assert all(r.acknowledged for r in results)
        refusals = [m.content for r in results for m in r.followups if m.ephemeral]
        assert any("lapsed" in text or "earlier turn" in text for text in refusals), refusals
        if after.log[-1][0] == TAKEBACK:
            assert after.to_act() == [mover]
            await one_move(world, table_id, seed=9 + round_)  # the asker moves again
        else:
            assert after.log[-1][0] == 1 - mover
