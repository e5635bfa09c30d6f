"""Many tables at once: the real bot (`python -m bot` processes) against a fake Discord that
speaks the wire protocol (tests/wire/fake_discord.py, in this process): how fast does a player
get an answer, and how soon does everyone see the board?

    python bench/load.py [--tables 1000] [--processes 1] [--database PATH|postgresql://...]
                         [--rate 60] [--actions 3000] [--typed 0.5] [--baseline TREE
                         [--baseline-python PATH] [--together]] [--profile]

Seeds `--tables` running tables (the four games in turn, two players each, one channel
each, 40 per server) into a fresh database (a temporary SQLite file, or a new database made
on the PostgreSQL server of the URL and dropped afterwards), starts `--processes` bot
processes (the shards of one cluster, on that database), waits until they have posted every
first board, then measures (bench/wire.py). A share of the actions (`--typed`, default half)
are typed as members do: an autocomplete interaction for `/move` (the bot lists the member's
moves), then `/move` with one of the choices; the others are clicks on the board's buttons
and menus (and 6 nimmt! hands sent by DM). The loads:
- steady: actions arrive at `--rate` per second on random tables (one action in flight per
  table), like players who each take a few seconds to think;
- burst: every table acts at the same instant: how long until every board is posted;
- saturation: actions offered faster than the bots can take them (at most
  `--saturation-in-flight` waiting at once): the moves they sustain;
- service: the table service alone in this process (no Discord, no pictures): CPU per move.
For every action: the time from the interaction being sent to the bot's answer (its
interaction callback; for typed moves also the autocomplete's choices) and to the board (the
new board posted, or the pick board edited); CPU per move of the bot processes themselves
(Discord, the database, autocomplete), of their event-loop threads alone (the rest of a bot's
own CPU is its SQLite thread's) and of Python's cycle collector in them, of their worker
processes (pictures), and of this process (the fake Discord and the players); the bots' REST
calls per move (by route, DM channels apart), the bots' event-loop lag (how late a 50 ms
timer fires, sampled inside each bot: bench/bot_process.py), and the peak resident memory so
far of the bot processes and of their workers (each process's own peak, added up).

`--baseline TREE` runs the same loads first with the bot code of another checkout (e.g. `git
worktree add ../base main`), with the interpreter `--baseline-python` (default this one: give
that checkout's `.venv/bin/python` to compare with its installed libraries too), and prints
the ratios new/old. `--rounds N` runs old and new in turn N times and pools the figures (on a
machine shared with other work; how much it drifts shows in a figure whose code both trees
share, such as the workers' CPU per move when the pictures did not change). On a machine
that drifts by more than the difference sought (these 2-core VMs: 10-15% between two runs of
the same code), `--together` runs old and new at the same time instead, each with half the
tables and half of every load, so that whatever else the machine does weighs on both alike:
`--tables 800 --rate 120` gives each the 400 tables at 60 moves/s of a single run (the fake's
and the database server's CPU are then of both). `--profile`
writes a cProfile of each bot process to bench-profile-<shard>.prof. Prints tables and one
JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.wire import (  # noqa: E402
    TABLES_PER_GUILD,
    BotProcess,
    Figures,
    Players,
    TableInfo,
    guild_ids,
    server_cpu_seconds,
    start_bots,
    stop_bots,
)
from bot.storage import is_postgres, open_database  # noqa: E402
from tests.wire.fake_discord import FakeDiscord  # noqa: E402

START_TIMEOUT = 900.0  # seconds for the bots to post every first board


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


@dataclass
class Phase:
    name: str
    figures: Figures = field(default_factory=Figures)
    lag: list[float] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the bot processes themselves
    loop_cpu_seconds: float = 0.0  # their event loops' threads (the rest: the SQLite thread)
    collector_seconds: float = 0.0  # Python's cycle collector in them (mostly in the loop)
    cpu_all_seconds: float = 0.0  # with their worker processes (pictures)
    fake_cpu_seconds: float = 0.0  # this process: the fake Discord and the players
    db_cpu_seconds: float = 0.0  # the PostgreSQL server (SQLite's work is in the bots)
    bot_memory_mb: float = 0.0  # peak resident memory so far: the bot processes
    workers_memory_mb: float = 0.0  # and their worker processes (each one's peak, added up)

    def summary(self) -> dict[str, float]:
        moves = len(self.figures.board)

        def per_move(seconds: float) -> float:
            return round(seconds * 1000 / moves, 2) if moves else 0.0

        return {
            "moves": moves,
            "seconds": round(self.seconds, 2),
            "moves_per_s": round(moves / self.seconds, 1) if self.seconds else 0.0,
            "cpu_ms_per_move": per_move(self.cpu_seconds),
            "loop_cpu_ms_per_move": per_move(self.loop_cpu_seconds),
            "collector_cpu_ms_per_move": per_move(self.collector_seconds),
            "workers_cpu_ms_per_move": per_move(self.cpu_all_seconds - self.cpu_seconds),
            "cpu_all_ms_per_move": per_move(self.cpu_all_seconds),
            "fake_cpu_ms_per_move": per_move(self.fake_cpu_seconds),
            "db_cpu_ms_per_move": per_move(self.db_cpu_seconds),
            "autocompletes": len(self.figures.autocomplete),
            "autocomplete_p99_ms": round(percentile(self.figures.autocomplete, 99), 1),
            "answer_p99_ms": round(percentile(self.figures.ack, 99), 1),
            "board_p50_ms": round(percentile(self.figures.board, 50), 1),
            "board_p99_ms": round(percentile(self.figures.board, 99), 1),
            "board_max_ms": round(max(self.figures.board, default=float("nan")), 1),
            "loop_lag_p99_ms": round(percentile(self.lag, 99), 1),
            "picture_kb_max": round(max(self.figures.sizes, default=0) / 1024, 1),
            "lost": self.figures.lost,
            "rest_per_move": round(sum(self.figures.rest.values()) / moves, 2) if moves else 0.0,
            "bot_memory_mb": round(self.bot_memory_mb),
            "workers_memory_mb": round(self.workers_memory_mb),
        }


async def measured(name: str, load: Awaitable[tuple[Figures, float]],
                   bots: list[BotProcess], server: bool = False, who: str = "") -> Phase:
    """Run one phase's load and measure it; `server`: the bots use this machine's
    PostgreSQL server, whose CPU is measured too; `who` heads its log lines."""
    before = [bot.cpu_seconds() for bot in bots]
    db_before = server_cpu_seconds() if server else 0.0
    fake_before, began = time.process_time(), time.monotonic()
    figures, seconds = await load
    after = [bot.cpu_seconds() for bot in bots]
    phase = Phase(name, figures, seconds=seconds,
                  fake_cpu_seconds=time.process_time() - fake_before,
                  db_cpu_seconds=server_cpu_seconds() - db_before if server else 0.0)
    phase.cpu_seconds, phase.loop_cpu_seconds, phase.cpu_all_seconds = (
        sum(a[i] - b[i] for a, b in zip(after, before, strict=True)) for i in range(3))
    peaks = [bot.peak_memory_mb() for bot in bots]
    phase.bot_memory_mb = sum(own for own, _ in peaks)
    phase.workers_memory_mb = sum(workers for _, workers in peaks)
    await asyncio.sleep(1.2)  # the bots write their lag samples once a second
    phase.lag = [lag for bot in bots for lag in bot.lag_since(began, began + seconds)]
    phase.collector_seconds = sum(bot.collector_seconds(began, began + seconds) for bot in bots)
    log(f"  {who}{name}: {json.dumps(phase.summary())}")
    if figures.refusals:
        log(f"  {who}{name}, lost actions: {dict(figures.refusals.most_common(5))}")
    if figures.board:
        log(f"  {who}{name}, REST calls per move: " + ", ".join(
            f"{route} {count / len(figures.board):.2f}"
            for route, count in figures.rest.most_common(12)))
    return phase


async def service_cpu(database: str, tables: int, moves: int, seed_: int) -> Phase:
    """The table service alone, on the bench's database: CPU per move (no Discord, no
    pictures), as players' moves on many tables."""
    from bot.tables import TableService

    db = await open_database(database)
    try:
        service = TableService(db, rng=random.Random(seed_))
        rng = random.Random(seed_)
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
        phase.figures.board = [0.0] * done
        for table_id in ids:  # no board of these tables is ever to be posted
            await service.cancel(table_id, 1, can_manage=True)
    finally:
        await db.close()
    return phase


