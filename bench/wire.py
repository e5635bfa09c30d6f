"""The wire harness of bench/load.py: the bot runs as real `python -m bot` processes (one per
shard of one cluster, on one database) against the fake Discord of tests/wire (aiohttp REST
and a zlib-stream gateway), which runs in this process together with the players.

Tables are seeded straight into the database (lobby, second player, start: the table
service's own calls) before the bots start; each bot then posts their first boards itself
(its start-up recovery of unposted boards). A player's action is an INTERACTION_CREATE sent
over the gateway of the shard that serves the table's server (direct messages: shard 0),
built from the components of the table's latest board (or of the player's hand, sent by DM),
or typed: as a member types `/move`, Discord asks the bot for choices (an autocomplete
interaction), and the member sends `/move` with one of them.
Times are taken when the fake has read the bot's REST request: the interaction callback is
the answer (for an autocomplete, its choices); the next message with the table's board in its
place (a follow-up or a channel message), or the edit of a pick board, is the board.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.wire.fake_discord import Call, FakeDiscord, channel_id_of, shard_of, user

# Full-length games (default options), so that the tables stay running during the run.
GAMES = ("senet", "varanasi", "cows_leopards", "six_nimmt")
TABLES_PER_GUILD = 40  # under the default cap of open tables per server (50)
FIRST_GUILD = 3000  # servers' ids are (FIRST_GUILD + n) << 22 | 5: spread over the shards
FIRST_USER = 2_000_000_000_000_000_000
MENTION = re.compile(r"<@(\d+)>")
LOST_AFTER_S = 120.0  # a board later than this is counted lost (the table acts again)
EPHEMERAL = 1 << 6
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class TableInfo:
    id: int
    guild_id: int
    place: int
    shard: int


@dataclass
class Pending:
    table_id: int
    sent: float
    group: bool = False  # a group (piece) was chosen: the move comes from the private reply
    typed: bool = False  # /move typed: autocomplete first, then the command


@dataclass
class Figures:
    ack: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)  # board pictures' bytes
    autocomplete: list[float] = field(default_factory=list)  # ms until /move's choices came
    lost: int = 0  # actions refused, or whose board never came
    refusals: Counter[str] = field(default_factory=Counter)  # what the bots said, how often
    rest: Counter[str] = field(default_factory=Counter)  # the bots' REST calls, per route


def route(method: str, path: str) -> str:
    """A REST call's route, ids and tokens left out: `PATCH /channels/{}/messages/{}`."""
    parts = path.split("/")
    if len(parts) > 3 and parts[1] in ("webhooks", "interactions"):
        parts[3] = "{}"  # the interaction's token
    return f"{method} " + "/".join("{}" if part.isdigit() else part for part in parts)


