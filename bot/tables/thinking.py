"""The computer player's move, from plain data, so that it can run in a worker process.

`choose(game, view, legal, seat, level, seed, budget)` sees only `view(state, seat)` (what
that seat may know) and the seat's legal moves; it never touches the table or the database.
The service takes a `think` coroutine with the same arguments: the bot runs `choose` in its
search process pool (bot/workers.py); without one it runs in a thread.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

from bot.tables import computers, turns
from bot.tables.models import Table
from engines.ai import choose_move
from engines.base import View

log = logging.getLogger(__name__)

Think = Callable[[str, View, list[str], int, str, int, float], Awaitable[str]]


def move_seed(table_id: int, ply: int, seat: int) -> int:
    """The computer player's seed for a move: reproducible from the table's log."""
    return (table_id * 1_000_003 + ply) * 16 + seat


def choose(game: str, view: View, legal: list[str], seat: int, level: str,
           seed: int, budget: float) -> str:
    """The move of the computer player the game's spec names, at `level`; should it fail
    (an error, an illegal answer), a seeded random legal move. Blocking: run it in a worker."""
    move: str | None = None
    try:
        move = choose_move(game, view, seat, level, seed=seed, budget=budget)
    except Exception:
        log.warning("the %s computer player failed; playing a random move", game,
                    exc_info=True)
    if move is not None:
        move = turns.clean_move(move)
        if move not in legal:
            log.warning("the %s computer player chose %r, not a legal move", game, move)
            move = None
    return move if move is not None else random.Random(seed).choice(legal)


async def think_in_thread(game: str, view: View, legal: list[str], seat: int,
                          level: str, seed: int, budget: float) -> str:
    """`choose` in a worker thread: the default `think` when there is no process pool."""
    return await asyncio.to_thread(choose, game, view, legal, seat, level, seed, budget)


class ComputerMoves:
    """A computer's move for a seat of a table: `think` (`choose` in a worker) from that
    seat's view only, seeded from the table's log so it can be reproduced."""

    def __init__(self, think: Think | None = None) -> None:
        self._think = think if think is not None else think_in_thread

    async def move(self, table: Table, seat: int, level: str, salt: int = 0) -> str:
        eng = table.engine
        seed = move_seed(table.id, table.ply, seat) + salt
        return await self._think(table.game, eng.view(table.state, seat),
                                 table.legal_moves(seat), seat, level, seed,
                                 computers.BUDGETS.get(level, 0.5))
