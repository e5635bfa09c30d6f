"""The move pipeline's pure part: from a loaded table and a change to the Commit to write and
the Table after it, with no database read in between.

Every change of a running table (a player's move, a computer's move, an expired deadline, a
start, a resign, a forfeit, a cancel) goes: load the table once -> `advance` (the engine
applies the move and chance answers) -> `change` (the commit and the new Table, built in
memory from the old one) -> the repository writes it only if the table's ply is unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.storage import Commit, Finish, ResultRow, SeatRow, TimerRow
from bot.tables import computers, ratings, turns
from bot.tables.models import Seat, Step, Table
from engines import CHANCE, Engine
from engines.base import Move, Outcome

MAX_CHANCE_STEPS = 10_000  # a runaway engine must not hang the bot
# A computer (or taken-over) seat moves at once; its timer only matters if the process that
# should have moved it died: then whichever process claims the timer moves it.
AUTO_GRACE = timedelta(seconds=30)
AI_LEVEL = "normal"  # the level that plays for absent players

REMIND_FRACTION = 0.25  # remind when this share of the deadline is left ...
REMIND_MIN_BEFORE = timedelta(seconds=30)  # ... but at least this long before it


@dataclass(frozen=True)
class Advance:
    """What applying one move did: the steps (the move, then chance's answers), the
    position after them and each acting seat's decision start."""

    steps: list[Step]
    state: object
    since: dict[int, int]


def draw_chance(eng: Engine, state: object, since: dict[int, int], ply: int,
                rng: random.Random) -> Advance:
    """Apply chance moves while chance must act; `ply` is the log length before them."""
    steps: list[Step] = []
    while eng.to_act(state) == [CHANCE]:
        if len(steps) >= MAX_CHANCE_STEPS:
            raise RuntimeError(f"{eng.id}: chance keeps acting")
        move = eng.sample_chance(state, rng)
        state, events = eng.apply_events(state, CHANCE, move)
        steps.append(Step(CHANCE, eng.read_move(move), events))
        since = turns.next_since(eng, state, since, ply + len(steps), CHANCE)
    return Advance(steps, state, since)


def advance(table: Table, seat: int, move: Move, rng: random.Random,
            auto: bool = False) -> Advance:
    """Apply `move` for `seat` and the chance moves after it (ValueError if illegal)."""
    eng = table.engine
    state, events = eng.apply_events(table.state, seat, move.text)
    steps = [Step(seat, move, events, auto)]
    since = turns.next_since(eng, state, table.since, table.ply + 1, seat)
    while len(steps) < MAX_CHANCE_STEPS:
        chance = draw_chance(eng, state, since, table.ply + len(steps), rng)
        steps.extend(chance.steps)
        state, since = chance.state, chance.since
        forced = forced_move(eng, state)
        if forced is None:
            break
        state, events = eng.apply_events(state, *forced)
        steps.append(Step(forced[0], eng.read_move(forced[1]), events, True))
        since = turns.next_since(eng, state, since, table.ply + len(steps), forced[0])
    return Advance(steps, state, since)


def forced_move(eng: Engine, state: object) -> tuple[int, str] | None:
    """A face-down decision (engine info) that leaves a seat one legal move (6 nimmt!'s last
    card of a round) is played for it at once, as an auto step: (seat, move), or None."""
    seats = [s for s in eng.to_act(state) if s != CHANCE]
    if not seats or not eng.info.is_private(eng.view(state, None).get("phase")):
        return None
    for seat in seats:
        moves = eng.legal_moves(state, seat)
        if len(moves) == 1:
            return seat, moves[0]
    return None


def auto_levels(table: Table) -> dict[int, str]:
    """Seats the computer plays at once, with their level: computer seats, and seats taken
    over from absent players (normal level)."""
    levels = dict.fromkeys(table.taken_over, AI_LEVEL)
    levels.update(table.computer_seats())
    return levels


def auto_turn(table: Table) -> tuple[int, str] | None:
    """The first seat that must act now and is played by the computer, with its level."""
    levels = auto_levels(table)
    return next(((s, levels[s]) for s in table.to_act() if s in levels), None)


def reminder_time(started: datetime, seconds: int) -> datetime | None:
    """When to remind a seat whose deadline of `seconds` started at `started`."""
    before = max(timedelta(seconds=seconds * REMIND_FRACTION), REMIND_MIN_BEFORE)
    at = started + timedelta(seconds=seconds) - before
    return at if at > started else None


def plan_timers(table: Table, now: datetime) -> dict[int, TimerRow]:
    """One timer per seat that must act in `table` (already changed): a seat whose decision
    goes on keeps its timer; a new decision gets `now + deadline` and a reminder."""
    auto = auto_levels(table)
    timers = {}
    for seat in table.to_act():
        since = table.since.get(seat, table.ply)
        old = table.timers.get(seat)
        if old is not None and old.since_ply == since:
            timers[seat] = old
        elif seat in auto:
            timers[seat] = TimerRow(table.id, seat, since, now, now + AUTO_GRACE, None, False)
        else:
            deadline = now + timedelta(seconds=table.deadline_seconds)
            remind = reminder_time(now, table.deadline_seconds)
            timers[seat] = TimerRow(table.id, seat, since, now, deadline, remind, False)
    return timers


def _result_name(seat: Seat) -> str:
    level = computers.computer_level(seat.user_id)
    return seat.name if level is None else computers.computer_name(level)


def finish_of(table: Table, outcome: Outcome, now: datetime) -> Finish:
    """The results (and, unless the table is unrated, the ratings update) of an outcome."""
    scores = outcome.get("scores") or [None] * len(table.seats)
    results = [
        ResultRow(table.id, i, table.guild_id, table.game, computers.result_user_id(s.user_id),
                  _result_name(s), outcome["ranks"][i], scores[i], i in outcome["resigned"], now)
        for i, s in enumerate(table.seats)
    ]
    return Finish(outcome, results, None if table.hints else ratings.rate)


@dataclass(frozen=True)
class Change:
    commit: Commit
    table: Table  # the table after the change, as the database will hold it


def change(
    table: Table,
    now: datetime,
    *,
    steps: Sequence[Step] = (),
    state: object = None,
    since: Mapping[int, int] | None = None,
    outcome: Outcome | None = None,
    absence: Mapping[int, tuple[int, bool]] | None = None,
    cancel: bool = False,
    start: Callable[[Table], Table] | None = None,
) -> Change:
    """The Commit of a change and the Table after it. `state`/`since`: the position after
    `steps` (default: unchanged). `outcome`: forced (a resign or forfeit); else the engine's.
    `absence`: seat -> (misses, taken over). `start`: the lobby's start, applied first."""
    before = start(table) if start is not None else table
    # Every field that changes, then one copy of the Table (copies cost as much as the rules).
    position = before.state if state is None else state
    decisions = before.since if state is None else dict(since or {})
    misses, taken_over = before.misses, before.taken_over
    if absence:
        missed = {**misses, **{s: m for s, (m, _) in absence.items()}}
        taken = {s for s in taken_over if s not in absence}
        taken |= {s for s, (_, t) in absence.items() if t}
        misses, taken_over = {s: m for s, m in missed.items() if m}, frozenset(taken)
    if outcome is None and position is not None and not cancel:
        outcome = before.engine.outcome(position)
    status, finished_at, final = before.status, before.finished_at, before.outcome
    if cancel:
        status, finished_at = "cancelled", now
    elif outcome is not None:
        outcome = {**outcome, "resigned": list(outcome.get("resigned", []))}
        status, finished_at, final = "finished", now, outcome
    after = replace(before, log=[*table.log, *((s.actor, s.move.text) for s in steps)],
                    state=position, since=decisions, misses=misses, taken_over=taken_over,
                    status=status, finished_at=finished_at, outcome=final)
    finish = finish_of(after, outcome, now) if outcome is not None and not cancel else None
    timers = plan_timers(after, now)
    after = replace(after, timers=timers)
    commit = Commit(
        table_id=table.id,
        ply=table.ply,
        at=now,
        status=table.status,
        moves=[(s.actor, s.move.text) for s in steps],
        start=(
            ([SeatRow(i, s.user_id, s.name, s.side) for i, s in enumerate(before.seats)],
             before.options) if start is not None else None
        ),
        absence=[(s, m, t) for s, (m, t) in (absence or {}).items()],
        finish=finish,
        cancel=cancel,
        timers={s: (t.since_ply, t.deadline_at, t.remind_at) for s, t in timers.items()},
    )
    return Change(commit, after)
