"""The PostgreSQL driver: units of work (`bot.storage.driver`) on a pool of asyncpg connections.

`open_postgres(url)` connects, applies the PostgreSQL migrations of `migrations/` under an
advisory lock (so processes starting together migrate once) and returns a `PostgresDriver`. Each
`run(unit, *args)` borrows one connection, opens a transaction and feeds the unit's
statements through it, one round trip each.

Tuning from the environment (all optional):

- `BOT_PG_POOL_MIN` / `BOT_PG_POOL_MAX`: connections kept open / at most (2 / 10).
- `BOT_PG_STATEMENT_CACHE`: prepared statements cached per connection (100); `0` behind
  PgBouncer older than 1.21 in transaction mode.
- `BOT_PG_ACQUIRE_TIMEOUT`: seconds to wait for a free connection before answering
  "unavailable" (1), where a player still waits for the bot's first answer.
- `BOT_PG_ANSWERED_WAIT`: the same wait for work whose player has been answered already
  (a deferred move, a posted board, a timer): 30, so a burst queues instead of refusing.
- `BOT_PG_LOCK_TIMEOUT_MS` / `BOT_PG_STATEMENT_TIMEOUT_MS`: server-side limits per
  statement (1000 / 5000): an interaction must be answered within 3 s, so nothing waits long.
- `BOT_PG_LISTEN_URL`: the server to hear other processes' table changes from (changes.py),
  when BOT_DATABASE goes through a pooler that keeps no session (PgBouncer's transaction mode).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from functools import lru_cache
from typing import TypeVar
from urllib.parse import parse_qs, urlsplit

import asyncpg
from asyncpg import exceptions as pgerr
from asyncpg.transaction import Transaction

from bot.storage.changes import ChangeListener
from bot.storage.driver import (
    Conflict,
    Execute,
    ExecuteMany,
    Fetch,
    Params,
    Row,
    Saturated,
    SecondStatement,
    Statement,
    Unavailable,
    Unit,
    is_player_answered,
)
from bot.storage.migrate import available, renumbered

T = TypeVar("T")
N = TypeVar("N", int, float)
log = logging.getLogger(__name__)

# Failures that mean "the database cannot do this now", not "the unit is wrong".
UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,  # asyncio.TimeoutError is TimeoutError since 3.11
    pgerr.PostgresConnectionError,  # class 08: connection lost or refused
    pgerr.InsufficientResourcesError,  # class 53: disk full, out of memory, too many clients
    pgerr.OperatorInterventionError,  # class 57: shutdown, statement timeout, cannot connect now
    pgerr.LockNotAvailableError,  # lock_timeout
    pgerr.TransactionRollbackError,  # class 40: deadlock or serialization failure
    pgerr.ReadOnlySQLTransactionError,  # a standby, or default_transaction_read_only
    pgerr.PostgresSystemError,  # class 58: I/O error on the server
)
# A second writer of the same key: the unit's business (stale move, place taken).
CONFLICT: tuple[type[BaseException], ...] = (
    pgerr.UniqueViolationError,
    pgerr.ExclusionViolationError,
)
MIGRATION_LOCK = 0x7AB1E7  # pg_advisory_lock key: "tabletop" migrations
_STATUS_COUNT = re.compile(r"\s(\d+)$")


class PostgresUnreachable(Unavailable):
    """`open_postgres` could not connect; the message says where (never the password)."""


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer version of the bot than this one."""


