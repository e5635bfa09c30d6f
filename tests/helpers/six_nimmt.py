"""6 nimmt! positions written the short way, for the engine's and the computers' tests."""

from __future__ import annotations

from engines import get_engine

E = get_engine("six_nimmt")


def position(rows, hands, *, picked=None, left=None, phase="pick", pending=None, queue=(),
             rnd=1, **options) -> dict:
    """A position JSON with the documented keys only; `left` is the points left per seat."""
    n = len(hands)
    opts = {**E.default_options(n), **options}
    return {
        "game": "six_nimmt",
        "options": opts,
        "round": rnd,
        "phase": phase,
        "rows": [list(r) for r in rows],
        "hands": [sorted(h) for h in hands],
        "picked": list(picked) if picked else [None] * n,
        "pending": pending,
        "queue": [list(q) for q in queue],
        "points": list(left) if left else [opts["points"]] * n,
        "pool": [],
        "drafter": None,
    }
