"""Real `python -m bot` processes, shards 0 and 1 of 2, against a fake Discord on this machine:
each connects as its own shard and sees only its servers, only one registers the slash
commands, a command in a shard-1 server is answered by the shard-1 process, SIGTERM stops both
cleanly, `python -m bot sync` registers without connecting, and a 6 nimmt! pick made in a DM
(always shard 0) reaches a shard-1 server's table. What simcord cannot show: the entry point,
the gateway and the split between processes."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.wire.fake_discord import (
    APPLICATION_ID,
    DIRECT_MESSAGES,
    GUILD_MESSAGES,
    LOCALES,
    PLAYER_ID,
    FakeDiscord,
    channel_id_of,
    shard_of,
)

ROOT = Path(__file__).resolve().parents[2]
# Two servers on shard 0 and one on shard 1 (the shard is the id's top bits modulo 2).
GUILD_A, GUILD_B, GUILD_C = (1000 << 22) | 5, (1002 << 22) | 5, (1001 << 22) | 5
START_TIMEOUT = 20.0  # two interpreters importing discord.py and Pillow on a busy machine
STEP_TIMEOUT = 8.0
COLOURS = re.compile(r"\x1b\[[0-9;]*m")  # discord.py colours its log lines inside Docker
EXCEPTION = re.compile(r"\w+(Error|Exception): ")
TROUBLE = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback")


@dataclass
class BotProcess:
    shard_id: int
    process: asyncio.subprocess.Process
    lines: list[str] = field(default_factory=list)
    readers: list[asyncio.Task[None]] = field(default_factory=list)

    def said(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    def raised(self) -> bool:
        """A traceback's last line (the exception) has been logged."""
        return any(EXCEPTION.match(line) for line in self.lines)


async def start_bot(shard_id: int, url: str, folder: Path, *args: str,
                    database: Path | None = None,
                    settings: dict[str, str] | None = None) -> BotProcess:
    # Nothing from the developer's environment (a real token, a database) reaches the bots.
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DISCORD_", "BOT_", "DEV_GUILD"))}
    env.update(DISCORD_TOKEN=f"fake-{shard_id}", BOT_SHARD_COUNT="2", BOT_SHARD_IDS=str(shard_id),
               BOT_DATABASE=str(database or folder / f"shard{shard_id}.sqlite3"),
               BOT_TEST_DISCORD_URL=url, BOT_COMPUTER_DELAY="0",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])),
               PYTHONUNBUFFERED="1")
    env.update(settings or {})
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--env-file", str(folder / "no.env"), *args, cwd=folder,
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        start_new_session=True)  # its worker processes go with it when the test kills it
    bot = BotProcess(shard_id, process)
    for stream in (process.stdout, process.stderr):
        bot.readers.append(asyncio.create_task(read_lines(stream, bot.lines)))
    return bot


async def read_lines(stream: asyncio.StreamReader | None, lines: list[str]) -> None:
    assert stream is not None
    while line := await stream.readline():
        lines.append(COLOURS.sub("", line.decode(errors="replace").rstrip()))


def output(cluster: Cluster) -> str:
    """What a failure message shows: each process's last output and what the fake saw."""
    parts = [f"--- shard {bot.shard_id} process (exit {bot.process.returncode}):\n" +
             "\n".join(bot.lines[-40:]) for bot in cluster.bots]
    calls = [f"{call.method} {call.path}" for call in cluster.fake.calls[-10:]]
    return "\n".join([*parts, "--- last requests: " + ", ".join(calls),
                      f"--- fake Discord errors: {cluster.fake.errors}"])


async def until(check: Callable[[], bool], timeout: float, what: str, cluster: Cluster) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline or any(b.process.returncode is not None for b in cluster.bots):
            raise AssertionError(f"not seen within {timeout:.0f} s: {what}\n{output(cluster)}")
        await asyncio.sleep(0.02)


async def exit_codes(cluster: Cluster, timeout: float) -> list[int]:
    bots = cluster.bots
    try:
        codes = await asyncio.wait_for(
            asyncio.gather(*(bot.process.wait() for bot in bots)), timeout)
    except TimeoutError:
        raise AssertionError(f"still running after {timeout:.0f} s\n{output(cluster)}") from None
    await asyncio.gather(*(reader for bot in bots for reader in bot.readers))
    return codes


@dataclass
class Cluster:
    fake: FakeDiscord
    bots: list[BotProcess] = field(default_factory=list)


