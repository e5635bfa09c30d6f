"""Puzzle storage on SQLite and PostgreSQL: puzzles merge by (server, game, key), a member
answers a shown puzzle once and only the first answer to a puzzle is rated, the next puzzle
is one they have not solved, and a server's daily post is claimed by one process."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.storage import Database
from bot.storage.puzzles import STARTER, NewPuzzle
from bot.tables.ratings import initial, ordinal, rate_answer
from tests.bot.backends import Opener
from tests.helpers.puzzles import distinct_senet_puzzles

AT = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
GUILD, AKI, BO = 10, 1001, 1002


def new(puzzle: dict, **source: object) -> NewPuzzle:
    return NewPuzzle(puzzle, mu=puzzle["difficulty"], sigma=initial()[1], **source)  # type: ignore[arg-type]


async def test_puzzles_merge_by_server_game_and_key(db: Database) -> None:
    first, second = distinct_senet_puzzles(2)
    assert await db.puzzles.add(STARTER, [new(first)], AT) == 1
    assert await db.puzzles.add(STARTER, [new(first), new(second)], AT) == 1  # idempotent
    mined = new(first, table_id=12, players=[(AKI, "Aki"), (BO, "Bo")], ply=7)
    assert await db.puzzles.add(GUILD, [mined], AT) == 1  # the server's own copy
    assert await db.puzzles.add(GUILD, [mined], AT) == 0
    assert await db.puzzles.count(GUILD, ["senet"]) == {"senet": 3}
    assert await db.puzzles.count(99, ["senet"]) == {"senet": 2}
    # the server's own come first, with their source
    shown = await db.puzzles.pick(GUILD, AKI, ["senet"], 25.0)
    assert shown is not None and shown.guild_id == GUILD
    assert (shown.table_id, shown.players, shown.ply) == (12, [(AKI, "Aki"), (BO, "Bo")], 7)
    assert shown.data == first


async def test_one_answer_moves_both_ratings_once(db: Database) -> None:
    puzzle, = distinct_senet_puzzles(1)
    await db.puzzles.add(GUILD, [new(puzzle)], AT)
    row = await db.puzzles.pick(GUILD, AKI, ["senet"], 25.0)
    assert row is not None
    attempt = await db.puzzles.open_attempt(row.id, GUILD, AKI, AT)
    solved = await db.puzzles.answer(attempt.id, puzzle["best"], True, rate_answer, AT)
    assert solved is not None and solved.rated and solved.streak == 1
    assert await db.puzzles.answer(attempt.id, puzzle["best"], True, rate_answer, AT) is None
    me, = await db.puzzles.players(GUILD, AKI)
    assert (me.attempts, me.solved, me.streak, me.best_streak) == (1, 1, 1, 1)
    assert ordinal(me.mu, me.sigma) > ordinal(*initial())
    after = await db.puzzles.get(row.id)
    assert after is not None and after.mu < row.mu and (after.attempts, after.solves) == (1, 1)
    # solved: never shown again to Aki; Bo still gets it
    assert await db.puzzles.pick(GUILD, AKI, ["senet"], 25.0) is None
    assert await db.puzzles.pick(GUILD, BO, ["senet"], 25.0) is not None


async def test_a_wrong_first_answer_is_rated_a_retry_is_not(db: Database) -> None:
    puzzle, = distinct_senet_puzzles(1)
    await db.puzzles.add(GUILD, [new(puzzle)], AT)
    row = await db.puzzles.pick(GUILD, AKI, ["senet"], 25.0)
    assert row is not None
    first = await db.puzzles.open_attempt(row.id, GUILD, AKI, AT)
    failed = await db.puzzles.answer(first.id, puzzle["played"], False, rate_answer, AT)
    assert failed is not None and failed.rated and failed.streak == 0
    assert failed.after is not None and failed.after[0] < initial()[0]
    harder = await db.puzzles.get(row.id)
    assert harder is not None and harder.mu > row.mu
    again = await db.puzzles.pick(GUILD, AKI, ["senet"], 25.0)  # not solved: may come back
    assert again is not None and again.id == row.id
    retry = await db.puzzles.open_attempt(row.id, GUILD, AKI, AT)
    practice = await db.puzzles.answer(retry.id, puzzle["best"], True, rate_answer, AT)
    assert practice is not None and not practice.rated
    me, = await db.puzzles.players(GUILD, AKI)
    assert (me.attempts, me.solved, me.streak) == (1, 0, 0)


async def test_two_processes_answering_one_attempt_store_one_answer(opener: Opener) -> None:
    one = await opener()
    two = await opener(same=True)
    puzzle, = distinct_senet_puzzles(1)
    await one.puzzles.add(GUILD, [new(puzzle)], AT)
    row = await one.puzzles.pick(GUILD, AKI, ["senet"], 25.0)
    assert row is not None
    attempt = await one.puzzles.open_attempt(row.id, GUILD, AKI, AT)
    answers = await asyncio.gather(
        one.puzzles.answer(attempt.id, puzzle["best"], True, rate_answer, AT),
        two.puzzles.answer(attempt.id, puzzle["played"], False, rate_answer, AT))
    assert sum(a is not None for a in answers) == 1
    me, = await one.puzzles.players(GUILD, AKI)
    assert me.attempts == 1


async def test_one_process_claims_a_days_post(opener: Opener) -> None:
    one = await opener()
    two = await opener(same=True)
    puzzle, = distinct_senet_puzzles(1)
    await one.puzzles.add(STARTER, [new(puzzle)], AT)
    row = await one.puzzles.daily_candidate(GUILD, ["senet"])
    assert row is not None
    claims = await asyncio.gather(
        one.puzzles.claim_daily(GUILD, "2025-03-01", row.id, 5, AT),
        two.puzzles.claim_daily(GUILD, "2025-03-01", row.id, 5, AT))
    assert sorted(claims) == [False, True]
    await one.puzzles.daily_posted(GUILD, "2025-03-01", 777, AT)
    # posted: never claimed again, even long after
    later = AT + timedelta(hours=3)
    assert not await two.puzzles.claim_daily(GUILD, "2025-03-01", row.id, 5, later)
    assert await one.puzzles.daily_candidate(GUILD, ["senet"]) is None  # used up
    # a claim whose process died before posting is taken over once it is stale
    assert await one.puzzles.claim_daily(GUILD, "2025-03-02", row.id, 5, AT)
    assert not await two.puzzles.claim_daily(GUILD, "2025-03-02", row.id, 5,
                                             AT + timedelta(minutes=1))
    assert await two.puzzles.claim_daily(GUILD, "2025-03-02", row.id, 5,
                                         AT + timedelta(minutes=11))


async def test_daily_solvers_fastest_first(db: Database) -> None:
    puzzle, = distinct_senet_puzzles(1)
    await db.puzzles.add(GUILD, [new(puzzle)], AT)
    row = await db.puzzles.daily_candidate(GUILD, ["senet"])
    assert row is not None
    assert await db.puzzles.claim_daily(GUILD, "2025-03-01", row.id, 5, AT)
    await db.puzzles.daily_posted(GUILD, "2025-03-01", 777, AT)
    for user, minutes, right in ((AKI, 9, True), (BO, 2, True), (1003, 1, False)):
        attempt = await db.puzzles.open_attempt(row.id, GUILD, user, AT, "2025-03-01")
        again = await db.puzzles.open_attempt(row.id, GUILD, user, AT, "2025-03-01")
        assert again.id == attempt.id  # one attempt per member and day
        answer = puzzle["best"] if right else puzzle["played"]
        await db.puzzles.answer(attempt.id, answer, right, rate_answer,
                                AT + timedelta(minutes=minutes))
    daily = await db.puzzles.daily(GUILD, "2025-03-01")
    assert daily is not None
    solvers = await db.puzzles.daily_solvers(daily, 3)
    assert solvers.count == 2
    assert solvers.fastest == [(BO, 120.0), (AKI, 540.0)]
