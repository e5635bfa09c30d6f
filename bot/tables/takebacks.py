"""The table service's take-backs (a part of TableService): asked, declined and accepted
through the table store; the rules and the replay are in takeback.py."""

from __future__ import annotations

from bot.tables import pipeline
from bot.tables.errors import TableError
from bot.tables.models import MoveResult, Step, Table
from bot.tables.store import TableStore
from bot.tables.takeback import TAKEBACK, Request, answer, ask, entry, replay
from engines.base import Move


class TakeBacks:
    """The table service's take-backs (a part of TableService)."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    async def ask(self, table_id: int, user_id: int, ply: int | None = None) -> Request:
        """The request `user_id` may make now (nothing is stored: see the module's doc)."""
        return ask(await self.store.get(table_id), user_id, ply)

    async def decline(self, table_id: int, user_id: int, ply: int) -> Request:
        """Check that `user_id` may decline (or, as the asker, withdraw) the request asked
        at `ply`; nothing changes at the table."""
        return answer(await self.store.get(table_id), user_id, ply)

    async def accept(self, table_id: int, user_id: int, ply: int) -> MoveResult:
        """The answerer accepts the take-back asked at `ply`: one log entry, committed only
        if the table's ply is still `ply`. TableError: those of `answer`, and
        takeback_own_request when the asker presses Accept."""

        async def build(table: Table) -> MoveResult:
            request = answer(table, user_id, ply)
            if table.seat_of(user_id) != request.answerer:
                raise TableError("takeback_own_request")
            undone = table.ply - 1
            back = replay(table.engine, len(table.seats), table.options,
                          [*table.log, entry(undone)])
            step = Step(TAKEBACK, Move.of_words(entry(undone)[1]), [])
            made = pipeline.change(table, self.store.now(), steps=[step], state=back.state,
                                   since=back.since)
            return await self.store.commit(made, [step])

        result = await self.store.changing(table_id, build)
        assert result is not None
        return result