@pytest.fixture
async def cluster() -> AsyncIterator[Cluster]:
    """The fake Discord with three servers; any bot still running at the end is killed."""
    assert [shard_of(g, 2) for g in (GUILD_A, GUILD_B, GUILD_C)] == [0, 0, 1]
    running = Cluster(FakeDiscord([GUILD_A, GUILD_B, GUILD_C], shard_count=2))
    await running.fake.start()
    try:
        yield running
    finally:
        for bot in running.bots:
            with contextlib.suppress(ProcessLookupError):  # the bot and its workers
                os.killpg(bot.process.pid, signal.SIGKILL)
            await bot.process.wait()
        await running.fake.stop()


async def test_two_processes_each_serve_their_own_shard(cluster: Cluster, tmp_path: Path) -> None:
    fake, bots = cluster.fake, cluster.bots
    bots += [await start_bot(shard, fake.url, tmp_path) for shard in (0, 1)]
    await until(lambda: len(fake.identifies) == 2, START_TIMEOUT, "two IDENTIFYs", cluster)
    assert sorted(d["shard"] for d in fake.identifies) == [[0, 2], [1, 2]], output(cluster)
    assert {(d["token"], d["shard"][0]) for d in fake.identifies} == {("fake-0", 0),
                                                                       ("fake-1", 1)}
    # Not told of every message and edit in its channels (its own boards included): all it
    # needs comes by interactions.
    assert not any(d["intents"] & (GUILD_MESSAGES | DIRECT_MESSAGES) for d in fake.identifies)

    # on_ready comes once the shard's GUILD_CREATEs are in: each counts its own servers.
    await until(lambda: bots[0].said("2 server(s) on shards 0 of 2") and
                bots[1].said("1 server(s) on shards 1 of 2"), STEP_TIMEOUT,
                "both processes ready with their servers", cluster)

    # Only the shard-0 process registered the commands, once, with the bot token.
    syncs = fake.calls_to("PUT", f"/applications/{APPLICATION_ID}/commands")
    assert len(syncs) == 1, output(cluster)
    assert syncs[0].token == "fake-0"
    assert {"play", "move", "rules", "leaderboard"} <= {c["name"] for c in syncs[0].json}
    assert bots[0].said("synced") and not bots[1].said("synced"), output(cluster)

    # /leaderboard in the shard-1 server, delivered on shard 1's connection: only the
    # shard-1 process saw it, and it answers through the interaction's REST callback.
    token = await fake.slash_command(1, GUILD_C, "leaderboard")
    followup = f"/webhooks/{APPLICATION_ID}/{token}"
    await until(lambda: fake.calls_to("POST", followup), STEP_TIMEOUT,
                "the /leaderboard answer", cluster)
    [callback] = [c for c in fake.calls if c.path.endswith(f"/{token}/callback")]
    assert callback.json["type"] == 5, output(cluster)  # "thinking…", filled by the follow-up
    [embed] = fake.calls_to("POST", followup)[0].json["embeds"]
    assert embed["title"] == "Leaderboard: all games"
    assert embed["description"].startswith("No finished games yet")

    for bot in bots:
        bot.process.send_signal(signal.SIGTERM)
    assert await exit_codes(cluster, STEP_TIMEOUT) == [0, 0], output(cluster)
    problems = [line for bot in bots for line in bot.lines if TROUBLE.search(line)]
    assert not problems, output(cluster)
    assert not fake.errors, fake.errors


async def test_sync_registers_the_commands_and_exits_without_the_gateway(
    cluster: Cluster, tmp_path: Path
) -> None:
    """`python -m bot sync`, for clusters where every process runs with BOT_SYNC_COMMANDS=0."""
    fake, bots = cluster.fake, cluster.bots
    bots.append(await start_bot(1, fake.url, tmp_path, "sync"))
    assert await exit_codes(cluster, START_TIMEOUT) == [0], output(cluster)
    [sync] = fake.calls_to("PUT", f"/applications/{APPLICATION_ID}/commands")
    assert bots[0].said(f"Registered {len(sync.json)} slash commands for all servers.")
    assert not fake.identifies, "sync must not connect to the gateway"
    assert not (tmp_path / "shard1.sqlite3").exists(), "sync must not touch the database"
    assert not fake.errors, fake.errors


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, nested ones (Components V2 containers, action rows) included."""
    found = []
    for item in components:
        found.append(item)
        found.extend(walk(item.get("components") or []))
    return found


def custom_ids(message: dict[str, Any]) -> list[str]:
    return [item["custom_id"] for item in walk(message.get("components") or [])
            if "custom_id" in item]


def text_of(message: dict[str, Any]) -> str:
    """What a member reads: the content, or a V2 board's text displays (type 10)."""
    texts = [c["content"] for c in walk(message.get("components") or []) if c.get("type") == 10]
    return message.get("content") or "\n".join(texts)


