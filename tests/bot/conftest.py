"""Harness for the Discord-facing tests: the real bot on simcord's simulated Discord.

`env` is a running simcord Env around a TableBot whose database is a file in tmp_path (so a
restart keeps it) and whose table service draws chance with a seeded Random. The fixture
fails the test on any ERROR logged by discord.py or the bot (discord.py only logs exceptions
raised in component callbacks) and on errors simcord captured. `world` adds a guild, a
channel, members and helpers to read what each player sees.
"""

from __future__ import annotations

import io
import logging
import random
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from PIL import Image

from bot.client import TableBot
from bot.config import Config
from bot.features.common.badges import seat_label
from bot.features.table.controls import group_of
from bot.features.table.layout import walk
from bot.storage import open_database
from bot.tables import Table
from bot.tables import computers as cpu
from tests.bot.backends import (  # noqa: F401  (fixtures)
    backend_target,
    db,
    opener,
    service,
    sqlite_opener,
)

SEED = 20240


class ErrorTrap(logging.Handler):
    """Collects ERROR records of the `discord` and `bot` loggers."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def text(self) -> str:
        return "\n".join(self.format(r) for r in self.records)


def private_text(result: Any) -> str:
    """The private answer of an interaction (its reply or follow-ups, all ephemeral)."""
    replies = [m for m in result.followups if m.content] or [result.response]
    assert replies and all(m.ephemeral for m in replies), result
    return replies[-1].content


def lobby_id(message: Any) -> int:
    """The table id of a lobby message (from its buttons)."""
    return int(next(i for i in button_ids(message) if i.startswith("lobby:")).split(":")[1])


def admin(world: World, name: str = "boss") -> Any:
    """A member with Manage Server."""
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.member(name, roles=[role])


@pytest.fixture
def quick_computers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny thinking budgets keep whole games fast (the searches scale with the budget)."""
    for level in cpu.LEVELS:
        monkeypatch.setitem(cpu.BUDGETS, level, 0.01)


@pytest.fixture
def fast_computers(monkeypatch: pytest.MonkeyPatch, quick_computers: None) -> None:
    """Quick computers that also post their boards at once (no BOT_COMPUTER_DELAY pause)."""
    monkeypatch.setenv("BOT_COMPUTER_DELAY", "0")


@pytest.fixture
def error_trap() -> Iterator[ErrorTrap]:
    trap = ErrorTrap()
    trap.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    loggers = [logging.getLogger("discord"), logging.getLogger("bot")]
    for logger in loggers:
        logger.addHandler(trap)
    yield trap
    for logger in loggers:
        logger.removeHandler(trap)


def make_bot(database: Path, seed: int = SEED, env: list[simcord.Env] | None = None) -> TableBot:
    """A bot on `database`; once `env` holds the Env, the table service's clock is the Env's
    simulated time (so deadlines follow env.advance_time)."""
    holder = env if env is not None else []

    def clock() -> Any:
        return holder[0].now() if holder else datetime.now(UTC)

    return TableBot(Config(token=None, database=str(database), workers=0), rng=random.Random(seed),
                    clock=clock)


@pytest.fixture
async def database(tmp_path: Path) -> Path:
    path = tmp_path / "bot.sqlite3"
    created = await open_database(path)  # created and migrated before the bot starts
    await created.close()
    return path


@pytest.fixture
async def env(database: Path, error_trap: ErrorTrap) -> AsyncIterator[simcord.Env]:
    holder: list[simcord.Env] = []
    bot = make_bot(database, env=holder)
    environment = simcord.Env(bot)
    holder.append(environment)
    environment.bots = [bot]  # type: ignore[attr-defined]
    await environment.start()
    try:
        yield environment
    finally:
        await environment.shutdown()
        for each in environment.bots:  # type: ignore[attr-defined]
            await each.close_storage()
    environment._raise_errors_since(environment._errors_acknowledged)
    if error_trap.records:
        pytest.fail("errors were logged:\n" + error_trap.text())


def png_of(data: bytes) -> Image.Image:
    """Decode a picture and check it is a real, non-blank image."""
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    assert image.width >= 200 and image.height >= 150
    extrema = image.convert("L").getextrema()
    assert extrema[1] - extrema[0] > 40, "the picture is blank"
    return image


def as_message(message: Any) -> discord.Message:
    """A discord.Message for a simcord ResponseMessage (interaction replies) or a Message."""
    return message.message if isinstance(message, simcord.ResponseMessage) else message


def children(message: Any) -> list[Any]:
    """Every button and select of a message (in action rows, in V2 containers too)."""
    return [c for c in walk(as_message(message).components)
            if isinstance(c, (discord.Button, discord.SelectMenu))]


