"""Many tables at once through the test harness (simcord + the real bot): how fast does a
player get an answer, and how soon does everyone see the board?

    python bench/load.py [--tables 1000] [--actions 3000] [--rate 60] [--burst-rounds 1]
                         [--processes 1] [--database PATH|postgresql://...]

Opens `--tables` tables with /play (a mix of the four games, two players each, each in its
own thread), then measures:
- service: the table service alone (no Discord, no pictures): CPU time per move;
- steady: actions arrive at `--rate` per second on random tables (one action in flight per
  table), like players who each take a few seconds to think;
- burst: every table acts at the same instant, `--burst-rounds` times: how long until every
  board is posted;
- saturation: actions offered faster than the bot can take them: the moves it sustains.
For every action it records the time from the interaction being delivered to the bot's answer
(Discord's acknowledgement: the defer) and to the visible result (the new board posted, or
the pick board edited), and the event loop's lag (how late a 10 ms timer fires).

`--processes P` runs P bot processes (each with its own simulated Discord and its share of
the tables) on one SQLite database. `--database postgresql://...` (a fresh database is made
on that server and dropped afterwards) measures the table service only: simcord cannot wait
on asyncpg's sockets. Prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord  # noqa: E402
from simcord import interactions as sim_interactions  # noqa: E402
from simcord.backend import serializers  # noqa: E402
from simcord.backend.models.interaction import Interaction  # noqa: E402
from simcord.enums import InteractionType  # noqa: E402

from bot.client import TableBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.storage import is_postgres, open_database  # noqa: E402

# Full-length games (default options), so that the tables stay running during the run.
GAMES = [
    ("senet", {}),
    ("varanasi", {}),
    ("cows_leopards", {}),
    ("six_nimmt", {}),
]
MENTION = re.compile(r"<@(\d+)>")
LOST_AFTER_S = 30.0
TABLES_PER_GUILD = 40  # under the default cap of open tables per server (50)


@dataclass
class Pending:
    table_id: int
    ply: int
    sent: float
    record_id: int
    group: bool = False  # a group (piece) was chosen; the move comes from the reply
    step_sent: float = 0.0


@dataclass
class Figures:
    ack: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    lost: int = 0  # actions whose board never came (a refusal: counted, then dropped)


class Clock:
    """Times of the bot's answers, hooked into simcord's interaction model and the service."""

    def __init__(self) -> None:
        self.answered: dict[int, float] = {}
        self.posted: dict[int, tuple[int, float, int | None]] = {}  # table -> (ply, t, message)

    def install(self, bot: TableBot) -> None:
        clock = self
        for name in ("defer", "defer_update", "respond_with_message", "update_source"):
            original = getattr(Interaction, name)

            def hooked(self: Interaction, *args: Any, _original: Any = original,
                       **kwargs: Any) -> Any:
                clock.answered.setdefault(self.id, time.perf_counter())
                return _original(self, *args, **kwargs)

            setattr(Interaction, name, hooked)
        self.hook_service(bot)

    def hook_service(self, bot: TableBot) -> None:
        service = bot.service
        original = service.mark_posted

        async def mark_posted(table_id: int, ply: int, message_id: int | None) -> None:
            await original(table_id, ply, message_id)
            self.posted[table_id] = (ply, time.perf_counter(), message_id)

        service.mark_posted = mark_posted  # type: ignore[method-assign]


class Bench:
    def __init__(self, env: simcord.Env, bot: TableBot, clock: Clock, seed: int) -> None:
        self.env, self.bot, self.clock = env, bot, clock
        self.rng = random.Random(seed)
        self.guild = None
        self.places: dict[int, int] = {}  # table -> place id
        self.members: dict[int, simcord.MemberActor] = {}
        self.finished: set[int] = set()

    async def open_tables(self, count: int) -> None:
        for index in range(count):
            game, options = GAMES[index % len(GAMES)]
            if index % TABLES_PER_GUILD == 0:  # servers cap their open tables (/settings)
                self.guild = self.env.create_guild(f"Bench {index // TABLES_PER_GUILD}")
            channel = self.guild.create_text_channel(f"t{index}")
            host = self.guild.add_member(self.env.create_user(f"h{index}"))
            guest = self.guild.add_member(self.env.create_user(f"g{index}"))
            for member in (host, guest):
                self.members[member.id] = member
            if game == "cows_leopards":
                options = {**options, "side": "cows"}
            result = await host.slash(channel, f"play {game}", **options)
            lobby = result.response
            ids = [c["custom_id"] for row in lobby.components for c in row["components"]]
            table_id = int(ids[0].split(":")[1])
            join = f"lobby:{table_id}:join1" if game == "cows_leopards" else \
                f"lobby:{table_id}:join"
            await guest.click(lobby, custom_id=join)
            await host.click(result.response, custom_id=f"lobby:{table_id}:start")
            table = await self.bot.service.get(table_id)
            self.places[table_id] = table.place_id

    # -- choosing and delivering an action -------------------------------------------------

    def _message(self, channel_id: int, message_id: int) -> Any:
        return self.env.backend.get_message(channel_id, message_id)

    @staticmethod
    def _components(message: Any) -> Iterable[dict[str, Any]]:
        for row in message.components:
            yield from row.get("components", [row])

    def _dm_hand(self, user_id: int, table_id: int) -> Any:
        channel_id = self.env.backend.dm_channels.get(user_id)
        if channel_id is None:
            return None
        for message in sorted(self.env.backend.messages.get(channel_id, {}).values(),
                              key=lambda m: m.id, reverse=True):
            for comp in self._components(message):
                if str(comp.get("custom_id", "")).startswith(f"ms:{table_id}:"):
                    return message
        return None

    def choose(self, table_id: int) -> tuple[Any, Any, dict[str, Any]] | None:
        """(actor, message, interaction data) for one action on the table's latest board."""
        posted = self.clock.posted.get(table_id)
        if posted is None or posted[2] is None:
            return None
        board = self._message(self.places[table_id], posted[2])
        if "Game over" in board.content:
            self.finished.add(table_id)
            return None
        users = [int(u) for u in MENTION.findall(board.content)]
        if not users:
            return None
        user_id = self.rng.choice(users)
        comps = list(self._components(board))
        if any(str(c.get("custom_id", "")).startswith("pk:") for c in comps):
            hand = self._dm_hand(user_id, table_id)
            if hand is None:
                return None
            (menu,) = [c for c in self._components(hand) if c.get("type") == 3]
            value = self.rng.choice(menu["options"])["value"]
            data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [value]}
            return self.members[user_id].user, hand, data
        buttons = [c for c in comps if c.get("type") == 2 and
                   str(c.get("custom_id", "")).startswith("mv:")]
        selects = [c for c in comps if c.get("type") == 3 and
                   str(c.get("custom_id", "")).startswith("ms:")]
        choices = [("b", c, None) for c in buttons] + [
            ("s", c, o["value"]) for c in selects for o in c["options"]]
        groups = [c for c in comps if c.get("type") == 3 and
                  str(c.get("custom_id", "")).startswith("mg:")]
        if not choices and groups:
            (menu,) = groups
            value = self.rng.choice(menu["options"])["value"]
            data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [value]}
            return self.members[user_id], board, data
        if not choices:
            return None
        kind, comp, value = self.rng.choice(choices)
        data = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if kind == "s":
            data["values"] = [value]
        return self.members[user_id], board, data

    def build(self, actor: Any, message: Any, data: dict[str, Any]) -> tuple[int, dict]:
        """The INTERACTION_CREATE payload Discord would send (the harness's own work)."""
        guild = getattr(actor, "guild", None)
        record, payload = sim_interactions.base_payload(
            self.env.backend, type=InteractionType.MESSAGE_COMPONENT,
            channel_id=message.channel_id, guild_id=guild.id if guild is not None else None,
            user_id=actor.id, data=data)
        payload["message"] = dict(serializers.message_payload(self.env.backend, message))
        record.source_message_id = message.id
        return record.id, payload

    def emit(self, payload: dict) -> float:
        """Deliver through the gateway (discord.py parses it here); returns the send time."""
        sent = time.perf_counter()
        self.env.backend.emit("INTERACTION_CREATE", payload)
        return sent

    def deliver(self, actor: Any, message: Any, data: dict[str, Any]) -> int:
        record_id, payload = self.build(actor, message, data)
        self.emit(payload)
        return record_id

    # -- loads -------------------------------------------------------------------------------

    def _collect(self, pending: dict[int, Pending], figures: Figures) -> None:
        now = time.perf_counter()
        for table_id, item in list(pending.items()):
            posted = self.clock.posted.get(table_id)
            answered = self.clock.answered.get(item.record_id)
            if item.group:
                self._second_step(item, figures)
                continue
            if now - item.sent > LOST_AFTER_S:
                figures.lost += 1
                if answered is not None:
                    figures.ack.append((answered - item.step_sent) * 1000)
                del pending[table_id]
                continue
            if posted is not None and posted[0] > item.ply and answered is not None:
                figures.ack.append((answered - item.step_sent) * 1000)
                figures.board.append((posted[1] - item.sent) * 1000)
                del pending[table_id]

    def _second_step(self, item: Pending, figures: Figures) -> None:
        """After a group choice: pick a move from the ephemeral reply (when it is there)."""
        record = self.env.backend.interactions[item.record_id]
        if record.message_id is None or record.loading:
            return
        reply = self._message(record.channel_id, record.message_id)
        menus = [c for c in self._components(reply) if c.get("type") == 3]
        answered = self.clock.answered.get(item.record_id)
        if answered is not None:
            figures.ack.append((answered - item.step_sent) * 1000)
        item.group = False
        if not menus:
            return  # refused: counted as lost once it times out
        menu = self.rng.choice(menus)
        value = self.rng.choice(menu["options"])["value"]
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [value]}
        item.step_sent = time.perf_counter()
        item.record_id = self.deliver(self.members[record.user_id], reply, data)

    def _prepare(self, table_id: int) -> tuple[Pending, dict] | None:
        chosen = self.choose(table_id)
        if chosen is None:
            return None
        record_id, payload = self.build(*chosen)
        group = chosen[2]["custom_id"].startswith("mg:")
        return Pending(table_id, self.clock.posted[table_id][0], 0.0, record_id, group), payload

    def _start(self, table_id: int, pending: dict[int, Pending]) -> bool:
        prepared = self._prepare(table_id)
        if prepared is None:
            return False
        item, payload = prepared
        item.sent = item.step_sent = self.emit(payload)
        pending[table_id] = item
        return True

    async def steady(self, actions: int, rate: float) -> tuple[Figures, float]:
        figures, pending = Figures(), {}
        started = time.perf_counter()
        sent, due = 0, started
        while sent < actions:
            self._collect(pending, figures)
            idle = [t for t in self.places if t not in pending and t not in self.finished]
            self.rng.shuffle(idle)
            if any(self._start(table_id, pending) for table_id in idle[:20]):
                sent += 1
            due += self.rng.expovariate(rate)  # Poisson arrivals on an absolute schedule
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
        while pending:
            await asyncio.sleep(0.01)
            self._collect(pending, figures)
        return figures, time.perf_counter() - started

    async def burst(self, rounds: int) -> tuple[Figures, float]:
        figures, pending = Figures(), {}
        started = time.perf_counter()
        for _ in range(rounds):
            ready = [self._prepare(t) for t in self.places if t not in self.finished]
            for item, payload in filter(None, ready):
                # Back to back, as frames read off one gateway socket: discord.py reads one
                # event per await, so the loop may run between two of them.
                item.sent = item.step_sent = self.emit(payload)
                pending[item.table_id] = item
                await asyncio.sleep(0)
            while pending:
                await asyncio.sleep(0.005)
                self._collect(pending, figures)
        return figures, time.perf_counter() - started


