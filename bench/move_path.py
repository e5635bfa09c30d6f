"""What one `/move` costs inside the bot, counted (not timed): the project's function calls
and the modules they are in, table loads, legal-move and apply computations of the engine,
and SQL statements, for the autocomplete a member types and for the `/move` itself (with
its board). It plays a seeded Senet game through simcord (the real discord.py) on SQLite, so
the figures are the same on any machine; run it in two checkouts to compare them.

    python bench/move_path.py [--moves 30]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import FrameType
from typing import Any

import simcord

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.client import TableBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.tables import TableService  # noqa: E402

PROJECT = tuple(str(ROOT / part) for part in ("bot", "engines", "renderers"))


STATEMENTS = [0]  # SQL statements run so far (SQLite's trace callback, on its own thread)


def _count_statement(_sql: str) -> None:
    STATEMENTS[0] += 1


class Tally:
    """Counts what the event loop's thread runs while `measure` awaits one interaction."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.sql = -STATEMENTS[0]

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            path = frame.f_code.co_filename
            if path.startswith(PROJECT):
                module = path[len(str(ROOT)) + 1:]
                self.calls[f"{module}:{frame.f_code.co_name}"] += 1

    def figures(self) -> dict[str, int]:
        self.sql += STATEMENTS[0]
        def named(*names: str) -> int:
            return sum(n for key, n in self.calls.items() if key.split(":")[1] in names)

        return {
            "calls": sum(self.calls.values()),
            "functions": len(self.calls),
            "modules": len({key.split(":")[0] for key in self.calls}),
            "table loads": named("load_table"),
            "legal moves": sum(n for key, n in self.calls.items()
                               if key.startswith("engines/") and key.endswith(":legal_moves")),
            "applies": sum(n for key, n in self.calls.items() if key.startswith("engines/")
                           and key.split(":")[1] in ("apply", "apply_events")),
            "SQL": self.sql,
        }


async def measure(work: Callable[[], Awaitable[Any]]) -> dict[str, int]:
    """Count while `work` runs (pictures drawn in threads are not counted)."""
    tally = Tally()
    sys.setprofile(tally)
    try:
        await work()
    finally:
        sys.setprofile(None)
    return tally.figures()


async def play(moves: int) -> tuple[list[dict[str, int]], list[dict[str, int]]]:
    folder = Path(tempfile.mkdtemp())
    bot = TableBot(Config(token=None, database=str(folder / "bot.sqlite3"), workers=0),
                   rng=random.Random(7))
    env = simcord.Env(bot)
    await env.start()
    await bot.db.driver.call(lambda conn: conn.set_trace_callback(_count_statement))
    typed, moved = [], []
    try:
        guild = env.create_guild("Bench")
        channel = guild.create_text_channel("games")
        aki = guild.add_member(env.create_user("aki"))
        bo = guild.add_member(env.create_user("bo"))
        lobby = (await aki.slash(channel, "play senet", shuffle=False)).response
        message = lobby.message if isinstance(lobby, simcord.ResponseMessage) else lobby
        ids = [getattr(child, "custom_id", "") for row in message.components
               for child in getattr(row, "children", [row])]
        table_id = int(ids[0].split(":")[1])
        await bo.click(lobby, custom_id=f"lobby:{table_id}:join")
        start = next(i for i in ids if ":start" in i)
        await aki.click(lobby, custom_id=start)
        place = channel.threads[-1] if channel.threads else channel
        members = {aki.id: aki, bo.id: bo}
        reader = TableService(bot.db)  # its own cache: reading leaves the bot's alone
        while len(moved) < moves:
            table = await reader.get(table_id)
            acting = table.to_act()
            if table.status != "running" or not acting:
                break
            member = members[table.seats[acting[0]].user_id]
            choices: list[Any] = []

            async def type_move(member: Any = member, choices: list[Any] = choices) -> None:
                choices.extend(await member.autocomplete(place, "move", "move", ""))

            typed.append(await measure(type_move))
            value = choices[0]["value"]
            moved.append(await measure(lambda m=member, v=value: m.slash(place, "move", move=v)))
            await env.settle()
    finally:
        await env.shutdown()
        await bot.close_storage()
    return typed, moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    args = parser.parse_args()
    typed, moved = asyncio.run(play(args.moves))
    print(f"{ROOT.name}: {len(moved)} Senet moves typed by members (median per move)")
    for name, rows in (("autocomplete", typed), ("/move + board", moved)):
        keys = rows[0].keys()
        line = ", ".join(f"{k} {statistics.median(r[k] for r in rows):g}" for k in keys)
        print(f"  {name:14s} {line}")


if __name__ == "__main__":
    main()
