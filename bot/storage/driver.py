"""Units of work, written once, run by either backend's driver.

A *unit* is a generator function that yields statements and receives their results; a driver
runs the whole unit as one transaction (all or nothing). Writing every query this way keeps
the SQL and the logic of the repositories in one place for both backends:

- SQLite (`bot.storage.sqlite`): the unit runs synchronously on the connection's database
  thread, so a whole move is one short trip there and nothing waits on a Python lock.
- PostgreSQL (`bot.storage.postgres`): the unit runs on one pooled asyncpg connection inside
  a transaction; each statement is one round trip.

A unit of one statement (`one_statement`) is atomic by itself: the drivers run it without a
transaction of its own, which on PostgreSQL saves the BEGIN and COMMIT round trips.

Statements use `?` placeholders (the PostgreSQL driver numbers them `$1, $2, ...`). Parameters
and results: integers, floats, text, None and aware `datetime`s (SQLite stores them as fixed
width UTC ISO text; read them back with `as_time`). Booleans are stored as integers 0/1.
Rows come back as dicts keyed by column name (`Row`).
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar, overload

T = TypeVar("T")
R = TypeVar("R")

# A row as a driver returns it: column name -> integer, float, text, None or datetime. The
# one loosely typed value of storage: repositories turn rows into their dataclasses.
Row = dict[str, Any]
# A JSON object as stored in a TEXT column (a table's options and outcome).
JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]
Json = dict[str, JsonValue]
# A statement's parameters: integers, floats, text, None, datetimes and bools.
Params = Sequence[object]


# Whether the player behind this work has been answered already (a deferred move, a timer):
# then a busy PostgreSQL pool is queued for (`answered_wait`) instead of refused at once.
_answered: ContextVar[bool] = ContextVar("storage_answered", default=False)


@contextmanager
def player_answered() -> Iterator[None]:
    """Within this block the work may wait longer for a connection: nobody is waiting for
    Discord's 3-second answer, and a refusal would be worse than a late board."""
    token = _answered.set(True)
    try:
        yield
    finally:
        _answered.reset(token)


def note_player_answered() -> None:
    """The interaction behind this task has been acknowledged: `player_answered` holds for
    the rest of the task (each interaction is handled in a task of its own)."""
    _answered.set(True)


def is_player_answered() -> bool:
    return _answered.get()


@dataclass(frozen=True)
class Fetch:
    """A query: the unit receives `list[dict]` of its rows."""

    sql: str
    params: Params = ()


@dataclass(frozen=True)
class Execute:
    """A statement: the unit receives the number of rows it changed."""

    sql: str
    params: Params = ()


@dataclass(frozen=True)
class ExecuteMany:
    """One statement for each parameter row: the unit receives None."""

    sql: str
    rows: Sequence[Params]


Statement = Fetch | Execute | ExecuteMany
# What a unit receives for each statement (list[Row], int or None) depends on the statement,
# which a generator's type cannot say: the unit takes them untyped.
Unit = Generator[Statement, Any, T]


class Conflict(Exception):
    """A statement broke a unique or primary key (another writer got there first). The
    driver throws it into the unit at the failing `yield`; the transaction is then void, so
    the unit may only translate it into its own exception (or let it pass)."""


class Unavailable(Exception):
    """The database could not do the work now (locked, disk full, read-only, gone):
    nothing was changed. `cause` is the driver's own exception."""


class Saturated(Unavailable):
    """Every connection was in use for longer than the work could wait (a burst): the
    database itself is up, so this is refused like an outage but is not one."""


def not_durable(unit: Callable[..., Unit[T]]) -> Callable[..., Unit[T]]:
    """Mark a write whose loss in a power cut costs nothing visible (a board marked posted is
    posted again): SQLite commits it without waiting for the disk."""
    unit.durable = False  # type: ignore[attr-defined]
    return unit


def one_statement(unit: Callable[..., Unit[T]]) -> Callable[..., Unit[T]]:
    """Mark a unit that runs exactly one statement (a board marked posted, one query): the
    drivers run it in autocommit, without BEGIN and COMMIT. A marked unit that yields a
    second statement gets `SecondStatement` before that statement runs."""
    unit.one_statement = True  # type: ignore[attr-defined]
    return unit


class SecondStatement(RuntimeError):
    """A unit marked `one_statement` yielded another statement (a bug in the unit)."""


def read_only(unit: Callable[..., Unit[T]]) -> Callable[..., Unit[T]]:
    """Mark a unit that only reads: SQLite runs it without taking the write lock, so in WAL
    mode it answers at once even while another connection holds the database locked."""
    unit.read_only = True  # type: ignore[attr-defined]
    return unit


class TableWatcher(Protocol):
    def table_changed(self, table_id: int, ply: int, status: str) -> None:
        """A process (perhaps this one) committed a change: the table is now at `ply`."""

    def lost_track(self) -> None:
        """Changes may have gone unheard: forget every table held."""


class ChangeFeed(Protocol):
    """Tables changed by any process of a cluster (bot/storage/changes.py)."""

    hearing: bool  # False: changes may go unheard now, so copies in memory are not current

    def add(self, watcher: TableWatcher) -> None: ...

    async def check(self) -> bool:
        """Listen again if the connection was lost, else make sure it answers; whether
        changes are heard now (called every few seconds by the sweeper)."""
        ...


class Driver(Protocol):
    dialect: str  # "sqlite" or "postgresql"

    @property
    def changes(self) -> ChangeFeed | None:
        """None: this process is the database's only writer (SQLite), its copies current."""

    async def run(self, unit: Callable[..., Unit[T]], *args: object) -> T:
        """Run `unit(*args)` as one transaction and return what it returns."""
        ...

    async def close(self) -> None: ...


@overload
def as_time(value: str | datetime) -> datetime: ...
@overload
def as_time(value: None) -> None: ...
def as_time(value: str | datetime | None) -> datetime | None:
    """A stored time as an aware UTC datetime (SQLite keeps text, PostgreSQL timestamptz)."""
    if value is None or isinstance(value, datetime):
        return value.astimezone(UTC) if value is not None else None
    return datetime.fromisoformat(value)


def from_row(cls: type[R], row: Mapping[str, object], **values: object) -> R:
    """The dataclass `cls` from a row: every field not given in `values` is the column of its
    name (a column not selected: the field's default), times read with `as_time` and flags
    (stored as 0/1) as bools."""
    for name, read in _readers(cls):  # type: ignore[arg-type]  # a class is hashable
        if name not in values and name in row:
            values[name] = read(row[name]) if read is not None else row[name]
    return cls(**values)


_Reader = Callable[[object], object]  # _time or bool: what a stored value is read with


def _time(value: object) -> datetime | None:
    """`as_time` of a stored time column."""
    if value is None or isinstance(value, str | datetime):
        return as_time(value)
    raise TypeError(f"not a stored time: {value!r}")


@functools.cache
def _readers(cls: type) -> tuple[tuple[str, _Reader | None], ...]:
    """Per field of `cls`: its name and how its column is read (None: as it comes)."""
    hints = typing.get_type_hints(cls, localns={"JsonValue": JsonValue})  # it names itself
    readers: list[tuple[str, _Reader | None]] = []
    for field in fields(cls):
        hint = hints[field.name]
        kinds = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        read = _time if datetime in kinds else bool if bool in kinds else None
        readers.append((field.name, read))
    return tuple(readers)


def stamp(at: datetime) -> str:
    """A time as SQLite stores it: UTC, fixed width, so text order is time order."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")