SEED_IN_TREE = """
import asyncio, dataclasses, json, sys
sys.path.insert(0, sys.argv[1])
from bench.wire import seed
tables = asyncio.run(seed(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])))
print(json.dumps([dataclasses.astuple(t) for t in tables]))
"""


async def seed_in(tree: Path, python: str, database: str, tables: int, shards: int,
                  rng_seed: int) -> list[TableInfo]:
    """`seed` by the bot code of `tree` run by `python`: the database is made by the
    migrations of the bot that will serve it (a baseline's bot refuses a newer schema)."""
    process = await asyncio.create_subprocess_exec(
        python, "-c", SEED_IN_TREE, str(tree), database, str(tables), str(shards),
        str(rng_seed), stdout=asyncio.subprocess.PIPE, cwd=tree)
    out, _ = await process.communicate()
    if process.returncode:
        raise SystemExit(f"seeding with the bot of {tree} failed")
    return [TableInfo(*row) for row in json.loads(out.decode().splitlines()[-1])]


async def run_wire(args: argparse.Namespace, tree: Path, database: str,
                   python: str = sys.executable,
                   together: asyncio.Barrier | None = None) -> dict[str, Phase]:
    """Seed the tables, start the bots of `tree` (run by `python`), run the loads, stop
    everything. `together`: another tree's bots run beside these; each load starts when
    both have reached it (the log lines then name the tree)."""
    who = f"{tree.name}: " if together is not None else ""

    async def ready() -> None:
        if together is not None:
            await together.wait()

    began = time.perf_counter()
    tables = await seed_in(tree, python, database, args.tables, args.processes, args.seed)
    log(f"{who}seeded {len(tables)} tables in {time.perf_counter() - began:.1f} s")
    players: Players | None = None
    fake = FakeDiscord(guild_ids(args.tables), shard_count=args.processes,
                       channels_per_guild=TABLES_PER_GUILD, record=False,
                       on_call=lambda call, answer: players.on_call(call, answer))
    players = Players(fake, tables, args.seed, args.typed)
    url = await fake.start()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.logs) / tree.name if args.logs else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        settings = dict(item.split("=", 1) for item in args.bot_env)
        bots = await start_bots(tree, url, database, args.processes, folder, args.profile,
                                settings, python)
        try:
            began = time.perf_counter()
            while players.posted < len(tables):  # the first boards, posted by the bots
                if any(bot.process.returncode is not None for bot in bots) or fake.errors or \
                        time.perf_counter() - began > START_TIMEOUT:
                    raise SystemExit("the bots did not post every first board:\n" +
                                     "\n".join(bot.tail() for bot in bots) + f"\n{fake.errors}")
                await asyncio.sleep(0.2)
            log(f"{who}first boards posted in {time.perf_counter() - began:.1f} s")
            server = is_postgres(database)
            await ready()
            steady = await measured("steady", players.steady(args.actions, args.rate), bots,
                                    server, who)
            await ready()
            burst = await measured("burst", players.burst(), bots, server, who)
            await ready()
            saturation = await measured("saturation", players.steady(
                args.saturation_actions, args.saturation_rate, args.saturation_in_flight),
                bots, server, who)
            return {"steady": steady, "burst": burst, "saturation": saturation}
        finally:
            await stop_bots(bots)
            await fake.stop()
            if fake.errors:
                log(f"fake Discord could not answer: {fake.errors[:5]}")


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


