"""One migration numbering for both backends: every version on both, a shared file where the
SQL is the same and one per dialect where it differs; databases migrated before (SQLite at
any version, PostgreSQL in its old numbering 0001-0003, kept in fixtures/old_migrations_pg)
upgrade with nothing lost and end with the schema and the version list of a new one."""

from __future__ import annotations

import sqlite3
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import migrate, open_database
from bot.storage.migrate import OLD_POSTGRES, apply_migrations, available, renumbered
from bot.storage.postgres import numbered

OLD_PG = Path(__file__).parent / "fixtures" / "old_migrations_pg"
AT = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
GUILD = 7 << 22


def versions(dialect: str) -> list[int]:
    return [v for v, _, _ in available(dialect)]


def test_both_backends_have_every_version_under_one_name() -> None:
    sqlite, postgres = available("sqlite"), available("postgresql")
    assert versions("sqlite") == versions("postgresql") == list(range(1, len(sqlite) + 1))
    for (_, lite, lite_sql), (_, pg, pg_sql) in zip(sqlite, postgres, strict=True):
        stem = lite.split(".")[0]
        assert pg.split(".")[0] == stem
        if lite == pg:  # one file for both
            assert lite == f"{stem}.sql" and lite_sql == pg_sql
        else:
            assert (lite, pg) == (f"{stem}.sqlite.sql", f"{stem}.postgres.sql")
    # The shared numbering never records a name PostgreSQL's old numbering recorded at the
    # same version: that is how an old database is told apart.
    names = {v: n for v, n, _ in postgres}
    assert all(names[old] != name for old, (name, _) in OLD_POSTGRES.items())


def _package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *files: str) -> None:
    name = f"fake_migrations_{uuid.uuid4().hex}"
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for file in files:
        (folder / file).write_text("SELECT 1;")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(migrate, "PACKAGE", name)
    sys.modules.pop(name, None)


@pytest.mark.parametrize(("files", "error"), [
    (("0001_a.sql", "0001_a.sqlite.sql", "0001_a.postgres.sql"), "both shared and per dialect"),
    (("0001_a.sqlite.sql",), "lacks a file for a dialect"),
    (("0001_a.sqlite.sql", "0001_b.postgres.sql"), "several names"),
    (("0001_a.sql", "0001_b.sql"), "share the number 1"),
])
def test_a_folder_breaking_the_rules_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: tuple[str, ...], error: str
) -> None:
    _package(tmp_path, monkeypatch, *files)
    with pytest.raises(RuntimeError, match=error):
        available("postgresql")


def test_old_postgres_versions_map_to_the_shared_ones() -> None:
    new = available("postgresql")
    assert renumbered([(v, n, "at") for v, n, _ in new]) is None  # already shared
    assert renumbered([]) is None
    old = [(1, "0001_initial.sql", "t1"), (2, "0002_faults.sql", "t2")]
    assert renumbered(old) == [(1, new[0][1], "t1"), (2, new[1][1], "t1"), (3, new[2][1], "t1"),
                               (4, new[3][1], "t1"), (5, new[4][1], "t2")]
    with pytest.raises(RuntimeError, match="mixes"):
        renumbered([*old, (6, new[5][1], "t3")])
    assert [v for _, (_, held) in sorted(OLD_POSTGRES.items()) for v in held] == \
        versions("postgresql")[:6]


async def test_a_new_database_gets_every_migration(opener: Any) -> None:
    db = await opener()
    assert await db.schema_versions() == versions("sqlite") == versions("postgresql")


# -- a database of the first schema, upgraded -------------------------------------------------

# Rows of the first schema (0001) only: a finished table with results and ratings, and a
# running one, so every later migration runs over data.
FIRST_ROWS = [
    ("INSERT INTO game_tables (id, guild_id, channel_id, thread_id, place_id, game, options,"
     " host_id, status, posted_ply, posted_final, message_id, outcome, created_at, started_at,"
     " finished_at) VALUES (1, ?, 10, NULL, 10, 'senet', '{\"players\": 2}', 100, 'finished',"
     " 1, 1, 555, '{\"ranks\": [1, 2]}', ?, ?, ?)", ("guild", "at", "at", "at")),
    ("INSERT INTO game_tables (id, guild_id, channel_id, thread_id, place_id, game, options,"
     " host_id, status, posted_ply, posted_final, message_id, outcome, created_at, started_at,"
     " finished_at) VALUES (2, ?, 11, 12, 12, 'senet', '{\"players\": 2}', 100, 'running',"
     " -1, 0, NULL, NULL, ?, ?, NULL)", ("guild", "at", "at")),
    *[(f"INSERT INTO seats (table_id, position, user_id, name, side) VALUES"
       f" ({t}, {p}, {100 + p}, 'U{p}', NULL)", ()) for t in (1, 2) for p in (0, 1)],
    *[(f"INSERT INTO moves (table_id, ply, actor, move, created_at) VALUES"
       f" ({t}, {p}, {p % 2}, 'move {p}', ?)", ("at",)) for t in (1, 2) for p in (0, 1)],
    *[(f"INSERT INTO results (table_id, seat, guild_id, game, user_id, name, rank, score,"
       f" resigned, finished_at) VALUES (1, {s}, ?, 'senet', {100 + s}, 'U{s}', {s + 1},"
       f" NULL, 0, ?)", ("guild", "at")) for s in (0, 1)],
    *[(f"INSERT INTO ratings (guild_id, game, user_id, mu, sigma, updated_at) VALUES"
       f" (?, 'senet', {100 + s}, {30.0 - s}, 7.5, ?)", ("guild", "at")) for s in (0, 1)],
]


