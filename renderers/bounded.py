"""A cache bounded by bytes: what the picture workers keep between pictures (cached layers,
blended sprites) must not grow without end in a process that lives for weeks."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Bounded(Generic[V]):
    """Values by key; the least recently used go first once their sizes (`size_of`, in
    bytes) pass `budget`. Thread-safe: the bot may draw in threads (workers = 0)."""

    def __init__(self, budget: int, size_of: Callable[[V], int]) -> None:
        self.budget = budget
        self.size_of = size_of
        self.entries: OrderedDict[Hashable, V] = OrderedDict()
        self.bytes = 0
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> tuple[bool, V | None]:
        """(whether `key` is cached, its value)."""
        with self.lock:
            if key not in self.entries:
                return False, None
            self.entries.move_to_end(key)
            return True, self.entries[key]

    def put(self, key: Hashable, value: V) -> None:
        with self.lock:
            if key in self.entries:  # made by two threads at once
                return
            self.entries[key] = value
            self.bytes += self.size_of(value)
            while self.bytes > self.budget and len(self.entries) > 1:
                _, old = self.entries.popitem(last=False)
                self.bytes -= self.size_of(old)

    def cache_clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.bytes = 0