async def fresh_database(url: str | None, folder: str, name: str) -> tuple[str, Any]:
    """A new empty database (a SQLite file in `folder`, or a new database on the server of
    `url`), and a coroutine function dropping it."""
    if url is None or not is_postgres(url):
        path = url or str(Path(folder) / f"{name}.sqlite3")

        async def nothing() -> None:
            return None

        return path, nothing
    import asyncpg

    database = f"bench_{random.randrange(16**8):08x}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE DATABASE {database}")
    await admin.close()
    base, _, _ = url.rpartition("/")

    async def drop() -> None:
        conn = await asyncpg.connect(url)
        await conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        await conn.close()

    return f"{base}/{database}", drop


def pooled(rounds: list[dict[str, Phase]]) -> dict[str, Phase]:
    """Each phase over all rounds as one: every sample, the seconds and CPU added up."""
    result = {}
    for name in rounds[0]:
        phase = Phase(name)
        for one in (run[name] for run in rounds):
            for kind in ("ack", "board", "sizes", "autocomplete"):
                getattr(phase.figures, kind).extend(getattr(one.figures, kind))
            phase.figures.lost += one.figures.lost
            phase.figures.refusals.update(one.figures.refusals)
            phase.figures.rest.update(one.figures.rest)
            phase.lag += one.lag
            phase.seconds += one.seconds
            phase.cpu_seconds += one.cpu_seconds
            phase.loop_cpu_seconds += one.loop_cpu_seconds
            phase.collector_seconds += one.collector_seconds
            phase.cpu_all_seconds += one.cpu_all_seconds
            phase.fake_cpu_seconds += one.fake_cpu_seconds
            phase.db_cpu_seconds += one.db_cpu_seconds
            phase.bot_memory_mb = max(phase.bot_memory_mb, one.bot_memory_mb)
            phase.workers_memory_mb = max(phase.workers_memory_mb, one.workers_memory_mb)
        result[name] = phase
    return result


