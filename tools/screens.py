"""Screenshots of the tables as players see them, through simcord's preview.

    python -m tools.screens OUT [--games senet,six_nimmt] [--langs en,ja]
                                [--sizes 1280,400] [--tall] [--no-browser]

For every game and language this plays a scripted game on simcord's simulated Discord with
the real bot (a fresh database each time), and after every scene saves what one member sees,
drawn like the Discord client by simcord's preview, as OUT/<game>/<lang>/<scene>-<width>.png
(`<scene>-<w>x<h>.png` for a size given with its height, such as the tall phone 400x3000).
OUT/index.md lists the pictures with what each scene showed (messages in the place, boards
that can still be pressed, stray mentions, words left in English in Japanese).

Scenes are named steps, one async function each (SCENES below): lobby, first-board,
private-pick, pick-privately, mid-game, typed-move, old-button, take-back, end, parent, puzzle,
puzzle-answer, rematch. A scene may be
skipped with a reason (a game without private picks; take-back and rematch until the bot
has them: they look for a command or button by name, so they start working once the bot
offers one).

It is a tool, not a test: tests/tools/test_screens.py plays the scenes with --no-browser.
Screenshots need Playwright (`pip install 'simcord[screenshot]==3.2.1'`) and a Chromium;
Playwright's own browser download is not needed: Debian's `chromium` package is used through
its executable path (--chromium, default /usr/bin/chromium or `chromium` on PATH).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import logging
import os
import random
import re
import shutil
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

GAMES = ("senet", "six_nimmt", "varanasi", "cows_leopards")
LANGS = ("en", "ja")
SIZES = ("1280", "400")
TALL = "400x3000"
HEIGHTS = {1280: 900, 400: 860}  # a laptop window; a phone's screen
CAPTURE_SECONDS = 240.0  # per picture (simcord's own limit is 30 s)
SEED = 20240
INSTALL_BROWSER = "apt-get update && apt-get install -y chromium fonts-noto-cjk"
INSTALL_PLAYWRIGHT = "pip install 'simcord[screenshot]==3.2.1'"

log = logging.getLogger("tools.screens")


class Skip(Exception):
    """A scene that cannot be shown (yet): the reason is printed and written to the index."""


class SceneFailed(AssertionError):
    """A scene did not produce the messages it should have."""


def expect(condition: object, what: str) -> None:
    if not condition:
        raise SceneFailed(what)


# -- the game scripts ---------------------------------------------------------------------


@dataclass(frozen=True)
class Script:
    """How one game is opened and played for the pictures."""

    game: str
    others: tuple[str, ...]  # who joins after the host "aki"
    options: dict[str, Any] = field(default_factory=dict)  # /play options
    joins: dict[str, str] = field(default_factory=dict)  # member -> lobby action (join0 ...)
    computers: tuple[str, ...] = ()  # lobby actions adding computers (cpunormal ...)
    mid_ply: int = 10  # the mid-game scene is taken once the table reaches this ply
    seed: int = 1


SCRIPTS = {
    "senet": Script("senet", ("bo",), mid_ply=14, seed=5),
    "six_nimmt": Script("six_nimmt", ("bo", "cy"), {"rounds": 1, "points": 20}, mid_ply=12,
                        seed=2),
    "varanasi": Script("varanasi", ("bo",), {"sets": 1, "shuffle": False},
                       computers=("cpunormal",), mid_ply=8, seed=3),
    "cows_leopards": Script("cows_leopards", ("bo",), {"captures": 2, "board": "A",
                                                       "side": "leopards"},
                            joins={"bo": "join0"}, mid_ply=16, seed=11),
}


# -- the world ----------------------------------------------------------------------------


@contextlib.contextmanager
def patched_locales(locales: dict[int, str], guild_locale: str) -> Iterator[None]:
    """simcord sends every interaction as en-US: carry each member's locale and the
    server's preferred locale instead (as Discord does)."""
    from simcord import interactions

    original = interactions.base_payload

    def base_payload(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        locale = locales.get(kwargs.get("user_id"))  # type: ignore[arg-type]
        if locale is not None:
            payload["locale"] = locale
        if "guild_locale" in payload:
            payload["guild_locale"] = guild_locale
        return record, payload

    interactions.base_payload = base_payload
    try:
        yield
    finally:
        interactions.base_payload = original


@contextlib.contextmanager
def fast_computers() -> Iterator[None]:
    """Computer seats answer at once with a small thinking budget."""
    from bot.tables import computers as cpu

    budgets = dict(cpu.BUDGETS)
    delay = os.environ.get("BOT_COMPUTER_DELAY")
    os.environ["BOT_COMPUTER_DELAY"] = "0"
    for level in cpu.LEVELS:
        cpu.BUDGETS[level] = 0.01
    try:
        yield
    finally:
        cpu.BUDGETS.update(budgets)
        if delay is None:
            os.environ.pop("BOT_COMPUTER_DELAY", None)
        else:
            os.environ["BOT_COMPUTER_DELAY"] = delay


@dataclass
class Notes:
    """What a scene showed, for the index."""

    scene: str
    place: str = ""
    messages: int = 0  # bot messages the viewer sees in the place
    added: int = 0  # since the previous scene in the same place
    live: int = 0  # bot messages there with components that can still be pressed
    stray_mentions: int = 0  # <@-1> and other negative ids
    english: list[str] = field(default_factory=list)  # Japanese run: Latin words seen
    remark: str = ""
    files: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # pictures that could not be taken
    skipped: str = ""


@dataclass
class Shot:
    """What to photograph: `place` as `viewer` sees it, scrolled to `target`."""

    place: Any
    viewer: Any
    target: Any = None
    remark: str = ""


class Stage:
    """One game in one language: the simulated Discord, the bot, the members, the table."""

    def __init__(self, script: Script, lang: str, workdir: Path) -> None:
        self.script = script
        self.lang = lang
        self.locale = "ja" if lang == "ja" else "en-US"
        self.workdir = workdir
        self.env: Any = None
        self.guild: Any = None
        self.channel: Any = None
        self.members: dict[str, Any] = {}
        self.locales: dict[int, str] = {}
        self.table_id: int | None = None
        self.lobby: Any = None  # the /play result (its response is the lobby message)
        self.rng = random.Random(script.seed)
        self.seen_counts: dict[int, int] = {}
        self.errors: list[logging.LogRecord] = []
        self.mid_counts: tuple[int, int] | None = None  # (messages, ply) at the first board
        self.puzzle: Any = None  # the /puzzle play reply, answered by the next scene

    # the world
    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Stage]:
        import simcord

        from bot.client import TableBot
        from bot.config import Config
        from bot.storage import open_database

        database = self.workdir / f"{self.script.game}-{self.lang}.sqlite3"
        created = await open_database(database)
        await created.close()
        holder: list[Any] = []

        def clock() -> Any:
            return holder[0].now() if holder else datetime.now(UTC)

        bot = TableBot(Config(token=None, database=str(database), workers=0),
                       rng=random.Random(SEED), clock=clock)
        trap = _ErrorTrap(self.errors)
        loggers = [logging.getLogger("discord"), logging.getLogger("bot")]
        with patched_locales(self.locales, self.locale), fast_computers():
            for logger in loggers:
                logger.addHandler(trap)
            self.env = simcord.Env(bot)
            holder.append(self.env)
            await self.env.start()
            try:
                self.guild = self.env.create_guild(
                    "Game night" if self.lang == "en" else "ゲームの夜",
                    preferred_locale=self.locale)
                self.channel = self.guild.create_text_channel("games")
                if self.lang != "en":
                    await self.set_language()
                yield self
            finally:
                await self.env.shutdown()
                await bot.close_storage()
                for logger in loggers:
                    logger.removeHandler(trap)
        if self.errors:
            raise SceneFailed("the bot logged errors:\n" + "\n".join(
                f"{r.name}: {r.getMessage()}" for r in self.errors))

    async def set_language(self) -> None:
        """/settings language:<lang> by a server manager (the server's own choice)."""
        import discord

        role = self.guild.create_role("Admins", permissions=discord.Permissions(
            manage_guild=True))
        boss = self.member("boss", roles=[role])
        changed = await boss.slash(self.channel, "settings", language=self.lang)
        expect(changed.ephemeral, "/settings answers privately")

    def member(self, name: str, **kwargs: Any) -> Any:
        if name not in self.members:
            member = self.guild.add_member(self.env.create_user(name), **kwargs)
            self.members[name] = member
            self.locales[member.id] = self.locale
        return self.members[name]

    @property
    def bot(self) -> Any:
        return self.env.bot

    async def table(self) -> Any:
        assert self.table_id is not None
        return await self.bot.service.get(self.table_id)

    async def place(self) -> Any:
        table = await self.table()
        if table.place_id == self.channel.id:
            return self.channel
        for thread in self.channel.threads:
            if thread.id == table.place_id:
                return thread
        raise SceneFailed(f"no place {table.place_id}")

    def actor(self, user_id: int) -> Any:
        return next(m for m in self.members.values() if m.id == user_id)

    def bot_messages(self, place: Any, viewer: Any = None) -> list[Any]:
        me = self.bot.user.id
        return [m for m in place.history(viewer=viewer) if m.author.id == me]

    def boards(self, place: Any) -> list[Any]:
        return [m for m in self.bot_messages(place) if m.attachments and not m.flags.ephemeral]

    def dms(self, member: Any) -> list[Any]:
        return [m for m in member.user.dm_channel.history() if m.author.id == self.bot.user.id]

    # playing through the UI
    async def step(self) -> Any:
        """One player action, as a player would do it; returns the table afterwards."""
        table = await self.table()
        place = await self.place()
        boards = self.boards(place)
        expect(boards, "a running table shows a board")
        board = boards[-1]
        seats = [s for s in table.to_act() if table.seats[s].user_id > 0]
        expect(seats, "someone must act")
        seat = self.rng.choice(seats)
        member = self.actor(table.seats[seat].user_id)
        moves = self.bot.service.legal_moves_for(table, member.id)
        move = self.rng.choice(moves)
        if table.engine.info.is_private(table.view(None).get("phase")):
            await self.by_hand(table, board, member, move)
        elif not await self.by_board(table, board, member, move):
            await member.slash(place, "move", move=move)
        await self.env.settle()
        after = await self.table()
        expect(after.ply > table.ply or after.status != "running", f"{move} was not played")
        return after

    async def by_board(self, table: Any, board: Any, member: Any, move: str) -> bool:
        from bot.features.table.controls import group_of

        wanted = f"mv:{table.id}:{table.ply}:{move}"
        if wanted in custom_ids(board):
            await member.click(board, custom_id=wanted)
            return True
        for custom_id, values in select_values(board).items():
            if custom_id.startswith("ms:") and move in values:
                await member.select(board, [move], custom_id=custom_id)
                return True
        for custom_id, keys in select_values(board).items():
            key = group_of(table.game, move)[0]
            if custom_id.startswith("mg:") and key in keys:
                shown = await member.select(board, [key], custom_id=custom_id)
                reply = shown.response
                for select_id, values in select_values(reply).items():
                    if move in values:
                        await member.select(reply, [move], custom_id=select_id)
                        return True
        return False

    async def by_hand(self, table: Any, board: Any, member: Any, move: str) -> None:
        """A face-down pick from the DM hand, else through "Pick privately"."""
        hand = self.dm_hand(table, member)
        if hand is not None:
            (select_id, values), = select_values(hand).items()
            if move in values:
                await member.user.select(hand, [move], custom_id=select_id)
                return
        reply = await self.pick_privately(table, board, member)
        (select_id, values), = select_values(reply).items()
        await member.select(reply, [move], custom_id=select_id)

    def dm_hand(self, table: Any, member: Any) -> Any:
        return next((m for m in reversed(self.dms(member)) if any(
            i.startswith(f"ms:{table.id}:") and i.endswith(":h") for i in custom_ids(m))), None)

    async def pick_privately(self, table: Any, board: Any, member: Any) -> Any:
        pick = [i for i in custom_ids(board) if i.startswith(f"pk:{table.id}:")]
        expect(pick, "a pick turn's board offers Pick privately")
        shown = await member.click(board, custom_id=pick[0])
        reply = shown.response
        expect(reply is not None and reply.ephemeral, "Pick privately answers privately")
        return reply

    async def play_until(self, stop: Callable[[Any], bool], limit: int = 3000) -> Any:
        table = await self.table()
        for _ in range(limit):
            if table.status != "running" or stop(table):
                return table
            table = await self.step()
        raise SceneFailed("the game did not end")


