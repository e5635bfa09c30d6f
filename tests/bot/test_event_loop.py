"""The event loop of `python -m bot`: uvloop's where it is installed, asyncio's with
BOT_UVLOOP=0 or without uvloop; and the worker pools on uvloop, where a picture-sized answer
and argument must cross the pipe whole (libuv makes a watched descriptor non-blocking, which
once turned every board into "worker died")."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys

import pytest

from bot.__main__ import run
from bot.workers import Workers

HAS_UVLOOP = importlib.util.find_spec("uvloop") is not None


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
