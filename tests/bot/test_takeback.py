"""Take-back with consent at the service level (both storage backends): who may ask, accept,
decline, lapse, the log and the export, a restart, the ply check, the games that allow it."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta

import pytest

from bot.tables import MoveResult, TableError, TableService
from bot.tables import takeback as tb
from bot.tables.export import export_table, load_export, to_json_bytes
from bot.tables.history import played_game
from engines import CHANCE, get_engine
from renderers.replay import replay_frames
from tests.bot.backends import Opener
from tests.bot.test_deadlines import Clock
from tests.bot.test_tables import refused, started

A, B = 100, 101  # the host and the other member (seat order is shuffled at start)


def user_of(result: MoveResult, seat: int) -> int:
    return result.table.seats[seat].user_id


async def first_move(service: TableService, result: MoveResult) -> MoveResult:
    """The seat to act plays its first legal move."""
    table = result.table
    seat = table.to_act()[0]
    return await service.play(table.id, user_of(result, seat), table.legal_moves(seat)[0],
                              turn=table.ply)


@pytest.mark.parametrize("game", ["cows_leopards", "varanasi"])
async def test_ask_and_accept_takes_the_move_back(service: TableService, game: str) -> None:
    begun = await started(service, game, 2)
    before = begun.table
    moved = await first_move(service, begun)
    asker = moved.table.log[-1][0]
    asker_id, answerer_id = user_of(moved, asker), user_of(moved, 1 - asker)
    request = await service.takebacks.ask(before.id, asker_id, moved.table.ply)
    assert (request.asker, request.answerer, request.ply) == (asker, 1 - asker, moved.table.ply)
    assert request.move == moved.table.log[-1][1]
    # The opponent cannot ask, nor can the asker accept their own request.
    await refused("takeback_not_yours", service.takebacks.ask(before.id, answerer_id))
    await refused("takeback_own_request",
                  service.takebacks.accept(before.id, asker_id, request.ply))
    result = await service.takebacks.accept(before.id, answerer_id, request.ply)
    after = result.table
    eng = get_engine(game)
    assert eng.dump(after.state) == eng.dump(before.state)
    assert after.to_act() == [asker] and result.to_act == [asker]
    assert after.log == [*moved.table.log, (tb.TAKEBACK, f"takeback {moved.table.ply - 1}")]
    assert after.ply == moved.table.ply + 1 and after.status == "running"
    # The asker's decision starts afresh: a new turn timer, old buttons are stale.
    assert set(after.timers) == {asker} and after.timers[asker].since_ply == after.ply
    assert after.since == {asker: after.ply}
    assert not after.hints  # still rated
    await refused("stale", service.play(after.id, asker_id, after.legal_moves(asker)[0],
                                        turn=before.ply))
    # Nothing to take back right after a take-back; the game goes on from there.
    await refused("takeback_nothing", service.takebacks.ask(after.id, answerer_id))
    await refused("takeback_nothing", service.takebacks.ask(after.id, asker_id))
    again = await service.play(after.id, asker_id, after.legal_moves(asker)[-1],
                               turn=after.ply)
    assert (await service.get(after.id)).log == again.table.log
    assert eng.dump((await service.get(after.id)).state) == eng.dump(again.table.state)
    # Accepting twice: the first commit wins, the second finds the ply moved.
    await refused("takeback_lapsed",
                  service.takebacks.accept(before.id, answerer_id, request.ply))


async def test_decline_and_lapse(service: TableService) -> None:
    begun = await started(service, "cows_leopards", 2)
    moved = await first_move(service, begun)
    table_id = moved.table.id
    asker = moved.table.log[-1][0]
    asker_id, answerer_id = user_of(moved, asker), user_of(moved, 1 - asker)
    request = await service.takebacks.ask(table_id, asker_id, moved.table.ply)
    declined = await service.takebacks.decline(table_id, answerer_id, request.ply)
    assert declined == request
    withdrawn = await service.takebacks.decline(table_id, asker_id, request.ply)  # withdraw
    assert withdrawn == request
    await refused("not_seated", service.takebacks.decline(table_id, 999, request.ply))
    table = await service.get(table_id)
    assert table.log == moved.table.log  # declining changes nothing
    # The opponent moves: the request lapses, and only they may ask now.
    replied = await first_move(service, moved)
    await refused("takeback_lapsed",
                  service.takebacks.accept(table_id, answerer_id, request.ply))
    await refused("takeback_lapsed",
                  service.takebacks.decline(table_id, answerer_id, request.ply))
    await refused("takeback_lapsed", service.takebacks.ask(table_id, asker_id, request.ply))
    await refused("takeback_not_yours", service.takebacks.ask(table_id, asker_id))
    assert (await service.takebacks.ask(table_id, answerer_id)).ply == replied.table.ply
    await refused("not_seated", service.takebacks.ask(table_id, 999))


async def test_log_export_and_restart(opener: Opener) -> None:
    service = TableService(await opener(), rng=random.Random(3))
    result = await started(service, "varanasi", 2)
    rng = random.Random(5)
    accepted = 0
    while not result.finished and result.table.ply < 60:
        table = result.table
        seat = table.to_act()[0]
        uid = user_of(result, seat)
        result = await service.play(table.id, uid, rng.choice(table.legal_moves(seat)),
                                    turn=table.ply)
        # (a move that ends a set is followed by the next set's setup: not taken back)
        if not result.finished and result.table.ply % 7 == 0 and \
                result.table.log[-1][0] == seat:
            other = user_of(result, 1 - seat)
            request = await service.takebacks.ask(table.id, uid)
            result = await service.takebacks.accept(table.id, other, request.ply)
            accepted += 1
    assert accepted >= 3
    table = result.table
    assert [i for i, _, _ in tb.taken_back(table.log)] == \
        [i for i, (a, _) in enumerate(table.log) if a == tb.TAKEBACK]
    # Another process (a restart) rebuilds the same position from the stored log.
    other = TableService(await opener(same=True), rng=random.Random(1))
    rebuilt = await other.get(table.id)
    eng = get_engine("varanasi")
    assert rebuilt.log == table.log and eng.dump(rebuilt.state) == eng.dump(table.state)
    assert rebuilt.since == table.since and rebuilt.to_act() == table.to_act()
    # The game as played, without the moves taken back, reaches the same position.
    state = eng.new(2, table.options)
    for actor, move in tb.played(table.log):
        state = eng.apply(state, actor, move)
    assert eng.dump(state) == eng.dump(table.state)
    # The export holds the take-backs and replays to the same position.
    ended = result if result.finished else \
        await service.resign(table.id, user_of(result, table.to_act()[0]))
    export = json.loads(to_json_bytes(export_table(ended.table)))
    assert export["version"] == 2
    assert [a for a, _ in export["log"]].count(tb.TAKEBACK) == accepted
    assert export["log"] == [list(entry) for entry in ended.table.log]
    loaded, steps = load_export(export)
    assert eng.dump(loaded) == export["position"] == eng.dump(ended.table.state)
    assert [(s.actor, s.move.text) for s in steps] == ended.table.log
    frames = replay_frames(played_game(ended.table))  # replays leave taken-back moves out
    assert frames[-1][0] == eng.view(ended.table.state, None)
    # Still rated: both players have a rating for the game.
    rows = await service.leaderboard(ended.table.guild_id, "varanasi")
    assert {r.user_id for r in rows} == {A, B} and all(r.rating is not None for r in rows)
    assert frames[-1][0] == eng.view(ended.table.state, None)
    # A take-back must follow the seat's move it takes back.
    index = next(i for i, (a, _) in enumerate(export["log"]) if a == tb.TAKEBACK)
    bad = json.loads(json.dumps(export))
    bad["log"][index] = [tb.TAKEBACK, f"takeback {index - 2}"]
    with pytest.raises(ValueError, match=rf"log\[{index}\]: a take-back must follow"):
        load_export(bad)
    bad["log"][index] = [tb.TAKEBACK, "takeback x"]
    with pytest.raises(ValueError, match=rf"log\[{index}\]"):
        load_export(bad)
    first = json.loads(json.dumps(export))
    first["log"].insert(0, [tb.TAKEBACK, "takeback -1"])
    with pytest.raises(ValueError, match=r"log\[0\]"):
        load_export(first)


async def test_two_processes_accept_once(opener: Opener) -> None:
    one = TableService(await opener(), rng=random.Random(3))
    two = TableService(await opener(same=True), rng=random.Random(4))
    moved = await first_move(one, await started(one, "cows_leopards", 2))
    table = moved.table
    asker = table.log[-1][0]
    answerer_id = user_of(moved, 1 - asker)
    await two.get(table.id)  # both processes know the table at this ply
    outcomes = await asyncio.gather(
        one.takebacks.accept(table.id, answerer_id, table.ply),
        two.takebacks.accept(table.id, answerer_id, table.ply),
        return_exceptions=True)
    done = [o for o in outcomes if isinstance(o, MoveResult)]
    failed = [o for o in outcomes if isinstance(o, TableError)]
    assert len(done) == 1 and [e.code for e in failed] == ["takeback_lapsed"]
    assert (await one.get(table.id)).log == done[0].table.log
    assert [a for a, _ in (await two.get(table.id)).log].count(tb.TAKEBACK) == 1


async def test_the_opponent_moving_first_wins(opener: Opener) -> None:
    one = TableService(await opener(), rng=random.Random(3))
    two = TableService(await opener(same=True), rng=random.Random(4))
    moved = await first_move(one, await started(one, "cows_leopards", 2))
    table = moved.table
    answerer = 1 - table.log[-1][0]
    await two.get(table.id)
    await two.play(table.id, user_of(moved, answerer), table.legal_moves(answerer)[0])
    # `one` still knows the old ply: its commit is refused and the reload finds the move.
    await refused("takeback_lapsed",
                  one.takebacks.accept(table.id, user_of(moved, answerer), table.ply))


@pytest.mark.parametrize(("game", "players"), [("senet", 2), ("six_nimmt", 2),
                                               ("varanasi", 3)])
async def test_not_allowed(service: TableService, game: str, players: int) -> None:
    result = await started(service, game, players)
    if result.table.to_act() and get_engine(game).info.chance.kind == "throw":
        result = await first_move(service, result)
    table = result.table
    mover = next((a for a, _ in reversed(table.log) if a != CHANCE), 0)
    await refused("no_takeback", service.takebacks.ask(table.id, user_of(result, mover)))


async def test_allowed_games_from_engine_info(service: TableService) -> None:
    assert tb.game_allows(get_engine("cows_leopards")) and tb.game_allows(get_engine("varanasi"))
    assert not tb.game_allows(get_engine("senet")) and not tb.game_allows(get_engine("six_nimmt"))
    # Against a computer there is never a move to take back: members only.
    table = await service.open_table(1, 10, "cows_leopards", None, A, "A")
    await service.add_computer(table.id, A, "easy")
    begun = await service.start(table.id, A)
    assert not tb.table_allows(begun.table)
    await refused("no_takeback", service.takebacks.ask(table.id, A))
    # Before anyone moved, there is nothing to take back.
    fresh = await started(service, "cows_leopards", 2, channel=11)
    await refused("takeback_nothing",
                  service.takebacks.ask(fresh.table.id, user_of(fresh, 0)))
    await refused("takeback_nothing",
                  service.takebacks.ask(fresh.table.id, user_of(fresh, 1)))


async def test_turn_timers_follow_the_take_back(opener: Opener) -> None:
    clock = Clock()
    service = TableService(await opener(), rng=random.Random(11), now=clock)
    table = await service.open_table(1, 10, "cows_leopards", None, A, "A",
                                     deadline_seconds=300)
    await service.join(table.id, B, "B")
    begun = await service.start(table.id, A, shuffle=False)
    clock.advance(100)
    moved = await first_move(service, begun)
    mover = moved.table.log[-1][0]
    clock.advance(50)
    result = await service.takebacks.accept(table.id, user_of(moved, 1 - mover),
                                            moved.table.ply)
    timers = await service.timers.of_table(table.id)
    assert set(timers) == {mover}  # the opponent's deadline is gone
    assert timers[mover].since_ply == result.table.ply
    assert timers[mover].deadline_at == clock() + timedelta(seconds=300)  # a fresh deadline
    clock.advance(299)
    assert await service.timers.expire(table.id, mover) is None
    clock.advance(1)
    expiry = await service.timers.expire(table.id, mover)
    assert expiry is not None and expiry.seat == mover
    assert expiry.result.table.log[-1][0] == mover and expiry.result.table.ply == \
        result.table.ply + 1
