"""Settings for running many bot processes: how many worker processes each starts on a shared
machine (BOT_PROCESSES, or the cluster's size from the shard settings) and the Discord API
address that every process's REST calls go to (BOT_DISCORD_API)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config
from bot.workers import lane_sizes, usable_cores


def load(**environ: str) -> Config:
    return Config.load(environ, dotenv="/nonexistent/.env")


def test_one_process_takes_every_core_for_boards() -> None:
    assert lane_sizes(None, cores=8) == {"boards": 8, "search": 2, "background": 2}
    assert lane_sizes(None, cores=2) == {"boards": 2, "search": 1, "background": 1}


def test_processes_sharing_a_machine_divide_its_cores() -> None:
    # compose.yaml's two processes on a 2-core machine: one board worker each, two in all,
    # not two per process.
    sizes = [lane_sizes(None, cores=2, processes_here=2) for _ in range(2)]
    assert sum(size["boards"] for size in sizes) == 2
    assert sizes[0] == {"boards": 1, "search": 1, "background": 1}
    # 16 cores, 4 processes: 4 board workers each, 16 in all
    assert lane_sizes(None, cores=16, processes_here=4) == {
        "boards": 4, "search": 1, "background": 1}
    # more processes than cores: still one worker per lane each
    assert lane_sizes(None, cores=2, processes_here=6)["boards"] == 1


def test_bot_workers_overrides_the_share_and_zero_means_threads() -> None:
    assert lane_sizes(3, cores=2, processes_here=2)["boards"] == 3
    assert lane_sizes(0, cores=8, processes_here=2) == {"boards": 0, "search": 0,
                                                        "background": 0}


def test_the_cluster_size_comes_from_the_shards_or_bot_processes() -> None:
    assert load().processes_here == 1
    assert load(BOT_SHARD_COUNT="2", BOT_SHARD_IDS="1").processes_here == 2
    assert load(BOT_SHARD_COUNT="6", BOT_SHARD_IDS="0,1,2").processes_here == 2
    assert load(BOT_SHARD_COUNT="4").processes_here == 1  # one process serves every shard
    # processes on machines of their own say so
    assert load(BOT_SHARD_COUNT="2", BOT_SHARD_IDS="1", BOT_PROCESSES="1").processes_here == 1
    with pytest.raises(ValueError, match="BOT_PROCESSES"):
        load(BOT_PROCESSES="0")


def test_a_container_cpu_limit_caps_the_cores(tmp_path: Path) -> None:
    limit = tmp_path / "cpu.max"
    limit.write_text("150000 100000\n")  # docker run --cpus 1.5
    assert usable_cores(str(limit)) == min(2, usable_cores(str(tmp_path / "none")))
    limit.write_text("max 100000\n")
    assert usable_cores(str(limit)) == usable_cores(str(tmp_path / "none")) >= 1


@pytest.mark.parametrize(("value", "base"), [
    ("", None),
    ("http://nirn-proxy:8080", "http://nirn-proxy:8080/api/v10"),
    ("http://nirn-proxy:8080/api/v10/", "http://nirn-proxy:8080/api/v10"),
    ("https://proxy.example/api/v9", "https://proxy.example/api/v9"),
])
def test_the_discord_api_address(value: str, base: str | None) -> None:
    assert load(BOT_DISCORD_API=value).api_base == base


@pytest.mark.parametrize("value", ["nirn-proxy:8080", "ftp://proxy/api/v10", "http:///api/v10"])
def test_a_discord_api_address_that_is_no_url_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="BOT_DISCORD_API"):
        load(BOT_DISCORD_API=value)
