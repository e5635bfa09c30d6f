"""6 nimmt! from /play to the final scores: hands by DM (and "Pick privately" for a player
whose DMs are closed), the channel showing who picked but never what, take-row buttons, a
restart in the middle of a pick turn, and a Logical (drafted) professional game."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.bot.conftest import (
    Driver,
    World,
    button_ids,
    custom_ids,
    open_and_start,
    png_of,
    select_values,
)

CARD_CONTEXTS = [
    re.compile(r"played (\d+)"),
    re.compile(r"for (\d+)"),
    re.compile(r"(\d+) at the left end"),
    re.compile(r"(\d+) \((?=\S+\d)"),  # "Revealed: 33 (🔵1 aki)"
    re.compile(r"drafted (\d+)"),
    re.compile(r"Card (\d+)"),
]


def cards_named(text: str) -> set[int]:
    found = {int(n) for pattern in CARD_CONTEXTS for n in pattern.findall(text)}
    for starts in re.findall(r"start with ([\d · –]+)", text):
        found |= {int(n) for n in re.findall(r"\d+", starts)}
    return found


def hidden_cards(table: Any) -> set[int]:
    """Cards nobody else may know now: every hand and every face-down pick."""
    if table.options.get("cards") == "logical":
        hands: set[int] = set()  # drafted face up: hands are public, picks are not
    else:
        hands = {c for seat in range(len(table.seats)) for c in table.view(seat)["hands"][seat]}
    picks = {table.view(seat)["picked"][seat] for seat in range(len(table.seats))}
    return hands | {p for p in picks if isinstance(p, int) and not isinstance(p, bool)}


def assert_nothing_hidden_in_public(world: World, table: Any) -> None:
    hidden = hidden_cards(table)
    for place in {world.channel.id: world.channel, table.place_id: world.place(table)}.values():
        for message in world.bot_messages(place):  # what any spectator sees
            assert not message.flags.ephemeral
            drafted = "drafted" in message.content  # Logical: hands are public by drafting
            assert drafted or not (cards_named(message.content) & hidden), message.content
            for values in select_values(message).values():
                assert not any(v.startswith("play ") for v in values)
            assert not any(":play " in i for i in custom_ids(message))
            if "Picked:" in message.content:
                picked = message.content.split("Picked:", 1)[1].split("\n", 1)[0]
                assert not re.search(r"\d{2,}", picked), picked


class CheckingDriver(Driver):
    async def step(self) -> Any:
        table = await super().step()
        assert_nothing_hidden_in_public(self.world, table)
        return table


async def test_six_nimmt_whole_game(world: World) -> None:
    aki, bo, cy = world.member("aki"), world.member("bo"), world.member("cy")
    # cy's DMs are closed: Discord answers 50007 to every DM the bot tries.
    world.env.inject_error("POST", f"/channels/{cy.user.dm_channel.id}/messages", status=403,
                           code=50007, message="Cannot send messages to this user", times=None)
    table_id = await open_and_start(world, "six_nimmt", "aki", ["bo", "cy"], rounds=1,
                                    points=20, professional=True)
    table = await world.table(table_id)
    place = world.place(table)
    board = world.last_board(place)
    png_of(await board.attachments[0].read())
    assert "pick a card privately" in board.content
    assert "couldn't send" in board.content and "cy" in board.content.split("couldn't send")[1]
    assert custom_ids(board) == [f"pk:{table_id}:{table.ply}"]
    assert "Picked: ⏳" in board.content and "✅" not in board.content
    for member in (aki, bo):
        (dm,) = world.dms(member)
        png_of(await dm.attachments[0].read())
        seat = table.seat_of(member.id)
        (values,) = select_values(dm).values()
        assert values == [f"play {c}" for c in sorted(table.view(seat)["hands"][seat])]
    assert not world.dms(cy)
    assert_nothing_hidden_in_public(world, table)

    driver = CheckingDriver(world, table_id, seed=2, slash_every=6)
    # Play into the middle of a pick turn (someone picked, someone not), then restart.
    table = await driver.play_until(
        stop=lambda t: t.ply > 8 and 0 < sum(bool(p) for p in t.view(None)["picked"]) < 3)
    picked_board = world.last_board(place)
    assert "✅" in picked_board.content and "⏳" in picked_board.content
    await world.restart()
    assert world.last_board(place).id == picked_board.id  # nothing to repost
    _, final = await driver.finish()
    assert "Round 1 is over" in final.content
    seen = driver.seen.by_method
    assert seen.get("dm") and seen.get("ephemeral") and seen.get("slash"), seen


async def test_six_nimmt_logical_draft(world: World) -> None:
    table_id = await open_and_start(world, "six_nimmt", "aki", ["bo", "cy"], cards="logical",
                                    rounds=1)
    table = await world.table(table_id)
    place = world.place(table)
    board = world.last_board(place)
    assert "draft a card" in board.content
    # 34 cards in the public pool: a select of groups of cards, in the channel.
    (groups,) = select_values(board).values()
    assert groups == ["c1", "c11", "c21", "c31"]
    driver = CheckingDriver(world, table_id, seed=4, slash_every=9)
    table = await driver.play_until()
    assert table.status == "finished"
    assert driver.seen.by_method.get("group")


async def test_professional_side_choice_buttons(world: World) -> None:
    """A professional tie: the player chooses the row end with two buttons."""
    service = world.bot.service
    rng = random.Random(8)
    for _attempt in range(12):
        table_id = await open_and_start(world, "six_nimmt", "aki", ["bo"], professional=True,
                                        rounds=1)
        table = await world.table(table_id)
        while table.status == "running" and table.view(None)["phase"] != "side":
            seat = rng.choice(table.to_act())
            user = table.seats[seat].user_id
            move = rng.choice(service.legal_moves_for(table, user))
            table = (await service.play(table_id, user, move)).table
        if table.status == "running":
            break
    else:
        raise AssertionError("no professional tie in 12 games")
    place = world.place(table)
    chooser = world.members[table.seats[table.to_act()[0]].name]
    await chooser.slash(place, "board")  # the commands committed above were never posted
    board = world.last_board(place)
    assert "choose which row end" in board.content
    buttons = button_ids(board)
    assert len(buttons) == 2 and all(":place " in i for i in buttons)
    assert sorted(label.split(", ")[1] for label in buttons.values()) == ["left end",
                                                                          "right end"]
    await chooser.click(board, custom_id=next(iter(buttons)))
    after = await world.table(table_id)
    assert after.ply > table.ply and after.posted_ply == after.ply


async def test_each_hand_costs_one_request(world: World) -> None:
    """A 6 nimmt! hand by DM is one REST call (its message): each member's DM channel is
    opened once, never looked up again, and the DMs are never read back for hands that this
    process sent itself."""
    aki, bo = world.member("aki"), world.member("bo")
    first = len(world.env.http_requests)
    table_id = await open_and_start(world, "six_nimmt", "aki", ["bo"], rounds=1)
    driver = Driver(world, table_id, seed=3, slash_every=1000)  # every pick by its DM hand
    table = await driver.play_until(stop=lambda t: t.ply >= 16)
    assert table.status == "running"
    calls = [(c.method, c.path) for c in world.env.http_requests[first:]]
    dms = [f"/channels/{member.user.dm_channel.id}/messages" for member in (aki, bo)]
    hands_sent = sum(len(world.dms(member)) for member in (aki, bo))
    assert hands_sent >= 10
    assert sum(call == ("POST", dm) for call in calls for dm in dms) == hands_sent
    assert not [call for call in calls if call[0] == "GET" and call[1] in dms], "DMs read back"
    assert calls.count(("POST", "/users/@me/channels")) <= 2  # once per member
    assert not [call for call in calls if call[0] == "GET" and call[1].startswith("/users/")]