@dataclass(frozen=True)
class PostgresSettings:
    """Pool and timeout settings; `from_env()` reads the BOT_PG_* variables."""

    min_size: int = 2
    max_size: int = 10
    statement_cache_size: int = 100
    acquire_timeout: float = 1.0
    answered_wait: float = 30.0
    connect_timeout: float = 5.0
    lock_timeout_ms: int = 1000
    statement_timeout_ms: int = 5000
    server_settings: Mapping[str, str] = field(default_factory=dict)
    listen_url: str = ""  # where other processes' table changes are heard ("": the database)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> PostgresSettings:
        env = os.environ if environ is None else environ
        default = cls()

        def number(name: str, fallback: N, kind: Callable[[str], N]) -> N:
            raw = (env.get(name) or "").strip()
            if not raw:
                return fallback
            try:
                value = kind(raw)
            except ValueError:
                raise ValueError(f"{name} must be a number, not {raw!r}") from None
            if value < 0:
                raise ValueError(f"{name} must not be negative")
            return value

        settings = cls(
            min_size=number("BOT_PG_POOL_MIN", default.min_size, int),
            max_size=number("BOT_PG_POOL_MAX", default.max_size, int),
            statement_cache_size=number(
                "BOT_PG_STATEMENT_CACHE", default.statement_cache_size, int
            ),
            acquire_timeout=number("BOT_PG_ACQUIRE_TIMEOUT", default.acquire_timeout, float),
            answered_wait=number("BOT_PG_ANSWERED_WAIT", default.answered_wait, float),
            lock_timeout_ms=number("BOT_PG_LOCK_TIMEOUT_MS", default.lock_timeout_ms, int),
            statement_timeout_ms=number(
                "BOT_PG_STATEMENT_TIMEOUT_MS", default.statement_timeout_ms, int
            ),
            listen_url=(env.get("BOT_PG_LISTEN_URL") or "").strip(),
        )
        if settings.max_size < 1 or settings.min_size > settings.max_size:
            raise ValueError("BOT_PG_POOL_MIN must not exceed BOT_PG_POOL_MAX (at least 1)")
        return settings

    def session(self, url: str = "") -> dict[str, str]:
        """Server settings of every pooled connection; settings given in the URL's query
        (`...?lock_timeout=3000`) win over these."""
        base = {
            "lock_timeout": str(self.lock_timeout_ms),
            "statement_timeout": str(self.statement_timeout_ms),
            # A hung process must not hold row locks for ever.
            "idle_in_transaction_session_timeout": str(max(self.statement_timeout_ms * 6, 0)),
            "application_name": "tabletop-bot",
            "timezone": "UTC",
        }
        base.update(self.server_settings)
        for key in parse_qs(urlsplit(url).query):
            base.pop(key, None)
        return base


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """`?` placeholders as `$1, $2, ...`; a `?` inside quotes or a comment stays as it is."""
    out: list[str] = []
    count = 0
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"":  # a literal or a quoted identifier; '' and "" escape themselves
            end = i + 1
            while end < n and sql[end] != ch:
                end += 1
            out.append(sql[i:end + 1])
            i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end < 0 else end
            out.append(sql[i:end])
            i = end
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(sql[i:end])
            i = end
        elif ch == "?":
            count += 1
            out.append(f"${count}")
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def rowcount(status: str) -> int:
    """Rows changed, from a command status: 'UPDATE 3', 'INSERT 0 1', 'DELETE 2' (else 0)."""
    match = _STATUS_COUNT.search(status or "")
    return int(match.group(1)) if match else 0


def _param(value: object) -> object:
    # Flags are INTEGER columns on both backends; asyncpg will not encode a bool as int4.
    return int(value) if isinstance(value, bool) else value


def _params(values: Params) -> list[object]:
    return [_param(v) for v in values]


def _value(value: object) -> object:
    # SUM(bigint) and AVG() come back as numeric: give what SQLite gives (int or float).
    if isinstance(value, Decimal):
        exponent = value.as_tuple().exponent  # "F", "n" or "N" for infinity and NaNs
        return int(value) if value == value.to_integral_value() and isinstance(exponent, int) \
            and exponent >= 0 else float(value)
    return value


def _row(record: asyncpg.Record) -> Row:
    return {key: _value(value) for key, value in record.items()}


def _lost(err: BaseException, conn: asyncpg.Connection) -> bool:
    """Whether `err` means the database could not do the work (not that the unit is wrong)."""
    return isinstance(err, UNAVAILABLE) or (isinstance(err, pgerr.InterfaceError) and _closed(conn))


def _closed(conn: asyncpg.Connection) -> bool:
    try:
        return conn.is_closed()
    except pgerr.InterfaceError:  # the pool already took the dead connection back
        return True