def guild_ids(tables: int) -> list[int]:
    return [((FIRST_GUILD + n) << 22) | 5 for n in range(-(-tables // TABLES_PER_GUILD))]


async def seed(database: str, tables: int, shard_count: int, rng_seed: int) -> list[TableInfo]:
    """Open, fill and start `tables` tables (the four games in turn, two players each)."""
    from bot.storage import open_database
    from bot.tables import TableService

    db = await open_database(database)
    infos = []
    try:
        service = TableService(db, rng=random.Random(rng_seed))
        guilds = guild_ids(tables)
        for index in range(tables):
            guild_id = guilds[index // TABLES_PER_GUILD]
            place = channel_id_of(guild_id, index % TABLES_PER_GUILD)
            host, guest = FIRST_USER + 2 * index, FIRST_USER + 2 * index + 1
            table = await service.open_table(guild_id, place, GAMES[index % len(GAMES)], {},
                                             host, f"h{index}")
            await service.join(table.id, guest, f"g{index}")
            await service.start(table.id, host)
            infos.append(TableInfo(table.id, guild_id, place, shard_of(guild_id, shard_count)))
        await service.release_postings()  # the bots post the first boards, not this process
    finally:
        await db.close()
    return infos


def text_of(message: dict[str, Any]) -> str:
    """A message's words: its content, or (Components V2) its text displays, in order."""
    texts = [message.get("content") or ""]
    texts += [c.get("content", "") for c in components(message) if c.get("type") == TEXT]
    return "\n".join(t for t in texts if t)


def components(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every component of a message, however nested: classic action rows, and Components V2
    layouts (containers, sections and their accessories, action rows inside them)."""
    for item in message.get("components") or []:
        inner = item.get("components")
        if inner is None:
            yield item
        else:
            yield from components(item)
        if item.get("accessory"):
            yield item["accessory"]


TEXT = 10  # a Components V2 text display
UPDATE_MESSAGE = 7  # an interaction answered by editing the message it came from
MESSAGE = 4  # an interaction answered with a message
MOVE_TYPED = ("Played:", "You picked")  # /move's private answer when the move was taken
# The reply when the post is late (today's wording, and the one before, for --baseline).
SLOW_POST = ("The board is taking longer than usual", "Discord is not accepting messages")


class Players:
    """Everyone at the tables: chooses actions from what the bots posted, sends them, and
    times the bots' answers and boards (`on_call` sees every REST call the fake answers).
    `typed`: the share of actions typed as `/move` (an autocomplete, then the command) rather
    than clicked."""

    def __init__(self, fake: FakeDiscord, tables: list[TableInfo], seed: int,
                 typed: float = 0.0) -> None:
        self.fake = fake
        self.rng = random.Random(seed)
        self.typed = typed
        self.typing: dict[str, tuple[int, int, float]] = {}  # autocomplete token -> (table,
        # member, sent)
        self.tables = {info.id: info for info in tables}
        self.by_place = {info.place: info.id for info in tables}
        self.by_message: dict[int, int] = {}  # board message id -> table
        self.boards: dict[int, dict[str, Any]] = {}  # table -> its latest board message
        self.hands: dict[int, dict[int, dict[str, Any]]] = {}  # table -> user -> unused hand
        self.pending: dict[int, Pending] = {}
        self.tokens: dict[str, tuple[int, float]] = {}  # interaction token -> (table, sent)
        self.finished: set[int] = set()
        self.ready: list[int] = []  # tables with a board and nothing in flight
        self._is_ready: set[int] = set()
        self.figures = Figures()
        self.posted = 0  # boards seen in all
        self._tokens = 0
        self._tasks: set[asyncio.Task[Any]] = set()
        self.changed = asyncio.Event()

    # -- what the bots post ------------------------------------------------------------------

    def on_call(self, call: Call, answer: Any) -> None:
        parts = call.path.split("/")[1:]
        dm = parts[0] == "channels" and parts[1].isdigit() and \
            int(parts[1]) in self.fake._dms  # noqa: SLF001
        self.figures.rest[route(call.method, call.path) + (" (DM)" if dm else "")] += 1
        if call.method == "POST" and parts[0] == "interactions":
            typing = self.typing.pop(parts[2], None)
            if typing is not None:  # /move's choices: send /move with one of them
                self.figures.autocomplete.append((call.at - typing[2]) * 1000)
                self._typed(typing[0], typing[1], call.json or {})
                return
            sent = self.tokens.get(parts[2])
            if sent is not None:
                self.figures.ack.append((call.at - sent[1]) * 1000)
                body = call.json or {}
                if body.get("type") == UPDATE_MESSAGE and body.get("data"):
                    self._second_press(parts[2], sent[0], body["data"])
                elif body.get("type") == MESSAGE and "resource" in answer:
                    # a private answer given at once, or a typed move's board as its answer
                    self._message(call, answer["resource"]["message"], parts[2])
        elif call.method == "POST" and (parts[0] == "webhooks" and len(parts) == 3 or
                                        parts[0] == "channels" and parts[2:] == ["messages"]):
            self._message(call, answer, parts[2] if parts[0] == "webhooks" else None)
        elif call.method == "PATCH" and parts[0] == "webhooks" and parts[3:4] == ["messages"]:
            sent = self.tokens.get(parts[2])  # an answer editing the pressed message
            if sent is not None and call.json and call.json.get("components"):
                self._second_press(parts[2], sent[0], call.json)
        elif call.method == "PATCH" and parts[0] == "channels":  # a board edited in place
            table_id = self.by_message.get(int(parts[3]))
            newest = self.boards.get(table_id or 0, {}).get("id")
            if table_id is not None and str(newest) == parts[3]:  # not an old board retired
                self._board(table_id, answer, call.at)

    def _message(self, call: Call, message: dict[str, Any], token: str | None) -> None:
        channel_id = int(message["channel_id"])
        if token is not None and message.get("flags", 0) & EPHEMERAL:
            self._private_reply(token, message)
            return
        table_id = self.by_place.get(channel_id)
        if table_id is not None:
            self.figures.sizes += [size for name, size in call.files  # board-<table>-<ply>.png
                                   if name.startswith("board") and name.endswith(".png")]
            self._board(table_id, message, call.at)
            return
        dm = self.fake._dms.get(channel_id)  # noqa: SLF001  (the fake is ours)
        ids = [c.get("custom_id", "") for c in components(message)]
        if dm is not None and ids and ids[0].startswith("ms:"):  # a hand, by DM
            table_id = int(ids[0].split(":")[1])
            self.hands.setdefault(table_id, {})[int(dm["recipients"][0]["id"])] = message
            self._make_ready(table_id)

    def _board(self, table_id: int, message: dict[str, Any], at: float) -> None:
        self.posted += 1
        self.boards[table_id] = message
        self.by_message[int(message["id"])] = table_id
        if "**Game over.**" in text_of(message):
            self.finished.add(table_id)
        item = self.pending.pop(table_id, None)
        if item is not None:
            self.figures.board.append((at - item.sent) * 1000)
        self._make_ready(table_id)
        self.changed.set()

    def _private_reply(self, token: str, message: dict[str, Any]) -> None:
        """After a group choice, the moves of that group (a select): choose one; anything
        else private is a refusal."""
        table_id = self.tokens.get(token, (0, 0.0))[0]
        item = self.pending.get(table_id)
        if item is None:
            return
        if item.typed and message.get("content", "").startswith(MOVE_TYPED):
            return  # /move taken: the board follows
        if message.get("content", "").startswith(SLOW_POST):
            return  # the move is taken; its board is late, and timed when it comes
        menus = [c for c in components(message) if c.get("type") == 3]
        if not item.group or not menus:
            del self.pending[table_id]
            self.figures.lost += 1
            self.figures.refusals[message.get("content", "")[:70]] += 1
            self._make_ready(table_id)
            self.changed.set()
            return
        item.group = False
        menu = self.rng.choice(menus)
        value = self.rng.choice(menu["options"])["value"]
        info = self.tables[table_id]
        who = self._user_of(token)
        self._spawn(self._click(info, message, menu["custom_id"], [value], info.guild_id, who))

    def _second_press(self, token: str, table_id: int, data: dict[str, Any]) -> None:
        """A group chosen on the board (a drop's column): the board now offers that group's
        moves in a second select on the same message: choose one."""
        item, board = self.pending.get(table_id), self.boards.get(table_id)
        menus = [c for c in components(data) if c.get("type") == 3 and
                 str(c.get("custom_id", "")).startswith("ms:")]
        if item is None or not item.group or board is None or not menus:
            return
        item.group = False
        menu = self.rng.choice(menus)
        value = self.rng.choice(menu["options"])["value"]
        info = self.tables[table_id]
        self._spawn(self._click(info, {**board, "components": data["components"]},
                                menu["custom_id"], [value], info.guild_id,
                                self._user_of(token)))

    def _make_ready(self, table_id: int) -> None:
        if table_id not in self.pending and table_id not in self.finished and \
                table_id not in self._is_ready:
            self._is_ready.add(table_id)
            self.ready.append(table_id)

    # -- acting ------------------------------------------------------------------------------

    def _acting(self, table_id: int) -> tuple[dict[str, Any] | None, list[int]]:
        """The table's newest board and the members its "to act" line mentions."""
        board = self.boards.get(table_id)
        if board is None or table_id in self.finished:
            return None, []
        lines = [line for line in text_of(board).split("\n") if MENTION.search(line)]
        return board, [int(u) for u in MENTION.findall(lines[-1])] if lines else []

    def _choose(self, table_id: int) -> tuple[Any, ...] | None:
        """(message, custom id, values, guild id or None for a DM, user id) of one action."""
        board, users = self._acting(table_id)
        if board is None or not users:
            return None
        comps = list(components(board))
        guild_id = self.tables[table_id].guild_id
        if any(str(c.get("custom_id", "")).startswith("pk:") for c in comps):
            hands = self.hands.get(table_id, {})
            waiting = [u for u in users if u in hands]
            if not waiting:
                return None
            who = self.rng.choice(waiting)
            hand = hands.pop(who)
            (menu,) = [c for c in components(hand) if c.get("type") == 3]
            return hand, menu["custom_id"], [self.rng.choice(menu["options"])["value"]], None, who
        choices = [(c["custom_id"], None) for c in comps if c.get("type") == 2 and
                   c.get("custom_id", "").startswith("mv:")]
        choices += [(c["custom_id"], [o["value"]]) for c in comps if c.get("type") == 3 and
                    c.get("custom_id", "").startswith("ms:") for o in c["options"]]
        groups = [c for c in comps if c.get("type") == 3 and
                  c.get("custom_id", "").startswith("mg:")]
        if not choices and groups:
            menu = groups[0]
            choices = [(menu["custom_id"], [self.rng.choice(menu["options"])["value"]])]
        if not choices:
            return None
        custom_id, values = self.rng.choice(choices)
        return board, custom_id, values, guild_id, self.rng.choice(users)

    def _typist(self, table_id: int) -> int | None:
        """A member who may act at the table now, to type /move (None: nobody)."""
        board, users = self._acting(table_id)
        if board is None or not users:
            return None
        hands = self.hands.get(table_id)
        if any(str(c.get("custom_id", "")).startswith("pk:") for c in components(board)):
            users = [u for u in users if u in (hands or {})]  # who has not picked yet
        return self.rng.choice(users) if users else None

    async def _type(self, table_id: int, who: int) -> None:
        """`who` starts typing /move at the table: Discord asks the bot for choices."""
        info = self.tables[table_id]
        self._tokens += 1
        token = f"bench-{self._tokens}-{who}"
        now = time.perf_counter()
        self.pending[table_id] = Pending(table_id, now, typed=True)
        self.typing[token] = (table_id, who, now)
        await self.fake.command(info.shard, info.guild_id, "move", [
            {"type": 3, "name": "move", "value": "", "focused": True}], channel_id=info.place,
            who=user(who, f"p{who % 1000}"), token=token, autocomplete=True)

    def _typed(self, table_id: int, who: int, answer: dict[str, Any]) -> None:
        """The autocomplete's choices came: send /move with one of them."""
        item = self.pending.get(table_id)
        if item is None or not item.typed:
            return
        choices = (answer.get("data") or {}).get("choices") or []
        if not choices:
            del self.pending[table_id]
            self.figures.lost += 1
            self.figures.refusals["(no /move choices)"] += 1
            self._make_ready(table_id)
            self.changed.set()
            return
        value = self.rng.choice(choices)["value"]
        self.hands.get(table_id, {}).pop(who, None)  # a pick typed: that hand is used up
        info = self.tables[table_id]
        self._tokens += 1
        token = f"bench-{self._tokens}-{who}"
        item.sent = time.perf_counter()  # the board is timed from the command, as a click
        self.tokens[token] = (table_id, item.sent)
        self._spawn(self.fake.command(
            info.shard, info.guild_id, "move", [{"type": 3, "name": "move", "value": value}],
            channel_id=info.place, who=user(who, f"p{who % 1000}"), token=token))

    async def start(self, table_id: int) -> bool:
        """Send one action at the table (False: it has none to take now)."""
        if self.typed and self.rng.random() < self.typed:
            who = self._typist(table_id)
            if who is not None:
                await self._type(table_id, who)
                return True
        chosen = self._choose(table_id)
        if chosen is None:
            return False
        message, custom_id, values, guild_id, who = chosen
        item = Pending(table_id, time.perf_counter(), custom_id.startswith("mg:"))
        self.pending[table_id] = item
        await self._click(self.tables[table_id], message, custom_id, values, guild_id, who)
        return True

    def take_ready(self) -> int | None:
        """A random table that can act now."""
        while self.ready:
            index = self.rng.randrange(len(self.ready))
            self.ready[index], self.ready[-1] = self.ready[-1], self.ready[index]
            table_id = self.ready.pop()
            self._is_ready.discard(table_id)
            if table_id not in self.pending and table_id not in self.finished:
                return table_id
        return None

    async def _click(self, info: TableInfo, message: dict[str, Any], custom_id: str,
                     values: list[str] | None, guild_id: int | None, who: int) -> None:
        self._tokens += 1
        token = f"bench-{self._tokens}-{who}"
        self.tokens[token] = (info.id, time.perf_counter())
        shard = info.shard if guild_id is not None else 0  # DMs come on shard 0
        await self.fake.click(shard, message, custom_id, values, guild_id,
                              who=user(who, f"p{who % 1000}"), token=token)

    @staticmethod
    def _user_of(token: str) -> int:
        return int(token.rsplit("-", 1)[1])

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def expire(self) -> None:
        """Actions whose board never came are lost (the table acts again)."""
        now = time.perf_counter()
        for table_id, item in list(self.pending.items()):
            if now - item.sent > LOST_AFTER_S:
                del self.pending[table_id]
                self.figures.lost += 1
                self.figures.refusals[f"(no board within {LOST_AFTER_S:.0f} s)"] += 1
                self._make_ready(table_id)

    # -- loads -------------------------------------------------------------------------------

    async def steady(self, actions: int, rate: float,
                     in_flight: int | None = None) -> tuple[Figures, float]:
        """Actions at `rate` per second (Poisson arrivals) on random idle tables; with
        `in_flight`, never more than that many waiting for their board."""
        self.figures = Figures()
        started = time.perf_counter()
        sent, due = 0, started
        while sent < actions:
            self.expire()
            if in_flight is not None and len(self.pending) >= in_flight:
                await self._changes(0.5)
                due = time.perf_counter()
                continue
            table_id = self.take_ready()
            while table_id is not None and not await self.start(table_id):
                table_id = self.take_ready()
            if table_id is not None:
                sent += 1
            due += self.rng.expovariate(rate)
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
        return await self._drain(started)

    async def burst(self) -> tuple[Figures, float]:
        """Every table that can act does, back to back: how long until every board is in."""
        self.figures = Figures()
        started = time.perf_counter()
        while (table_id := self.take_ready()) is not None:
            await self.start(table_id)
        return await self._drain(started)

    async def _drain(self, started: float) -> tuple[Figures, float]:
        last = time.perf_counter()  # the last action sent (its board may already be in)
        while self.pending:
            if await self._changes(0.5):
                last = time.perf_counter()
            self.expire()
        return self.figures, max(last, started) - started

    async def _changes(self, timeout: float) -> bool:
        """Wait until a board comes (True) or `timeout` seconds pass (False)."""
        self.changed.clear()
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except TimeoutError:
            return False
        return True


# -- the bot processes -----------------------------------------------------------------------


def _stat(path: str) -> list[str] | None:
    """The fields of a /proc stat file after the command's name, or None once it is gone."""
    try:
        with open(path, encoding="ascii") as file:
            return file.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _cpu(fields: list[str]) -> float:
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # user + system


def _peak_kb(pid: str) -> int:
    """A process's peak resident memory (VmHWM, kB); 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as file:
            for line in file:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def server_cpu_seconds() -> float:
    """CPU used so far by this machine's PostgreSQL server: every process titled
    "postgres: …" (the backends of each connection, the WAL writer, the checkpointer). A
    backend that has exited is no longer counted: the bots' pools keep theirs."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                title = file.read(16)
        except OSError:
            continue
        fields = _stat(f"/proc/{pid}/stat") if title.startswith(b"postgres: ") else None
        if fields is not None:
            total += _cpu(fields)
    return total


@dataclass
class BotProcess:
    shard_id: int
    process: asyncio.subprocess.Process
    log: Path
    lag_file: Path

    def _session(self) -> Iterator[tuple[str, list[str]]]:
        """(pid, stat fields) of the bot process and of every process it started (its
        session: the workers, the fork server)."""
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            fields = _stat(f"/proc/{pid}/stat")
            if fields is not None and int(fields[3]) == self.process.pid:
                yield pid, fields

    def cpu_seconds(self) -> tuple[float, float, float]:
        """CPU used so far: (the bot process, its event loop's thread alone, it and all its
        workers)."""
        own, loop, everything = 0.0, 0.0, 0.0
        for pid, fields in self._session():
            seconds = _cpu(fields)
            everything += seconds
            if int(pid) == self.process.pid:
                own = seconds
                main_thread = _stat(f"/proc/{pid}/task/{pid}/stat")  # its id is the pid's
                loop = _cpu(main_thread) if main_thread is not None else 0.0
        return own, loop, everything

    def peak_memory_mb(self) -> tuple[float, float]:
        """The peak resident memory so far (VmHWM) of the bot process and of its worker
        processes (added up: each one's own peak, pages shared with the fork server counted
        in each, so an upper bound), in MB."""
        own, workers = 0.0, 0.0
        for pid, _ in self._session():
            peak = _peak_kb(pid) / 1024
            if int(pid) == self.process.pid:
                own = peak
            else:
                workers += peak
        return own, workers

    def _samples(self) -> list[list[str]]:
        if not self.lag_file.exists():
            return []
        return [line.split() for line in self.lag_file.read_text(encoding="ascii").splitlines()]

    def lag_since(self, start: float, end: float) -> list[float]:
        return [float(lag) for at, lag, *_ in self._samples() if start <= float(at) <= end]

    def collector_seconds(self, start: float, end: float) -> float:
        """CPU seconds of Python's cycle collector between two samples' times (the samples
        nearest inside [start, end]; 0 for a bot that does not write them)."""
        inside = [float(rest[0]) for at, _, *rest in self._samples()
                  if rest and start <= float(at) <= end]
        return inside[-1] - inside[0] if inside else 0.0

    def tail(self, lines: int = 30) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


async def start_bots(tree: Path, url: str, database: str, processes: int, folder: Path,
                     profile: bool, settings: dict[str, str] | None = None,
                     python: str = sys.executable) -> list[BotProcess]:
    """One `python -m bot` process per shard (plain, unsharded, for one process), with the
    bot code of `tree` run by `python` (its installed libraries); `settings`: more
    environment variables (BOT_PG_POOL_MAX=20, ...)."""
    launcher = Path(__file__).resolve().parent / "bot_process.py"
    bots = []
    for shard_id in range(processes):
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("DISCORD_", "BOT_", "DEV_GUILD", "BENCH_"))}
        env.update(DISCORD_TOKEN=f"fake-{shard_id}", BOT_DATABASE=database,
                   BOT_TEST_DISCORD_URL=url, BOT_LOG_LEVEL="INFO",
                   BENCH_LAG_FILE=str(folder / f"lag{shard_id}.txt"),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH")])),
                   PYTHONUNBUFFERED="1")
        env.update(settings or {})
        if processes > 1:
            env.update(BOT_SHARD_COUNT=str(processes), BOT_SHARD_IDS=str(shard_id))
        if profile:
            env["BENCH_PROFILE"] = str(Path.cwd() / f"bench-profile-{shard_id}.prof")
        log = folder / f"bot{shard_id}.log"
        with open(log, "wb") as output:
            process = await asyncio.create_subprocess_exec(
                python, str(launcher), "--env-file", str(folder / "no.env"),
                cwd=folder, env=env, stdout=output, stderr=output, start_new_session=True)
        bots.append(BotProcess(shard_id, process, log, folder / f"lag{shard_id}.txt"))
    return bots


async def stop_bots(bots: list[BotProcess], timeout: float = 60.0) -> None:
    for bot in bots:
        if bot.process.returncode is None:
            bot.process.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(asyncio.gather(*(b.process.wait() for b in bots)), timeout)
    except TimeoutError:
        pass
    for bot in bots:  # whatever is left of it: its worker processes, or all of it
        with contextlib.suppress(ProcessLookupError):
            os.killpg(bot.process.pid, signal.SIGKILL)
        await bot.process.wait()
