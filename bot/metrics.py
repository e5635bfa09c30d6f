"""Optional Prometheus metrics (`prometheus-client`), served on BOT_METRICS_PORT.

Without the variable (or without the package) every function here does nothing, so the
rest of the bot calls them freely. Exposed: moves made, interaction answer latency, board
post latency, errors by kind, interactions refused during outages by cause, open tables
(lobbies and running, refreshed by the sweeper), and the worker lanes' queue lengths (bot.workers).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING

from bot import workers

if TYPE_CHECKING:
    from prometheus_client import Counter, Gauge, Histogram

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Metrics:
    moves: Counter
    answer: Histogram
    board: Histogram
    errors: Counter
    refused: Counter
    tables: Gauge
    queue: Gauge


_metrics: _Metrics | None = None  # None: metrics are off
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)


def port_from_env(environ: dict[str, str] | None = None) -> int | None:
    """BOT_METRICS_PORT as a port number, None when unset; ValueError when not a port."""
    raw = ((os.environ if environ is None else environ).get("BOT_METRICS_PORT") or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise ValueError("BOT_METRICS_PORT must be a port number (1-65535)")
    return int(raw)


def start(port: int, address: str = "0.0.0.0") -> bool:  # noqa: S104  (inside a container)
    """Create the metrics and serve them on `port`; False if prometheus-client is missing."""
    try:
        import prometheus_client as prom
    except ImportError:
        log.warning("BOT_METRICS_PORT is set but prometheus-client is not installed")
        return False
    global _metrics
    if _metrics is None:
        _metrics = _Metrics(
            moves=prom.Counter("bot_moves", "Moves committed (players, computers, deadlines)"),
            answer=prom.Histogram("bot_answer_seconds", "Time to answer an interaction",
                                  buckets=LATENCY_BUCKETS),
            board=prom.Histogram("bot_board_seconds", "Time from a move to its posted board",
                                 buckets=LATENCY_BUCKETS),
            errors=prom.Counter("bot_errors", "Failures by kind", ["kind"]),
            refused=prom.Counter("bot_refused_interactions",
                                 "Interactions refused during an outage, by cause", ["cause"]),
            tables=prom.Gauge("bot_open_tables", "Lobbies and running tables", ["status"]),
            queue=prom.Gauge("bot_worker_queue", "Jobs waiting per worker lane", ["lane"]),
        )
        for lane in workers.LANES:
            _metrics.queue.labels(lane).set_function(partial(_queue_length, workers, lane))
    prom.start_http_server(port, addr=address)
    log.info("metrics on :%s/metrics", port)
    return True


def _queue_length(workers: ModuleType, lane: str) -> float:
    try:
        return float(workers.current().queue_lengths().get(lane, 0))
    except RuntimeError:  # no event loop in the metrics thread and no pools installed
        return 0.0


def enabled() -> bool:
    return _metrics is not None


def move(count: int = 1) -> None:
    if _metrics is not None:
        _metrics.moves.inc(count)


def answered(seconds: float) -> None:
    if _metrics is not None:
        _metrics.answer.observe(seconds)


def board_posted(seconds: float) -> None:
    if _metrics is not None:
        _metrics.board.observe(seconds)


def error(kind: str) -> None:
    if _metrics is not None:
        _metrics.errors.labels(kind).inc()


def refused(cause: str) -> None:
    """An interaction refused because `cause` ("database", "discord") is unavailable."""
    if _metrics is not None:
        _metrics.refused.labels(cause).inc()


def open_tables(counts: dict[str, int]) -> None:
    if _metrics is not None:
        for status, count in counts.items():
            _metrics.tables.labels(status).set(count)
