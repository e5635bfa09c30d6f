"""Many tables at once through the test harness (simcord + the real bot): how fast does a
player get an answer?

    python bench/load.py [--tables 200] [--actions 2000] [--rate 15] [--burst-rounds 3]

Opens `--tables` tables with /play (a mix of the four games, two players each, each in its
own thread), then measures two loads:
- steady: actions arrive at `--rate` per second on random tables (one action in flight per
  table), like players who each take a few seconds to think;
- burst: every table acts at the same instant, `--burst-rounds` times.
For every action it records the time from the interaction being delivered to the bot's answer
(Discord's acknowledgement: the defer) and to the visible result (the new board posted, or
the pick board edited). Target: 99th percentile of the answer under 250 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
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
from bot.storage import open_database  # noqa: E402

# Full-length games (default options), so that the tables stay running during the run.
GAMES = [
    ("senet", {}),
    ("varanasi", {}),
    ("cows_leopards", {}),
    ("six_nimmt", {}),
]
MENTION = re.compile(r"<@(\d+)>")
TARGET_MS = 250.0
LOST_AFTER_S = 30.0


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
        self.guild = env.create_guild("Bench")
        self.places: dict[int, int] = {}  # table -> place id
        self.members: dict[int, simcord.MemberActor] = {}
        self.finished: set[int] = set()

    async def open_tables(self, count: int) -> None:
        for index in range(count):
            game, options = GAMES[index % len(GAMES)]
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


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def report(name: str, figures: Figures, seconds: float) -> bool:
    n, moves = len(figures.ack), len(figures.board)
    if not n:
        print(f"{name}: no actions")
        return False
    line = (f"{name}: {n} interactions ({moves} moves, {moves / seconds:.1f} moves/s) "
            f"in {seconds:.1f} s\n"
            f"  answer (defer): p50 {percentile(figures.ack, 50):6.1f} ms  "
            f"p95 {percentile(figures.ack, 95):6.1f} ms  p99 {percentile(figures.ack, 99):6.1f}"
            f" ms  max {max(figures.ack):6.1f} ms\n"
            f"  board posted:   p50 {percentile(figures.board, 50):6.1f} ms  "
            f"p95 {percentile(figures.board, 95):6.1f} ms  "
            f"p99 {percentile(figures.board, 99):6.1f} ms  max {max(figures.board):6.1f} ms  "
            f"mean {statistics.fmean(figures.board):.1f} ms"
            + (f"\n  actions without a new board (refused): {figures.lost}" if figures.lost
               else ""))
    print(line)
    return percentile(figures.ack, 99) < TARGET_MS


async def main(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite3"
        await (await open_database(database)).close()
        bot = TableBot(Config(token=None, database=str(database)),
                       rng=random.Random(args.seed))
        clock = Clock()
        env = simcord.Env(bot, settle_timeout=600.0)
        await env.start()
        try:
            clock.install(bot)
            bench = Bench(env, bot, clock, args.seed)
            began = time.perf_counter()
            await bench.open_tables(args.tables)
            print(f"opened {args.tables} tables ({', '.join(g for g, _ in GAMES)}) in "
                  f"{time.perf_counter() - began:.1f} s")
            ok = True
            figures, seconds = await bench.steady(args.actions, args.rate)
            ok &= report(f"steady load, {args.rate:g} actions/s over {args.tables} tables",
                         figures, seconds)
            figures, seconds = await bench.burst(args.burst_rounds)
            ok &= report(f"burst: every table at once, {args.burst_rounds} rounds", figures,
                         seconds)
            await env.settle(timeout=600.0)
            print(f"tables finished during the run: {len(bench.finished)}")
            print(f"target p99 answer < {TARGET_MS:.0f} ms: {'met' if ok else 'NOT met'}")
        finally:
            await env.shutdown()
            await bot.close_storage()
        env.raise_errors()
    return 0 if ok else 1


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=15.0, help="steady moves per second")
    parser.add_argument("--burst-rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))