class PostgresDriver:
    """Runs units of work on an asyncpg pool, one transaction per unit."""

    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, settings: PostgresSettings | None = None,
                 changes: ChangeListener | None = None) -> None:
        self._pool = pool
        self.settings = settings or PostgresSettings()
        self.changes = changes  # listening since open_postgres

    @property
    def pool(self) -> asyncpg.Pool:
        return self._pool

    def _acquire_wait(self) -> float:
        settings = self.settings
        if is_player_answered():
            return max(settings.acquire_timeout, settings.answered_wait)
        return settings.acquire_timeout

    def _saturated(self) -> bool:
        """Every connection the pool may open is open and in use."""
        pool = self._pool
        return pool.get_size() >= pool.get_max_size() and pool.get_idle_size() == 0

    async def run(self, unit: Callable[..., Unit[T]], *args: object) -> T:
        """Run `unit(*args)` as one transaction and return what it returns.

        A unique-key violation is thrown into the unit as `Conflict` (the transaction is
        rolled back whatever the unit then does); a lost, busy or read-only database raises
        `Unavailable` with nothing changed; any other exception rolls back and propagates.
        """
        try:
            conn = await self._pool.acquire(timeout=self._acquire_wait())
        except UNAVAILABLE as err:
            if isinstance(err, TimeoutError) and self._saturated():
                raise Saturated(f"all {self._pool.get_size()} connections busy") from err
            raise Unavailable(err) from err
        except pgerr.InterfaceError as err:  # the pool is closing or closed
            raise Unavailable(err) from err
        run = self._alone if getattr(unit, "one_statement", False) else self._transaction
        try:
            try:
                return await run(conn, unit(*args))
            except (pgerr.InvalidCachedStatementError, pgerr.OutdatedSchemaCacheError):
                # A newer process migrated a table under a cached statement: asyncpg
                # prepares it afresh next time, so the whole unit runs once more.
                return await run(conn, unit(*args))
        finally:
            try:
                await self._pool.release(conn)
            except Exception:  # a broken connection: the pool drops it
                log.debug("releasing a broken connection", exc_info=True)

    async def _transaction(self, conn: asyncpg.Connection, gen: Unit[T]) -> T:
        tx = conn.transaction()
        try:
            await tx.start()
        except UNAVAILABLE as err:
            gen.close()
            raise Unavailable(err) from err
        try:
            result, void = await self._drive(conn, gen)
        except BaseException as err:
            await self._rollback(tx, conn)
            if _lost(err, conn):
                raise Unavailable(err) from err
            raise
        if void:  # the unit returned after a Conflict: nothing of it may stay
            await self._rollback(tx, conn)
            return result
        try:
            await tx.commit()
        except CONFLICT as err:  # a deferred constraint, checked at commit
            raise Conflict(str(err)) from err
        except UNAVAILABLE as err:
            raise Unavailable(err) from err
        return result

    async def _alone(self, conn: asyncpg.Connection, gen: Unit[T]) -> T:
        """A unit of one statement, in autocommit: no BEGIN and COMMIT round trips."""
        try:
            result, _ = await self._drive(conn, gen, alone=True)
        except BaseException as err:
            if _lost(err, conn):
                raise Unavailable(err) from err
            raise
        return result

    async def _drive(self, conn: asyncpg.Connection, gen: Unit[T],
                     alone: bool = False) -> tuple[T, bool]:
        """Feed each yielded statement's result back into the unit until it returns; also
        says whether a Conflict voided the transaction. `alone`: the unit may run only one
        statement (SecondStatement before a second one runs)."""
        void = False
        try:
            statement = next(gen)
            while True:
                try:
                    result = await self._execute(conn, statement)
                except CONFLICT as err:
                    conflict = Conflict(str(err))
                    conflict.__cause__ = err
                    void = True
                    # The transaction is void: the unit may only raise or return now.
                    statement = gen.throw(conflict)
                    gen.close()
                    raise RuntimeError(
                        "a unit went on with the database after Conflict; it may only raise "
                        "or return (the transaction is rolled back)"
                    ) from err
                statement = gen.send(result)
                if alone:
                    raise SecondStatement(f"one statement only: {statement!r}")
        except StopIteration as stop:
            return stop.value, void
        finally:
            gen.close()

    @staticmethod
    async def _execute(
        conn: asyncpg.Connection, statement: Statement
    ) -> list[Row] | int | None:
        if isinstance(statement, Fetch):
            rows = await conn.fetch(numbered(statement.sql), *_params(statement.params))
            return [_row(r) for r in rows]
        if isinstance(statement, Execute):
            status = await conn.execute(numbered(statement.sql), *_params(statement.params))
            return rowcount(status)
        if isinstance(statement, ExecuteMany):
            if statement.rows:
                await conn.executemany(numbered(statement.sql),
                                       [_params(row) for row in statement.rows])
            return None
        raise TypeError(f"a unit yielded {statement!r}, not Fetch, Execute or ExecuteMany")

    @staticmethod
    async def _rollback(tx: Transaction, conn: asyncpg.Connection) -> None:
        if _closed(conn):
            return
        try:
            await tx.rollback()
        except Exception:  # the connection died meanwhile: the server rolls back for us
            log.debug("rollback failed", exc_info=True)
            conn.terminate()

    async def close(self) -> None:
        """Close the pool, waiting briefly for borrowed connections to come back."""
        if self.changes is not None:
            await self.changes.close()
        try:
            await asyncio.wait_for(self._pool.close(), timeout=10)
        except TimeoutError:
            self._pool.terminate()


