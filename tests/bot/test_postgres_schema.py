"""PostgreSQL's schema says what SQLite's says: the same tables, columns, keys, defaults
and indexes, so one repository's SQL runs on both and migrate-db loses nothing. A SQLite
migration without its PostgreSQL counterpart fails here."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from bot.storage.migrate import apply_migrations
from bot.storage.postgres import (
    PostgresSettings,
    SchemaTooNew,
    available_pg,
    open_postgres,
)

# SQLite's declared type (and the column's role) -> what PostgreSQL must use.
TIME, ID = "timestamp with time zone", "bigint"


def expected_type(column: str, declared: str) -> set[str]:
    if declared == "TEXT":
        return {TIME} if column.endswith(("_at", "_until")) else {"text"}
    if declared == "REAL":
        return {"double precision"}
    if column == "id" or column.endswith("_id"):
        return {ID}  # Discord snowflakes and table ids: 64 bits
    return {"integer", "bigint"}


def sqlite_schema() -> tuple[dict[str, dict[str, tuple[str, bool, int]]], set[str]]:
    """{table: {column: (declared type, NOT NULL, position in the primary key)}} and the
    index names of a SQLite database with every migration applied."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        apply_migrations(db)
        tables = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' AND name != 'schema_version'")]
        schema = {
            table: {r[1]: (r[2].upper(), bool(r[3]), r[5])
                    for r in db.execute(f'PRAGMA table_info("{table}")')}
            for table in tables
        }
        indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE"
                                            " type = 'index' AND name NOT LIKE 'sqlite_auto%'")}
        return schema, indexes
    finally:
        db.close()


async def test_postgresql_has_every_sqlite_table_column_key_and_index(postgres_url: str) -> None:
    driver = await open_postgres(postgres_url, PostgresSettings(min_size=1, max_size=1))
    try:
        async with driver.pool.acquire() as conn:
            columns = await conn.fetch(
                "SELECT table_name, column_name, data_type, is_nullable FROM"
                " information_schema.columns WHERE table_schema = current_schema()")
            keys = await conn.fetch(
                "SELECT tc.table_name, kcu.column_name FROM information_schema.table_constraints tc"
                " JOIN information_schema.key_column_usage kcu"
                "  ON kcu.constraint_name = tc.constraint_name"
                "  AND kcu.table_schema = tc.table_schema"
                " WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = current_schema()")
            indexes = {r["indexname"] for r in await conn.fetch(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")}
    finally:
        await driver.close()
    pg = {}
    for r in columns:
        pg.setdefault(r["table_name"], {})[r["column_name"]] = (r["data_type"],
                                                                r["is_nullable"] == "NO")
    pg_keys: dict[str, set[str]] = {}
    for r in keys:
        pg_keys.setdefault(r["table_name"], set()).add(r["column_name"])

    schema, sqlite_indexes = sqlite_schema()
    for table, cols in schema.items():
        assert table in pg, f"PostgreSQL lacks table {table}"
        assert set(cols) == set(pg[table]), f"{table}: columns differ"
        for column, (declared, not_null, pk) in cols.items():
            data_type, pg_not_null = pg[table][column]
            assert data_type in expected_type(column, declared), f"{table}.{column}"
            assert pg_not_null == (not_null or pk > 0), f"{table}.{column} nullability"
        assert pg_keys.get(table) == {c for c, (_, _, pk) in cols.items() if pk}, table
    assert sqlite_indexes <= indexes


async def test_a_database_migrated_by_a_newer_bot_is_refused(postgres_url: str) -> None:
    driver = await open_postgres(postgres_url, PostgresSettings(min_size=1, max_size=1))
    await driver.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        newest = available_pg()[-1][0]
        await conn.execute("INSERT INTO schema_version (version, name) VALUES ($1, 'future')",
                           newest + 1)
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNew, match=f"schema version {newest + 1}"):
        await open_postgres(postgres_url, PostgresSettings(min_size=1, max_size=1))


def test_pool_settings_come_from_the_environment() -> None:
    settings = PostgresSettings.from_env({
        "BOT_PG_POOL_MIN": "1", "BOT_PG_POOL_MAX": "4", "BOT_PG_STATEMENT_CACHE": "0",
        "BOT_PG_ACQUIRE_TIMEOUT": "0.5", "BOT_PG_LOCK_TIMEOUT_MS": "250",
    })
    assert (settings.min_size, settings.max_size, settings.statement_cache_size,
            settings.acquire_timeout) == (1, 4, 0, 0.5)
    assert settings.session()["lock_timeout"] == "250"
    assert "lock_timeout" not in settings.session("postgresql://h/db?lock_timeout=3000")
    assert PostgresSettings.from_env({}) == PostgresSettings()
    with pytest.raises(ValueError, match="BOT_PG_POOL_MAX must be a number"):
        PostgresSettings.from_env({"BOT_PG_POOL_MAX": "many"})
    with pytest.raises(ValueError, match="must not exceed"):
        PostgresSettings.from_env({"BOT_PG_POOL_MIN": "5", "BOT_PG_POOL_MAX": "2"})
