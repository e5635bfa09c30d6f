"""/play <game> invite1..: each invited member is mentioned once on the lobby with Accept and
Decline; their seat is held until they answer or the lobby expires; Start waits for them
unless the host withdraws the invitations; bots and the host can't be invited."""

from __future__ import annotations

from typing import Any

from tests.bot.conftest import World, button_ids, lobby_id, private_text


def seats(message: Any) -> str:
    return message.embeds[0].fields[0].value


async def test_invite_accept_and_decline(world: World) -> None:
    aki, bo, cy, dee = (world.member(n) for n in ("aki", "bo", "cy", "dee"))
    opened = await aki.slash(world.channel, "play six_nimmt", invite1=bo, invite2=cy,
                             invite3=bo)  # bo named twice: invited once
    lobby = opened.response
    assert not lobby.ephemeral
    table_id = lobby_id(lobby)
    # each invited member is mentioned once, and only they are notified
    assert lobby.content.count(f"<@{bo.id}>") == 1 and lobby.content.count(f"<@{cy.id}>") == 1
    assert "aki invites you to this table" in lobby.content
    sent = lobby.message
    assert {u.id for u in sent.mentions} == {bo.id, cy.id}
    assert "⏳ waiting for bo" in seats(lobby) and "⏳ waiting for cy" in seats(lobby)
    assert "Seats held for invited players" in lobby.embeds[0].description
    ids = button_ids(lobby)
    assert ids[f"lobby:{table_id}:accept"] == "Accept"
    assert ids[f"lobby:{table_id}:decline"] == "Decline"
    assert ids[f"lobby:{table_id}:uninvite"] == "Withdraw invitations"
    # someone not invited can't answer for them
    refused = await dee.click(lobby, custom_id=f"lobby:{table_id}:accept")
    assert "This invitation isn't for you" in private_text(refused)
    # start waits for the invited players
    start = await aki.click(lobby, custom_id=f"lobby:{table_id}:start")
    assert "Waiting for bo, cy to answer the invitation" in private_text(start)
    assert (await world.table(table_id)).status == "lobby"
    # bo accepts: seated
    await bo.click(lobby, custom_id=f"lobby:{table_id}:accept")
    table = await world.table(table_id)
    assert [s.user_id for s in table.seats] == [aki.id, bo.id]
    assert "2. bo" in seats(opened.response) and "⏳ waiting for cy" in seats(opened.response)
    # cy declines: the seat is free again and the invitation line goes
    declined = await cy.click(lobby, custom_id=f"lobby:{table_id}:decline")
    assert "You declined the invitation" in private_text(declined)
    lobby = opened.response
    assert "waiting for" not in seats(lobby)
    assert not lobby.content
    assert f"lobby:{table_id}:accept" not in button_ids(lobby)
    # dee can take the freed seat now
    await dee.click(lobby, custom_id=f"lobby:{table_id}:join")
    assert [s.user_id for s in (await world.table(table_id)).seats] == [aki.id, bo.id, dee.id]
    await aki.click(opened.response, custom_id=f"lobby:{table_id}:start")
    assert (await world.table(table_id)).status == "running"


async def test_held_seats_and_withdrawing(world: World) -> None:
    aki, bo, cy = world.member("aki"), world.member("bo"), world.member("cy")
    opened = await aki.slash(world.channel, "play senet", invite1=bo)
    lobby = opened.response
    table_id = lobby_id(lobby)
    # Senet seats two: bo's seat is held, so cy can't take it
    refused = await cy.click(lobby, custom_id=f"lobby:{table_id}:join")
    assert "The free seats are held for invited players (bo)" in private_text(refused)
    # only the host withdraws
    refused = await cy.click(lobby, custom_id=f"lobby:{table_id}:uninvite")
    assert "Only the host" in private_text(refused)
    await aki.click(lobby, custom_id=f"lobby:{table_id}:uninvite")
    assert "waiting for" not in seats(opened.response)
    assert not opened.response.content
    await cy.click(opened.response, custom_id=f"lobby:{table_id}:join")
    assert [s.user_id for s in (await world.table(table_id)).seats] == [aki.id, cy.id]


async def test_join_accepts_and_leave_declines(world: World) -> None:
    aki, bo, cy = world.member("aki"), world.member("bo"), world.member("cy")
    opened = await aki.slash(world.channel, "play six_nimmt", invite1=bo, invite2=cy)
    table_id = lobby_id(opened.response)
    await bo.click(opened.response, custom_id=f"lobby:{table_id}:join")
    await cy.click(opened.response, custom_id=f"lobby:{table_id}:leave")
    table = await world.table(table_id)
    assert [s.user_id for s in table.seats] == [aki.id, bo.id]
    assert await world.bot.lobby_invitations.pending(table_id) == []


async def test_invitations_end_with_the_lobby(world: World) -> None:
    """The invitation's timeout is the lobby's: when it expires, the held seats go with it."""
    aki, bo = world.member("aki"), world.member("bo")
    await world.bot.service.settings.update(world.guild.id, lobby_minutes=10)
    opened = await aki.slash(world.channel, "play senet", invite1=bo)
    table_id = lobby_id(opened.response)
    await world.env.advance_time(9 * 60)
    assert "⏳ waiting for bo" in seats(opened.response)
    await world.env.advance_time(60 + 15)
    assert (await world.table(table_id)).status == "cancelled"
    lobby = opened.response.message
    assert "expired" in str(lobby.embeds[0].to_dict())
    assert not lobby.content and not button_ids(opened.response)
    assert await world.bot.lobby_invitations.pending(table_id) == []


async def test_bots_and_the_host_are_not_invited(world: World) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    refused = await aki.slash(world.channel, "play senet", invite1=robot)
    assert refused.ephemeral and "bots don't play here" in private_text(refused)
    await world.env.advance_time(10)
    refused = await aki.slash(world.channel, "play senet", invite1=aki)
    assert refused.ephemeral and "You are the host" in private_text(refused)
    assert await world.bot.service.active_in_channel(world.channel.id) is None
    # Senet takes one invitation: its /play offers invite1 only; 6 nimmt! three
    await world.env.advance_time(10)
    opened = await aki.slash(world.channel, "play senet", invite1=bo)
    assert not opened.ephemeral


async def test_japanese_invitation(world: World) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    await world.bot.service.settings.update(world.guild.id, language="ja")
    opened = await aki.slash(world.channel, "play senet", invite1=bo)
    lobby = opened.response
    assert "招待" in lobby.content, lobby.content
    labels = set(button_ids(lobby).values())
    assert "受け入れる" in labels and "断る" in labels, labels  # Accept, Decline


async def test_a_held_seat_is_not_given_to_a_computer(world: World) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    opened = await aki.slash(world.channel, "play senet", invite1=bo)
    table_id = lobby_id(opened.response)
    assert not [i for i in button_ids(opened.response) if ":cpu" in i]  # Senet seats two
    await aki.click(opened.response, custom_id=f"lobby:{table_id}:uninvite")
    assert f"lobby:{table_id}:cpueasy" in button_ids(opened.response)