class LoopLag:
    """How late a 10 ms sleep wakes up, sampled all the time: the event loop's lag."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            self.samples.append(max(0.0, (time.perf_counter() - start - 0.01) * 1000))

    def start(self) -> None:
        self.samples.clear()
        self._task = asyncio.create_task(self._tick())

    def stop(self) -> list[float]:
        if self._task is not None:
            self._task.cancel()
        return list(self.samples)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


@dataclass
class Phase:
    """One load's raw figures (merged over processes by the parent)."""

    name: str
    ack: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    lost: int = 0

    def merge(self, other: Phase) -> None:
        self.ack += other.ack
        self.board += other.board
        self.lag += other.lag
        self.seconds = max(self.seconds, other.seconds)
        self.cpu_seconds += other.cpu_seconds
        self.lost += other.lost

    def summary(self) -> dict[str, float]:
        moves = len(self.board)
        return {
            "moves": moves,
            "seconds": round(self.seconds, 2),
            "moves_per_s": round(moves / self.seconds, 1) if self.seconds else 0.0,
            "cpu_ms_per_move": round(self.cpu_seconds * 1000 / moves, 2) if moves else 0.0,
            "answer_p99_ms": round(percentile(self.ack, 99), 1),
            "board_p50_ms": round(percentile(self.board, 50), 1),
            "board_p99_ms": round(percentile(self.board, 99), 1),
            "board_max_ms": round(max(self.board, default=float("nan")), 1),
            "loop_lag_p99_ms": round(percentile(self.lag, 99), 1),
            "lost": self.lost,
        }