def _values(names: tuple[str, ...], stamp: Any) -> list[Any]:
    return [GUILD if n == "guild" else stamp for n in names]


async def _check_data(target: Any) -> None:
    """The rows of FIRST_ROWS, read through the repositories after the upgrade."""
    db = await open_database(target)
    try:
        assert await db.schema_versions() == versions("sqlite")
        finished = await db.history.finished_tables(GUILD)
        assert [(t.table_id, [p.name for p in t.players], [p.rank for p in t.players])
                for t in finished] == [(1, ["U0", "U1"], [1, 2])]
        assert await db.results.get_ratings(GUILD, "senet", [100, 101]) == {
            100: (30.0, 7.5), 101: (29.0, 7.5)}
        running = await db.tables.load_table(2)
        assert running is not None
        assert (running.row.status, running.row.thread_id, running.row.created_at) == (
            "running", 12, AT)
        assert running.row.ply == 2  # 0004 counted the log
        assert running.moves == [(0, "move 0"), (1, "move 1")]
        assert [(s.user_id, s.misses, s.taken_over) for s in running.seats] == [
            (100, 0, False), (101, 0, False)]
        row = await db.tables.get_table(1)
        assert row is not None and (row.message_id, row.outcome, row.broken) == (
            555, {"ranks": [1, 2]}, False)
        assert await db.tables.active_table_id(12) == 2
        assert await db.settings.get_guild_settings(GUILD) is None
        assert await db.tournaments.tournaments_of(GUILD, ["signup"]) == []
    finally:
        await db.close()


def _sqlite_schema(path: Path) -> list[tuple[str, str, str, str]]:
    with sqlite3.connect(path) as raw:
        return raw.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"
                           " ORDER BY type, name").fetchall()


@pytest.mark.parametrize("old", range(1, 7))
async def test_an_old_sqlite_database_upgrades_with_nothing_lost(tmp_path: Path, old: int) -> None:
    path = tmp_path / "old.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        assert apply_migrations(raw, upto=1) == [1]
        for sql, names in FIRST_ROWS:
            raw.execute(sql, _values(names, AT.isoformat(timespec="microseconds")))
        apply_migrations(raw, upto=old)
        # as the bot of that version recorded them: one folder of SQLite's own files
        raw.execute("UPDATE schema_version SET name = replace(name, '.sqlite.sql', '.sql')")
    finally:
        raw.close()
    await _check_data(path)
    fresh = tmp_path / "fresh.sqlite3"
    await (await open_database(fresh)).close()
    assert _sqlite_schema(path) == _sqlite_schema(fresh)


def _old_pg_files() -> list[tuple[int, str, str]]:
    return sorted((int(f.name[:4]), f.name, f.read_text()) for f in OLD_PG.glob("*.sql"))


async def _pg_schema(conn: asyncpg.Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Columns (in order, with types, defaults, identity), constraints and indexes."""
    return {
        "columns": [tuple(r) for r in await conn.fetch(
            "SELECT table_name, ordinal_position, column_name, data_type, is_nullable,"
            " column_default, is_identity FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position")],
        "constraints": [tuple(r) for r in await conn.fetch(
            "SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)"
            " FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace"
            " WHERE n.nspname = current_schema() ORDER BY 1, 2")],
        "indexes": [tuple(r) for r in await conn.fetch(
            "SELECT tablename, indexname, indexdef FROM pg_indexes"
            " WHERE schemaname = current_schema() ORDER BY 1, 2")],
    }


@pytest.mark.parametrize("old", sorted(OLD_POSTGRES))
async def test_an_old_postgres_database_is_renumbered_and_upgraded(
    postgres_url: str, old: int
) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        # What the bot of PostgreSQL's old numbering did, up to its version `old`.
        await conn.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
        for version, name, sql in _old_pg_files()[:old]:
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute("INSERT INTO schema_version (version, name, applied_at)"
                                   " VALUES ($1, $2, $3)", version, name, AT)
            if version == 1:
                for statement, names in FIRST_ROWS:
                    await conn.execute(numbered(statement), *_values(names, AT))
                await conn.execute("UPDATE game_tables SET ply = 2")  # the old 0001 kept it
    finally:
        await conn.close()

    await _check_data(postgres_url)

    conn = await asyncpg.connect(postgres_url)
    try:
        recorded = await conn.fetch("SELECT version, name, applied_at FROM schema_version"
                                    " ORDER BY version")
        assert [(r["version"], r["name"]) for r in recorded] == [
            (v, n) for v, n, _ in available("postgresql")]
        held = {v for o in range(1, old + 1) for v in OLD_POSTGRES[o][1]}
        assert all(r["applied_at"] == AT for r in recorded if r["version"] in held)
        assert all(r["applied_at"] > AT for r in recorded if r["version"] not in held)
        upgraded = await _pg_schema(conn)
        schema = await conn.fetchval("SELECT current_schema()")
        await conn.execute(f'DROP SCHEMA "{schema}" CASCADE; CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()
    await (await open_database(postgres_url)).close()  # a new database, same schema name
    conn = await asyncpg.connect(postgres_url)
    try:
        assert upgraded == await _pg_schema(conn)
    finally:
        await conn.close()