def print_table(title: str, phases: dict[str, Phase]) -> None:
    print(title)
    print("CPU ms per move: bot = the bot processes (loop = their event loops' threads, of "
          "which gc = Python's cycle collector), workers = their worker processes, db = the "
          "PostgreSQL server; REST = the bots' REST calls per move; times in ms; MB = peak "
          "resident memory so far of the bots + their workers")
    print(f"{'phase':<11}{'moves':>7}{'moves/s':>9}{'bot':>7}{'loop':>6}{'gc':>6}"
          f"{'workers':>8}{'db':>6}{'fake':>7}"
          f"{'typed':>6}{'compl p99':>10}{'answer p99':>11}{'board p50':>10}{'board p99':>10}"
          f"{'board max':>10}{'lag p99':>9}{'lost':>6}{'REST':>6}{'MB':>10}")
    for name, phase in phases.items():
        row = phase.summary()
        print(f"{name:<11}{row['moves']:>7}{row['moves_per_s']:>9}{row['cpu_ms_per_move']:>7}"
              f"{row['loop_cpu_ms_per_move']:>6}{row['collector_cpu_ms_per_move']:>6}"
              f"{row['workers_cpu_ms_per_move']:>8}{row['db_cpu_ms_per_move']:>6}"
              f"{row['fake_cpu_ms_per_move']:>7}"
              f"{row['autocompletes']:>6}{row['autocomplete_p99_ms']:>10}"
              f"{row['answer_p99_ms']:>11}{row['board_p50_ms']:>10}{row['board_p99_ms']:>10}"
              f"{row['board_max_ms']:>10}{row['loop_lag_p99_ms']:>9}{row['lost']:>6}"
              f"{row['rest_per_move']:>6}"
              f"{str(row['bot_memory_mb']) + ' + ' + str(row['workers_memory_mb']):>10}")


RATIO_KEYS = ("moves_per_s", "cpu_ms_per_move", "loop_cpu_ms_per_move",
              "collector_cpu_ms_per_move", "workers_cpu_ms_per_move",
              "cpu_all_ms_per_move", "db_cpu_ms_per_move", "autocomplete_p99_ms",
              "answer_p99_ms", "board_p50_ms", "board_p99_ms", "loop_lag_p99_ms",
              "rest_per_move", "bot_memory_mb", "workers_memory_mb")


def ratios(new: dict[str, Phase], old: dict[str, Phase]) -> dict[str, dict[str, float]]:
    """new / old for each phase and figure."""
    result = {}
    for name in new.keys() & old.keys():
        a, b = new[name].summary(), old[name].summary()
        result[name] = {key: round(a[key] / b[key], 2) if b[key] else float("nan")
                        for key in RATIO_KEYS}
    return result


def report(phases: dict[str, Phase], service: Phase | None) -> dict[str, Any]:
    """The JSON of one run: the steady phase's figures, then each phase's."""
    result: dict[str, Any] = dict(phases["steady"].summary())
    for name, phase in phases.items():
        if name != "steady":
            result[name] = phase.summary()
    if service is not None:
        result["service_cpu_ms_per_move"] = service.summary()["cpu_ms_per_move"]
    return result


