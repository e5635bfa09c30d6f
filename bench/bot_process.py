"""`python -m bot` as bench/load.py runs it: the bot of whatever tree is first on PYTHONPATH
(this checkout, or an older one to compare with), plus two measurements taken inside it:

- BENCH_LAG_FILE: the event loop's lag (how late a 50 ms sleep wakes up) and the CPU seconds
  Python's cycle collector has taken so far, appended once a second as lines
  "<time.monotonic()> <lag ms> <collector s>" (the monotonic clock is the machine's, so the
  bench can cut the samples by phase);
- BENCH_PROFILE: a cProfile of the bot process's main thread, in CPU time (time spent waiting
  is left out), written there when the bot stops (SIGTERM).

Arguments are `python -m bot`'s."""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import gc
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

# seconds. Each wake-up of an idle loop costs about 0.14 ms of CPU on a 2-core VM: sampling
# every 10 ms cost the bot ~15 ms of CPU a second (0.25 ms a move at 60 moves/s), which the
# figures then blamed on the bot; every 50 ms still gives 1,000 samples a minute.
LAG_PERIOD = 0.05


def collector_clock() -> Callable[[], float]:
    """A function telling the CPU seconds the cycle collector has taken so far (in any
    thread): it stops the world, so it is counted apart from the rest of the bot's work."""
    spent = [0.0]
    started: dict[int, float] = {}

    def collecting(phase: str, info: dict[str, int]) -> None:
        now = time.thread_time()
        if phase == "start":
            started[threading.get_ident()] = now
        else:
            spent[0] += now - started.pop(threading.get_ident(), now)

    gc.callbacks.append(collecting)
    return lambda: spent[0]


async def sample_lag(path: str, collector: Callable[[], float]) -> None:
    lines: list[str] = []
    flushed = time.monotonic()
    while True:
        start = time.perf_counter()
        await asyncio.sleep(LAG_PERIOD)
        late = max(0.0, time.perf_counter() - start - LAG_PERIOD) * 1000
        lines.append(f"{time.monotonic():.4f} {late:.2f} {collector():.4f}\n")
        if time.monotonic() - flushed >= 1.0:
            with open(path, "a", encoding="ascii") as file:
                file.writelines(lines)
            lines.clear()
            flushed = time.monotonic()


def main() -> int:
    # Not this folder (its engines.py would shadow the engines package): the tree under test.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    import bot.__main__ as entry

    # `serve` lives in bot/launch.py, in an older tree (a baseline) in bot/__main__.py. Asked
    # by file: importing bot.launch in an older tree would find this checkout's (installed).
    starter: Any = entry
    if os.path.exists(os.path.join(os.path.dirname(entry.__file__), "launch.py")):
        import bot.launch as starter
    print(f"bench: bot code from {os.path.dirname(entry.__file__)}", file=sys.stderr, flush=True)
    serve = starter.serve
    lag_file = os.environ.get("BENCH_LAG_FILE")
    collector = collector_clock()

    async def measured_serve(bot: Any, token: str) -> None:
        sampler = asyncio.create_task(sample_lag(lag_file, collector)) if lag_file else None
        try:
            await serve(bot, token)
        finally:
            if sampler is not None:
                sampler.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sampler

    starter.serve = measured_serve
    profile_path = os.environ.get("BENCH_PROFILE")
    if not profile_path:
        return entry.main(sys.argv[1:])
    profile = cProfile.Profile(time.thread_time)
    profile.enable()
    try:
        return entry.main(sys.argv[1:])
    finally:
        profile.disable()
        profile.dump_stats(profile_path)


if __name__ == "__main__":
    sys.exit(main())