def custom_ids(message: Any) -> list[str]:
    """Every custom id of a message's components (buttons and selects, nested rows too)."""
    return [c.custom_id for c in children(message) if getattr(c, "custom_id", None)]


def text_of(message: Any) -> str:
    """What a member reads: the content, or a Components V2 message's text displays."""
    message = as_message(message)
    texts = [c.content for c in walk(message.components) if isinstance(c, discord.TextDisplay)]
    return message.content or "\n".join(texts)


def readable(message: Any) -> Any:
    """`message` with its V2 text as `content` (a V2 message has none), for the tests."""
    if not message.content:
        message.content = text_of(message)
    return message


def alt_texts(message: Any) -> list[str]:
    """The alt text of every picture of a message (media gallery items, attachments)."""
    message = as_message(message)
    found = [item.description or "" for c in walk(message.components)
             if isinstance(c, discord.MediaGalleryComponent) for item in c.items]
    return found + [a.description or "" for a in message.attachments]


def component(message: Any, prefix: str) -> Any:
    """The single component whose custom id starts with `prefix`."""
    found = [c for c in children(message) if str(getattr(c, "custom_id", "")).startswith(prefix)]
    assert len(found) == 1, (prefix, custom_ids(message))
    return found[0]


def select_values(message: Any) -> dict[str, list[str]]:
    """custom id → option values, for every select of a message."""
    return {
        c.custom_id: [o.value for o in c.options]
        for c in children(message)
        if isinstance(c, discord.SelectMenu)
    }


def button_ids(message: Any) -> dict[str, str]:
    """custom id → label, for every interactive button of a message."""
    return {
        c.custom_id: c.label or ""
        for c in children(message)
        if isinstance(c, discord.Button) and c.custom_id
    }


@dataclass
class World:
    env: simcord.Env
    database: Path
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    members: dict[str, simcord.MemberActor] = field(default_factory=dict)
    hosts: set[str] = field(default_factory=set)  # members who used /play already

    @property
    def bot(self) -> TableBot:
        return self.env.bot  # type: ignore[return-value]

    async def before_play(self, host: str) -> None:
        """A member may /play once per cooldown: let it pass for a second table."""
        from bot.features.lobby.cog import OPEN_COOLDOWN

        if host in self.hosts:
            await self.env.advance_time(OPEN_COOLDOWN[1])
        self.hosts.add(host)

    def member(self, name: str, **kwargs: Any) -> simcord.MemberActor:
        if name not in self.members:
            self.members[name] = self.guild.add_member(self.env.create_user(name), **kwargs)
        return self.members[name]

    async def restart(self, seed: int = SEED + 1) -> TableBot:
        """Restart the bot process: a new TableBot on the same database file."""
        await self.env.settle()
        old = self.bot
        await old.close_storage()
        new = make_bot(self.database, seed, env=[self.env])
        self.env.bots.append(new)  # type: ignore[attr-defined]
        await self.env.restart_bot(new)
        return new

    async def table(self, table_id: int) -> Table:
        return await self.bot.service.get(table_id)

    def place(self, table: Table) -> simcord.ChannelHandle:
        """The channel or thread the table is played in."""
        if table.place_id == self.channel.id:
            return self.channel
        for thread in self.channel.threads:
            if thread.id == table.place_id:
                return thread
        raise AssertionError(f"no place {table.place_id}")

    def bot_messages(self, place: simcord.ChannelHandle, viewer: Any = None) -> list[Any]:
        me = self.bot.user.id
        return [readable(m) for m in place.history(viewer=viewer) if m.author.id == me]

    def boards(self, place: simcord.ChannelHandle) -> list[Any]:
        """Public board messages (with a picture) in `place`, oldest first."""
        return [m for m in self.bot_messages(place) if m.attachments and not m.flags.ephemeral]

    def last_board(self, place: simcord.ChannelHandle) -> Any:
        boards = self.boards(place)
        assert boards, "no board posted"
        return boards[-1]

    def dms(self, member: simcord.MemberActor) -> list[Any]:
        return [m for m in member.user.dm_channel.history()
                if m.author.id == self.bot.user.id]


async def resign(member: simcord.MemberActor, place: simcord.ChannelHandle) -> Any:
    """/resign, then the "Resign" button of its private question; the button's result."""
    asked = await member.slash(place, "resign")
    question = asked.response
    assert asked.ephemeral and question is not None
    ids = [c for c in custom_ids(question) if c.startswith("resign:")]
    assert ids, question.content
    return await member.click(question, custom_id=ids[0])


