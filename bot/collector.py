"""Python's cycle collector, set for long-running bot and picture-worker processes.

Python collects its oldest objects fully after every 10 collections of the middle ones.
A bot holding a thousand tables keeps over 100,000 objects, and each full collection
looked at all of them: about 150 ms with the event loop stopped, a dozen times in three
minutes at 60 moves a second, half of the collector's CPU (bench/load.py's `gc` column).
Most of what a move allocates is freed at once by reference counting, so the few cycles
that reach the oldest generation can wait longer to be collected.

For the same reason the youngest generation is collected after 10,000 new objects rather
than 700: under load each move keeps hundreds of objects alive for a few milliseconds (its
coroutines, futures, requests), and collecting every 700 looked at the same live ones again
and again (side by side in bench/load.py the collector's CPU per move fell to about 0.6).
"""

from __future__ import annotations

import gc

YOUNG_AFTER = 10_000  # new objects (allocations less frees) between young collections
FULL_AFTER = 100  # middle collections between two full ones (Python: 10)


def tune() -> None:
    """Collect the youngest and the oldest objects less often (at the start of every bot
    and worker process); the middle generation keeps Python's threshold."""
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(YOUNG_AFTER, middle, FULL_AFTER)
