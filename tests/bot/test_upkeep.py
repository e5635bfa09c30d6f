"""The table service's upkeep on both backends: lobby expiry once across processes, limits,
broken tables; the start-up check of the database; operator commands and settings."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.__main__ import health, main
from bot.launch import SLOW_SEARCH, log_level, warn_without_compiled_search
from bot.storage.check import DatabaseProblem, check_postgres, check_sqlite
from bot.tables import TableError, TableService
from tests.bot.backends import Opener

GUILD, HOST = 7, 100


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_a_lobby_expires_once_across_two_processes(opener: Opener) -> None:
    clock = Clock()
    first = TableService(await opener(), now=clock)
    second = TableService(await opener(same=True), now=clock)
    await first.settings.update(GUILD, lobby_minutes=20)
    lobby = await first.open_table(GUILD, 1, "senet", None, HOST, "Host")
    other = await first.open_table(GUILD + 1, 2, "senet", None, HOST, "Host")  # 30 min
    clock.now += timedelta(minutes=19)
    assert await first.upkeep.expire_lobbies() == []
    clock.now += timedelta(minutes=2)
    ended = [await first.upkeep.expire_lobbies(), await second.upkeep.expire_lobbies()]
    assert sorted(len(e) for e in ended) == [0, 1]  # exactly one process reports it
    (table, minutes), = ended[0] or ended[1]
    assert table.id == lobby.id and table.status == "cancelled" and minutes == 20
    assert (await first.get(other.id)).status == "lobby"
    clock.now += timedelta(minutes=10)
    assert [t.id for t, _ in await second.upkeep.expire_lobbies()] == [other.id]


async def test_limits_per_member_and_per_server(opener: Opener) -> None:
    service = TableService(await opener())
    await service.upkeep.check_can_open(GUILD, HOST)
    lobby = await service.open_table(GUILD, 1, "senet", None, HOST, "Host")
    with pytest.raises(TableError) as err:
        await service.upkeep.check_can_open(GUILD, HOST)
    assert err.value.code == "lobby_limit" and err.value.params["table_id"] == lobby.id
    await service.upkeep.check_can_open(GUILD + 1, HOST)  # another server is another matter
    await service.settings.update(GUILD, max_tables=1)
    with pytest.raises(TableError) as err:
        await service.upkeep.check_can_open(GUILD, HOST + 1)
    assert err.value.code == "server_full" and err.value.params["max"] == 1
    for name, value in (("max_tables", 0), ("lobby_minutes", 1), ("lobby_minutes", True)):
        with pytest.raises(TableError):
            await service.settings.update(GUILD, **{name: value})


async def play(service: TableService, channel: int, member: int) -> str:
    """A lobby opened as /play does: "ok" or the refusal's code."""
    try:
        await service.upkeep.check_can_open(GUILD, member)
        await service.open_table(GUILD, channel, "senet", None, member, "Host",
                                 one_per_host=True)
    except TableError as err:
        return err.code
    return "ok"


async def test_racing_lobbies_of_one_member_open_only_one(opener: Opener) -> None:
    first = TableService(await opener())
    second = TableService(await opener(same=True))  # another process, the same database
    answers = await asyncio.gather(*(play((first, second)[c % 2], c, HOST) for c in range(1, 9)))
    assert answers.count("ok") == 1 and answers.count("lobby_limit") == 7
    assert await second.upkeep.open_counts() == {"lobby": 1, "running": 0}


async def test_racing_lobbies_never_go_past_the_server_limit(opener: Opener) -> None:
    first = TableService(await opener())
    second = TableService(await opener(same=True))  # another process, the same database
    await first.settings.update(GUILD, max_tables=3)
    answers = await asyncio.gather(
        *(play((first, second)[m % 2], m, HOST + m) for m in range(1, 11)))
    assert answers.count("ok") == 3 and answers.count("server_full") == 7
    assert await second.upkeep.open_counts() == {"lobby": 3, "running": 0}
    # A tournament's tables are the bot's own: the member limit does not hold them back.
    await first.open_table(GUILD, 20, "senet", None, HOST, "Host")
    assert await first.upkeep.open_counts() == {"lobby": 4, "running": 0}


async def test_a_broken_log_is_marked_once_and_cancellable(
        opener: Opener, caplog: pytest.LogCaptureFixture) -> None:
    db = await opener()
    service = TableService(db)
    table = await service.open_table(GUILD, 1, "senet", None, HOST, "Host")
    await service.join(table.id, HOST + 1, "Guest")
    await service.start(table.id, HOST)
    await db.tables._execute("UPDATE moves SET move = 'fly away' WHERE table_id = ?", (table.id,))
    kept = await db.tables.get_moves(table.id)
    fresh = TableService(db)  # another process: nothing cached
    caplog.set_level(logging.WARNING)
    for _ in range(3):
        with pytest.raises(TableError) as err:
            await fresh.get(table.id)
        assert err.value.code == "broken"
    assert sum("is broken" in r.getMessage() for r in caplog.records) == 1
    assert await fresh.running_tables() == [] and await fresh.timers.next_due() is None
    with pytest.raises(TableError):
        await fresh.cancel(table.id, HOST + 1)  # a guest may not
    ended = await fresh.cancel(table.id, HOST)  # its host may: it cannot go on anyway
    assert ended.status == "cancelled"
    assert kept and await db.tables.get_moves(table.id) == kept  # the log is kept for a bug report