async def measured(name: str, run: Any) -> Phase:
    lag = LoopLag()
    lag.start()
    cpu = time.process_time()
    figures, seconds = await run
    phase = Phase(name, figures.ack, figures.board, lag.stop(), seconds,
                  time.process_time() - cpu, figures.lost)
    return phase


async def service_cpu(database: str, tables: int, moves: int, seed: int) -> Phase:
    """The table service alone, on the bench's database: CPU per move (no Discord, no
    pictures), as players' moves on many tables."""
    from bot.tables import TableService

    repo = await open_database(database)
    try:
        service = TableService(repo, rng=random.Random(seed))
        rng = random.Random(seed)
        ids = []
        for index in range(tables):
            table = await service.open_table(9, 10**12 + index, "senet", None, 1, "a")
            await service.join(table.id, 2, "b")
            ids.append((await service.start(table.id, 1)).table.id)
        done, cpu, began = 0, time.process_time(), time.perf_counter()
        while done < moves:
            table_id = rng.choice(ids)
            table = await service.get(table_id)
            if table.status != "running":
                ids.remove(table_id)
                continue
            seat = table.to_act()[0]
            user = table.seats[seat].user_id
            await service.play(table_id, user, rng.choice(service.legal_moves_for(table, user)))
            done += 1
        phase = Phase("service", seconds=time.perf_counter() - began,
                      cpu_seconds=time.process_time() - cpu)
        phase.board = [0.0] * done
        for table_id in ids:  # no board of these tables is ever to be posted
            await service.cancel(table_id, 1, can_manage=True)
    finally:
        await repo.close()
    return phase