def describe(url: str) -> str:
    """Where a URL points, without its password: 'user@host:port/db'."""
    parts = urlsplit(url)
    user = f"{parts.username}@" if parts.username else ""
    port = f":{parts.port}" if parts.port else ""
    return f"{user}{parts.hostname or 'localhost'}{port}{parts.path or '/'}"


async def open_postgres(url: str, settings: PostgresSettings | None = None) -> PostgresDriver:
    """Connect to `url`, bring its schema up to date and return a driver on a new pool.

    Raises `PostgresUnreachable` if the server cannot be reached or refuses us, and
    `SchemaTooNew` if a newer bot has migrated the database.
    """
    settings = settings or PostgresSettings.from_env()
    try:
        conn = await asyncpg.connect(url, timeout=settings.connect_timeout,
                                     statement_cache_size=0,
                                     server_settings={"application_name": "tabletop-bot migrate"})
    except (*UNAVAILABLE, pgerr.InvalidAuthorizationSpecificationError,
            pgerr.InvalidCatalogNameError, pgerr.InvalidPasswordError) as err:
        raise PostgresUnreachable(
            f"cannot connect to PostgreSQL at {describe(url)}: {err or type(err).__name__}"
        ) from err
    try:
        await apply_pg_migrations(conn)
    finally:
        await conn.close()
    try:
        pool = await asyncpg.create_pool(
            url,
            min_size=settings.min_size,
            max_size=settings.max_size,
            statement_cache_size=settings.statement_cache_size,
            timeout=settings.connect_timeout,
            # Client-side guard for a silent network: a little longer than the server's own.
            command_timeout=settings.statement_timeout_ms / 1000 + 2
            if settings.statement_timeout_ms else None,
            server_settings=settings.session(url),
            reset=_keep_session,
        )
    except UNAVAILABLE as err:
        raise PostgresUnreachable(
            f"cannot connect to PostgreSQL at {describe(url)}: {err or type(err).__name__}"
        ) from err
    changes = ChangeListener(settings.listen_url or url, settings.connect_timeout)
    await changes.check()  # listening before the first table is read (else: deaf, logged)
    return PostgresDriver(pool, settings, changes)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A connection going back to the pool: units end their own transactions (asyncpg still
    rolls back one left open) and change nothing else in the session, so the round trip of
    asyncpg's default reset (RESET ALL, UNLISTEN *, ...) after every unit is saved."""


def available_pg() -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every PostgreSQL migration, in version order."""
    return available("postgresql")


async def apply_pg_migrations(conn: asyncpg.Connection, upto: int | None = None) -> list[int]:
    """Apply the missing migrations (up to version `upto`, if given), each in its own
    transaction, holding an advisory lock so that a second process starting at the same
    moment waits and then finds them done. A database still recorded in PostgreSQL's old
    numbering is renumbered first (`bot.storage.migrate.OLD_POSTGRES`). Returns the
    versions applied now."""
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        await _renumber(conn)
        done = {r["version"] for r in await conn.fetch("SELECT version FROM schema_version")}
        known = available_pg()
        newest = max((v for v, _, _ in known), default=0)
        if done and max(done) > newest:
            raise SchemaTooNew(
                f"the database is at schema version {max(done)}, newer than this bot's "
                f"{newest}: run the newer bot, or restore a backup"
            )
        applied = []
        for version, name, sql in known:
            if version in done or (upto is not None and version > upto):
                continue
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    version, name, datetime.now(UTC),
                )
            log.info("PostgreSQL migration %s applied", name)
            applied.append(version)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


async def _renumber(conn: asyncpg.Connection) -> None:
    """Record a database migrated under PostgreSQL's old numbering in the shared one."""
    recorded = [(r["version"], r["name"], r["applied_at"]) for r in await conn.fetch(
        "SELECT version, name, applied_at FROM schema_version ORDER BY version")]
    rows = renumbered(recorded)
    if rows is None:
        return
    async with conn.transaction():
        await conn.execute("DELETE FROM schema_version")
        await conn.executemany(
            "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)", rows)
    log.info("PostgreSQL migrations %s renumbered as %s", [v for v, _, _ in recorded],
             [v for v, _, _ in rows])


__all__ = [
    "PostgresDriver",
    "PostgresSettings",
    "PostgresUnreachable",
    "SchemaTooNew",
    "apply_pg_migrations",
    "describe",
    "numbered",
    "open_postgres",
    "rowcount",
]
