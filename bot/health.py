"""Outages seen from outside, logged once: the database or Discord stops answering.

A `Health` follows one dependency ("database", "discord"). Its first failure logs one
warning with the cause; failures while it is down, and the interactions refused meanwhile,
are only counted (and the refusals exported as a metric by cause); the first success after
that logs one info line with the outage's length and how many interactions were refused. No
traceback is logged for an expected outage: callers that catch `Unavailable` (the sweeper,
the deadline watcher) leave the telling to the Health.

asyncpg's pool logs "Failed to restore the pool connection floor" with a traceback every
couple of seconds while PostgreSQL is down: `AsyncpgNoise`, a filter on that logger, turns
the first into the database's outage warning and keeps the rest below warning (debug).
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from bot import metrics

log = logging.getLogger(__name__)

ASYNCPG_POOL_LOGGER = "asyncpg.pool"


def describe(cause: BaseException | str) -> str:
    """The cause in one line: the innermost exception's type and message."""
    if isinstance(cause, str):
        return cause
    inner: BaseException = cause
    while inner.__cause__ is not None:
        inner = inner.__cause__
    text = str(inner).strip().splitlines()[0] if str(inner).strip() else ""
    return f"{type(inner).__name__}: {text}" if text else type(inner).__name__


class Health:
    """Up or down, for one dependency; `clock` gives seconds (monotonic by default)."""

    def __init__(self, name: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.clock = clock
        self.down_since: float | None = None
        self.refusals = 0
        self.failures = 0
        self.reads_failed = False  # else only writes fail (read-only or locked SQLite)

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def failed(self, cause: BaseException | str, write: bool = True) -> bool:
        """A call failed for an outage; True when this starts one (and was logged).
        `write`: the call wrote (reads that still work then do not end the outage)."""
        self.failures += 1
        self.reads_failed = self.reads_failed or not write
        if self.down_since is not None:
            log.debug("%s still unavailable: %s", self.name, describe(cause))
            return False
        self.down_since = self.clock()
        self.refusals = 0
        log.warning("%s unavailable: %s", self.name, describe(cause))
        return True

    def refused(self, cause: BaseException | str | None = None) -> None:
        """An interaction was refused because of this outage."""
        if cause is not None:
            self.failed(cause)
        self.refusals += 1
        metrics.refused(self.name)

    def ok(self, write: bool = True) -> None:
        """A call succeeded: the end of an outage, if there was one (a read ends only an
        outage in which reads failed too)."""
        if self.down_since is None or (not write and not self.reads_failed):
            return
        length = max(0.0, self.clock() - self.down_since)
        refused, self.down_since, self.refusals, self.failures = self.refusals, None, 0, 0
        self.reads_failed = False
        log.info("%s available again after %.0f s; %d interaction(s) refused meanwhile",
                 self.name, length, refused)


@dataclass(frozen=True)
class Outages:
    """The bot's dependencies whose outages are told once: its database and Discord."""

    database: Health
    discord: Health

    def of(self, kind: str) -> Health:
        return self.database if kind == "database" else self.discord


def discord_failing(error: BaseException) -> bool:
    """Whether a Discord error is Discord failing (5xx, a 429 beyond discord.py's retries,
    no answer) rather than a refusal of this request (403, 404, 400)."""
    status = getattr(error, "status", None)
    return not isinstance(status, int) or status >= 500 or status == 429


class AsyncpgNoise(logging.Filter):
    """On asyncpg's pool logger: its reconnect warnings (with tracebacks) become the watched
    databases' outage (one warning, ours) and are dropped, re-logged here at debug."""

    def __init__(self) -> None:
        super().__init__()
        self._watched: weakref.WeakSet[Health] = weakref.WeakSet()

    def watch(self, health: Health) -> None:
        self._watched.add(health)

    def forget(self, health: Health) -> None:
        self._watched.discard(health)

    def filter(self, record: logging.LogRecord) -> bool:
        watched = list(self._watched)
        if not watched or record.levelno > logging.WARNING or not record.exc_info or \
                record.exc_info[1] is None:
            return True  # not a reconnect failure (a slow close, an error): as it comes
        cause = record.exc_info[1]
        for health in watched:
            health.failed(cause, write=False)  # no connection: reads fail as well
        log.debug("asyncpg: %s (%s)", record.getMessage(), describe(cause))
        return False


_noise = AsyncpgNoise()
logging.getLogger(ASYNCPG_POOL_LOGGER).addFilter(_noise)


def watch_asyncpg(health: Health) -> None:
    """Let asyncpg's pool noise count as `health`'s outage (see AsyncpgNoise)."""
    _noise.watch(health)


def forget_asyncpg(health: Health) -> None:
    _noise.forget(health)


# The exception of an outage: bot.storage.Unavailable, given by `quiet_outage_tracebacks`
# (bot.storage reports to this module, so this module does not import it).
_OUTAGES: list[type[BaseException]] = []


def is_outage(error: BaseException | None) -> bool:
    """Whether `error` (or what caused it) is the database being unavailable."""
    kinds = tuple(_OUTAGES)
    seen = 0
    while kinds and error is not None and seen < 10:
        if isinstance(error, kinds):
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False


class OutageTracebacks(logging.Filter):
    """On the bot's loggers: a traceback logged for an expected outage (the database
    unavailable; its Health has warned once) is dropped, and said again at debug."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None and \
                is_outage(record.exc_info[1]):
            log.debug("%s: %s (%s)", record.name, record.getMessage(),
                      describe(record.exc_info[1]))
            return False
        return True


_tracebacks = OutageTracebacks()


def quiet_outage_tracebacks(unavailable: type[BaseException], prefix: str = "bot") -> None:
    """Put `OutageTracebacks` on every logger of the `prefix` package created so far (call it
    once the bot's modules are imported; a logger's filter only sees its own records)."""
    if unavailable not in _OUTAGES:
        _OUTAGES.append(unavailable)
    names = [name for name in logging.root.manager.loggerDict
             if name == prefix or name.startswith(prefix + ".")]
    for name in names:
        logger = logging.getLogger(name)
        if _tracebacks not in logger.filters:
            logger.addFilter(_tracebacks)