async def run_one(args: argparse.Namespace, database: str, index: int) -> list[Phase]:
    """One bot process's share of the run."""
    bot = TableBot(Config(token=None, database=database), rng=random.Random(args.seed + index))
    clock = Clock()
    env = simcord.Env(bot, settle_timeout=900.0)
    env.backend.clock.advance(86400 * index)  # distinct snowflakes in each process
    await env.start()
    phases = []
    try:
        clock.install(bot)
        await bot.workers.warm_up()
        bench = Bench(env, bot, clock, args.seed + index)
        began = time.perf_counter()
        await bench.open_tables(args.tables // args.processes)
        log(f"[{index}] opened {args.tables // args.processes} tables in "
            f"{time.perf_counter() - began:.1f} s")
        rate = args.rate / args.processes
        phases.append(await measured("steady", bench.steady(args.actions // args.processes,
                                                            rate)))
        phases.append(await measured("burst", bench.burst(args.burst_rounds)))
        phases.append(await measured("saturation", bench.steady(
            args.saturation_actions // args.processes, args.saturation_rate / args.processes)))
        await env.settle(timeout=900.0)
    finally:
        await env.shutdown()
        await bot.close_storage()
    env.raise_errors()
    return phases


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


async def fresh_postgres(url: str) -> tuple[str, Any]:
    """A new database on the server of `url`, and a coroutine function dropping it."""
    import asyncpg

    name = f"bench_{random.randrange(16**8):08x}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE DATABASE {name}")
    await admin.close()
    base, _, _ = url.rpartition("/")

    async def drop() -> None:
        conn = await asyncpg.connect(url)
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await conn.close()

    return f"{base}/{name}", drop


def print_table(phases: dict[str, Phase], args: argparse.Namespace) -> None:
    print(f"{args.tables} tables, {args.processes} process(es), database: "
          f"{'PostgreSQL' if args.database and is_postgres(args.database) else 'SQLite'}")
    print(f"{'phase':<11}{'moves':>7}{'moves/s':>9}{'cpu ms/mv':>10}{'answer p99':>11}"
          f"{'board p50':>10}{'board p99':>10}{'board max':>10}{'lag p99':>9}")
    for name, phase in phases.items():
        row = phase.summary()
        print(f"{name:<11}{row['moves']:>7}{row['moves_per_s']:>9}{row['cpu_ms_per_move']:>10}"
              f"{row['answer_p99_ms']:>11}{row['board_p50_ms']:>10}{row['board_p99_ms']:>10}"
              f"{row['board_max_ms']:>10}{row['loop_lag_p99_ms']:>9}")


async def main(args: argparse.Namespace) -> int:
    drop = None
    with tempfile.TemporaryDirectory() as folder:
        database = args.database or str(Path(folder) / "bench.sqlite3")
        if is_postgres(database):
            database, drop = await fresh_postgres(database)
        try:
            await (await open_database(database)).close()
            phases = {"service": await service_cpu(database, 50, args.service_moves, args.seed)}
            if drop is not None:
                # simcord's settle() cannot wait on asyncpg's real sockets: the simulated
                # Discord stalls, so on PostgreSQL only the service is measured.
                log("PostgreSQL: the table service only (the simulated Discord cannot run on "
                    "it)")
                print_table(phases, args)
                print(json.dumps({**phases["service"].summary(), "database": "postgresql"}))
                return 0
            if args.processes == 1:
                for phase in await run_one(args, database, 0):
                    phases[phase.name] = phase
            else:
                for phase in await run_children(args, database):
                    phases.setdefault(phase.name, Phase(phase.name)).merge(phase)
        finally:
            if drop is not None:
                await drop()
    print_table(phases, args)
    steady = phases["steady"].summary()
    result = {**steady, "cpu_ms_per_move": phases["service"].summary()["cpu_ms_per_move"],
              "processes": args.processes, "tables": args.tables,
              "database": "postgresql" if drop else "sqlite",
              "burst": phases["burst"].summary(), "saturation": phases["saturation"].summary()}
    print(json.dumps(result))
    return 0


async def run_children(args: argparse.Namespace, database: str) -> list[Phase]:
    """Run the bot processes, each a copy of this script with --child, and collect their
    raw figures."""
    argv = [sys.executable, __file__, *sys.argv[1:]]
    with tempfile.TemporaryDirectory() as folder:
        # results go through files: a child's worker processes keep its stdout open
        results = [Path(folder) / f"{i}.json" for i in range(args.processes)]
        procs = [await asyncio.create_subprocess_exec(
            *argv, "--child", str(i), "--child-database", database,
            "--child-result", str(results[i])) for i in range(args.processes)]
        codes = await asyncio.gather(*(p.wait() for p in procs))
        if any(codes):
            raise SystemExit(f"a bot process failed ({codes})")
        return [Phase(**raw) for path in results for raw in json.loads(path.read_text())]


async def child(args: argparse.Namespace) -> int:
    phases = await run_one(args, args.child_database, args.child)
    Path(args.child_result).write_text(json.dumps([vars(p) for p in phases]))
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--rate", type=float, default=60.0, help="steady moves per second")
    parser.add_argument("--burst-rounds", type=int, default=1)
    parser.add_argument("--saturation-rate", type=float, default=400.0)
    parser.add_argument("--saturation-actions", type=int, default=3000)
    parser.add_argument("--service-moves", type=int, default=2000)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--database", help="SQLite path or postgresql:// URL (default: a "
                        "temporary SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--child-database", help=argparse.SUPPRESS)
    parser.add_argument("--child-result", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse_args()
    sys.exit(asyncio.run(child(arguments) if arguments.child is not None else main(arguments)))