@pytest.fixture
def user_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """user id → the Discord locale their interactions carry (simcord always sends en-US;
    its `base_payload` builds every INTERACTION_CREATE, so the test sets `locale` there)."""
    from simcord import interactions

    locales: dict[int, str] = {}
    original = interactions.base_payload

    def base_payload(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        locale = locales.get(kwargs.get("user_id"))  # type: ignore[arg-type]
        if locale is not None:
            payload["locale"] = locale
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)
    return locales


@pytest.fixture
def world(env: simcord.Env, database: Path) -> World:
    guild = env.create_guild("Game night")
    channel = guild.create_text_channel("games")
    return World(env, database, guild, channel)


NUMBER = re.compile(r"(?<![\w#@:<])\d+(?![\w>])")


def numbers_in(text: str) -> set[int]:
    return {int(n) for n in NUMBER.findall(text)}


# -- playing through the UI ------------------------------------------------------------------

METHODS = ("component", "slash")


@dataclass
class Seen:
    """What the driver checked along a game, for the tests' final assertions."""

    boards: int = 0
    pictures: int = 0
    by_method: dict[str, int] = field(default_factory=dict)
    dms: int = 0
    ephemeral_hands: int = 0
    groups: int = 0

    def count(self, method: str) -> None:
        self.by_method[method] = self.by_method.get(method, 0) + 1


class Driver:
    """Plays a table to the end the way people do: reading the latest board, pressing its
    buttons and selects (or the DM hand, or /move), and checking what each player sees."""

    def __init__(self, world: World, table_id: int, seed: int = 1,
                 slash_every: int = 5) -> None:
        self.world = world
        self.table_id = table_id
        self.rng = random.Random(seed)
        self.slash_every = slash_every
        self.actions = 0
        self.seen = Seen()
        self.checked_boards: set[int] = set()

    def actor(self, user_id: int) -> simcord.MemberActor:
        for member in self.world.members.values():
            if member.id == user_id:
                return member
        raise AssertionError(f"no member {user_id}")

    async def check_board(self, table: Table, board: Any) -> None:
        """The latest board: its picture decodes, it names the players with badges and
        mentions whoever must act."""
        if board.id in self.checked_boards:
            return
        self.checked_boards.add(board.id)
        self.seen.boards += 1
        png_of(await board.attachments[0].read())
        self.seen.pictures += 1
        for index, seat in enumerate(table.seats):
            assert seat_label(index, seat.name, table.game) in board.content, board.content
        for seat in table.to_act():
            assert f"<@{table.seats[seat].user_id}>" in board.content

    async def step(self) -> Table:
        """One player action; returns the table afterwards."""
        world = self.world
        table = await world.table(self.table_id)
        assert table.status == "running", table.status
        place = world.place(table)
        board = world.last_board(place)
        await self.check_board(table, board)
        seats = table.to_act()
        assert seats, "a running table must wait for someone"
        seat = self.rng.choice(seats)
        user_id = table.seats[seat].user_id
        member = self.actor(user_id)
        moves = world.bot.service.legal_moves_for(table, user_id)
        move = self.rng.choice(moves)
        self.actions += 1
        if self.actions % self.slash_every == 0:
            await self.by_slash(place, member, move)
        elif table.engine.info.is_private(table.view(None).get("phase")):
            await self.by_hand(table, board, member, move)
        else:
            await self.by_board(table, board, member, move)
        after = await world.table(self.table_id)
        assert after.ply > table.ply, (move, table.ply)
        return after

    async def by_slash(self, place: Any, member: simcord.MemberActor, move: str) -> None:
        choices = await member.autocomplete(place, "move", "move", "")
        assert move in [c["value"] for c in choices] or len(choices) == 25, choices
        result = await member.slash(place, "move", move=move)
        # answered privately (a pick, a slow save), or by the move's board itself
        assert result.ephemeral or result.response.id in {
            board.id for board in self.world.boards(place)}, result
        self.seen.count("slash")

    async def by_board(self, table: Table, board: Any, member: simcord.MemberActor,
                       move: str) -> None:
        buttons = button_ids(board)
        wanted = f"mv:{table.id}:{table.ply}:{move}"
        if wanted in buttons:
            await member.click(board, custom_id=wanted)
            self.seen.count("button")
            return
        for custom_id, values in select_values(board).items():
            if custom_id.startswith("ms:") and move in values:
                await member.select(board, [move], custom_id=custom_id)
                self.seen.count("select")
                return
        groups = {k: v for k, v in select_values(board).items() if k.startswith("mg:")}
        assert groups, (move, buttons, select_values(board))
        (custom_id, keys), = groups.items()
        key = group_of(table.game, move)[0]
        assert key in keys, (move, keys)
        shown = await member.select(board, [key], custom_id=custom_id)
        assert shown.response is None or not shown.response.ephemeral, shown
        board = next(m for m in self.world.bot_messages(self.world.place(table))
                     if m.id == board.id)  # the same message, now with the group's moves
        for select_id, values in select_values(board).items():
            if select_id.startswith("ms:") and move in values:
                await member.select(board, [move], custom_id=select_id)
                self.seen.count("group")
                return
        raise AssertionError(f"{move} is in no group")

    async def by_hand(self, table: Table, board: Any, member: simcord.MemberActor,
                      move: str) -> None:
        """A face-down pick: from the DM hand if there is one, else via Pick privately."""
        dms = self.world.dms(member)
        hand = next((m for m in reversed(dms) if any(
            i.startswith(f"ms:{table.id}:") and i.endswith(":h") for i in custom_ids(m))), None)
        if hand is not None and self.rng.random() < 0.7:
            png_of(await hand.attachments[0].read())
            (select_id, values), = select_values(hand).items()
            assert move in values and all(v.startswith("play ") for v in values)
            await member.user.select(hand, [move], custom_id=select_id)
            edited = next(m for m in self.world.dms(member) if m.id == hand.id)
            assert "You picked" in edited.content and not edited.components
            self.seen.count("dm")
            return
        pick = component(board, f"pk:{table.id}:")
        shown = await member.click(board, custom_id=pick.custom_id)
        reply = shown.response
        assert reply is not None and reply.ephemeral
        png_of(await as_message(reply).attachments[0].read())
        (select_id, values), = select_values(reply).items()
        assert move in values
        await member.select(reply, [move], custom_id=select_id)
        self.seen.count("ephemeral")

    async def play_until(self, stop: Any = None, limit: int = 2000) -> Table:
        """Step until the game ends, or until `stop(table)` is true."""
        table = await self.world.table(self.table_id)
        for _ in range(limit):
            if table.status != "running" or (stop is not None and stop(table)):
                return table
            table = await self.step()
        raise AssertionError("the game did not end")

    async def finish(self) -> tuple[Table, Any]:
        """Play to the end: the table is finished and its last board says so, with a picture
        that decodes. Returns the table and that board."""
        table = await self.play_until()
        assert table.status == "finished"
        final = self.world.last_board(self.world.place(table))
        assert "Game over" in final.content
        png_of(await final.attachments[0].read())
        return table, final


