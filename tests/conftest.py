"""Fixtures for every test folder: a PostgreSQL database when a server is at hand.

`postgres_url` is the URL of a fresh, empty schema (its own `search_path`) in a database
created for this test session, so PostgreSQL tests are isolated from each other and from
anything else on the server. The server is `BOT_TEST_POSTGRES_URL` (CI sets it, see
.ci/postgres.sh), else one answering on 127.0.0.1:5432 with trust authentication. Without
either the tests that need it are skipped, and the run says so in one line at the end.

`nim_id` registers the test-only fifth game (tests/helpers/nim.py) through its one spec for the
test, and forgets it after.

`compiled_varanasi_search` likewise skips (and says so at the end) where the install could
not compile engines/_varanasi_search.c.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlsplit

import pytest

import engines
from tests.helpers import nim as nim_game

ENV = "BOT_TEST_POSTGRES_URL"
LOCAL = "postgresql://postgres@127.0.0.1:5432/postgres"
SKIPPED = "PostgreSQL tests skipped: no server (set BOT_TEST_POSTGRES_URL)"
_skipped: list[str] = []


def _local_server() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=0.3).close()
    except OSError:
        return False
    return True


def with_database(url: str, name: str) -> str:
    """`url` pointing at database `name` (the rest, query included, kept)."""
    return urlsplit(url)._replace(path=f"/{name}").geturl()


def with_setting(url: str, key: str, value: str) -> str:
    """`url` with a server setting in its query (asyncpg passes unknown keys to the server)."""
    parts = urlsplit(url)
    query = f"{parts.query}&{key}={value}" if parts.query else f"{key}={value}"
    return parts._replace(query=query).geturl()


async def _admin(url: str, *sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=5)
    try:
        for statement in sql:
            await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """URL of a database created for this test session and dropped after it."""
    url = os.environ.get(ENV)
    explicit = bool(url)
    if not url:
        if not _local_server():
            _skipped.append(SKIPPED)
            pytest.skip(SKIPPED)
        url = LOCAL
    name = f"bot_test_{secrets.token_hex(4)}"
    try:
        asyncio.run(_admin(url, f'CREATE DATABASE "{name}"'))
    except Exception as err:
        if explicit:  # CI asked for PostgreSQL: failing to get it is an error, not a skip
            raise
        reason = f"PostgreSQL tests skipped: {LOCAL} refused ({err}); set {ENV}"
        _skipped.append(reason)
        pytest.skip(reason)
    yield with_database(url, name)
    asyncio.run(_admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
async def postgres_url(postgres_database: str) -> AsyncIterator[str]:
    """URL of an empty schema of its own in the session's database, dropped after the test."""
    schema = f"t_{secrets.token_hex(6)}"
    await _admin(postgres_database, f'CREATE SCHEMA "{schema}"')
    # synchronous_commit off: a test database needs no durability, and commits get fast.
    url = with_setting(postgres_database, "search_path", schema)
    yield with_setting(url, "synchronous_commit", "off")
    await _admin(postgres_database, f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def nim_id() -> Iterator[str]:
    """The fifth game registered (`engines.register(SPEC)`) for the test; its id."""
    engines.register(nim_game.SPEC)
    yield nim_game.GAME_ID
    engines.unregister(nim_game.GAME_ID)


@pytest.fixture(scope="session")
def compiled_varanasi_search() -> None:
    from engines.varanasi_grundy import NATIVE

    if not NATIVE:
        reason = ("compiled Varanasi search tests skipped: engines/_varanasi_search.c was not "
                  "built (no C compiler at install), so the Python search is in use")
        _skipped.append(reason)
        pytest.skip(reason)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for reason in dict.fromkeys(_skipped):  # each reason once
        terminalreporter.write_line(reason, yellow=True, bold=True)
