"""The table service: lobbies, whole games through `play`, staleness, races, resign, restart."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

from bot.storage import Database
from bot.tables import MoveResult, Table, TableError, TableService
from engines import CHANCE, get_engine
from tests.bot.backends import Opener

GUILD, CHANNEL, HOST = 1, 10, 100

# (game, seats, options) played to the end through `play`.
GAMES = [
    ("senet", 2, None),
    ("cows_leopards", 2, None),
    ("cows_leopards", 2, {"board": "A", "leopard_deadline": True, "quiet_limit": 10}),
    ("six_nimmt", 2, None),
    ("six_nimmt", 4, {"professional": True, "points": 20}),
    ("six_nimmt", 3, {"cards": "logical", "points": 15}),  # a draft: no chance at all
    ("varanasi", 2, {"misere": True}),
    ("varanasi", 3, None),
    ("varanasi", 4, {"teams": True, "team_scoring": "sum", "sets": 2}),
]


def user(seat_in_join_order: int) -> int:
    return HOST + seat_in_join_order




async def seated(
    service: TableService,
    game: str,
    players: int,
    options: dict | None = None,
    channel: int = CHANNEL,
    guild: int = GUILD,
    users: list[int] | None = None,
) -> Table:
    """A lobby with `players` seats: the host (first of `users`) and the others."""
    users = users or [user(i) for i in range(players)]
    table = await service.open_table(guild, channel, game, options, users[0], f"U{users[0]}")
    for uid in users[1:players]:
        table = await service.join(table.id, uid, f"U{uid}")
    return table


async def started(service: TableService, game: str, players: int, **kw) -> MoveResult:
    table = await seated(service, game, players, **kw)
    return await service.start(table.id, table.host_id)


async def play_random(
    service: TableService, result: MoveResult, rng: random.Random, limit: int = 100_000
) -> MoveResult:
    """Random legal moves through `play` (with the current turn) until over or `limit`."""
    for _ in range(limit):
        if result.finished:
            break
        table = result.table
        seat = rng.choice(result.to_act)
        uid = table.seats[seat].user_id
        move = rng.choice(service.legal_moves_for(table, uid))
        result = await service.play(table.id, uid, move, turn=table.ply)
    return result


async def refused(code: str, call) -> TableError:
    with pytest.raises(TableError) as caught:
        await call
    assert caught.value.code == code, caught.value
    assert str(caught.value)  # an English sentence
    return caught.value


# -- lobby -------------------------------------------------------------------------------


async def test_open_join_leave(service: TableService) -> None:
    table = await service.open_table(GUILD, CHANNEL, "six_nimmt", {"points": 30}, HOST, "Host")
    assert table.status == "lobby" and table.state is None and table.ply == 0
    assert [s.user_id for s in table.seats] == [HOST]
    assert table.options["points"] == 30 and table.chosen_options == {"points": 30}
    await refused("already_seated", service.join(table.id, HOST, "Host"))
    table = await service.join(table.id, 101, "A")
    table = await service.join(table.id, 102, "B")
    assert [s.name for s in table.seats] == ["Host", "A", "B"]
    table = await service.leave(table.id, 101)
    assert [s.user_id for s in table.seats] == [HOST, 102]
    await refused("not_seated", service.leave(table.id, 101))
    assert (await service.active_in_channel(CHANNEL)).id == table.id
    table = await service.leave(table.id, HOST)  # the host leaving cancels the lobby
    assert table.status == "cancelled"
    assert await service.active_in_channel(CHANNEL) is None
    await refused("not_lobby", service.join(table.id, 103, "C"))
    await refused("not_found", service.get(9999))


async def test_one_active_table_per_channel_or_thread(service: TableService) -> None:
    first = await service.open_table(GUILD, CHANNEL, "senet", None, HOST, "Host")
    await refused("channel_busy", service.open_table(GUILD, CHANNEL, "senet", None, 101, "A"))
    in_thread = await service.open_table(GUILD, CHANNEL, "senet", None, 101, "A", thread_id=11)
    assert in_thread.thread_id == 11
    assert (await service.active_in_channel(11)).id == in_thread.id
    assert (await service.active_in_channel(CHANNEL)).id == first.id
    await service.cancel(first.id, HOST)
    again = await service.open_table(GUILD, CHANNEL, "senet", None, HOST, "Host")
    assert again.id not in (first.id, in_thread.id)


async def test_full_table_and_seat_limits(service: TableService) -> None:
    table = await seated(service, "senet", 2)
    await refused("table_full", service.join(table.id, 199, "Late"))
    await refused("not_host", service.start(table.id, user(1)))

    alone = await service.open_table(GUILD, 20, "varanasi", None, HOST, "Host")
    error = await refused("bad_seat_count", service.start(alone.id, HOST))
    assert error.params == {"min": 2, "max": 4, "seats": 1}
    many = await seated(service, "varanasi", 4, channel=21)
    await refused("table_full", service.join(many.id, 199, "Fifth"))

    result = await service.start(table.id, HOST)
    assert result.table.status == "running"
    await refused("not_lobby", service.start(table.id, HOST))
    await refused("not_lobby", service.join(table.id, 199, "Late"))
    await refused("not_lobby", service.leave(table.id, user(1)))


async def test_cancel_permissions(service: TableService) -> None:
    table = await seated(service, "cows_leopards", 2)
    await refused("not_allowed", service.cancel(table.id, user(1)))
    await refused("not_allowed", service.cancel(table.id, 555))
    table = await service.cancel(table.id, 555, can_manage=True)
    assert table.status == "cancelled"
    await refused("not_running", service.cancel(table.id, HOST))

    running = (await started(service, "senet", 2)).table
    await refused("not_allowed", service.cancel(running.id, user(1)))
    # a running game: not even its host may end it (a way out of a losing game) ...
    await refused("not_allowed", service.cancel(running.id, HOST))
    await refused("not_lobby", service.cancel(running.id, 555, can_manage=True,
                                              lobby_only=True))
    # ... only a moderator; unrated, with its log kept
    cancelled = await service.cancel(running.id, 555, can_manage=True)
    assert cancelled.status == "cancelled" and cancelled.outcome is None
    assert cancelled.log == running.log and await service._results.get_results(running.id) == []
    await refused("not_running", service.play(running.id, HOST, "pass"))
    assert await service.running_tables() == []


async def test_options_checked_and_filled_at_start(service: TableService) -> None:
    await refused("bad_options", service.open_table(GUILD, 30, "senet", {"speed": 1}, HOST, "H"))
    await refused("bad_options", service.open_table(GUILD, 30, "six_nimmt", {"points": 0}, 1, "H"))
    await refused("bad_options", service.open_table(GUILD, 30, "chess", None, HOST, "H"))

    # Varanasi's colours default depends on the seat count: only `sets` is stored in the lobby.
    lobby = await seated(service, "varanasi", 3, {"sets": 1, "players": 2}, channel=31)
    assert lobby.chosen_options == {"sets": 1}
    assert lobby.options["colours"] == 4 and lobby.options["players"] == 3  # a preview
    table = (await service.start(lobby.id, HOST)).table
    assert table.options == {**get_engine("varanasi").default_options(3), "sets": 1}
    assert get_engine("varanasi").dump(table.state)["options"]["players"] == 3

    # Teams suit 4 players only: accepted in the lobby, refused at start with 3 seats.
    teams = await seated(service, "varanasi", 3, {"teams": True}, channel=32)
    error = await refused("bad_options", service.start(teams.id, HOST))
    assert "teams" in error.params["reason"]
    await service.join(teams.id, 199, "Fourth")
    assert (await service.start(teams.id, HOST)).table.options["teams"] is True


async def test_sides_keep_their_seats(service: TableService) -> None:
    table = await service.open_table(GUILD, 40, "cows_leopards", None, HOST, "Host", side=1)
    await refused("side_taken", service.join(table.id, 101, "A", side=1))
    await refused("bad_side", service.join(table.id, 101, "A", side=2))
    table = await service.join(table.id, 101, "A")
    table = await service.join(table.id, HOST, "Host", side=0)  # a seated user changes side
    await refused("already_seated", service.join(table.id, HOST, "Host", side=0))
    await refused("side_taken", service.join(table.id, 101, "A", side=0))
    table = await service.join(table.id, HOST, "Host", side=1)
    result = await service.start(table.id, HOST)
    assert [s.user_id for s in result.table.seats] == [101, HOST]
    assert result.to_act == [0]  # the cows (seat 0) move first
    for seed in range(4):  # never shuffled when a side was chosen, whoever chose it
        service._rng.seed(seed)
        lobby = await service.open_table(GUILD, 41 + seed, "cows_leopards", None, HOST, "H")
        await service.join(lobby.id, 101, "A", side=0)
        result = await service.start(lobby.id, HOST)
        assert [s.user_id for s in result.table.seats] == [101, HOST]

    other = await service.open_table(GUILD, 49, "six_nimmt", None, HOST, "Host")
    await refused("bad_side", service.join(other.id, 101, "A", side=0))
    await refused("bad_side", service.open_table(GUILD, 48, "varanasi", None, HOST, "H", side=1))


async def test_start_shuffles_unless_asked_not_to(service: TableService) -> None:
    orders = set()
    for channel in range(50, 62):
        table = await seated(service, "six_nimmt", 4, channel=channel)
        result = await service.start(table.id, HOST)
        orders.add(tuple(s.user_id for s in result.table.seats))
    assert len(orders) > 1
    table = await seated(service, "six_nimmt", 4, channel=62)
    result = await service.start(table.id, HOST, shuffle=False)
    assert [s.user_id for s in result.table.seats] == [user(i) for i in range(4)]


# -- playing -----------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
async def test_whole_game_through_play(
    service: TableService, game: str, players: int, options: dict | None
) -> None:
    eng = get_engine(game)
    result = await started(service, game, players, options=options)
    assert all(step.actor == CHANCE for step in result.steps)  # the opening draws, if any
    assert eng.to_act(result.table.state) != [CHANCE]
    rng = random.Random(f"{game}{players}{options}")
    result = await play_random(service, result, rng)
    table = result.table
    assert result.finished and table.status == "finished" and table.finished_at is not None
    assert table.to_act() == [] and result.to_act == []
    assert table.outcome == {**eng.outcome(table.state), "resigned": []}
    assert sorted(table.outcome["ranks"])[0] == 1 and len(table.outcome["ranks"]) == players
    assert table.ply == len(table.log)
    # The log alone rebuilds the final position.
    state = eng.new(players, table.options)
    for actor, move in table.log:
        state = eng.apply(state, actor, move)
    assert eng.dump(state) == eng.dump(table.state)
    await refused("finished", service.play(table.id, HOST, "anything", turn=table.ply))
    await refused("finished", service.resign(table.id, HOST))
    results = await service._results.get_results(table.id)
    assert [r.rank for r in results] == table.outcome["ranks"]
    assert {r.user_id for r in results} == {s.user_id for s in table.seats}


async def test_steps_hold_the_move_and_the_chance_after_it(service: TableService) -> None:
    result = await started(service, "senet", 2)
    assert [s.move.kind for s in result.steps] == ["throw"]
    assert result.steps[0].events[0]["type"] == "throw"
    table = result.table
    seat = result.to_act[0]
    move = service.legal_moves_for(table, table.seats[seat].user_id)[0]
    result = await service.play(table.id, table.seats[seat].user_id, move, turn=table.ply)
    assert result.steps[0].actor == seat and result.steps[0].move.text == move
    assert result.steps[-1].actor == CHANCE  # the next throw was drawn at once
    assert result.table.ply == table.ply + len(result.steps)
    assert result.table.log[table.ply:] == [(s.actor, s.move.text) for s in result.steps]


async def test_refusals_while_playing(service: TableService) -> None:
    lobby = await seated(service, "cows_leopards", 2)
    await refused("not_running", service.play(lobby.id, HOST, "drop e4"))
    await refused("not_running", service.resign(lobby.id, HOST))
    table = (await service.start(lobby.id, HOST, shuffle=False)).table
    cows, leopards = table.seats[0].user_id, table.seats[1].user_id
    await refused("not_seated", service.play(table.id, 555, "drop e4"))
    await refused("not_your_turn", service.play(table.id, leopards, "drop e4"))
    error = await refused("illegal", service.play(table.id, cows, "drop e5"))  # the leopard
    assert error.params["reason"] and error.params["reason"] in str(error)
    await refused("illegal", service.play(table.id, cows, "fly away"))
    await refused("stale", service.play(table.id, cows, "drop e4", turn=table.ply + 1))
    assert service.legal_moves_for(table, leopards) == []
    assert service.legal_moves_for(table, 555) == []
    assert (await service.get(table.id)).ply == 0  # nothing was applied
    result = await service.play(table.id, cows, "  Drop   E4 ", turn=0)  # typed input is tidied
    assert result.steps[0].move.text == "drop e4"
    await refused("stale", service.play(table.id, leopards, "drop e6", turn=0))
    await refused("not_your_turn", service.play(table.id, cows, "drop e6", turn=1))
    assert (await service.play(table.id, leopards, "drop e6", turn=1)).table.ply == 2


async def test_racing_duplicate_moves_apply_once(service: TableService) -> None:
    for channel, game in enumerate(("senet", "cows_leopards", "varanasi", "six_nimmt")):
        result = await started(service, game, 2, channel=channel)
        table = result.table
        uid = table.seats[result.to_act[0]].user_id
        move = service.legal_moves_for(table, uid)[0]
        outcomes = await asyncio.gather(
            service.play(table.id, uid, move, turn=table.ply),
            service.play(table.id, uid, move, turn=table.ply),
            return_exceptions=True,
        )
        applied = [o for o in outcomes if isinstance(o, MoveResult)]
        errors = [o for o in outcomes if isinstance(o, TableError)]
        assert len(applied) == 1 and len(errors) == 1, outcomes
        assert errors[0].code in ("stale", "not_your_turn")
        after = await service.get(table.id)
        assert after.log == applied[0].table.log
        assert after.log[table.ply] == (table.seat_of(uid), move)


async def test_simultaneous_picks_are_not_stale(service: TableService) -> None:
    eng = get_engine("six_nimmt")
    result = await started(service, "six_nimmt", 3)
    table = result.table
    drawn_at = table.ply  # every pick button was drawn at this ply
    assert result.to_act == [0, 1, 2]
    uids = [s.user_id for s in table.seats]
    picks = [service.legal_moves_for(table, uid)[0] for uid in uids]
    await service.play(table.id, uids[0], picks[0], turn=drawn_at)
    # Seat 0 already picked: its old button (and a second pick) is stale now.
    await refused("stale", service.play(table.id, uids[0], picks[0], turn=drawn_at))
    # Seats 1 and 2 may still pick from the board drawn before seat 0's pick.
    await service.play(table.id, uids[1], picks[1], turn=drawn_at)
    table = await service.get(table.id)
    assert table.ply == drawn_at + 2 and table.to_act() == [2]
    # A made-up future turn is stale; an older turn than the decision began is stale too.
    await refused("stale", service.play(table.id, uids[2], picks[2], turn=table.ply + 1))
    await refused("stale", service.play(table.id, uids[2], picks[2], turn=drawn_at - 1))
    result = await service.play(table.id, uids[2], picks[2], turn=drawn_at)
    assert result.steps[-1].events  # the reveal and placements
    assert "reveal" in [e["type"] for e in result.steps[0].events]
    # A new turn: the old buttons of every seat are stale now.
    table = result.table
    if eng.view(table.state, None)["phase"] == "pick":
        seat = table.to_act()[0]
        move = service.legal_moves_for(table, uids[seat])[0]
        await refused("stale", service.play(table.id, uids[seat], move, turn=drawn_at))


async def test_racing_simultaneous_picks_both_apply(service: TableService) -> None:
    result = await started(service, "six_nimmt", 3)
    table = result.table
    uids = [s.user_id for s in table.seats[:2]]
    moves = [service.legal_moves_for(table, uid)[0] for uid in uids]
    both = await asyncio.gather(
        *(service.play(table.id, uid, m, turn=table.ply) for uid, m in zip(uids, moves,
                                                                          strict=True))
    )
    assert sorted(r.table.ply for r in both) == [table.ply + 1, table.ply + 2]
    assert (await service.get(table.id)).to_act() == [2]


# -- resign ------------------------------------------------------------------------------


async def test_resign_two_players(service: TableService) -> None:
    result = await started(service, "senet", 2)
    table = result.table
    loser = table.seats[0].user_id
    result = await service.resign(table.id, loser)
    assert result.finished and result.steps == [] and result.to_act == []
    assert result.table.status == "finished"
    assert result.table.outcome["ranks"] == [2, 1]
    assert result.table.outcome["resigned"] == [0]
    rows = await service._results.get_results(table.id)
    assert [(r.rank, r.resigned) for r in rows] == [(2, True), (1, False)]
    await refused("finished", service.resign(table.id, table.seats[1].user_id))
    await refused("not_seated", service.resign((await started(service, "senet", 2,
                                                              channel=2)).table.id, 555))


async def test_resign_more_players_ranks_by_current_score(service: TableService) -> None:
    eng = get_engine("six_nimmt")
    result = await started(service, "six_nimmt", 4, options={"points": 66})
    result = await play_random(service, result, random.Random(3), limit=40)
    table = result.table
    points = eng.view(table.state, None)["points"]
    quitter = 2
    result = await service.resign(table.id, table.seats[quitter].user_id)
    ranks = result.table.outcome["ranks"]
    assert ranks[quitter] == 4
    others = [s for s in range(4) if s != quitter]
    for a in others:
        for b in others:
            if points[a] > points[b]:
                assert ranks[a] < ranks[b]
            if points[a] == points[b]:
                assert ranks[a] == ranks[b]
    assert result.table.outcome["scores"] == points


# -- restart safety ----------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), [("six_nimmt", 3), ("senet", 2), ("varanasi", 3)])
async def test_restart_rebuilds_from_the_log(
    tmp_path, opener: Opener, game: str, players: int
) -> None:
    db = await opener()
    service = TableService(db, rng=random.Random(1))
    rng = random.Random(2)
    result = await started(service, game, players)
    await service.mark_posted(result.table.id, result.table.ply, 777)
    result = await play_random(service, result, rng, limit=12)
    before = result.table
    assert before.status == "running" and before.posted_ply < before.ply
    await db.close()

    service = TableService(await opener(same=True), rng=random.Random(1))
    running = await service.running_tables()
    assert [t.id for t in running] == [before.id]
    after = running[0]
    eng = get_engine(game)
    assert eng.dump(after.state) == eng.dump(before.state)
    assert after.log == before.log and after.seats == before.seats
    assert after.options == before.options and after.since == before.since
    assert after.message_id == 777 and after.posted_ply < after.ply  # a board to post
    await service.mark_posted(after.id, after.ply, 778)
    await service.mark_posted(after.id, after.ply - 1, 776)  # a late, older post
    posted = await service.get(after.id)
    assert (posted.posted_ply, posted.message_id) == (after.ply, 778)
    result = await play_random(service, MoveResult(after, [], after.to_act(), False), rng)
    assert result.finished


async def test_the_log_wins_over_a_cached_position(db: Database) -> None:
    one, two = TableService(db, rng=random.Random(1)), TableService(db, rng=random.Random(2))
    result = await started(one, "senet", 2)
    seen_by_two = await two.get(result.table.id)
    result = await play_random(one, result, random.Random(3), limit=5)
    again = await two.get(result.table.id)  # `two` cached the older position
    eng = get_engine("senet")
    assert again.ply == result.table.ply > seen_by_two.ply
    assert eng.dump(again.state) == eng.dump(result.table.state)


async def test_unposted_boards_include_just_finished_games(service: TableService) -> None:
    result = await started(service, "senet", 2)
    running = result.table
    assert running.needs_post and [t.id for t in await service.unposted_tables()] == [running.id]
    await service.mark_posted(running.id, running.ply, 1)
    assert not (await service.get(running.id)).needs_post
    assert await service.unposted_tables() == []

    # A resign adds no ply: the final board is still owed until it is posted.
    finished = (await service.resign(running.id, HOST)).table
    assert finished.posted_ply == finished.ply and finished.needs_post
    assert [t.id for t in await service.unposted_tables()] == [finished.id]
    await service.mark_posted(finished.id, finished.ply, 2)
    assert not (await service.get(finished.id)).needs_post
    assert await service.unposted_tables() == []

    # A game finished by a move, then a crash before any post: owed too, for a while.
    over = await play_random(service, await started(service, "cows_leopards", 2, channel=3),
                             random.Random(1))
    assert over.finished and over.table.needs_post
    assert [t.id for t in await service.unposted_tables()] == [over.table.id]
    assert await service.unposted_tables(finished_within=timedelta(seconds=-1)) == []