async def open_and_start(world: World, game: str, host: str, others: list[str],
                         sides: dict[str, int] | None = None, **options: Any) -> int:
    """/play <game> by `host`, the others join (on a side if given), the host starts.
    Returns the table id."""
    sides = sides or {}
    host_member = world.member(host)
    await world.before_play(host)
    result = await host_member.slash(world.channel, f"play {game}", **options)
    lobby = result.response
    assert lobby is not None and not lobby.ephemeral, result
    ids = button_ids(lobby)
    table_id = int(next(iter(ids)).split(":")[1])
    if host in sides:
        await host_member.click(lobby, custom_id=f"lobby:{table_id}:join{sides[host]}")
    for name in others:
        member = world.member(name)
        side = sides.get(name)
        action = "join" if side is None else f"join{side}"
        await member.click(lobby, custom_id=f"lobby:{table_id}:{action}")
    lobby = result.response
    start = next(i for i in button_ids(lobby) if ":start" in i)
    await host_member.click(lobby, custom_id=start)
    table = await world.table(table_id)
    assert table.status == "running"
    return table_id


async def race(env: simcord.Env, presses: list[tuple[Any, Any, str, list[str] | None]]) -> list[
        simcord.InteractionResult]:
    """Deliver several component interactions at the same instant, then let the bot settle.

    Each press is (actor, message, custom_id, select values or None). simcord's actors run
    one operation at a time, so this builds the same INTERACTION_CREATE payloads they build
    (simcord.interactions.base_payload) and emits them all before settling: two players
    racing, or a double click.
    """
    from simcord import interactions as sim_interactions
    from simcord.actors import _find_component, _visible_message
    from simcord.backend import serializers
    from simcord.enums import SELECT_TYPES, ComponentType, InteractionType

    backend = env.backend
    records = []
    for actor, message, custom_id, values in presses:
        stored = _visible_message(actor, message)
        kinds = SELECT_TYPES if values is not None else (ComponentType.BUTTON,)
        found = _find_component(stored.components, types=kinds, custom_id=custom_id, label=None)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": found["type"]}
        if values is not None:
            data["values"] = list(values)
        guild = getattr(actor, "guild", None)
        record, payload = sim_interactions.base_payload(
            backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=stored.channel_id,
            guild_id=guild.id if guild is not None else None, user_id=actor.id, data=data)
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        records.append((record, payload))
    for _record, payload in records:
        backend.emit("INTERACTION_CREATE", payload)
    await env.settle()
    return [simcord.InteractionResult(env, record) for record, _ in records]
