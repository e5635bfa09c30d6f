"""`python -m bot migrate-db` and `python -m bot backup`: an operator's SQLite database,
built by the real table service, arrives whole in PostgreSQL or in a backup file."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.__main__ import main
from bot.storage import Database, open_database
from bot.storage.puzzles import NewPuzzle
from bot.tables import TableService
from bot.tables.invitations import Invitations
from bot.tables.ratings import rate_answer
from bot.tournaments.service import TournamentService
from tests.helpers.puzzles import senet_puzzle

GUILD, HOST = 1, 10**17 + 5  # snowflake-sized ids


async def build_database(path: Path) -> None:
    """Settings, a finished game (results, ratings), a running one (timers), a lobby with
    an invitation."""
    db = await open_database(path)
    try:
        service = TableService(db, rng=random.Random(3))
        await service.settings.update(GUILD, language="ja", deadline_seconds=3600)
        rng = random.Random(5)
        for channel, moves in ((11, 6), (12, 3)):
            table = await service.open_table(GUILD, channel, "cows_leopards", None, HOST, "Host",
                                             deadline_seconds=900)
            await service.join(table.id, HOST + 1, "Guest")
            table = (await service.start(table.id, HOST, shuffle=False)).table
            for _ in range(moves):
                user = table.seats[table.to_act()[0]].user_id
                move = rng.choice(service.legal_moves_for(table, user))
                table = (await service.play(table.id, user, move)).table
            if channel == 11:
                await service.resign(table.id, HOST + 1)
        lobby = await service.open_table(GUILD, 13, "senet", None, HOST, "Host")
        await Invitations(service, db.lobbies).invite(lobby.id, HOST,
                                                      [(HOST + 3, "Invited", None)])
        await add_tournament(db, service)
        await add_puzzles(db, service)
    finally:
        await db.close()


async def add_puzzles(db: Database, service: TableService) -> None:
    """A puzzle answered from a daily post, so every puzzle table has a row."""
    puzzle = senet_puzzle()
    now = service.now()
    await db.puzzles.add(GUILD, [NewPuzzle(puzzle, 25.0, 8.3, 1, [(HOST, "Host")], 5)], now)
    row = await db.puzzles.daily_candidate(GUILD, ["senet"])
    assert row is not None
    await db.puzzles.claim_daily(GUILD, "2025-01-01", row.id, 15, now)
    await db.puzzles.daily_posted(GUILD, "2025-01-01", 1500, now)
    attempt = await db.puzzles.open_attempt(row.id, GUILD, HOST, now, "2025-01-01")
    await db.puzzles.answer(attempt.id, puzzle["best"], True, rate_answer, now)


async def add_tournament(db: Database, service: TableService) -> None:
    """A round-robin tournament in its first round (its players, games and tables)."""
    tournaments = TournamentService(db.tournaments, db.results, service, rng=random.Random(1))

    class Host:
        async def place(self, tournament: Any, game: Any) -> tuple[int, int]:
            return 14, 1400 + game.number

        async def table_started(self, *args: Any) -> None:
            pass

        async def announce(self, *args: Any) -> None:
            pass

    tournaments.host = Host()
    created = await tournaments.create(GUILD, 14, HOST, "senet", "round_robin", {},
                                       service.now(), 8, 3600)
    for user in (HOST, HOST + 1, HOST + 2):
        await tournaments.join(created.id, user, f"p{user % 10}")
    await tournaments.run_due()


def sqlite_rows(path: Path) -> dict[str, list[dict]]:
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                          " AND name NOT LIKE 'sqlite_%'"
                                          " AND name != 'schema_version'")]
        return {n: [dict(r) for r in db.execute(f'SELECT * FROM "{n}"')] for n in names}


def comparable(row: dict) -> tuple:
    """A row as both backends must agree on it: times as instants, in column order."""
    out = []
    for key in sorted(row):
        value = row[key]
        if key.endswith(("_at", "_until")) and isinstance(value, str):
            value = datetime.fromisoformat(value)
        out.append((key, value))
    return tuple(out)


async def postgres_rows(url: str, tables: list[str]) -> dict[str, list[dict]]:
    conn = await asyncpg.connect(url)
    try:
        return {t: [dict(r) for r in await conn.fetch(f'SELECT * FROM "{t}"')] for t in tables}
    finally:
        await conn.close()


async def new_table_id(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(
            "INSERT INTO game_tables (guild_id, channel_id, place_id, game, options, host_id,"
            " status, created_at) VALUES (1, 99, 99, 'senet', '{}', 1, 'lobby', now())"
            " RETURNING id")
    finally:
        await conn.close()


def test_every_row_arrives_in_postgresql(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "bot.sqlite3"
    asyncio.run(build_database(source))
    before = source.read_bytes()
    expected = sqlite_rows(source)
    assert {n for n, rows in expected.items() if not rows} == set()  # every table has rows

    assert main(["--env-file", str(tmp_path / "none"),
                 "migrate-db", "--from", str(source), "--to", postgres_url]) == 0
    printed = capsys.readouterr().out
    counts = {line.split()[0]: line.split()[1:] for line in printed.splitlines()
              if line.split() and line.split()[0] in expected}
    assert counts == {t: [str(len(rows))] * 2 for t, rows in expected.items()}
    assert "counts match" in printed
    assert source.read_bytes() == before  # the source is only read

    copied = asyncio.run(postgres_rows(postgres_url, list(expected)))
    for table, rows in expected.items():
        for row in copied[table]:
            for key, value in row.items():
                if isinstance(value, datetime):
                    assert value.utcoffset() is not None, f"{table}.{key} lost its zone"
        columns = set(rows[0])  # PostgreSQL may have newer columns, left at their defaults
        got = [{k: v for k, v in row.items() if k in columns} for row in copied[table]]
        assert sorted(map(comparable, got)) == sorted(map(comparable, rows)), table
    # the id sequence continues after the copied ids
    assert asyncio.run(new_table_id(postgres_url)) == \
        max(r["id"] for r in expected["game_tables"]) + 1


def test_a_target_with_data_is_refused(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "bot.sqlite3"
    asyncio.run(build_database(source))
    args = ["--env-file", str(tmp_path / "none"), "migrate-db", "--from", str(source),
            "--to", postgres_url]
    assert main(args) == 0
    capsys.readouterr()
    assert main(args) == 1
    assert "not empty" in capsys.readouterr().err

    # nothing was copied twice
    assert len(asyncio.run(postgres_rows(postgres_url, ["game_tables"]))["game_tables"]) == 4


def test_migrate_db_wants_a_postgresql_url(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--env-file", str(tmp_path / "none"), "migrate-db", "--from", "a.sqlite3",
                 "--to", str(tmp_path / "b.sqlite3")]) == 2
    assert "postgresql://" in capsys.readouterr().err


def test_backup_copies_the_database_while_the_bot_writes_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "bot.sqlite3"
    asyncio.run(build_database(source))
    expected = sqlite_rows(source)
    bot = sqlite3.connect(source, isolation_level=None)  # the running bot, mid-transaction
    try:
        bot.execute("BEGIN IMMEDIATE")
        bot.execute("UPDATE game_tables SET posted_ply = 99")
        monkeypatch.setenv("BOT_DATABASE", str(source))
        target = tmp_path / "backups" / "bot-1.sqlite3"
        assert main(["--env-file", str(tmp_path / "none"), "backup", str(target)]) == 0
        assert f"to {target}" in capsys.readouterr().out
        assert sqlite_rows(target) == expected  # what was committed, nothing half-done
        assert not list(target.parent.glob("*.partial"))
        bot.execute("COMMIT")  # the bot was never blocked
    finally:
        bot.close()


def test_backup_of_postgresql_points_to_pg_dump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("BOT_DATABASE", "postgresql://bot@db:5432/bot")
    assert main(["--env-file", str(tmp_path / "none"), "backup", str(tmp_path / "x")]) == 2
    assert "pg_dump" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_backup_of_a_missing_database_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    missing = tmp_path / "nothing.sqlite3"
    assert main(["--env-file", str(tmp_path / "none"), "--database", str(missing),
                 "backup", str(tmp_path / "x")]) == 1
    assert "no SQLite database" in capsys.readouterr().err
    assert not missing.exists()
