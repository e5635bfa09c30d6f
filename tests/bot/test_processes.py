"""Two bot processes' worth of table services on one database (each backend): racing moves,
timers that fire once, leases taken over after a crash, and computer moves thought for a
position that a member changed first."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

from bot.tables import DeadlineDispatcher, Expiry, TableError, TableService
from tests.bot.backends import Opener
from tests.helpers.clock import Clock

GUILD, CHANNEL, HOST, GUEST = 1, 10, 100, 101


async def two_services(opener: Opener, clock: Clock) -> tuple[TableService, TableService]:
    first = TableService(await opener(), rng=random.Random(1), now=clock)
    second = TableService(await opener(same=True), rng=random.Random(2), now=clock)
    return first, second


async def senet(service: TableService, **rules) -> int:
    table = await service.open_table(GUILD, CHANNEL, "senet", None, HOST, "Host", **rules)
    await service.join(table.id, GUEST, "Guest")
    return (await service.start(table.id, HOST, shuffle=False)).table.id


async def test_racing_moves_on_one_table_exactly_one_wins(opener: Opener) -> None:
    clock = Clock()
    a, b = await two_services(opener, clock)
    table_id = await senet(a)
    rng = random.Random(3)
    for _ in range(12):  # both processes get the same click for the same turn, many times
        table = await a.get(table_id)
        (seat,) = table.to_act()
        user = table.seats[seat].user_id
        moves = a.legal_moves_for(table, user)
        picks = [rng.choice(moves), rng.choice(moves)]
        outcomes = await asyncio.gather(
            a.play(table_id, user, picks[0], turn=table.ply),
            b.play(table_id, user, picks[1], turn=table.ply), return_exceptions=True)
        won = [o for o in outcomes if not isinstance(o, BaseException)]
        lost = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert isinstance(lost[0], TableError) and lost[0].code == "stale"
        after = await b.get(table_id)
        assert after.log == won[0].table.log  # no ply lost or doubled
        assert after.log[table.ply] == (seat, won[0].steps[0].move.text)
    # each service still sees the truth after the other's writes
    assert (await a.get(table_id)).log == (await b.get(table_id)).log


async def test_a_timer_fires_exactly_once_across_processes(opener: Opener) -> None:
    clock = Clock()
    a, b = await two_services(opener, clock)
    table_id = await senet(a, deadline_seconds=60)
    clock.t += timedelta(seconds=61)
    fired: list[Expiry] = []
    dispatchers = [DeadlineDispatcher(s.timers, fired.append, lambda *_: None) for s in (a, b)]
    counts = await asyncio.gather(*(d.run_due() for d in dispatchers))
    assert sorted(counts) == [0, 1] and len(fired) == 1
    table = await a.get(table_id)
    assert table.log[-len(fired[0].result.steps):][0] == (fired[0].seat, fired[0].move)
    assert sum(1 for actor, _ in table.log if actor == fired[0].seat) == 1
    assert await asyncio.gather(*(d.run_due() for d in dispatchers)) == [0, 0]


async def test_a_crashed_process_lease_is_taken_over(opener: Opener) -> None:
    clock = Clock()
    a, b = await two_services(opener, clock)
    table_id = await senet(a, deadline_seconds=60)
    clock.t += timedelta(seconds=61)
    (claimed,) = await a.timers.claim_due("crashed-process", clock.t)  # then process a dies
    assert claimed.table_id == table_id
    fired: list[Expiry] = []
    survivor = DeadlineDispatcher(b.timers, fired.append, lambda *_: None)
    assert await survivor.run_due() == 0  # the lease still holds
    clock.t += timedelta(seconds=61)  # ... until it runs out
    assert await survivor.run_due() == 1
    assert fired[0].result.table.id == table_id and fired[0].missed


async def test_a_computer_move_is_discarded_when_a_member_moved_first(
    opener: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """6 nimmt!: the computer thinks about its pick while the member picks (another
    process); its pick was computed for an older ply, so it is thought again, not applied."""
    clock = Clock()
    a, b = await two_services(opener, clock)
    table = await a.open_table(GUILD, CHANNEL, "six_nimmt", {"rounds": 1}, HOST, "Host")
    await a.add_computer(table.id, HOST, "easy")
    table = (await a.start(table.id, HOST)).table
    member = table.seat_of(HOST)
    thinking, release = asyncio.Event(), asyncio.Event()
    real_think = a.computer_moves._think

    async def slow_think(*args):
        thinking.set()
        await release.wait()
        return await real_think(*args)

    monkeypatch.setattr(a.computer_moves, "_think", slow_think)
    step = asyncio.create_task(a.computer_step(table.id))
    await thinking.wait()
    card = b.legal_moves_for(table, HOST)[0]
    await b.play(table.id, HOST, card)  # the member's pick lands first
    release.set()
    assert await step is None  # thought for a position that no longer exists: discarded
    after = await a.get(table.id)
    assert after.log[table.ply:] == [(member, card)]
    monkeypatch.setattr(a.computer_moves, "_think", real_think)
    (answer,) = await a.computers_play(table.id)  # thought again, from the new position
    assert answer.steps[0].auto and answer.table.ply > after.ply
