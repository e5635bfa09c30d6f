"""Faults behind the interactions, through the real discord.py flow: the database unavailable
(disk full, locked by another process, read-only), Discord refusing posts and edits, a crash
between saving a lobby and posting it. Each test checks what the player sees, that nothing is
lost, and that the game goes on to its end once the fault is lifted."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.features.table import moves
from bot.storage import Unavailable
from bot.storage.driver import Saturated
from tests.bot.conftest import (
    Driver,
    World,
    button_ids,
    open_and_start,
    resign,
)

SAVE_FAILED = "I couldn't save that — nothing changed, please try again in a minute."
READ_FAILED = "I can't read the table right now — please try again in a minute."
BUSY = "I'm very busy right now — nothing changed, please try again in a few seconds."


def private_text(result: Any) -> str:
    """The private answer of an interaction (reply or follow-up)."""
    assert result.acknowledged, result
    replies = [m for m in result.followups if m.content and m.ephemeral]
    if not replies and result.response is not None:
        replies = [result.response]
    assert replies, result
    assert all(m.ephemeral for m in replies), result
    return replies[-1].content


def answer(result: Any) -> Any:
    """The private message itself (to press its buttons)."""
    return result.followups[-1] if result.followups else result.response


class Outage:
    """The database refuses work while `on` (what the SQLite driver raises for a full disk);
    with `writes_only`, reads still work (as with a read-only file)."""

    def __init__(self, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
        self.on = False
        self.writes_only = False
        self.refused = 0
        driver = world.bot.db.driver
        original = driver.run

        async def run(unit: Any, *args: Any) -> Any:
            if self.on and not (self.writes_only and getattr(unit, "read_only", False)):
                self.refused += 1
                cause = sqlite3.OperationalError("database or disk is full")
                raise Unavailable(str(cause)) from cause
            return await original(unit, *args)

        monkeypatch.setattr(driver, "run", run)


@pytest.fixture
def outage(world: World, monkeypatch: pytest.MonkeyPatch) -> Outage:
    return Outage(world, monkeypatch)


@pytest.fixture
def deleting_ends_thinking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord: once a deferred "thinking…" original is deleted, the next follow-up is a new
    message with its own flags (the usual way to answer privately after a public defer).
    simcord 3.2.1 keeps treating it as the pending original; teach it Discord's behaviour."""
    from simcord.backend.models.interaction import ResponseKind
    from simcord.http import router
    from simcord.http.routes import interactions

    def delete_original(ctx: Any) -> Any:
        record = interactions._record(ctx)
        result = interactions.delete_original_response(ctx)
        record.response_kind, record.message_id = ResponseKind.MESSAGE, None
        return result

    routes = [(template, delete_original if handler is interactions.delete_original_response
               else handler) for template, handler in router._ROUTES["DELETE"]]
    monkeypatch.setitem(router._ROUTES, "DELETE", routes)


