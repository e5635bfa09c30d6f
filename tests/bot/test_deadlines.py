"""Turn deadlines, reminders, absent players and /settings (bot/tables/deadlines.py), in
simulated time: the service and the dispatcher are given a fake clock and a fake sleep."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.tables import (
    PRESETS,
    DeadlineDispatcher,
    Expiry,
    GuildSettings,
    Table,
    TableError,
    TableService,
)
from bot.tables.pipeline import reminder_time
from bot.tables.thinking import choose, move_seed
from engines import GAME_IDS
from tests.bot.backends import Opener
from tests.helpers.clock import Clock

GUILD, CHANNEL, HOST = 1, 10, 100


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(opener: Opener, clock: Clock) -> TableService:
    return TableService(await opener(), rng=random.Random(11), now=clock)


async def started(
    service: TableService, game: str, players: int, options: dict | None = None, **rules: Any
) -> Table:
    users = [HOST + i for i in range(players)]
    table = await service.open_table(GUILD, CHANNEL, game, options, users[0], "U0", **rules)
    for i, uid in enumerate(users[1:], start=1):
        await service.join(table.id, uid, f"U{i}")
    return (await service.start(table.id, users[0], shuffle=False)).table


async def until(condition: Callable[[], Awaitable[bool]], seconds: float = 60.0) -> None:
    """Wait (in real time) until `condition()` holds."""
    for _ in range(int(seconds / 0.01)):
        if await condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached")


async def expire_next(service: TableService, clock: Clock, table: Table) -> Expiry:
    """Let the deadline of the first seat to act pass and expire it."""
    seat = table.to_act()[0]
    timers = await service.timers.of_table(table.id)
    clock.t = timers[seat].deadline_at
    expiry = await service.timers.expire(table.id, seat)
    assert expiry is not None
    return expiry


async def play_other(service: TableService, table: Table, rng: random.Random) -> Table:
    """The seat to act (not the absent one) plays a random legal move."""
    seat = table.to_act()[0]
    user_id = table.seats[seat].user_id
    move = rng.choice(service.legal_moves_for(table, user_id))
    return (await service.play(table.id, user_id, move)).table


# -- deadlines and expiry ----------------------------------------------------------------------


@pytest.mark.parametrize("game", ["senet", "cows_leopards"])  # a computer player, and none
async def test_expiry_plays_a_legal_move_and_logs_it(
    service: TableService, clock: Clock, game: str
) -> None:
    start = clock()
    table = await started(service, game, 2, deadline_seconds=300)
    seat = table.to_act()[0]
    timers = await service.timers.of_table(table.id)
    assert set(timers) == {seat}
    assert timers[seat].deadline_at == start + timedelta(seconds=300)
    assert timers[seat].remind_at == start + timedelta(seconds=225)  # 75 %
    assert timers[seat].since_ply == table.since[seat]

    clock.advance(299)
    assert await service.timers.expired() == []
    assert await service.timers.expire(table.id, seat) is None  # not due yet
    clock.advance(1)
    assert [(t.table_id, t.seat) for t in await service.timers.expired()] == [(table.id, seat)]

    legal = table.engine.legal_moves(table.state, seat)
    seed = move_seed(table.id, table.ply, seat)
    expected = choose(table.game, table.view(seat), legal, seat, "normal", seed, 0.3)
    expiry = await service.timers.expire(table.id, seat)
    assert expiry is not None
    assert expiry.move in legal and expiry.move == expected
    assert (expiry.seat, expiry.user_id, expiry.misses) == (seat, table.seats[seat].user_id, 1)
    assert expiry.missed and not expiry.taken_over and not expiry.forfeited
    after = expiry.result.table
    assert after.log[table.ply] == (seat, expiry.move)
    assert expiry.result.steps[0].auto and expiry.result.steps[0].move.text == expiry.move
    assert after.misses == {seat: 1}
    assert (await service.get(table.id)).log == after.log  # committed
    # the next seat to act has a fresh deadline from now
    timers = await service.timers.of_table(table.id)
    assert set(timers) == set(after.to_act())
    for timer in timers.values():
        assert timer.deadline_at == clock() + timedelta(seconds=300)
    assert await service.timers.expire(table.id, seat) is None  # handled once


async def test_moving_yourself_resets_the_misses(service: TableService, clock: Clock) -> None:
    rng = random.Random(3)
    table = await started(service, "cows_leopards", 2, deadline_seconds=60)
    absent = table.to_act()[0]
    table = (await expire_next(service, clock, table)).result.table
    table = await play_other(service, table, rng)
    assert table.to_act() == [absent] and table.misses == {absent: 1}
    table = await play_other(service, table, rng)  # the absent player is back
    assert table.misses == {}


async def test_takeover_after_max_misses(service: TableService, clock: Clock) -> None:
    await service.settings.update(GUILD, max_misses=2)
    rng = random.Random(5)
    table = await started(service, "cows_leopards", 2, deadline_seconds=900)
    absent = table.to_act()[0]
    present = 1 - absent
    first = await expire_next(service, clock, table)
    assert first.misses == 1 and not first.taken_over
    table = await play_other(service, first.result.table, rng)
    second = await expire_next(service, clock, table)
    assert second.misses == 2 and second.taken_over and second.missed
    table = second.result.table
    assert table.taken_over == {absent}
    # from now on the seat plays at once whenever it must act, with no deadline
    for _ in range(10):
        if table.status != "running":
            break
        assert table.to_act() == [present]
        assert set(await service.timers.of_table(table.id)) == {present}
        ply = table.ply
        user_id = table.seats[present].user_id
        result = await service.play(table.id, user_id, rng.choice(
            service.legal_moves_for(table, user_id)))
        answers = await service.computers_play(table.id)  # the computer answers for it
        table = await service.get(table.id)
        if result.table.status == "running":
            auto = [s for answer in answers for s in answer.steps if s.auto]
            assert auto and {s.actor for s in auto} == {absent}
            assert table.log[ply + len(result.steps):][0] == (absent, auto[0].move.text)
    assert service.legal_moves_for(table, table.seats[absent].user_id) == []


async def test_forfeit_ends_the_table_with_the_seat_last(
    service: TableService, clock: Clock, opener: Opener
) -> None:
    await service.settings.update(GUILD, max_misses=2, absence_rule="takeover")
    rng = random.Random(9)
    table = await started(service, "six_nimmt", 3, absence_rule="forfeit", deadline_seconds=60)
    assert table.absence_rule == "forfeit" and table.max_misses == 2
    absent = 2
    for miss in (1, 2):
        while absent not in table.to_act():  # the others pick
            seat = next(s for s in table.to_act() if s != absent)
            uid = table.seats[seat].user_id
            table = (await service.play(table.id, uid, rng.choice(
                service.legal_moves_for(table, uid)))).table
        clock.t = (await service.timers.of_table(table.id))[absent].deadline_at
        expiry = await service.timers.expire(table.id, absent)
        assert expiry is not None and expiry.misses == miss
        table = expiry.result.table
    assert expiry.forfeited and expiry.move is None and expiry.result.steps == []
    assert table.status == "finished" and expiry.result.finished
    assert table.outcome["ranks"][absent] == 3
    assert table.outcome["resigned"] == [absent] and table.outcome["forfeited"] == [absent]
    assert await service.timers.of_table(table.id) == {}
    assert await service.timers.next_due() is None


async def test_reminders_fire_once(service: TableService, clock: Clock) -> None:
    start = clock()
    table = await started(service, "senet", 2, deadline_seconds=3600)
    seat = table.to_act()[0]
    clock.t = start + timedelta(seconds=2699)
    assert await service.timers.reminders_due() == []
    assert await service.timers.next_due() == start + timedelta(seconds=2700)
    clock.t = start + timedelta(seconds=2700)
    (reminder,) = await service.timers.reminders_due()
    assert reminder.table.id == table.id and reminder.seats == [seat]
    assert reminder.deadlines == {seat: start + timedelta(seconds=3600)}
    assert await service.timers.reminders_due() == []
    assert await service.timers.next_due() == start + timedelta(seconds=3600)
    clock.advance(100)
    assert await service.timers.reminders_due() == []
    # short deadlines: at least 30 s before
    assert reminder_time(start, 60) == start + timedelta(seconds=30)
    assert reminder_time(start, 86400) == start + timedelta(hours=18)


async def test_dispatcher_reminds_and_expires(service: TableService, clock: Clock) -> None:
    reminded: list[tuple[int, list[int]]] = []
    expired: list[Expiry] = []

    async def on_expire(expiry: Expiry) -> None:
        expired.append(expiry)

    dispatcher = DeadlineDispatcher(
        service.timers, on_expire, lambda table, seats: reminded.append((table.id, seats)),
        sleep=clock.sleep,
    )
    dispatcher.start()
    try:
        await asyncio.sleep(0.05)  # nothing to do: it waits to be woken
        assert not expired
        table = await started(service, "senet", 2, deadline_seconds=60)  # wakes it
        seat = table.to_act()[0]

        async def one() -> bool:
            return len(expired) >= 1

        await until(one)
        assert reminded[0] == (table.id, [seat])
        assert expired[0].seat == seat and expired[0].result.table.id == table.id
        reminded_seats = [s for _, seats in reminded for s in seats]
        assert len(reminded_seats) <= len(expired) + 1
    finally:
        await dispatcher.stop()


async def test_deadlines_survive_a_restart(opener: Opener, clock: Clock, tmp_path: Path) -> None:
    db = await opener()
    service = TableService(db, rng=random.Random(1), now=clock)
    table = await started(service, "six_nimmt", 3, deadline_seconds=21600)
    before = await service.timers.of_table(table.id)
    assert set(before) == {0, 1, 2}
    await db.close()

    clock.advance(7 * 3600)  # the bot was down past the deadline
    service = TableService(await opener(same=True), rng=random.Random(2), now=clock)
    assert await service.timers.of_table(table.id) == before
    expired: list[Expiry] = []
    dispatcher = DeadlineDispatcher(service.timers, expired.append, lambda *_: None,
                                    sleep=clock.sleep)
    dispatcher.start()
    try:
        async def all_three() -> bool:
            return len(expired) >= 3

        await until(all_three)
    finally:
        await dispatcher.stop()
    assert sorted(e.seat for e in expired[:3]) == [0, 1, 2]
    after = await service.get(table.id)
    assert after.ply > table.ply


async def test_restart_restores_missing_timers(
    opener: Opener, clock: Clock, tmp_path: Path
) -> None:
    """A running table without timers (from before deadlines, or a crash) gets them back."""
    db = await opener()
    service = TableService(db, rng=random.Random(1), now=clock)
    table = await started(service, "senet", 2, deadline_seconds=60)
    await db.tables._execute("DELETE FROM timers WHERE table_id = ?", (table.id,))
    assert await service.timers.next_due() is None
    assert await service.timers.restore_timers() == 1
    assert set(await service.timers.of_table(table.id)) == set(table.to_act())


async def test_each_process_of_a_cluster_restores_its_own_guilds_timers(
    opener: Opener, clock: Clock
) -> None:
    """Restoring timers reads every table it looks at: a shard process looks only at the
    tables of its own guilds, so a cluster reads each table once, not once per process."""
    db = await opener()
    service = TableService(db, rng=random.Random(1), now=clock)
    by_shard = {}
    for shard in (0, 1):
        guild = (1000 + shard) << 22  # Discord puts a guild on shard (id >> 22) % count
        table = await service.open_table(guild, CHANNEL + shard, "senet", None, HOST, "U0",
                                         deadline_seconds=60)
        await service.join(table.id, HOST + 1, "U1")
        by_shard[shard] = (await service.start(table.id, HOST, shuffle=False)).table
        await db.tables._execute("DELETE FROM timers WHERE table_id = ?", (table.id,))
    assert await service.timers.restore_timers(shards=(2, (1,))) == 1
    assert await service.timers.of_table(by_shard[0].id) == {}
    assert set(await service.timers.of_table(by_shard[1].id)) == set(by_shard[1].to_act())
    assert await service.timers.restore_timers(shards=(2, (0,))) == 1
    assert set(await service.timers.of_table(by_shard[0].id)) == set(by_shard[0].to_act())


async def test_six_nimmt_simultaneous_picks_with_absent_seats(
    service: TableService, clock: Clock
) -> None:
    rng = random.Random(4)
    start = clock()
    table = await started(service, "six_nimmt", 4, deadline_seconds=300)
    assert table.to_act() == [0, 1, 2, 3]
    clock.advance(100)
    for seat in (0, 1):  # two seats pick; 2 and 3 are away
        uid = table.seats[seat].user_id
        table = (await service.play(table.id, uid, rng.choice(
            service.legal_moves_for(table, uid)))).table
    timers = await service.timers.of_table(table.id)
    assert set(timers) == {2, 3}  # the others' picks did not reset the absent seats' clocks
    assert all(t.deadline_at == start + timedelta(seconds=300) for t in timers.values())
    clock.t = start + timedelta(seconds=300)
    (reminder,) = [r for r in await service.timers.reminders_due(start + timedelta(seconds=250))]
    assert reminder.seats == [2, 3]
    results = []
    for timer in await service.timers.expired():
        expiry = await service.timers.expire(timer.table_id, timer.seat)
        assert expiry is not None
        results.append(expiry)
    assert [e.seat for e in results] == [2, 3]
    assert all(e.move.startswith("play ") for e in results)
    table = results[-1].result.table
    picks = [actor for actor, _ in table.log if actor >= 0]
    assert sorted(picks[:4]) == [0, 1, 2, 3]
    assert table.misses == {2: 1, 3: 1}
    assert table.status == "running" and table.to_act()


# -- no table can stall ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "rule", "seed"),
    [(game, n, "takeover", seed) for game in GAME_IDS for n, seed in ((2, 1), (3, 2))
     if not (n == 3 and game in ("senet", "cows_leopards"))]
    + [("six_nimmt", 4, "forfeit", 3), ("senet", 2, "forfeit", 4)],
)
async def test_a_table_where_nobody_moves_still_finishes(
    opener: Opener, clock: Clock, game: str, players: int, rule: str, seed: int
) -> None:
    service = TableService(await opener(), rng=random.Random(seed), now=clock)
    expired: list[Expiry] = []
    dispatcher = DeadlineDispatcher(service.timers, expired.append, lambda *_: None,
                                    sleep=clock.sleep)
    dispatcher.start()
    try:
        table = await started(service, game, players, deadline_seconds=60, absence_rule=rule)

        async def over() -> bool:  # and announced (on_expire has run)
            return bool(expired) and expired[-1].result.finished

        await until(over, seconds=120)
    finally:
        await dispatcher.stop()
    table = await service.get(table.id)
    if rule == "takeover":
        assert table.taken_over == set(range(players))
        assert table.outcome["resigned"] == []
        assert sum(e.taken_over for e in expired) == players
    else:
        assert table.outcome["forfeited"] == [expired[-1].seat] and expired[-1].forfeited
    assert await service.timers.next_due() is None
    # every logged move replays: the log is still the truth
    assert (await service.get(table.id)).log == table.log


# -- settings ----------------------------------------------------------------------------------


async def test_settings_defaults_updates_and_validation(
    service: TableService, clock: Clock
) -> None:
    assert await service.settings.get(GUILD) == GuildSettings(GUILD)
    assert GuildSettings(GUILD).deadline_seconds == 86400
    settings = await service.settings.update(
        GUILD, deadline_seconds=3600, absence_rule="forfeit", max_misses=5,
        channel_policy="channel", language="ja", cancel_role_id=777,
    )
    assert settings == await service.settings.get(GUILD)
    assert (settings.deadline_seconds, settings.absence_rule, settings.max_misses) == (
        3600, "forfeit", 5)
    assert (settings.channel_policy, settings.language, settings.cancel_role_id) == (
        "channel", "ja", 777)
    assert (await service.settings.update(GUILD, cancel_role_id=None)).cancel_role_id is None
    assert (await service.settings.get(GUILD)).language == "ja"  # others kept
    assert await service.settings.get(GUILD + 1) == GuildSettings(GUILD + 1)

    bad = [
        {"deadline_seconds": 120}, {"deadline_seconds": True}, {"deadline_seconds": "60"},
        {"absence_rule": "kick"}, {"max_misses": 0}, {"max_misses": 11},
        {"max_misses": 2.0}, {"channel_policy": "forum"}, {"language": "fr"},
        {"cancel_role_id": "admins"}, {"colour": "red"},
    ]
    for change in bad:
        with pytest.raises(TableError) as err:
            await service.settings.update(GUILD, **change)
        assert err.value.code == "bad_setting", change
        assert str(err.value).startswith("That setting does not work: ")
    assert (await service.settings.get(GUILD)).deadline_seconds == 3600  # nothing changed
    for preset in PRESETS:
        assert (await service.settings.update(GUILD, deadline_seconds=preset)).deadline_seconds \
            == preset

    # tables take the server's defaults when opened, or their own
    await service.settings.update(GUILD, deadline_seconds=900, absence_rule="forfeit")
    table = await service.open_table(GUILD, CHANNEL, "senet", None, HOST, "U0")
    assert (table.deadline_seconds, table.absence_rule, table.max_misses) == (900, "forfeit", 5)
    table = await service.open_table(GUILD, CHANNEL + 1, "senet", None, HOST, "U0",
                                     deadline_seconds=60, absence_rule="takeover")
    assert (table.deadline_seconds, table.absence_rule) == (60, "takeover")
    await service.settings.update(GUILD, deadline_seconds=172800)
    assert (await service.get(table.id)).deadline_seconds == 60  # fixed at /play
    for rules in ({"deadline_seconds": 61}, {"absence_rule": "nap"}):
        with pytest.raises(TableError) as err:
            await service.open_table(GUILD, CHANNEL + 2, "senet", None, HOST, "U0", **rules)
        assert err.value.code == "bad_setting"


def test_who_may_cancel() -> None:
    settings = GuildSettings(GUILD, cancel_role_id=5)
    assert settings.may_cancel({5, 6}) and settings.may_cancel([], can_manage=True)
    assert not settings.may_cancel([6]) and not GuildSettings(GUILD).may_cancel([5])


async def test_cancel_and_resign_clear_the_timers(service: TableService, clock: Clock) -> None:
    table = await started(service, "senet", 2)
    assert await service.timers.of_table(table.id)
    await service.cancel(table.id, HOST, can_manage=True)
    assert await service.timers.of_table(table.id) == {}
    table = await started(service, "varanasi", 3)
    assert table.deadline_seconds == 86400
    await service.resign(table.id, HOST + 1)
    assert await service.timers.of_table(table.id) == {}
    assert await service.timers.next_due() is None