async def run_tree(args: argparse.Namespace, label: str, tree: Path, folder: str,
                   number: int, together: asyncio.Barrier | None = None) -> dict[str, Phase]:
    """`run_wire` for the bots of `tree` on a fresh database, dropped after; the baseline's
    bots are run by `--baseline-python`. With `together`, each tree gets half the tables and
    half the load."""
    database, drop = await fresh_database(args.database, folder, f"{label}{number}")
    if together is not None:
        args = argparse.Namespace(**{
            **vars(args), "tables": args.tables // 2, "rate": args.rate / 2,
            "saturation_rate": args.saturation_rate / 2,
            "saturation_in_flight": args.saturation_in_flight // 2})
    try:
        python = args.baseline_python if label == "old" else sys.executable
        return await run_wire(args, tree, database, python, together)
    except BaseException:
        if together is not None:  # the other tree would wait for this one for ever
            await together.abort()
        raise
    finally:
        await drop()


async def main(args: argparse.Namespace) -> int:
    kind = "PostgreSQL" if args.database and is_postgres(args.database) else "SQLite"
    title = f"{args.tables} tables, {args.processes} bot process(es), {kind}"
    if args.together:
        title = f"{args.tables // 2} tables each (old and new together), " \
                f"{args.processes} bot process(es) each, {kind}"
    rounds: dict[str, list[dict[str, Phase]]] = {}
    service = None
    with tempfile.TemporaryDirectory() as folder:
        trees = [("old", Path(args.baseline).resolve())] if args.baseline else []
        if args.database and not is_postgres(args.database) and \
                (len(trees) or args.rounds > 1):
            raise SystemExit("--baseline and --rounds need a fresh database per run: leave "
                             "out --database (a temporary SQLite file) or give a URL")
        if args.together and not trees:
            raise SystemExit("--together needs --baseline")
        checkouts = [*trees, ("new", ROOT)]
        for number in range(args.rounds):  # old and new in turn (or together): a busy
            if args.together:  # machine's drift weighs on both alike
                log(f"old and new together (round {number + 1} of {args.rounds})")
                barrier = asyncio.Barrier(len(checkouts))
                both = await asyncio.gather(*(run_tree(args, label, tree, folder, number,
                                                       barrier) for label, tree in checkouts))
                for (label, _), phases in zip(checkouts, both, strict=True):
                    rounds.setdefault(label, []).append(phases)
            else:
                for label, tree in checkouts:
                    log(f"{label}: the bot of {tree} (round {number + 1} of {args.rounds})")
                    rounds.setdefault(label, []).append(
                        await run_tree(args, label, tree, folder, number))
            if trees:
                each = ratios(rounds["new"][-1], rounds["old"][-1])
                log(f"round {number + 1}, CPU per move new/old (bot, workers): " + ", ".join(
                    f"{name} {row['cpu_ms_per_move']}, {row['workers_cpu_ms_per_move']}"
                    for name, row in each.items()))
        if args.service_moves:  # the table service alone, on a database of its own
            database, drop = await fresh_database(args.database, folder, "service")
            try:
                service = await service_cpu(database, 50, args.service_moves, args.seed)
            finally:
                await drop()
    runs = {label: pooled(phases) for label, phases in rounds.items()}
    result: dict[str, Any] = {"tables": args.tables, "processes": args.processes,
                              "database": kind.lower(), "typed": args.typed,
                              "rounds": args.rounds}
    for label, phases in runs.items():
        print_table(f"{title}: {label} bot ({args.baseline if label == 'old' else ROOT})",
                    {**phases, **({"service": service} if label == "new" and service else {})})
        print()
    result.update(report(runs["new"], service))
    if "old" in runs:
        result["old"] = report(runs["old"], None)
        result["ratio_new_to_old"] = ratios(runs["new"], runs["old"])
        print("ratio new/old: " + json.dumps(result["ratio_new_to_old"]))
    print(json.dumps(result))
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=1, help="bot processes (shards)")
    parser.add_argument("--database", help="SQLite path or postgresql:// URL (default: a "
                        "temporary SQLite file; on a server, a new database is made)")
    parser.add_argument("--actions", type=int, default=3000, help="steady actions")
    parser.add_argument("--rate", type=float, default=60.0, help="steady moves per second")
    parser.add_argument("--saturation-rate", type=float, default=400.0)
    parser.add_argument("--saturation-actions", type=int, default=3000)
    parser.add_argument("--saturation-in-flight", type=int, default=200,
                        help="at most this many actions waiting for their board")
    parser.add_argument("--service-moves", type=int, default=2000)
    parser.add_argument("--typed", type=float, default=0.5, metavar="SHARE",
                        help="share of actions typed as /move, each after an autocomplete "
                             "(default 0.5; 0: clicks only)")
    parser.add_argument("--baseline", metavar="TREE",
                        help="first run the bot code of this checkout, and print ratios")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run the bots this many times (with --baseline: old and new in "
                             "turn) and pool the figures; for a machine shared with others")
    parser.add_argument("--together", action="store_true",
                        help="with --baseline: run old and new at the same time, each with "
                             "half the tables and half the load, so that a shared machine's "
                             "drift weighs on both alike (the fake and db columns are then "
                             "of both)")
    parser.add_argument("--baseline-python", metavar="PATH", default=sys.executable,
                        help="the interpreter for the baseline's bots, e.g. its checkout's "
                             ".venv/bin/python (default: this one)")
    parser.add_argument("--profile", action="store_true",
                        help="cProfile each bot process into bench-profile-<shard>.prof")
    parser.add_argument("--bot-env", action="append", default=[], metavar="KEY=VALUE",
                        help="a setting for the bot processes (repeatable), e.g. "
                             "BOT_PG_ACQUIRE_TIMEOUT=10")
    parser.add_argument("--logs", metavar="DIR",
                        help="keep the bots' output in DIR/<tree>/bot<shard>.log")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args()


if __name__ == "__main__":
    from bot.launch import run  # the bots' own event loop (uvloop): the fake and the
    sys.exit(run(main(parse_args())))  # driver share the cores with the bots they time
