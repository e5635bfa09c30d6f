"""Time every sample picture of every game that has a renderer: render + PNG encode.

    .venv/bin/python bench/renderers.py [--repeat N] [GAME ...]

Prints one line per picture: median wall-clock ms and median CPU ms (process time, which
other load on the machine does not inflate) over N runs, and the PNG size; flags pictures
over the targets (median CPU < 30 ms, < 150 KB). Exit status 1 when a picture misses one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from renderers import gallery  # noqa: E402

TARGET_MS = 30.0
TARGET_KB = 150.0


Row = tuple[str, float, float, int]


def measure(repeat: int = 15, games: list[str] | None = None) -> list[Row]:
    """(picture, median wall ms, median CPU ms, PNG bytes) for every gallery case."""
    rows = []
    for stem, draw in gallery.cases(games):
        data = draw()  # warm the caches (fonts, sprites, card faces)
        wall, cpu = [], []
        for _ in range(repeat):
            w0, c0 = time.perf_counter(), time.process_time()
            data = draw()
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
        rows.append((stem, statistics.median(wall), statistics.median(cpu), len(data)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("games", nargs="*")
    args = parser.parse_args(argv)
    rows = measure(args.repeat, args.games or None)
    width = max((len(r[0]) for r in rows), default=10)
    print(f"{'picture':<{width}}  {'wall ms':>7}  {'CPU ms':>6}  {'KB':>6}")
    bad = 0
    for stem, wall, cpu, size in rows:
        kb = size / 1024
        flag = ""
        if cpu >= TARGET_MS or kb >= TARGET_KB:
            flag = "  <-- over target"
            bad += 1
        print(f"{stem:<{width}}  {wall:7.1f}  {cpu:6.1f}  {kb:6.1f}{flag}")
    if rows:
        walls = [r[1] for r in rows]
        cpus = [r[2] for r in rows]
        sizes = [r[3] / 1024 for r in rows]
        print(f"{len(rows)} pictures: median wall {statistics.median(walls):.1f} ms "
              f"(slowest {max(walls):.1f}), median CPU {statistics.median(cpus):.1f} ms "
              f"(slowest {max(cpus):.1f}), largest {max(sizes):.1f} KB "
              f"(targets < {TARGET_MS:.0f} ms, < {TARGET_KB:.0f} KB)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
