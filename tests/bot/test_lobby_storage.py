"""Invitations, rematches and the result_lines setting stored on both backends (SQLite and
PostgreSQL): held seats, accept / decline / withdraw, Start waiting for them, and a rematch
with the same seats and options."""

from __future__ import annotations

import pytest

from bot.storage import Database
from bot.tables import TableError, TableService
from bot.tables import computers as cpu
from bot.tables.invitations import InvitationError, Invitations

GUILD, CHANNEL, THREAD = 1, 10, 11
AKI, BO, CY, DEE = 100, 200, 300, 400


async def test_result_lines_setting_is_stored(service: TableService) -> None:
    assert (await service.settings.get(GUILD)).result_lines is True
    await service.settings.update(GUILD, result_lines=False)
    settings = await service.settings.get(GUILD)
    assert settings.result_lines is False
    await service.settings.update(GUILD, max_tables=9)  # other changes keep it
    assert (await service.settings.get(GUILD)).result_lines is False
    with pytest.raises(TableError):
        await service.settings.update(GUILD, result_lines="maybe")


async def test_invitations_hold_seats(service: TableService, db: Database) -> None:
    invitations = Invitations(service, db.lobbies)
    table = await service.open_table(GUILD, CHANNEL, "six_nimmt", {}, AKI, "aki")
    with pytest.raises(TableError) as refused:
        await invitations.invite(table.id, BO, [(CY, "cy", None)])
    assert refused.value.code == "not_host"
    held = await invitations.invite(table.id, AKI, [(BO, "bo", None), (CY, "cy", None)])
    assert [(r.user_id, r.name) for r in held] == [(BO, "bo"), (CY, "cy")]
    # again: nothing doubles
    assert len(await invitations.invite(table.id, AKI, [(BO, "bo", None)])) == 2
    with pytest.raises(InvitationError) as waiting:
        await invitations.check_start(table.id)
    assert waiting.value.code == "pending" and waiting.value.params["names"] == ["bo", "cy"]
    seated = await invitations.accept(table.id, BO, "Bo")
    assert [s.user_id for s in seated.seats] == [AKI, BO]
    with pytest.raises(InvitationError):
        await invitations.accept(table.id, BO, "Bo")  # answered already
    await invitations.decline(table.id, CY)
    assert await invitations.pending(table.id) == []
    await invitations.check_start(table.id)
    with pytest.raises(InvitationError) as nobody:
        await invitations.decline(table.id, DEE)
    assert nobody.value.code == "not_invited"
    await invitations.invite(table.id, AKI, [(CY, "cy", None)])
    await invitations.withdraw(table.id, AKI)
    assert await invitations.pending(table.id) == []


async def test_held_seats_and_sides_are_kept(service: TableService, db: Database) -> None:
    invitations = Invitations(service, db.lobbies)
    table = await service.open_table(GUILD, CHANNEL, "cows_leopards", {}, AKI, "aki", side=0)
    await invitations.invite(table.id, AKI, [(BO, "bo", 1)])
    table = await service.get(table.id)
    with pytest.raises(InvitationError) as full:
        await invitations.check_join(table, CY, None)
    assert full.value.code == "seats_held"
    with pytest.raises(InvitationError) as side:
        await invitations.check_join(table, CY, 1)
    assert side.value.code == "side_held"
    with pytest.raises(InvitationError) as computer:
        await invitations.check_computer(table)
    assert computer.value.code == "seats_held"
    await invitations.check_join(table, BO, 1)  # the invited member may
    seated = await invitations.accept(table.id, BO, "bo")
    assert [(s.user_id, s.side) for s in seated.seats] == [(AKI, 0), (BO, 1)]
    # an ended lobby takes its invitations with it
    other = await service.open_table(GUILD, CHANNEL + 1, "senet", {}, CY, "cy")
    await invitations.invite(other.id, CY, [(DEE, "dee", None)])
    await service.cancel(other.id, CY, lobby_only=True)
    await invitations.forget(other.id)
    assert await db.lobbies.invitations(other.id) == []
    with pytest.raises(TableError):
        await invitations.accept(other.id, DEE, "dee")


async def test_rematch_same_seats_options_and_place(service: TableService,
                                                    db: Database) -> None:
    invitations = Invitations(service, db.lobbies)
    table = await service.open_table(GUILD, CHANNEL, "six_nimmt", {"rounds": 1}, AKI, "aki",
                                     thread_id=THREAD, deadline_seconds=300)
    await service.join(table.id, BO, "bo")
    await service.add_computer(table.id, AKI, "hard")
    await service.start(table.id, AKI)
    with pytest.raises(InvitationError) as early:
        await invitations.open_rematch(await service.get(table.id), BO, "bo")
    assert early.value.code == "not_finished"
    await service.resign(table.id, AKI)
    old = await service.get(table.id)
    with pytest.raises(InvitationError) as stranger:
        await invitations.open_rematch(old, DEE, "dee")
    assert stranger.value.code == "not_player"
    new, held = await invitations.open_rematch(old, BO, "bo")
    assert (new.host_id, new.place_id, new.thread_id) == (BO, THREAD, THREAD)
    assert new.chosen_options == {"rounds": 1} and new.deadline_seconds == 300
    assert [s.user_id for s in new.seats][0] == BO
    assert [cpu.computer_level(s.user_id) for s in new.seats[1:]] == ["hard"]
    assert [(r.user_id, r.name) for r in held] == [(AKI, "aki")]
    assert await db.lobbies.rematch_of(old.id) == new.id
    with pytest.raises(InvitationError) as twice:
        await invitations.open_rematch(old, AKI, "aki")
    assert twice.value.code == "rematch_exists" and twice.value.params["table_id"] == new.id
    # once that lobby is cancelled, a rematch may be asked for again
    await service.cancel(new.id, BO, lobby_only=True)
    again, _ = await invitations.open_rematch(old, AKI, "aki")
    assert again.host_id == AKI and await db.lobbies.rematch_of(old.id) == again.id
