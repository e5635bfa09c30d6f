"""The worker pools on uvloop's event loop (what `python -m bot` runs on where uvloop is
installed): a picture-sized answer and argument cross the pipe whole. libuv makes a watched
descriptor non-blocking, which once turned every board into "worker died"."""

from __future__ import annotations

import asyncio
import os

import pytest

from bot.workers import Workers

uvloop = pytest.importorskip("uvloop")


def test_big_answers_and_arguments_cross_the_pipe_on_uvloop() -> None:
    picture = os.urandom(3 << 20)  # a few MB, far beyond a pipe's buffer

    async def main() -> None:
        pools = Workers(processes=1)
        try:
            lane = pools.lane("boards")
            assert await lane.run(bytes, picture) == picture  # there and back
            assert await lane.run(len, picture) == len(picture)
            assert await lane.run(os.urandom, 1 << 20) != b""
        finally:
            pools.close()

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main())