@pytest.fixture
def warnings_ok(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level("WARNING", logger="bot")
    yield caplog


async def senet(world: World) -> tuple[int, Any]:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    return table_id, world.place(await world.table(table_id))


async def finish_by_playing(world: World, table_id: int) -> None:
    table = await Driver(world, table_id, seed=3).play_until()
    assert table.status == "finished"
    assert world.last_board(world.place(table)).content.count("Game over") == 1


# -- the database ------------------------------------------------------------------------------


async def test_disk_full_answers_every_interaction_privately(
        world: World, outage: Outage, warnings_ok: pytest.LogCaptureFixture) -> None:
    warnings_ok.set_level("INFO", logger="bot")
    table_id, place = await senet(world)
    before = await world.table(table_id)
    board = world.last_board(place)
    aki = world.members["aki"]
    move = world.bot.service.legal_moves_for(before, aki.id)[0]
    outage.on = True
    # a slash command, a board button, /board and autocomplete: all answered, privately
    assert private_text(await aki.slash(place, "move", move=move)) == SAVE_FAILED
    assert private_text(await aki.click(board, custom_id=next(iter(button_ids(board))))) \
        == SAVE_FAILED
    assert private_text(await aki.slash(place, "board")) == READ_FAILED  # it only reads
    # autocomplete needs no database: the moves of the position this process knows
    offered = await aki.autocomplete(place, "move", "move", "")
    assert move in [choice["value"] for choice in offered]
    assert len(world.boards(place)) == 1  # no half-made board
    await world.env.advance_time(30)  # the sweeper and the deadline watcher are refused too
    warned = [r for r in warnings_ok.records if r.levelno >= logging.WARNING]
    assert len(warned) == 1, [r.getMessage() for r in warned]  # once, with its cause
    assert "database unavailable" in warned[0].getMessage()
    assert "disk is full" in warned[0].getMessage()
    assert not [r for r in warnings_ok.records if r.exc_info]  # no traceback for an outage
    outage.on = False
    after = await world.table(table_id)
    assert after.ply == before.ply and after.log == before.log  # nothing lost or half-saved
    await aki.slash(place, "move", move=move)  # the same move works once the disk has room
    assert (await world.table(table_id)).ply > before.ply
    back = [r.getMessage() for r in warnings_ok.records if "available again" in r.getMessage()]
    assert len(back) == 1 and "3 interaction(s) refused" in back[0], back  # with its length
    assert len([r for r in warnings_ok.records if r.levelno >= logging.WARNING]) == 1
    await finish_by_playing(world, table_id)


async def test_a_busy_database_refuses_politely_without_an_outage_warning(
        world: World, monkeypatch: pytest.MonkeyPatch, user_locales: dict[int, str],
        warnings_ok: pytest.LogCaptureFixture) -> None:
    """Every connection in use (a burst on PostgreSQL): the move is refused privately, asking
    to try again in a few seconds, in the member's language; the operator is not told the
    database is unavailable, since it is not."""
    table_id, place = await senet(world)
    before = await world.table(table_id)
    aki, bo = world.members["aki"], world.members["bo"]
    user_locales[bo.user.id] = "ja"
    move = world.bot.service.legal_moves_for(before, aki.id)[0]
    driver = world.bot.db.driver
    original = driver.run
    busy = True

    async def run(unit: Any, *args: Any) -> Any:
        if busy:
            raise Saturated("all 10 connections busy") from TimeoutError()
        return await original(unit, *args)

    monkeypatch.setattr(driver, "run", run)
    assert private_text(await aki.slash(place, "move", move=move)) == BUSY
    assert private_text(await bo.slash(place, "board")) == \
        "いまとても混み合っています。何も変更されていません。数秒後にもう一度お試しください。"
    assert not world.bot.db.health.down
    assert not [r for r in warnings_ok.records if r.levelno >= logging.WARNING]
    busy = False
    await aki.slash(place, "move", move=move)
    assert (await world.table(table_id)).ply > before.ply


async def test_play_during_an_outage_leaves_no_public_thinking_or_empty_thread(
        world: World, outage: Outage, deleting_ends_thinking: None) -> None:
    aki = world.member("aki")
    outage.on, outage.writes_only = True, True  # the lobby is refused after the public defer
    result = await aki.slash(world.channel, "play senet")
    assert private_text(result) == SAVE_FAILED
    assert result.response is None or result.response.ephemeral  # "thinking…" removed
    assert [m for m in world.bot_messages(world.channel) if not m.flags.ephemeral
            and m.type is discord.MessageType.default] == []  # (a "thread created" note may stay)
    assert world.channel.threads == []  # the thread made for it is gone again
    assert await world.bot.service.active_in_channel(world.channel.id) is None
    outage.on = False
    await world.env.advance_time(10)  # the /play cooldown
    table_id = await open_and_start(world, "senet", "aki", ["bo"])
    await resign(world.members["bo"], world.place(await world.table(table_id)))
    assert (await world.table(table_id)).status == "finished"


async def test_autocomplete_offers_the_last_seen_position_when_a_newer_cannot_be_read(
        world: World, outage: Outage, warnings_ok: pytest.LogCaptureFixture) -> None:
    """Another process moved the table (the feed of a cluster says so) and the database
    cannot answer now: the member still gets suggestions, those of the position this process
    saw last (the move is checked when played), not an empty list."""
    warnings_ok.set_level("INFO", logger="bot")
    table_id, place = await senet(world)
    before = await world.table(table_id)
    aki = world.members["aki"]
    legal = world.bot.service.legal_moves_for(before, aki.id)
    assert await aki.autocomplete(place, "move", "move", "")  # this process typed here
    outage.on = True
    world.bot.service.store.table_changed(table_id, before.ply + 1, "running")  # elsewhere
    await world.env.settle()
    assert world.bot.service.store.held(table_id) is None  # not current any more
    offered = await aki.autocomplete(place, "move", "move", "")
    assert sorted(choice["value"] for choice in offered) == sorted(legal)
    outage.on = False
    assert sorted(c["value"] for c in await aki.autocomplete(place, "move", "move", "")) \
        == sorted(legal)  # read again: (here) the same position


async def test_locked_database_answers_in_about_a_second_and_reads_still_work(
        world: World, warnings_ok: pytest.LogCaptureFixture) -> None:
    table_id, place = await senet(world)
    before = await world.table(table_id)
    aki = world.members["aki"]
    legal = world.bot.service.legal_moves_for(before, aki.id)
    other = sqlite3.connect(world.database, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        choices = await aki.autocomplete(place, "move", "move", "")
        assert sorted(c["value"] for c in choices) == sorted(legal)  # readers never wait
        started = time.monotonic()  # wall clock: the busy timeout is real
        text = private_text(await aki.slash(place, "move", move=legal[0]))
        waited = time.monotonic() - started
        assert text == SAVE_FAILED
        assert waited < 2.5, waited  # inside Discord's 3 s, not the old 5 s stall
        print(f"locked database: answered in {waited:.2f} s")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (await world.table(table_id)).ply == before.ply
    await aki.slash(place, "move", move=legal[0])
    assert (await world.table(table_id)).ply > before.ply
    await finish_by_playing(world, table_id)


async def test_read_only_database_refuses_writes_politely(
        world: World, warnings_ok: pytest.LogCaptureFixture) -> None:
    table_id, place = await senet(world)
    before = await world.table(table_id)
    aki = world.members["aki"]
    move = world.bot.service.legal_moves_for(before, aki.id)[0]
    driver = world.bot.db.driver

    def read_only(conn: sqlite3.Connection, on: int) -> None:
        conn.execute(f"PRAGMA query_only={on}")  # SQLite's own "readonly database" error

    await driver.call(read_only, 1)
    assert private_text(await aki.slash(place, "move", move=move)) == SAVE_FAILED
    assert any("readonly" in r.getMessage() for r in warnings_ok.records)
    await driver.call(read_only, 0)
    await aki.slash(place, "move", move=move)
    assert (await world.table(table_id)).ply > before.ply
    await finish_by_playing(world, table_id)


async def test_a_bug_is_answered_and_logged_once(world: World, monkeypatch: pytest.MonkeyPatch,
                                                 error_trap: Any) -> None:
    table_id, place = await senet(world)
    aki = world.members["aki"]

    async def broken_play(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(world.bot.service, "play", broken_play)
    text = private_text(await aki.slash(place, "move", move="try"))
    assert text.startswith("Sorry, something went wrong on my side")
    assert len(error_trap.records) == 1 and error_trap.records[0].exc_info  # with traceback
    error_trap.records.clear()


# -- Discord -----------------------------------------------------------------------------------


async def test_a_long_discord_outage_backs_off_and_says_so_when_the_board_comes(
        world: World, warnings_ok: pytest.LogCaptureFixture) -> None:
    warnings_ok.set_level("INFO", logger="bot")
    table_id, place = await senet(world)
    board = world.last_board(place)
    boards_before = len(world.boards(place))
    world.env.inject_error("POST", "/webhooks/*", status=500, times=None)
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    await world.members["aki"].click(board, custom_id=next(iter(button_ids(board))))
    moved = await world.table(table_id)
    assert moved.posted_ply < moved.ply  # saved, not shown
    calls_before = len([c for c in world.env.backend.faults])  # the faults stay active
    assert calls_before == 2
    await world.env.advance_time(180)  # three minutes of 500s: retried with backoff
    attempts = len([r for r in warnings_ok.records if "could not be posted" in r.getMessage()])
    assert 2 <= attempts <= 6, attempts  # 15 s, 30 s, 60 s ... not every 15 s
    print(f"Discord outage: {attempts} posting attempts in 180 s")
    warned = [r.getMessage() for r in warnings_ok.records if r.levelno >= logging.WARNING]
    assert len(warned) == 1 and "discord unavailable" in warned[0], warned  # once, with cause
    world.env.backend.faults.clear()
    await world.env.advance_time(130)  # at most the longest wait so far
    assert len([r for r in warnings_ok.records if "discord available again after"
                in r.getMessage()]) == 1
    boards = world.boards(place)
    assert len(boards) == boards_before + 1
    assert "Sorry for the wait" in boards[-1].content  # the channel is told why it was late
    assert f"<@{moved.seats[moved.to_act()[0]].user_id}>" in boards[-1].content  # pinged
    await finish_by_playing(world, table_id)


async def test_start_when_the_lobby_edit_fails_and_the_old_cancel_button(
        world: World, warnings_ok: pytest.LogCaptureFixture) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    result = await aki.slash(world.channel, "play senet")
    lobby = result.response
    table_id = int(next(iter(button_ids(lobby))).split(":")[1])
    await bo.click(lobby, custom_id=f"lobby:{table_id}:join")
    world.env.inject_error("PATCH", "/webhooks/*/messages/*", status=500, times=None)
    await aki.click(lobby, custom_id=f"lobby:{table_id}:start")
    world.env.backend.faults.clear()
    table = await world.table(table_id)
    assert table.status == "running"
    place = world.place(table)
    assert world.boards(place), "the game has its board although the lobby kept its buttons"
    # the host presses the old lobby's Cancel: refused, the game goes on
    text = private_text(await aki.click(lobby, custom_id=f"lobby:{table_id}:cancel"))
    assert "already started" in text
    assert (await world.table(table_id)).status == "running"
    assert not button_ids(result.response)  # the stale lobby now shows the game started
    await finish_by_playing(world, table_id)


async def test_a_lobby_discord_refused_to_post_does_not_block_the_channel(
        world: World, warnings_ok: pytest.LogCaptureFixture) -> None:
    aki = world.member("aki")
    world.env.inject_error("POST", "/webhooks/*", status=500, times=None)
    await aki.slash(world.channel, "play senet")
    world.env.backend.faults.clear()
    assert await world.bot.service.active_in_channel(world.channel.id) is None
    assert world.channel.threads == []
    await world.env.advance_time(10)
    table_id = await open_and_start(world, "senet", "aki", ["bo"])
    assert (await world.table(table_id)).status == "running"


async def test_a_lobby_saved_but_never_posted_is_offered_for_replacement(world: World) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    guild = world.guild.id
    await world.bot.service.settings.update(guild, channel_policy="channel")
    # the process died between saving the lobby and posting it
    ghost = await world.bot.service.open_table(guild, world.channel.id, "senet", None, bo.id,
                                               "bo")
    assert "already a table here" in private_text(await aki.slash(world.channel, "play senet"))
    await world.env.advance_time(61)
    offer = await aki.slash(world.channel, "play senet")
    text = private_text(offer)
    assert "lost its message" in text
    close = next(i for i in button_ids(answer(offer)) if i.startswith("lobbyclose:"))
    assert "You can open a table with" in private_text(
        await aki.click(answer(offer), custom_id=close))
    assert (await world.table(ghost.id)).status == "cancelled"
    await world.env.advance_time(10)
    table_id = await open_and_start(world, "senet", "aki", ["cy"])
    assert (await world.table(table_id)).status == "running"


async def test_ones_own_lost_lobby_elsewhere_is_offered_too(world: World) -> None:
    aki = world.member("aki")
    other = world.guild.create_text_channel("other")
    ghost = await world.bot.service.open_table(world.guild.id, other.id, "senet", None,
                                               aki.id, "aki")
    assert "already have an open lobby" in private_text(
        await aki.slash(world.channel, "play senet"))
    await world.env.advance_time(61)
    offer = await aki.slash(world.channel, "play senet")
    assert "lost its message" in private_text(offer)
    close = next(i for i in button_ids(answer(offer)) if i.startswith("lobbyclose:"))
    await aki.click(answer(offer), custom_id=close)
    assert (await world.table(ghost.id)).status == "cancelled"


async def test_a_deleted_lobby_message_is_offered_for_replacement(world: World) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    mods = world.guild.create_role("Mods", permissions=discord.Permissions(
        manage_messages=True))
    mod = world.member("mod", roles=[mods])
    await world.bot.service.settings.update(world.guild.id, channel_policy="channel")
    result = await aki.slash(world.channel, "play senet")
    table_id = int(next(iter(button_ids(result.response))).split(":")[1])
    await mod.delete(result.response.message)  # a moderator deletes the lobby message
    offer = await bo.slash(world.channel, "play senet")
    assert "lost its message" in private_text(offer)
    close = next(i for i in button_ids(answer(offer)) if i.startswith("lobbyclose:"))
    await bo.click(answer(offer), custom_id=close)
    assert (await world.table(table_id)).status == "cancelled"
    await world.env.advance_time(10)
    new = await open_and_start(world, "senet", "bo", ["aki"])
    assert (await world.table(new)).status == "running"


async def test_metrics_on_their_port(world: World) -> None:
    import socket
    import urllib.request

    from bot import metrics

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert metrics.start(port, "127.0.0.1")
    table_id, place = await senet(world)
    aki = world.members["aki"]
    move = world.bot.service.legal_moves_for(await world.table(table_id), aki.id)[0]
    await aki.slash(place, "move", move=move)
    await world.env.advance_time(16)  # a sweep refreshes the open tables
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    values = {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines()
              if line and not line.startswith("#")}
    assert values["bot_moves_total"] >= 1
    assert values["bot_answer_seconds_count"] >= 1 and values["bot_board_seconds_count"] >= 1
    assert values['bot_open_tables{status="running"}'] >= 1
    assert 'bot_worker_queue{lane="background"}' in values


async def test_dms_failing_and_a_deleted_pick_board(
        world: World, warnings_ok: pytest.LogCaptureFixture) -> None:
    world.env.inject_error("POST", "/users/@me/channels", status=500, times=None)
    table_id = await open_and_start(world, "six_nimmt", "aki", ["bo"], rounds=1)
    table = await world.table(table_id)
    place = world.place(table)
    board = world.last_board(place)
    assert "Pick privately" in board.content  # no DM: the board says how to pick
    assert world.dms(world.members["aki"]) == []
    world.env.backend.faults.clear()
    mods = world.guild.create_role("Mods", permissions=discord.Permissions(
        manage_messages=True))
    await world.member("mod", roles=[mods]).delete(board)  # the pick board is deleted
    aki = world.members["aki"]
    move = world.bot.service.legal_moves_for(table, aki.id)[0]
    await aki.slash(place, "move", move=move)  # updating the board finds it gone: a new one
    fresh = world.last_board(place)
    assert fresh.id != board.id and "aki" in fresh.content
    await finish_by_playing(world, table_id)


async def test_a_rate_limited_post_is_posted_soon(world: World) -> None:
    """discord.py waits and retries a 429 itself; if it gives up, the sweeper posts it."""
    table_id, place = await senet(world)
    board = world.last_board(place)
    world.env.inject_error("POST", "/webhooks/*", status=429, times=1,
                           message="You are being rate limited.")
    await world.members["aki"].click(board, custom_id=next(iter(button_ids(board))))
    await world.env.advance_time(40)
    table = await world.table(table_id)
    assert table.posted_ply == table.ply  # posted after the wait
    assert len(world.boards(place)) == 2  # once
    await finish_by_playing(world, table_id)


SLOW_POST = "The board is taking longer than usual to post; it will appear here shortly."


class SlowChannel:
    """Discord takes a post in the channel only after the member was answered (as while
    discord.py retries a 500 with its 1-9 s sleeps): a reply that waited for the post would
    never come, and the test would time out."""

    def __init__(self, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
        publisher = world.bot.publisher
        original_send, original_tell = publisher._send, moves.tell
        self.accepting = asyncio.Event()
        self.accepting.set()
        self.events: list[str] = []

        async def send(channel: Any, interaction: Any, table: Any, kwargs: dict[str, Any]
                       ) -> Any:
            if not self.accepting.is_set():
                self.events.append("post started")
                await self.accepting.wait()
            message = await original_send(channel, interaction, table, kwargs)
            self.events.append("posted")
            return message

        async def tell(interaction: Any, text: str) -> None:
            await original_tell(interaction, text)
            self.events.append(f"told: {text}")
            self.accepting.set()  # Discord takes posts again

        monkeypatch.setattr(publisher, "_send", send)
        monkeypatch.setattr(moves, "tell", tell)

    def refuse(self) -> None:
        self.events.clear()
        self.accepting.clear()


async def test_board_and_move_replies_come_in_time_while_discord_retries(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, place = await senet(world)
    slow = SlowChannel(world, monkeypatch)
    # simcord runs the bot's timers in simulated time, and only between its operations: the
    # budget (2 s) is spent at once, so the reply must not wait for the post at all
    monkeypatch.setattr(world.bot.table_actions.in_time, "budget", 0.0)
    aki = world.members["aki"]
    boards = len(world.boards(place))
    for command in ("board", "move"):
        table = await world.table(table_id)
        options = {"move": world.bot.service.legal_moves_for(table, aki.id)[0]} \
            if command == "move" else {}
        slow.refuse()
        result = await aki.slash(place, command, **options)
        assert private_text(result) == SLOW_POST, command  # not "thinking…" for ever
        told = f"told: {SLOW_POST}"
        assert slow.events[-2:] == [told, "posted"], slow.events  # answered, then posted
        assert slow.events.count("posted") == 1
    moved = await world.table(table_id)
    assert moved.ply > table.ply and moved.posted_ply == moved.ply  # posted once, late
    assert len(world.boards(place)) == boards + 2
    assert world.bot.table_actions.in_time.pending == 0