class _ErrorTrap(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(level=logging.ERROR)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def as_message(message: Any) -> Any:
    return getattr(message, "message", message)


def children(message: Any) -> list[Any]:
    out: list[Any] = []

    def walk(item: Any) -> None:
        nested = getattr(item, "children", None)
        if nested is None:
            out.append(item)
        else:
            for child in nested:
                walk(child)

    for row in as_message(message).components:
        walk(row)
    return out


def custom_ids(message: Any) -> list[str]:
    return [c.custom_id for c in children(message) if getattr(c, "custom_id", None)]


def select_values(message: Any) -> dict[str, list[str]]:
    return {c.custom_id: [o.value for o in c.options]
            for c in children(message) if getattr(c, "options", None) is not None
            and getattr(c, "custom_id", None)}


def live_components(message: Any) -> bool:
    return any(getattr(c, "custom_id", None) and not getattr(c, "disabled", False)
               for c in children(message))


def button_labels(message: Any) -> dict[str, str]:
    return {c.custom_id: str(getattr(c, "label", "") or "") for c in children(message)
            if getattr(c, "custom_id", None)}


# -- the scenes ---------------------------------------------------------------------------
# Each scene plays what it needs and returns what to photograph (or raises Skip / fails).

Scene = Callable[[Stage], Awaitable[Shot]]


async def lobby(stage: Stage) -> Shot:
    """/play by the host, the others join (and computers are added): before Start."""
    script = stage.script
    host = stage.member("aki")
    result = await host.slash(stage.channel, f"play {script.game}", **script.options)
    message = result.response
    expect(message is not None and not message.ephemeral, "/play posts a public lobby")
    ids = custom_ids(message)
    expect(ids and all(i.startswith("lobby:") for i in ids), f"lobby buttons: {ids}")
    stage.table_id = int(ids[0].split(":")[1])
    stage.lobby = result
    for name in script.others:
        action = script.joins.get(name, "join")
        await stage.member(name).click(result.response, custom_id=f"lobby:{stage.table_id}:"
                                                              f"{action}")
    for action in script.computers:
        await host.click(result.response, custom_id=f"lobby:{stage.table_id}:{action}")
    expect(any(":start" in i for i in custom_ids(result.response)), "the lobby has Start")
    return Shot(stage.channel, host, result.response)


async def first_board(stage: Stage) -> Shot:
    """The host presses Start: the first board in the game's place."""
    host = stage.members["aki"]
    start = next(i for i in custom_ids(stage.lobby.response) if ":start" in i)
    await host.click(stage.lobby.response, custom_id=start)
    await stage.env.settle()
    table = await stage.table()
    expect(table.status == "running", f"the table starts ({table.status})")
    place = await stage.place()
    boards = stage.boards(place)
    expect(boards, "the first board is posted")
    first = await stage.table()
    stage.mid_counts = (len(stage.bot_messages(place)), first.ply)
    viewer = stage.actor(table.seats[table.to_act()[0]].user_id) if table.to_act() else host
    return Shot(place, viewer, boards[-1])


async def private_pick(stage: Stage) -> Shot:
    """A decision only one player sees: the DM hand (6 nimmt!), else the moves a grouped
    select shows (on the same board, or an ephemeral reply)."""
    table = await stage.table()
    place = await stage.place()
    if table.engine.info.is_private(table.view(None).get("phase")):
        member = stage.actor(table.seats[table.to_act()[0]].user_id)
        hand = stage.dm_hand(table, member)
        if hand is not None:
            return Shot(member.user.dm_channel, member.user, hand,
                        remark="the hand in a DM")
        reply = await stage.pick_privately(table, stage.boards(place)[-1], member)
        return Shot(place, member, reply, remark="Pick privately (ephemeral)")
    from bot.features.table.controls import group_of

    while table.ply < stage.script.mid_ply:  # play on until a move needs the private list
        board = stage.boards(place)[-1]
        groups = {k: v for k, v in select_values(board).items() if k.startswith("mg:")}
        if groups and table.status == "running":
            member = next(stage.actor(table.seats[s].user_id) for s in table.to_act()
                          if table.seats[s].user_id > 0)
            moves = stage.bot.service.legal_moves_for(table, member.id)
            (custom_id, keys), = groups.items()
            key = group_of(table.game, moves[0])[0]
            shown = await member.select(board, [key], custom_id=custom_id)
            if shown.response is not None and shown.response.ephemeral:
                return Shot(place, member, shown.response, remark="a group's moves (ephemeral)")
            board = stage.boards(place)[-1]  # the group's moves on the same board
            expect(any(k.startswith("ms:") for k in select_values(board)),
                   "a group shows its moves on the board")
            return Shot(place, member, board, remark="a group's moves on the same board")
        if table.status != "running":
            break
        table = await stage.step()
    raise Skip("no private pick in this game (no face-down pick, no grouped select)")


async def pick_privately(stage: Stage) -> Shot:
    """A face-down pick through the board's "Pick privately" (for closed DMs): the
    ephemeral hand only the presser sees."""
    table = await stage.table()
    if not table.engine.info.is_private(table.view(None).get("phase")):
        raise Skip("no face-down pick in this game")
    place = await stage.place()
    waiting = [s for s in table.to_act() if table.seats[s].user_id > 0]
    member = stage.actor(table.seats[waiting[-1]].user_id)
    reply = await stage.pick_privately(table, stage.boards(place)[-1], member)
    expect(select_values(reply), "the private hand offers its cards")
    return Shot(place, member, reply, remark="Pick privately (ephemeral)")


async def mid_game(stage: Stage) -> Shot:
    """Played on to the script's ply: the place as a player scrolls it mid-game."""
    table = await stage.play_until(lambda t: t.ply >= stage.script.mid_ply)
    expect(table.status == "running", "still running mid-game")
    place = await stage.place()
    host = stage.members["aki"]
    remark = ""
    if stage.mid_counts is not None:
        messages, ply = stage.mid_counts
        now = len(stage.bot_messages(place))
        if table.ply > ply:
            remark = (f"{now - messages} bot messages for {table.ply - ply} moves "
                      f"({(now - messages) / (table.ply - ply):.2f} per move)")
    return Shot(place, host, stage.bot_messages(place)[-1], remark=remark)


async def typed_move(stage: Stage) -> Shot:
    """The member to act types `/move` (the first move its autocomplete offers): its answer
    is the new board itself, or a private "Played" when the board came late."""
    table = await stage.table()
    seats = [s for s in table.to_act() if table.seats[s].user_id > 0]
    if table.status != "running" or not seats:
        raise Skip("no member to act")
    if table.engine.info.is_private(table.view(None).get("phase")):
        raise Skip("a face-down pick is typed privately")
    place = await stage.place()
    member = stage.actor(table.seats[seats[0]].user_id)
    choices = await member.autocomplete(place, "move", "move", "")
    expect(choices, "/move offers choices")
    result = await member.slash(place, "move", move=choices[0]["value"])
    await stage.env.settle()
    answer = result.response
    expect(answer is not None, "/move is answered")
    kind = "private" if answer.ephemeral else ("the board" if answer.attachments else "public")
    remark = f"typed {choices[0]['name']}: answered by {kind}"
    return Shot(place, member, answer if answer.ephemeral else stage.boards(place)[-1],
                remark=remark)


async def old_button(stage: Stage) -> Shot:
    """A player presses a button (or select) of an earlier board, as happens when scrolling
    up: what answers them, and the table must not move."""
    table = await stage.table()
    place = await stage.place()
    boards = stage.boards(place)
    old = next((b for b in reversed(boards[:-1]) if live_components(b)), None)
    if old is None:
        raise Skip("no earlier board keeps buttons")
    member = next(stage.actor(table.seats[s].user_id) for s in table.to_act()
                  if table.seats[s].user_id > 0)
    pressable = [c for c in children(old) if getattr(c, "custom_id", None)
                 and not getattr(c, "disabled", False)]
    chosen = pressable[0]
    options = getattr(chosen, "options", None)
    if options:
        result = await member.select(old, [options[0].value], custom_id=chosen.custom_id)
    else:
        result = await member.click(old, custom_id=chosen.custom_id)
    await stage.env.settle()
    replies = [m for m in [result.response, *result.followups]
               if m is not None and getattr(m, "ephemeral", False)]
    after = await stage.table()
    moved = "" if after.ply == table.ply else f" — the table MOVED (ply {table.ply} → {after.ply})"
    said = (replies[-1].content or "").replace("\n", " ")[:90] if replies else "no private answer"
    remark = f"pressed {chosen.custom_id} on board {boards.index(old) + 1}/{len(boards)}: " \
             f"{said}{moved}"
    return Shot(place, member, replies[-1] if replies else old, remark=remark)


TAKE_BACK_COMMANDS = ("takeback", "take-back", "take_back", "undo")
TAKE_BACK_IDS = re.compile(r"(take.?back|undo|^tb:)", re.I)
ACCEPT_IDS = re.compile(r"(accept|agree|yes|ok|allow)", re.I)
REMATCH_IDS = re.compile(r"(rematch|^rm:|again)", re.I)


def command_names(stage: Stage) -> set[str]:
    return {c.name for c in stage.bot.tree.get_commands()}


async def take_back(stage: Stage) -> Shot:
    """HOOK (issue 25): the last mover asks to take the move back and the other player
    agrees. Found by a /takeback (/undo) command or a board button whose custom id or label
    says take-back/undo; skipped while the bot has neither."""
    table = await stage.table()
    place = await stage.place()
    if table.status != "running" or not table.log:
        raise Skip("no move to take back")
    actor_seat = next((a for a, _ in reversed(table.log) if isinstance(a, int) and a >= 0), None)
    if actor_seat is None or table.seats[actor_seat].user_id < 0:
        raise Skip("the last move was not a member's")  # chance (seat -1) is no one's
    mover = stage.actor(table.seats[actor_seat].user_id)
    names = command_names(stage)
    command = next((n for n in TAKE_BACK_COMMANDS if n in names), None)
    before = len(stage.bot_messages(place))
    if command is not None:
        result = await mover.slash(place, command)
    else:
        board = stage.boards(place)[-1]
        button = next((i for i, label in button_labels(board).items()
                       if TAKE_BACK_IDS.search(i) or TAKE_BACK_IDS.search(label)), None)
        if button is None:
            raise Skip("the bot has no take-back yet (no /takeback or /undo command, no "
                       "take-back button)")
        result = await mover.click(board, custom_id=button)
    await stage.env.settle()
    refusal = next((m.content for m in [result.response, *result.followups]
                    if m is not None and getattr(m, "ephemeral", False) and m.content), "")
    # the other player's answer, wherever the question appeared
    asked = [m for m in stage.bot_messages(place)[before:] if live_components(m)]
    if result.response is not None and live_components(result.response):
        asked.append(result.response)
    others = [stage.actor(s.user_id) for s in table.seats
              if s.user_id > 0 and s.user_id != mover.id]
    for message in reversed(asked):
        accept = next((i for i, label in button_labels(message).items()
                       if ACCEPT_IDS.search(i) or ACCEPT_IDS.search(label)), None)
        if accept is not None and others:
            await others[0].click(message, custom_id=accept)
            break
    await stage.env.settle()
    after = await stage.table()
    remark = (f"ply {table.ply} → {after.ply}" if after.ply != table.ply
              else "the table did not go back; the mover was told: "
                   f"{refusal.replace(chr(10), ' ')[:120] or 'nothing'}")
    return Shot(place, mover, stage.bot_messages(place)[-1], remark=remark)


async def end(stage: Stage) -> Shot:
    """Played to the end: the final board."""
    table = await stage.play_until(lambda t: False)
    expect(table.status == "finished", f"the game ends ({table.status})")
    place = await stage.place()
    final = stage.boards(place)[-1]
    expect(final.attachments, "the final board has a picture")
    return Shot(place, stage.members["aki"], final)


async def parent(stage: Stage) -> Shot:
    """The channel the game was opened in, after the game."""
    messages = stage.bot_messages(stage.channel)
    expect(messages, "the parent channel shows the lobby")
    return Shot(stage.channel, stage.members["aki"], messages[-1])


async def rematch(stage: Stage) -> Shot:
    """HOOK (issue 25): a player presses Rematch after the end. Found by a button whose
    custom id or label says rematch (on the final board or the parent channel's message),
    or a /rematch command; skipped while the bot has neither."""
    place = await stage.place()
    host = stage.members["aki"]
    places = list({place.id: place, stage.channel.id: stage.channel}.values())
    before = {p.id: len(stage.bot_messages(p)) for p in places}
    candidates = [m for p in places for m in reversed(stage.bot_messages(p))]
    for message in candidates:
        button = next((i for i, label in button_labels(message).items()
                       if REMATCH_IDS.search(i) or REMATCH_IDS.search(label)), None)
        if button is not None:
            result = await host.click(message, custom_id=button)
            break
    else:
        if "rematch" not in command_names(stage):
            raise Skip("the bot has no rematch yet (no Rematch button, no /rematch)")
        result = await host.slash(place, "rematch")
    await stage.env.settle()
    shown = result.response if result.response is not None else None
    # where the rematch was posted (the game's thread, or the channel it was opened in)
    where = next((p for p in places if len(stage.bot_messages(p)) > before[p.id]),
                 stage.channel)
    newest = stage.bot_messages(where)[-1] if stage.bot_messages(where) else shown
    return Shot(where, host, newest)


async def puzzle(stage: Stage) -> Shot:
    """After the end: /puzzle play for this game (the finished game is mined in the
    background; a refusal is shown when it made no puzzle)."""
    await stage.bot.puzzle_miner.idle()
    aki = stage.members["aki"]
    result = await aki.slash(stage.channel, "puzzle play", game=stage.script.game)
    await stage.env.settle()
    expect(result.response is not None and result.ephemeral, "a private puzzle or refusal")
    stage.puzzle = result.response
    return Shot(stage.channel, aki, result.response)


async def puzzle_answer(stage: Stage) -> Shot:
    """One press answers the puzzle: right or wrong, the reason, the rating, Next puzzle."""
    shown = stage.puzzle
    choices = [i for i in custom_ids(shown) if i.startswith("pz:a:") or i.startswith("pz:s:")]
    if not choices:
        raise Skip("no puzzle came from this game")
    aki = stage.members["aki"]
    if choices[0].startswith("pz:s:"):
        await aki.select(shown, [select_values(shown)[choices[0]][0]], custom_id=choices[0])
    else:
        await aki.click(shown, custom_id=choices[0])
    await stage.env.settle()
    return Shot(stage.channel, aki, shown)


HOOKS = {"take-back", "rematch"}  # scenes written before the bot had the feature
SCENES: list[tuple[str, Scene]] = [
    ("lobby", lobby),
    ("first-board", first_board),
    ("private-pick", private_pick),
    ("pick-privately", pick_privately),
    ("mid-game", mid_game),
    ("typed-move", typed_move),
    ("old-button", old_button),
    ("take-back", take_back),
    ("end", end),
    ("parent", parent),
    ("puzzle", puzzle),
    ("puzzle-answer", puzzle_answer),
    ("rematch", rematch),
]


# -- looking ------------------------------------------------------------------------------

LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z']{2,}")
MARKUP = re.compile(r"<[@#:/!&][^>]*>|https?://\S+|`[^`]*`")
NAMES = {"aki", "bo", "cy", "boss", "Senet", "Varanasi", "nimmt"}


def observe(stage: Stage, notes: Notes, shot: Shot) -> None:
    place = shot.place
    messages = stage.bot_messages(place, viewer=shot.viewer)
    notes.place = ("DM" if place.guild is None else
                   ("#" + str(getattr(place, "name", "")) + (" (thread)" if place.is_thread
                                                             else "")))
    notes.messages = len(messages)
    notes.added = len(messages) - stage.seen_counts.get(place.id, 0)
    stage.seen_counts[place.id] = len(messages)
    notes.live = sum(live_components(m) for m in messages)
    texts = []
    for message in messages:
        texts.append(message.content or "")
        for embed in message.embeds:
            texts += [embed.title or "", embed.description or "",
                      (embed.footer.text or "") if embed.footer else ""]
            texts += [f"{f.name} {f.value}" for f in embed.fields]
        texts += list(button_labels(message).values())
        for child in children(message):
            texts += [str(getattr(o, "label", "")) for o in getattr(child, "options", []) or []]
            texts.append(str(getattr(child, "placeholder", "") or ""))
    joined = "\n".join(texts)
    notes.stray_mentions = len(re.findall(r"<@!?-\d+>", joined))
    if stage.lang != "en":
        words = {w for w in LATIN_WORD.findall(MARKUP.sub(" ", joined)) if w not in NAMES}
        notes.english = sorted(words)
    notes.remark = shot.remark


@dataclass(frozen=True)
class Size:
    width: int
    height: int
    named: bool  # given with its height: in the file name

    @property
    def suffix(self) -> str:
        return f"{self.width}x{self.height}" if self.named else str(self.width)


def parse_size(text: str) -> Size:
    if "x" in text:
        width, height = (int(p) for p in text.split("x", 1))
        return Size(width, height, True)
    width = int(text)
    return Size(width, HEIGHTS.get(width, 900), False)


class Camera:
    """One Chromium for the whole run, lent to every preview's capture."""

    def __init__(self, chromium: str) -> None:
        self.chromium = chromium
        self._playwright: Any = None
        self.browser: Any = None
        self._saved: tuple[Any, Any] | None = None
        self._deadline = 30.0

    async def __aenter__(self) -> Camera:
        from playwright.async_api import async_playwright
        from simcord.preview import _capture
        from simcord.preview._capture import ManagedCapture

        # 30 s is too short for a 50-message window of boards on 2 busy cores
        self._deadline = _capture._CAPTURE_DEADLINE
        _capture._CAPTURE_DEADLINE = CAPTURE_SECONDS

        self._playwright = await async_playwright().start()
        self.browser = await self._playwright.chromium.launch(executable_path=self.chromium)
        camera = self

        async def ensure_browser(capture: Any) -> Any:  # simcord launches the default one
            return camera.browser

        async def close(capture: Any) -> None:  # the shared browser outlives each preview
            return None

        self._saved = (ManagedCapture._ensure_browser, ManagedCapture.close)
        ManagedCapture._ensure_browser = ensure_browser  # type: ignore[method-assign]
        ManagedCapture.close = close  # type: ignore[method-assign]
        return self

    async def __aexit__(self, *exc: Any) -> None:
        from simcord.preview import _capture
        from simcord.preview._capture import ManagedCapture

        _capture._CAPTURE_DEADLINE = self._deadline
        if self._saved is not None:
            ManagedCapture._ensure_browser, ManagedCapture.close = self._saved
        await self.browser.close()
        await self._playwright.stop()

    async def take(self, stage: Stage, shot: Shot, size: Size, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        preview = stage.env.preview(shot.place, viewers=[shot.viewer], layout="channel",
                                    display="fixed", width=size.width, height=size.height,
                                    locale=stage.locale)
        async with preview:
            await preview.screenshot(path, target=shot.target, mode="viewport",
                                     allow_incomplete=True)


# -- running ------------------------------------------------------------------------------


@dataclass
class Result:
    game: str
    lang: str
    notes: list[Notes]
    seconds: float


async def run_game(game: str, lang: str, out: Path, sizes: list[Size],
                   camera: Camera | None) -> Result:
    started = time.monotonic()
    notes: list[Notes] = []
    with tempfile.TemporaryDirectory(prefix="screens-") as workdir:
        stage = Stage(SCRIPTS[game], lang, Path(workdir))
        async with stage.running():
            for name, scene in SCENES:
                note = Notes(name)
                notes.append(note)
                try:
                    shot = await scene(stage)
                except Skip as skip:
                    note.skipped = str(skip)
                    print(f"  {game}/{lang} {name}: skipped: {skip}", flush=True)
                    continue
                except Exception as error:
                    if name not in HOOKS:
                        raise
                    # a feature merged in a shape the hook did not guess: say so, go on
                    note.skipped = f"the hook failed ({error!r}): adapt `{scene.__name__}`"
                    print(f"  {game}/{lang} {name}: {note.skipped}", file=sys.stderr,
                          flush=True)
                    continue
                await stage.env.settle()
                observe(stage, note, shot)
                if camera is not None:
                    for size in sizes:
                        path = out / game / lang / f"{name}-{size.suffix}.png"
                        try:
                            await camera.take(stage, shot, size, path)
                        except Exception as error:  # one picture lost, not the run
                            note.failed.append(f"{size.suffix}: {error}")
                            print(f"  {game}/{lang} {name}-{size.suffix}: no picture: {error}",
                                  file=sys.stderr, flush=True)
                            continue
                        note.files.append(str(path.relative_to(out)))
                print(f"  {game}/{lang} {name}: {note.messages} messages in {note.place}"
                      f"{', ' + note.remark if note.remark else ''}", flush=True)
    return Result(game, lang, notes, time.monotonic() - started)


def write_index(out: Path, results: list[Result], browser: bool) -> Path:
    lines = ["# The table as players see it", "",
             "Made by `python -m tools.screens`" + ("" if browser else " --no-browser (no "
                                                    "pictures)") + ".",
             "Columns: bot messages the viewer sees in the place; added since the previous "
             "scene there; messages whose buttons or selects can still be pressed; `<@-1>`-like "
             "mentions; Latin words in a Japanese run (names of games and members left out).",
             ""]
    for result in results:
        lines += [f"## {result.game} — {result.lang} ({result.seconds:.0f} s)", "",
                  "| scene | place | messages | added | pressable | stray mentions | "
                  "Latin words | note | pictures |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for n in result.notes:
            if n.skipped:
                lines.append(f"| {n.scene} | — | | | | | | skipped: {n.skipped} | |")
                continue
            pictures = " ".join(f"[{Path(f).stem.rsplit('-', 1)[1]}]({f})" for f in n.files)
            pictures += "".join(f" (no picture {f})" for f in n.failed)
            words = ", ".join(n.english[:15]) + (" …" if len(n.english) > 15 else "")
            lines.append(f"| {n.scene} | {n.place} | {n.messages} | {n.added} | {n.live} | "
                         f"{n.stray_mentions} | {words} | {n.remark} | {pictures} |")
        lines.append("")
        for n in result.notes:
            for f in n.files:
                lines.append(f"![{result.game} {result.lang} {n.scene}]({f})")
        lines.append("")
    index = out / "index.md"
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text("\n".join(lines), encoding="utf-8")
    return index


def find_chromium(given: str | None) -> str | None:
    """The Chromium to drive: --chromium (only it, when given), SCREENS_CHROMIUM, Debian's."""
    candidates = [given] if given else [os.environ.get("SCREENS_CHROMIUM"), "/usr/bin/chromium",
                                        shutil.which("chromium"), shutil.which("chromium-browser")]
    for candidate in candidates:
        if candidate and Path(candidate).exists() and os.access(candidate, os.X_OK):
            return candidate
    return None


def missing_browser(given: str | None) -> str | None:
    """One line saying what to install, or None when screenshots can be taken."""
    playwright = importlib.util.find_spec("playwright") is not None
    chromium = find_chromium(given)
    needs = []
    if chromium is None:
        needs.append(f"`{INSTALL_BROWSER}`")
    if not playwright:
        needs.append(f"`{sys.executable} -m {INSTALL_PLAYWRIGHT}`")
    if not needs:
        return None
    what = " and ".join(w for w, ok in (("Chromium", chromium), ("Playwright", playwright))
                        if not ok)
    return (f"tools.screens: {what} missing: install with " + " then ".join(needs)
            + " (or pass --no-browser to play the scenes without pictures)")


def parse_list(text: str, allowed: tuple[str, ...], what: str) -> list[str]:
    chosen = [p.strip() for p in text.split(",") if p.strip()]
    wrong = [p for p in chosen if p not in allowed]
    if wrong:
        raise SystemExit(f"tools.screens: unknown {what} {', '.join(wrong)} "
                         f"(choose from {', '.join(allowed)})")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.screens", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="folder for the pictures and index.md")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--sizes", default=",".join(SIZES),
                        help="widths (heights 900 / 860) or WxH, comma-separated")
    parser.add_argument("--tall", action="store_true", help=f"also a tall phone ({TALL})")
    parser.add_argument("--no-browser", action="store_true",
                        help="play the scenes and check them, without pictures")
    parser.add_argument("--chromium", help="the Chromium to drive (default /usr/bin/chromium)")
    args = parser.parse_args(argv)
    games = parse_list(args.games, GAMES, "game")
    langs = parse_list(args.langs, LANGS, "language")
    sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
    if args.tall and TALL not in args.sizes:
        sizes.append(parse_size(TALL))
    if not args.no_browser:
        missing = missing_browser(args.chromium)
        if missing:
            print(missing, file=sys.stderr)
            return 2
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.ERROR)  # no voice/intents warnings
    results = asyncio.run(run_all(games, langs, args.out, sizes,
                                  None if args.no_browser else find_chromium(args.chromium)))
    index = write_index(args.out, results, not args.no_browser)
    skipped = sum(bool(n.skipped) for r in results for n in r.notes)
    failed = sum(len(n.failed) for r in results for n in r.notes)
    print(f"tools.screens: {index} ({skipped} scenes skipped, {failed} pictures failed)")
    return 1 if failed else 0


async def run_all(games: list[str], langs: list[str], out: Path, sizes: list[Size],
                  chromium: str | None) -> list[Result]:
    results = []
    camera = Camera(chromium) if chromium else None
    async with camera if camera is not None else contextlib.nullcontext():  # type: ignore[attr-defined]
        for game in games:
            for lang in langs:
                print(f"{game} ({lang})", flush=True)
                results.append(await run_game(game, lang, out, sizes, camera))
    return results


if __name__ == "__main__":
    sys.exit(main())