async def test_a_dm_pick_for_a_shard_1_server_is_played_by_the_shard_0_process(
    cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """6 nimmt! hands go out by DM, and Discord delivers every DM interaction on shard 0: the
    shard-0 process plays the pick and posts the board in a server it does not serve."""
    fake, bots = cluster.fake, cluster.bots
    monkeypatch.setitem(LOCALES, GUILD_C, "ja")  # a Japanese server: all its boards in Japanese
    shared = tmp_path / "shared.sqlite3"  # one database for the cluster, as in production
    bots.append(await start_bot(0, fake.url, tmp_path, database=shared))
    # One at a time: two processes migrating a new SQLite file at once collide ("table
    # game_tables already exists"): migrations need a lock across processes.
    await until(lambda: len(fake.identifies) == 1, START_TIMEOUT, "shard 0 up", cluster)
    bots.append(await start_bot(1, fake.url, tmp_path, database=shared))
    await until(lambda: bots[1].said("1 server(s) on shards 1 of 2"), START_TIMEOUT,
                "shard 1 ready", cluster)
    place = channel_id_of(GUILD_C)

    def boards() -> list[Any]:  # new boards in the place: channel messages or follow-ups
        return [c for c in fake.calls if c.method == "POST" and (
            c.path == f"/channels/{place}/messages" or c.path.startswith("/webhooks/"))
            and any(str(a.get("filename")).startswith("board")
                    for a in (c.json or {}).get("attachments", []))]

    def edited(token: str) -> bool:  # a component interaction's message was updated: in
        # its answer (a quick save), or after its deferral
        return bool(fake.calls_to("PATCH", f"/webhooks/{APPLICATION_ID}/{token}/messages/"
                                           "@original")) or any(
            c.path.endswith(f"/{token}/callback") and c.json.get("type") == 7
            for c in fake.calls)

    await fake.slash_command(1, GUILD_C, "play", "six_nimmt")
    await until(lambda: any(custom_ids(m) for m in fake.posts(place)), STEP_TIMEOUT,
                "the lobby", cluster)
    lobby = fake.posts(place)[-1]
    [add_computer] = [i for i in custom_ids(lobby) if i.endswith(":cpunormal")]
    token = await fake.click(1, lobby, add_computer, guild_id=GUILD_C)
    await until(lambda: edited(token), STEP_TIMEOUT, "a computer seated", cluster)
    [start] = [i for i in custom_ids(lobby) if i.endswith(":start")]
    await fake.click(1, lobby, start, guild_id=GUILD_C)

    def hand() -> dict[str, Any] | None:
        dm = fake.dm_channel(PLAYER_ID)
        return next((m for m in fake.posts(dm) if custom_ids(m)), None) if dm else None

    await until(lambda: hand() is not None, STEP_TIMEOUT, "the hand by DM", cluster)
    await until(lambda: len(boards()) == 1, STEP_TIMEOUT, "the first board", cluster)
    message = hand()
    assert message is not None
    [select] = [item for row in message["components"] for item in row["components"]]
    assert select["custom_id"].endswith(":h")
    card = select["options"][0]["value"]

    # the computer (played by the shard-1 process, which started the table) picks first
    await until(lambda: any(c.method == "PATCH" and c.path.startswith(
        f"/channels/{place}/messages/") for c in fake.calls), STEP_TIMEOUT,
        "the computer's pick shown on the board", cluster)
    token = await fake.click(0, message, select["custom_id"], values=[card])  # on shard 0
    await until(lambda: edited(token), STEP_TIMEOUT, "the pick acknowledged", cluster)
    await until(lambda: len(boards()) == 2 or bots[0].raised(), STEP_TIMEOUT,
                "the board after the pick", cluster)
    assert len(boards()) == 2, output(cluster)
    first, after = boards()
    # the board after the DM pick is posted by the shard-0 process, which got the pick, in
    # the server's language although that server is not in its cache
    assert first.token != "fake-0", output(cluster)
    first_text, after_text = text_of(first.json), text_of(after.json)
    assert "**ニムト** · 卓1" in first_text, first_text
    assert after_text.startswith("**ニムト** · 卓1"), after_text
    assert "your card" not in after_text and "Players" not in after_text
    assert after.path == f"/channels/{place}/messages" and after.token == "fake-0"
    problems = [line for bot in bots for line in bot.lines if TROUBLE.search(line)]
    assert not problems, output(cluster)
    assert not fake.errors, fake.errors