async def test_table_log_lines(opener: Opener, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.tables")
    service = TableService(await opener())
    table = await service.open_table(GUILD, 1, "senet", None, HOST, "Host")
    await service.join(table.id, HOST + 1, "Guest")
    await service.start(table.id, HOST)
    await service.resign(table.id, HOST)
    other = await service.open_table(GUILD, 2, "senet", None, HOST, "Host")
    await service.cancel(other.id, HOST)
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("bot.tables")]
    for word, table_id in (("opened", table.id), ("started", table.id),
                           ("finished", table.id), ("opened", other.id),
                           ("cancelled", other.id)):
        assert sum(line.startswith(f"table {table_id} {word}") for line in lines) == 1, lines


async def test_reads_do_not_wait_for_another_writer(sqlite_opener: Opener,
                                                    tmp_path: Path) -> None:
    from bot.storage import Unavailable

    service = TableService(await sqlite_opener())
    table = await service.open_table(GUILD, 1, "senet", None, HOST, "Host")
    other = sqlite3.connect(tmp_path / "bot.sqlite3", isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert (await service.get(table.id)).id == table.id
        assert await service.store.active_id_in_channel(1) == table.id
        with pytest.raises(Unavailable):
            await service.join(table.id, HOST + 1, "Guest")
    finally:
        other.execute("ROLLBACK")
        other.close()
    await service.join(table.id, HOST + 1, "Guest")


# -- start-up ----------------------------------------------------------------------------------


async def test_start_up_check_of_sqlite(tmp_path: Path, sqlite_opener: Opener,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    good = tmp_path / "bot.sqlite3"
    await sqlite_opener(good)
    check_sqlite(str(good))
    check_sqlite(str(tmp_path / "new" / "bot.sqlite3"))  # created at start
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(os.urandom(8192))
    with pytest.raises(DatabaseProblem, match="not a usable SQLite database"):
        check_sqlite(str(garbage))
    damaged = tmp_path / "damaged.sqlite3"
    db = sqlite3.connect(damaged)
    db.execute("CREATE TABLE t (a TEXT)")
    db.execute("CREATE INDEX t_a ON t (a)")
    db.executemany("INSERT INTO t VALUES (?)", [(f"row {i:06}",) for i in range(5000)])
    db.commit()
    db.close()
    data = bytearray(damaged.read_bytes())
    data[-4096 * 3: -4096 * 2] = os.urandom(4096)  # a page of the index overwritten
    damaged.write_bytes(bytes(data))
    with pytest.raises(DatabaseProblem, match="damaged|not a usable"):
        check_sqlite(str(damaged))
    newer = sqlite3.connect(good)
    newer.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'x', '')")
    newer.commit()
    newer.close()
    with pytest.raises(DatabaseProblem, match="newer version"):
        check_sqlite(str(good))
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if mode == os.W_OK and
                        Path(path) == garbage else real_access(path, mode))
    with pytest.raises(DatabaseProblem, match="read-only"):
        check_sqlite(str(garbage))  # (as root a chmod cannot make a file read-only)


async def test_start_up_check_of_postgresql(postgres_url: str) -> None:
    await check_postgres(postgres_url)
    with pytest.raises(DatabaseProblem, match="cannot reach PostgreSQL"):
        await check_postgres("postgresql://nobody@127.0.0.1:1/none")


def test_a_bad_database_ends_the_process_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    garbage = tmp_path / "bot.sqlite3"
    garbage.write_bytes(b"not a database at all" * 400)
    before = garbage.read_bytes()
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("BOT_DATABASE", str(garbage))
    assert main(["--env-file", str(tmp_path / "none.env")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "not a usable" in err[0]
    assert garbage.read_bytes() == before  # touched nothing
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.sqlite3"]


def test_log_level_and_health(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert log_level("") == logging.INFO and log_level("debug") == logging.DEBUG
    with pytest.raises(ValueError):
        log_level("chatty")
    beat = tmp_path / "heartbeat"
    monkeypatch.setenv("BOT_HEARTBEAT_FILE", str(beat))
    assert health() == 1  # no heartbeat yet
    beat.touch()
    assert health() == 0
    old = time.time() - 600
    os.utime(beat, (old, old))
    assert health() == 1


@pytest.mark.parametrize("compiled", [True, False])
def test_start_up_warns_when_the_varanasi_search_was_not_compiled(
    compiled: bool, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from engines import varanasi_grundy

    monkeypatch.setattr(varanasi_grundy, "NATIVE", compiled)
    with caplog.at_level(logging.WARNING):
        warn_without_compiled_search()
    assert (SLOW_SEARCH in caplog.text) is not compiled
