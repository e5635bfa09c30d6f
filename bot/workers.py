"""CPU work off the event loop: pictures, computer searches and replays in worker processes.

Pure Python holds the GIL, so threads would still slow every database round trip and every
answer to Discord; worker processes do not. Work goes in three lanes, each its own pool with
a bounded queue, so that a replay or a search never delays a board:

- `boards`: board and hand pictures (every move needs one);
- `search`: computer players' moves and hints;
- `background`: replays, exports and reviews (a full queue refuses at once: `Busy`).

The bot starts every worker process and has each run a warm-up job (bot/warmup.py: fonts,
engines, renderers) in `setup_hook`, before it connects, so the first board after a restart
is drawn as fast as any other.

`BOT_WORKERS=0` runs everything in threads instead (tests; tiny machines). The lanes are set
up by the bot (`install`); code that draws calls `run(lane, fn, *args)`, which falls back to
a thread when no pool is installed. `fn` and its arguments must be picklable plain data,
and `fn` must live in a module that does not import discord.py (a feature's `pictures.py`,
the engines, the renderers): a worker imports `fn`'s module to run it, and discord.py with
aiohttp would cost every worker process tens of MB it never uses.

A worker process knows the built-in games by itself; every job also carries the games
registered in the bot's process (their `GameSpec`s, plain data: engines/registry.py), which
the worker registers before running it, so a game added at run time draws and thinks there
too.

The pools are not `concurrent.futures.ProcessPoolExecutor`: that one moves every job through
two helper threads (a manager and a queue feeder), and each hand-over of the GIL between them
and the event loop cost the loop milliseconds under load. Here the event loop itself writes a
job down a worker's pipe and reads the answer when the pipe is readable (`add_reader`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import os
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, ParamSpec, TypeVar, cast

from bot import collector
from engines import registry

if TYPE_CHECKING:
    from multiprocessing.context import ForkServerContext, SpawnContext

log = logging.getLogger(__name__)

T = TypeVar("T")
P = ParamSpec("P")
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
    executor: ProcessPool | None = None
    waiting: int = 0
    running: int = 0

    def __post_init__(self) -> None:
        self._slots = asyncio.Semaphore(self.processes or THREAD_SLOTS)

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        if self.refuse_when_full and self.waiting >= self.queue_limit:
            raise Busy(self.name)
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        self.running += 1
        try:
            if self.executor is None:
                return await asyncio.to_thread(fn, *args, **kwargs)
            return await self.executor.run(fn, args, kwargs)
        finally:
            self.running -= 1
            self._slots.release()


class WorkerDied(Exception):
    """The worker process running the job ended (killed, out of memory) before answering."""


def _serve(conn: Connection) -> None:
    """A worker process: run each job read from `conn` (with the games registered where it
    was sent), answer (True, result) or (False, exception), until the bot closes its end."""
    collector.tune()
    while True:
        try:
            games, fn, args, kwargs = conn.recv()
        except (EOFError, OSError):
            return
        try:
            registry.sync(games)
            answer: tuple[bool, object] = (True, fn(*args, **kwargs))
        except Exception as err:  # noqa: BLE001  (the caller gets it)
            answer = (False, err)
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return
        except Exception as err:  # noqa: BLE001  (an answer that does not pickle)
            conn.send((False, RuntimeError(f"{fn.__name__}: unpicklable answer ({err})")))


class _Worker:
    def __init__(self, ctx: ForkServerContext | SpawnContext) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_serve, args=(child,), daemon=True,
                                   name="bot-worker")
        self.process.start()
        child.close()
        self.future: asyncio.Future[object] | None = None


class ProcessPool:
    """`processes` worker processes, each running one job at a time, driven by the event
    loop (jobs wait for a free worker in order)."""

    def __init__(self, processes: int, ctx: ForkServerContext | SpawnContext) -> None:
        self.processes = processes
        self._ctx = ctx
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.warmed: set[int] = set()  # pids of the workers that ran the warm-up job

    async def warm(self, fn: Callable[[], int]) -> int:
        """Start every worker and have each run `fn` (a warm-up returning its pid) once; a
        worker is busy until it answers, so `processes` jobs at once reach every one of
        them. Returns how many workers are warm."""
        self._start()
        pids = await asyncio.gather(*(self.run(fn, (), {}) for _ in range(self.processes)))
        self.warmed.update(pids)
        return len(self.warmed & {w.process.pid for w in self._workers})

    def _start(self) -> asyncio.Queue[_Worker]:
        if self._idle is None:
            self._loop = asyncio.get_running_loop()
            # Last in, first out: at a moderate rate one worker takes most jobs, its caches
            # (layers, palette, fonts, the CPU's own) warm; the others wait for bursts.
            self._idle = asyncio.LifoQueue()
            for _ in range(self.processes):
                self._idle.put_nowait(self._spawn())
        return self._idle

    def _spawn(self) -> _Worker:
        worker = _Worker(self._ctx)
        self._workers.append(worker)
        assert self._loop is not None
        self._loop.add_reader(worker.conn.fileno(), self._answered, worker)
        # uvloop (libuv) makes a watched descriptor non-blocking, and then reading an answer
        # bigger than the pipe's buffer fails half-way: the pipe is only read once readable,
        # and a whole answer is read at once, as on asyncio's own loop.
        os.set_blocking(worker.conn.fileno(), True)
        return worker

    async def run(self, fn: Callable[..., T], args: tuple[object, ...],
                  kwargs: dict[str, object]) -> T:
        idle = self._start()
        while True:
            worker = await idle.get()
            if worker not in self._workers:  # its process died while idle: already replaced
                continue
            future = worker.future = asyncio.get_running_loop().create_future()
            try:
                worker.conn.send((registry.registered(), fn, args, kwargs))
            except (BrokenPipeError, ConnectionResetError):  # died while idle, not yet seen
                worker.future = None
                self._replace(worker)
                continue
            except Exception:
                worker.future = None
                idle.put_nowait(worker)
                raise
            # what fn returned; cancelled: the worker still finishes, then is free again
            return cast(T, await future)

    def _answered(self, worker: _Worker) -> None:
        if worker not in self._workers:  # retired already (its pipe broke on a send)
            return
        future, worker.future = worker.future, None
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):  # the process died: a new one takes its place
            self._replace(worker)
            if future is not None and not future.done():
                future.set_exception(WorkerDied(f"worker {worker.process.pid} died"))
            return
        if future is not None and not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        assert self._idle is not None
        self._idle.put_nowait(worker)

    def _replace(self, worker: _Worker) -> None:
        self._retire(worker)
        if self._idle is not None:
            self._idle.put_nowait(self._spawn())

    def _retire(self, worker: _Worker) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()
        self._workers.remove(worker)

    def close(self) -> None:
        """Stop taking jobs; each worker exits once its current job is done."""
        for worker in list(self._workers):
            self._retire(worker)
            if worker.future is not None and not worker.future.done():
                worker.future.cancel()
        self._idle = None


def _context() -> ForkServerContext | SpawnContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


CPU_MAX = "/sys/fs/cgroup/cpu.max"  # a container's CPU limit (cgroup v2): "quota period"


def usable_cores(cpu_max: str = CPU_MAX) -> int:
    """The cores this process may use: those it may run on (CPU affinity), fewer under a
    container's CPU limit (`docker run --cpus 2`: 2)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    try:
        with open(cpu_max, encoding="ascii") as file:
            quota, period = file.read().split()[:2]
        if quota != "max":
            cores = min(cores, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        pass
    return max(1, cores)


def lane_sizes(boards: int | None, *, cores: int, processes_here: int = 1) -> dict[str, int]:
    """Worker processes per lane for one bot process out of `processes_here` on a machine of
    `cores` cores: each gets an equal share of the cores (at least one) for its boards, and a
    quarter of its share (at least one) for searches and for background work, so that the
    cluster's busy workers together roughly fill the machine rather than fight over it.
    `boards` (BOT_WORKERS) overrides the share for boards; 0 runs everything in threads."""
    share = max(1, cores // max(1, processes_here))
    boards = share if boards is None else boards
    others = 0 if boards == 0 else max(1, share // 4)
    return {"boards": boards, "search": others, "background": others}


class Workers:
    """The three lanes. `processes`: workers for boards (default: this process's share of the
    cores, `lane_sizes`); searches and background work get one process each (more on bigger
    machines). `processes_here`: bot processes sharing the machine's cores."""

    def __init__(self, processes: int | None = None, queue_limit: int = 8, *,
                 processes_here: int = 1) -> None:
        cores = usable_cores()
        sizes = lane_sizes(processes, cores=cores, processes_here=processes_here)
        boards = sizes["boards"]
        if boards:
            log.info("worker processes: %d for boards, %d for searches, %d for background "
                     "work (%d cores, %d bot process(es) sharing them)", boards,
                     sizes["search"], sizes["background"], cores, processes_here)
        self.lanes = {
            "boards": Lane("boards", boards, 10_000, False),
            "search": Lane("search", sizes["search"], 10_000, False),
            "background": Lane("background", sizes["background"], queue_limit, True),
        }
        if boards:
            ctx = _context()
            for lane in self.lanes.values():
                lane.executor = ProcessPool(lane.processes, ctx)

    def lane(self, name: str) -> Lane:
        return self.lanes[name]

    async def warm(self, fn: Callable[[], int]) -> dict[str, int]:
        """Start the worker processes of every lane and run the warm-up `fn` once in each
        (bot/warmup.py), all lanes at once; returns the warm workers per lane (none without
        processes: threads share the bot's own, already imported, modules)."""
        pools = {name: lane.executor for name, lane in self.lanes.items()
                 if lane.executor is not None}
        counts = await asyncio.gather(*(pool.warm(fn) for pool in pools.values()))
        return dict(zip(pools, counts, strict=True))

    def queue_lengths(self) -> dict[str, int]:
        """Jobs waiting (not yet running) per lane: for metrics."""
        return {name: lane.waiting for name, lane in self.lanes.items()}

    def close(self) -> None:
        for lane in self.lanes.values():
            if lane.executor is not None:
                lane.executor.close()
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


async def run(lane: str, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` in that lane's workers; returns its result."""
    return await current().lane(lane).run(fn, *args, **kwargs)
