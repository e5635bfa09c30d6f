"""What an engine says when it refuses a move."""

from __future__ import annotations

from typing import Any

import pytest

from engines import Engine, IllegalMove


def refusal(eng: Engine, state: Any, actor: int, move: Any) -> str:
    """The reason `eng` gives for refusing `move` by `actor` in `state`; the test fails if the
    move is accepted."""
    with pytest.raises(IllegalMove) as refused:
        eng.apply(state, actor, move)
    return str(refused.value)
