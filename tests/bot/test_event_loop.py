"""The event loop of `python -m bot`: uvloop's where it is installed, asyncio's with
BOT_UVLOOP=0 or without uvloop; the worker pools on uvloop, where a picture-sized answer
and argument must cross the pipe whole (libuv makes a watched descriptor non-blocking, which
once turned every board into "worker died"); and the cycle collector of the bot and of its
workers, whose full collections (the event loop stopped meanwhile) come rarely."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import os
import sys
from collections.abc import Iterator

import pytest

from bot import collector
from bot.launch import run
from bot.workers import Workers

HAS_UVLOOP = importlib.util.find_spec("uvloop") is not None
PYTHONS_OWN = (700, 10, 10)  # the collector's thresholds as Python starts


@pytest.fixture(autouse=True)
def collector_as_python_starts() -> Iterator[None]:
    """`run` sets the collector for the process: the tests' process gets it back after."""
    saved = gc.get_threshold()
    gc.set_threshold(*PYTHONS_OWN)
    yield
    gc.set_threshold(*saved)


async def loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__.split(".")[0]


def test_uvloop_when_installed_else_asyncio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOT_UVLOOP", raising=False)
    assert run(loop_module()) == ("uvloop" if HAS_UVLOOP else "asyncio")
    monkeypatch.setenv("BOT_UVLOOP", "0")
    assert run(loop_module()) == "asyncio"
    monkeypatch.delenv("BOT_UVLOOP")
    monkeypatch.setitem(sys.modules, "uvloop", None)  # not installed: import fails
    assert run(loop_module()) == "asyncio"


@pytest.mark.skipif(not HAS_UVLOOP, reason="uvloop is not installed")
def test_big_answers_and_arguments_cross_the_pipe_on_uvloop() -> None:
    import uvloop

    picture = os.urandom(3 << 20)  # a few MB, far beyond a pipe's buffer

    async def main() -> None:
        pools = Workers(processes=1)
        try:
            lane = pools.lane("boards")
            assert await lane.run(bytes, picture) == picture  # there and back
            assert await lane.run(len, picture) == len(picture)
            assert len(await lane.run(os.urandom, 1 << 20)) == 1 << 20
        finally:
            pools.close()

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main())


async def collector_thresholds() -> tuple[int, int, int]:
    return gc.get_threshold()


def test_the_bot_collects_its_youngest_and_oldest_objects_rarely() -> None:
    assert run(collector_thresholds()) == (collector.YOUNG_AFTER, 10, collector.FULL_AFTER)
    assert collector.YOUNG_AFTER > PYTHONS_OWN[0] and collector.FULL_AFTER > PYTHONS_OWN[2]


def test_picture_workers_collect_their_oldest_objects_rarely() -> None:
    async def main() -> tuple[int, int, int]:
        pools = Workers(processes=1)
        try:
            return await pools.lane("boards").run(gc.get_threshold)
        finally:
            pools.close()

    assert run(main()) == (collector.YOUNG_AFTER, 10, collector.FULL_AFTER)
