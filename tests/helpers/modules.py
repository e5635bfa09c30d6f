"""Asked of a worker process (bot/workers.py): which modules it has loaded."""

from __future__ import annotations

import sys


def loaded(prefix: str) -> list[str]:
    """The names of the loaded modules that are `prefix` or inside it."""
    return sorted(name for name in sys.modules
                  if name == prefix or name.startswith(prefix + "."))
