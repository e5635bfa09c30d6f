"""The storage layer on both backends: migrations, constraints, the move commit (all or
nothing, refused when the table moved), posted boards and timer leases."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import (
    Commit,
    Finish,
    PlaceTaken,
    ResultRow,
    SeatRow,
    TableRepository,
    database_path,
)
from bot.storage.migrate import apply_migrations, available
from tests.bot.backends import Opener

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
RULES = (86400, "takeover", 3)


async def lobby(tables: TableRepository, channel: int = 10, thread: int | None = None,
                host: int = 100, options: dict | None = None, game: str = "senet") -> int:
    return await tables.open_lobby(1, channel, thread, game, options or {},
                                   SeatRow(0, host, f"U{host}", None), NOW, RULES)


async def test_migrations_are_applied_once_and_recorded(tmp_path, sqlite_opener: Opener) -> None:
    path = tmp_path / "deep" / "er" / "bot.sqlite3"  # parent folders are created
    db = await sqlite_opener(path)
    versions = [v for v, _, _ in available()]
    assert versions[0] == 1 and versions == sorted(versions)
    assert await db.schema_versions() == versions
    assert await db.driver.call(apply_migrations) == []  # nothing left to apply
    await db.close()

    db = await sqlite_opener(path)  # reopening applies nothing twice
    assert await db.schema_versions() == versions
    await db.close()
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT version, name FROM schema_version").fetchall()
        assert rows == [(v, name) for v, name, _ in available()]
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_database_path_comes_from_the_environment(monkeypatch) -> None:
    monkeypatch.delenv("BOT_DATABASE", raising=False)
    assert database_path() == "data/bot.sqlite3"
    monkeypatch.setenv("BOT_DATABASE", "/srv/bot/db.sqlite3")
    assert database_path() == "/srv/bot/db.sqlite3"


async def test_default_path_used_when_none_given(
    tmp_path, monkeypatch, sqlite_opener: Opener
) -> None:
    target = tmp_path / "env" / "bot.sqlite3"
    monkeypatch.setenv("BOT_DATABASE", str(target))
    await sqlite_opener(None)
    assert target.exists()


async def test_one_active_table_per_place_is_a_constraint(opener: Opener) -> None:
    tables = (await opener()).tables
    first = await lobby(tables)
    with pytest.raises(PlaceTaken):
        await lobby(tables, host=101)
    threaded = await lobby(tables, thread=11, host=101)  # a thread is a place of its own
    assert await tables.active_table_id(10) == first
    assert await tables.active_table_id(11) == threaded
    assert await tables.cancel_lobby(first, NOW)
    assert await tables.active_table_id(10) is None
    again = await lobby(tables, options={"points": 5}, game="six_nimmt")
    row = await tables.get_table(again)
    assert (row.status, row.options, row.posted_ply, row.created_at, row.ply) == (
        "lobby", {"points": 5}, -1, NOW, 0)
    assert [(s.user_id, s.position) for s in await tables.get_seats(again)] == [(100, 0)]


async def test_seats_in_join_order(opener: Opener) -> None:
    tables = (await opener()).tables
    table = await lobby(tables, game="six_nimmt")
    for uid in (101, 102):
        assert await tables.add_seat(table, uid, f"U{uid}", None)
    await tables.remove_seat(table, 101)
    assert await tables.add_seat(table, 103, "U103", 1)
    seats = await tables.get_seats(table)
    assert [(s.user_id, s.side) for s in seats] == [(100, None), (102, None), (103, 1)]
    assert not await tables.add_seat(table, 100, "again", None)  # a double click seats once


def start_commit(table: int, **more) -> Commit:
    seats = [SeatRow(0, 100, "U100", None), SeatRow(1, 101, "U101", None)]
    return Commit(table, 0, NOW, moves=[(-1, "throw 2")], start=(seats, {"players": 2}),
                  timers={0: (1, NOW + timedelta(days=1), None)}, **more)


async def test_a_commit_is_whole_and_refused_once_the_table_moved(opener: Opener) -> None:
    db = await opener()
    tables = db.tables
    table = await lobby(tables)
    await tables.add_seat(table, 101, "U101", None)
    assert await tables.commit(start_commit(table))
    loaded = await tables.load_table(table)
    assert (loaded.row.status, loaded.row.ply, loaded.moves) == ("running", 1, [(-1, "throw 2")])
    assert [(t.seat, t.since_ply) for t in loaded.timers] == [(0, 1)]
    assert not await tables.commit(Commit(table, 0, NOW, moves=[(0, "move 9")]))  # stale ply
    assert await tables.commit(Commit(table, 1, NOW, moves=[(0, "move 9"), (-1, "throw 1")],
                                    timers={1: (3, NOW + timedelta(days=1), None)}))
    assert (await tables.load_table(table, first_ply=2)).moves == [(-1, "throw 1")]

    def broken_rate(before, ranks):
        raise RuntimeError("crash before commit")

    results = [ResultRow(table, s, 1, "senet", 100 + s, f"U{s}", s + 1, None, False, NOW)
               for s in (0, 1)]
    finish = Finish({"ranks": [1, 2], "resigned": []}, results, broken_rate)
    with pytest.raises(RuntimeError):
        await tables.commit(Commit(table, 3, NOW, moves=[(1, "move 4")], finish=finish))
    loaded = await tables.load_table(table)  # nothing of the failed unit remains
    assert (loaded.row.status, loaded.row.ply, len(loaded.moves)) == ("running", 3, 3)
    assert await db.results.get_results(table) == []
    assert [t.seat for t in loaded.timers] == [1]


async def test_racing_commits_on_one_ply_exactly_one_wins(opener: Opener) -> None:
    # two connections, one database
    tables, other = (await opener()).tables, (await opener(same=True)).tables
    table = await lobby(tables)
    await tables.add_seat(table, 101, "U101", None)
    assert await tables.commit(start_commit(table))
    attempts = [Commit(table, 1, NOW, moves=[(0, f"move {n}")]) for n in range(8)]
    won = [committed is not None for committed in await asyncio.gather(*(
        (tables if n % 2 else other).commit(c) for n, c in enumerate(attempts)))]
    assert sum(won) == 1
    moves = await tables.get_moves(table)
    assert len(moves) == 2 and moves[1] == attempts[won.index(True)].moves[0]
    assert (await other.get_table(table)).ply == 2


async def test_mark_posted_never_goes_back(opener: Opener) -> None:
    tables = (await opener()).tables
    table = await lobby(tables)
    await tables.mark_posted(table, 5, 555)
    await tables.mark_posted(table, 3, 333)
    await tables.mark_posted(table, 6, None)  # a post without a new message keeps the old id
    row = await tables.get_table(table)
    assert (row.posted_ply, row.message_id) == (6, 555)


async def test_one_process_at_a_time_may_post_a_board(opener: Opener) -> None:
    """The posting claim: taken by a move's commit unless another process holds it, kept by
    its holder while the table moves on, released by mark_posted, free after its lease."""
    one, two = (await opener()).tables, (await opener(same=True)).tables  # two processes
    table = await lobby(one)
    await one.add_seat(table, 101, "U101", None)
    lease = NOW + timedelta(seconds=30)
    started = await one.commit(start_commit(table, posting=("one", lease)))
    assert started is not None and started.posting
    assert not await two.claim_posting(table, "two", NOW, lease)  # one posts ply 1
    assert await one.claim_posting(table, "one", NOW, lease)  # its own claim, renewed
    assert [t for t, _ in await two.unposted_tables(NOW - timedelta(days=1),
                                                    free_for=(NOW, "two"))] == []
    moved = await two.commit(Commit(table, 1, NOW, moves=[(0, "move 9")],
                                    posting=("two", lease)))
    assert moved is not None and not moved.posting  # moved, but one holds the posting
    assert await one.mark_posted(table, 1, 501, "one") == 2  # ply 2 is one's to post too
    assert not await two.claim_posting(table, "two", NOW, lease)
    assert await one.mark_posted(table, 2, 502, "one") is None  # released
    assert await two.claim_posting(table, "two", NOW, lease)
    # two dies holding it: nobody else may post until its lease runs out
    later = lease + timedelta(seconds=1)
    assert not await one.claim_posting(table, "one", NOW, lease)
    third = await one.commit(Commit(table, 2, NOW, moves=[(1, "move 3")],
                                    posting=("one", lease)))
    assert third is not None and not third.posting
    assert [t for t, _ in await one.unposted_tables(NOW - timedelta(days=1),
                                                    free_for=(later, "one"))] == [table]
    assert await one.claim_posting(table, "one", later, later + timedelta(seconds=30))
    assert await two.mark_posted(table, 3, 503, "two") is None  # an old claim: one keeps its
    assert not await two.claim_posting(table, "two", later, later)
    await one.release_postings("one")  # one stops
    assert await two.claim_posting(table, "two", later, later)


async def test_a_board_marked_posted_leaves_later_moves_flushed_to_disk(
    sqlite_opener: Opener,
) -> None:
    """Marking a board posted skips the disk flush (lost in a power cut, the board is only
    posted again); every other write still waits for the disk (synchronous=FULL)."""
    db = await sqlite_opener()
    tables = db.tables
    table = await lobby(tables)
    await tables.mark_posted(table, 5, 555)
    level = await db.driver.call(lambda conn: conn.execute("PRAGMA synchronous").fetchone())
    assert level == (2,)  # FULL
    assert (await tables.get_table(table)).posted_ply == 5


async def test_timer_claims_never_overlap_and_lapse_after_a_crash(opener: Opener) -> None:
    tables, other = (await opener()).tables, (await opener(same=True)).tables
    ids = []
    for channel in range(10, 16):
        table = await lobby(tables, channel=channel)
        await tables.add_seat(table, 101, "U101", None)
        await tables.commit(start_commit(table))
        ids.append(table)
    due = NOW + timedelta(days=2)
    lease = timedelta(seconds=60)
    first, second = await asyncio.gather(
        tables.claim_timers(due, due + lease, "a", limit=3),
        other.claim_timers(due, due + lease, "b", limit=10))
    mine = {(t.table_id, t.seat) for t in first}
    theirs = {(t.table_id, t.seat) for t in second}
    assert not mine & theirs and len(mine | theirs) == len(ids)
    assert await tables.claim_timers(due, due + lease, "c") == []  # all held
    # "a" crashed: once its lease has run out, its timers are claimed again
    later = due + lease + timedelta(seconds=1)
    taken = await other.claim_timers(later, later + lease, "b2")
    assert {(t.table_id, t.seat) for t in taken} == mine | theirs
    await tables.release_timer(ids[0], 0, "b2", retry_at=later + timedelta(minutes=5))
    soon = later + timedelta(minutes=2)  # b2's leases ran out; the released one waits
    again = await tables.claim_timers(soon, soon + timedelta(minutes=10), "d")
    assert {t.table_id for t in again} == set(ids[1:])
    at_retry = later + timedelta(minutes=5, seconds=1)
    assert [t.table_id for t in await tables.claim_timers(at_retry, at_retry, "e")] == [ids[0]]


async def test_a_shard_cluster_process_claims_only_its_own_guilds_timers(
    opener: Opener,
) -> None:
    tables = (await opener()).tables
    by_shard = {}
    for shard, channel in ((0, 20), (1, 21)):
        table = await tables.open_lobby(shard << 22, channel, None, "senet", {},
                                      SeatRow(0, 100, "U100", None), NOW, RULES)
        await tables.add_seat(table, 101, "U101", None)
        await tables.commit(start_commit(table))
        by_shard[shard] = table
    due = NOW + timedelta(days=2)
    mine = await tables.claim_timers(due, due + timedelta(minutes=1), "p1", shards=(2, (1,)))
    assert [t.table_id for t in mine] == [by_shard[1]]
    rest = await tables.claim_timers(due, due + timedelta(minutes=1), "p0", shards=(2, (0,)))
    assert [t.table_id for t in rest] == [by_shard[0]]
