"""CPU work off the event loop: pictures, computer searches and replays in worker processes.

Pure Python holds the GIL, so threads would still slow every database round trip and every
answer to Discord; worker processes do not. Work goes in three lanes, each its own pool with
a bounded queue, so that a replay or a search never delays a board:

- `boards`: board and hand pictures (every move needs one);
- `search`: computer players' moves and hints;
- `background`: replays, exports and reviews (a full queue refuses at once: `Busy`).

`BOT_WORKERS=0` runs everything in threads instead (tests; tiny machines). The lanes are set
up by the bot (`install`); code that draws calls `run(lane, fn, *args)`, which falls back to
a thread when no pool is installed. `fn` and its arguments must be picklable plain data.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import weakref
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
LANES = ("boards", "search", "background")
PRELOAD = ["renderers", "engines", "engines.ai"]  # imported once by the fork server
THREAD_SLOTS = 2  # without processes: jobs at once per lane (more only fight for the GIL)


class Busy(Exception):
    """The lane's queue is full (background work only): try again later."""


@dataclass
class Lane:
    name: str
    processes: int  # 0: a thread per job
    queue_limit: int  # jobs waiting beyond those running
    refuse_when_full: bool
    executor: Executor | None = None
    waiting: int = 0
    running: int = 0

    def __post_init__(self) -> None:
        self._slots = asyncio.Semaphore(self.processes or THREAD_SLOTS)

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self.refuse_when_full and self.waiting >= self.queue_limit:
            raise Busy(self.name)
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        self.running += 1
        try:
            call = functools.partial(fn, *args, **kwargs)
            if self.executor is None:
                return await asyncio.to_thread(call)
            return await asyncio.get_running_loop().run_in_executor(self.executor, call)
        finally:
            self.running -= 1
            self._slots.release()


def _context() -> Any:
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


class Workers:
    """The three lanes. `processes`: workers for boards (default: the CPU count); searches
    and background work get one process each (more on bigger machines)."""

    def __init__(self, processes: int | None = None, queue_limit: int = 8) -> None:
        cores = os.cpu_count() or 1
        boards = cores if processes is None else processes
        others = 0 if boards == 0 else max(1, cores // 4)
        self.lanes = {
            "boards": Lane("boards", boards, 10_000, False),
            "search": Lane("search", others, 10_000, False),
            "background": Lane("background", others, queue_limit, True),
        }
        if boards:
            ctx = _context()
            for lane in self.lanes.values():
                lane.executor = ProcessPoolExecutor(lane.processes, mp_context=ctx)

    def lane(self, name: str) -> Lane:
        return self.lanes[name]

    def queue_lengths(self) -> dict[str, int]:
        """Jobs waiting (not yet running) per lane: for metrics."""
        return {name: lane.waiting for name, lane in self.lanes.items()}

    async def warm_up(self) -> None:
        """Start every worker process now, not on the first move."""
        for lane in self.lanes.values():
            if lane.executor is not None:
                await asyncio.gather(*(lane.run(os.getpid) for _ in range(lane.processes)))

    def close(self) -> None:
        for lane in self.lanes.values():
            if lane.executor is not None:
                lane.executor.shutdown(wait=False, cancel_futures=True)
                lane.executor = None


_installed: Workers | None = None
_fallback: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Workers] = (
    weakref.WeakKeyDictionary()
)


def install(workers: Workers | None) -> None:
    """Make `workers` the pools that `run` uses (None: threads)."""
    global _installed
    _installed = workers


def current() -> Workers:
    """The installed pools, else thread lanes (one set per event loop)."""
    if _installed is not None:
        return _installed
    loop = asyncio.get_running_loop()
    if loop not in _fallback:
        _fallback[loop] = Workers(processes=0)
    return _fallback[loop]


async def run(lane: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`fn(*args, **kwargs)` in that lane's workers; returns its result."""
    return await current().lane(lane).run(fn, *args, **kwargs)
