"""Python's cycle collector, set for long-running bot and picture-worker processes.

Python collects its oldest objects fully after every 10 collections of the middle ones.
A bot holding a thousand tables keeps over 100,000 objects, and each full collection
looked at all of them: about 150 ms with the event loop stopped, a dozen times in three
minutes at 60 moves a second, half of the collector's CPU (bench/load.py's `gc` column).
Most of what a move allocates is freed at once by reference counting, so the few cycles
that reach the oldest generation can wait longer to be collected."""

from __future__ import annotations

import gc

FULL_AFTER = 100  # middle collections between two full ones (Python: 10)


def tune() -> None:
    """Collect the oldest objects less often (at the start of every bot and worker process);
    the young and middle generations keep Python's thresholds."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_AFTER)
