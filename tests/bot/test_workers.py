"""The worker processes that draw pictures and think for computer players (bot/workers.py):
a job's error reaches the caller, a worker that dies (killed, out of memory) costs its own job
only: a new process takes its place for the next ones; and a game registered in the bot's
process draws and thinks in the workers too."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

import renderers
from bot.features.guide.rules import example_picture
from bot.features.puzzles.pictures import puzzle_png
from bot.features.review.pictures import evaluation_png
from bot.features.table.pictures import render_board, render_hand_png
from bot.features.tournaments.pictures import localised
from bot.tables import thinking
from bot.workers import Lane, WorkerDied, Workers
from engines import game_ids, get_engine, registry
from engines.ai import choose_move
from engines.ai.review import review
from renderers import gallery, tournament
from tests.helpers import nim
from tests.helpers.modules import loaded
from tests.helpers.puzzles import senet_puzzle


async def test_a_job_s_answer_and_error_come_back_from_the_worker_process() -> None:
    pools = Workers(processes=1)
    try:
        lane = pools.lane("boards")
        assert await lane.run(os.getpid) != os.getpid()  # another process
        assert await lane.run(divmod, 17, 5) == (3, 2)
        with pytest.raises(ValueError, match="invalid literal"):
            await lane.run(int, "seven")
        assert await lane.run(max, [3, 9, 4]) == 9  # the worker survived the error
    finally:
        pools.close()


async def test_jobs_one_at_a_time_stay_on_one_warm_worker() -> None:
    """At a moderate rate (one job at a time) the same worker takes every job, its caches
    warm; a second job at once goes to the other worker."""
    pools = Workers(processes=2)
    try:
        lane = pools.lane("boards")
        await pools.warm(os.getpid)  # both started
        one_by_one = {await lane.run(os.getpid) for _ in range(6)}
        assert len(one_by_one) == 1
        together = await asyncio.gather(lane.run(time.sleep, 0.2), lane.run(os.getpid))
        assert together[1] not in one_by_one  # the warm one was busy
    finally:
        pools.close()


@pytest.fixture
async def one_worker() -> AsyncIterator[Lane]:
    """The boards lane with a single worker process."""
    pools = Workers(processes=1)
    try:
        yield pools.lane("boards")
    finally:
        pools.close()


async def test_a_killed_worker_fails_its_job_and_is_replaced(one_worker: Lane) -> None:
    first = await one_worker.run(os.getpid)
    stuck = asyncio.create_task(one_worker.run(time.sleep, 30))
    await asyncio.sleep(0.2)  # the job has reached the worker
    os.kill(first, signal.SIGKILL)
    with pytest.raises(WorkerDied):
        await asyncio.wait_for(stuck, 10)
    second = await asyncio.wait_for(one_worker.run(os.getpid), 20)
    assert second not in (first, os.getpid())


async def test_a_worker_killed_while_idle_is_replaced_before_the_next_job(
    one_worker: Lane,
) -> None:
    first = await one_worker.run(os.getpid)
    os.kill(first, signal.SIGKILL)  # nothing running: the pipe closes while it waits
    pool = one_worker.executor
    assert pool is not None
    for _ in range(400):  # until the pool has seen the pipe close (a new process started)
        if all(w.process.pid != first for w in pool._workers):
            break
        await asyncio.sleep(0.05)
    for _ in range(3):  # every later job runs, on the new process
        second = await asyncio.wait_for(one_worker.run(os.getpid), 20)
        assert second not in (first, os.getpid())


async def test_a_registered_game_draws_and_thinks_in_the_worker_processes(nim_id: str) -> None:
    pools = Workers(processes=1)
    try:
        boards, search = pools.lane("boards"), pools.lane("search")
        assert nim_id in await boards.run(game_ids)
        state = nim.ENGINE.new(2, {"heaps": 4})
        view = nim.ENGINE.view(state, None)
        assert await boards.run(renderers.render, nim_id, view, []) == renderers.render(
            nim_id, view, [])
        mine = nim.ENGINE.view(state, 0)
        expected = choose_move(nim_id, mine, 0, "hard", seed=3, budget=0.5)
        assert await search.run(choose_move, nim_id, mine, 0, "hard", seed=3,
                                budget=0.5) == expected
        legal = nim.ENGINE.legal_moves(state, 0)
        assert await search.run(thinking.choose, nim_id, mine, legal, 0, "hard", 3,
                                0.5) == expected
        registry.unregister(nim_id)  # the workers forget it with the next job
        assert nim_id not in await boards.run(game_ids)
    finally:
        pools.close()


async def test_every_worker_runs_the_warm_up_job_once_started() -> None:
    from bot.warmup import warm_up

    pools = Workers(processes=2)
    try:
        counts = await pools.warm(warm_up)
        assert counts == {name: lane.processes for name, lane in pools.lanes.items()}
        boards = pools.lane("boards").executor
        assert boards is not None and len(boards.warmed) == 2  # two processes, one job each
        assert os.getpid() not in boards.warmed
        # the warm workers draw the first board like any other
        assert await pools.lane("boards").run(os.getpid) in boards.warmed
    finally:
        pools.close()


async def test_the_bot_warms_its_workers_before_answering_anyone(tmp_path: Any) -> None:
    """discord.py runs setup_hook in login(), before the gateway connects: once it has run,
    before any interaction can arrive, each worker process has run its warm-up job. (Run
    without simcord: its simulated clock stalls multiprocessing's process start.)"""
    from bot.client import TableBot
    from bot.config import Config

    config = Config(token=None, database=str(tmp_path / "bot.sqlite3"), workers=1,
                    sync_commands=False)
    bot = TableBot(config)
    try:
        await bot.setup_hook()
        assert bot.workers is not None
        for lane in bot.workers.lanes.values():
            assert lane.executor is not None
            assert len(lane.executor.warmed) == lane.processes >= 1, lane.name
    finally:
        await bot.close_storage()


async def test_a_worker_draws_every_picture_without_loading_discord_py() -> None:
    """A picture worker runs only the renderers and the catalogues: discord.py and aiohttp,
    tens of MB in every worker process, are never loaded there, whichever picture it drew
    (a board and its alt text, a hand, a review, a puzzle, a tournament, the rules)."""
    six = get_engine("six_nimmt")
    state = six.new(3)
    pools = Workers(processes=1)
    try:
        lane = pools.lane("boards")
        png, alt = await lane.run(render_board, "six_nimmt", six.view(state, None), None, [],
                                  "ja", ["a", "b", "c"])
        assert png.startswith(b"\x89PNG") and alt
        assert (await lane.run(render_hand_png, "six_nimmt", six.view(state, 0), 0, "en")
                ).startswith(b"\x89PNG")
        assert await lane.run(example_picture, "senet", "ja")
        assert await lane.run(puzzle_png, senet_puzzle(), "en")
        reviewed = review("senet", {}, 2, gallery.random_log("senet", 2, None, 12))
        assert await lane.run(evaluation_png, reviewed, "en")
        assert await lane.run(localised, tournament.render_standings,
                              tournament.sample_standings(), "ja")
        assert await lane.run(loaded, "discord") == []
        assert await lane.run(loaded, "aiohttp") == []
        assert await lane.run(loaded, "renderers")  # the question reached the same worker
    finally:
        pools.close()
