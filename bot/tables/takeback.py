"""Take-back with consent: the player who just moved asks, the opponent accepts or declines.

**Which tables.** A game allows take-backs when its engine info says it can be played by
two, every decision is taken openly and in turn (none simultaneous or private), and chance
only sets up a position (`Chance.kind` "none" or "setup"): Varanasi for two and Cows and
Leopards; not Senet (throws after every move) nor 6 nimmt! (face-down simultaneous picks).
The table must have two seats, both members: a computer seat (or a seat the computer took
over from an absent player) moves at once, so there is never a move to take back against
it, and a computer is never asked to consent; take-backs are between members only.

**The request** needs no storage: it is the table's ply when asked. The one who asks is the
seat whose move is the log's last entry; the one who answers is the other seat, the one
now to act. A move followed by chance (Varanasi's setup of the next set) is not taken
back. Once anything is added to the log (the opponent moved, resigned, or the take-back
was accepted) the request has lapsed (`takeback_lapsed`). Declining changes nothing at the
table.

**The log stays append-only.** An accepted take-back is one more log entry,
`(TAKEBACK, "takeback <i>")` with `TAKEBACK = -2` (neither a seat nor chance) and `<i>` the
index in the log of the entry it takes back, always the entry just before it: a seat's
move (never chance, never another take-back). Replaying such a log
(`replay`: the store, the export, the board's narration) returns to the position before
that move; the asker's decision (and turn timer) starts afresh at the take-back's ply. The
table stays rated; it goes on as if the move had not been made. `played(log)` is the game
as it stands, without taken-back moves and take-back entries (for replays and reviews).

The accept is committed like a move, with the store's ply check: two processes (or two
presses) cannot both apply it, and a move the opponent made first wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.tables import turns
from bot.tables.computers import computer_level
from bot.tables.errors import TableError
from bot.tables.models import Table
from engines import Engine
from engines.base import Event, Options

TAKEBACK = -2  # the actor of a take-back entry: the table itself, by both players' consent
KIND = "takeback"
OPEN_CHANCE = ("none", "setup")  # chance kinds that never act after the first move


def entry(index: int) -> tuple[int, str]:
    """The log entry taking back `log[index]`."""
    return TAKEBACK, f"{KIND} {index}"


def undone_index(move: str) -> int:
    """The index of the entry a take-back's move string names; ValueError if malformed."""
    kind, _, index = move.partition(" ")
    if kind != KIND or not index.isascii() or not index.isdigit() or str(int(index)) != index:
        raise ValueError(f"{move!r} is not a take-back")
    return int(index)


def game_allows(eng: Engine) -> bool:
    """Whether the game can take moves back (engine info only: see the module's doc)."""
    info = eng.info
    return (
        info.min_players <= 2 <= info.max_players
        and not any(d.simultaneous or d.private for d in info.decisions)
        and info.chance.kind in OPEN_CHANCE
    )


def table_allows(table: Table) -> bool:
    """Whether this table takes moves back: a game that allows it, two seats, both members
    (no computer seat, no seat taken over by the computer)."""
    return (
        len(table.seats) == 2
        and game_allows(table.engine)
        and not table.taken_over
        and all(computer_level(seat.user_id) is None for seat in table.seats)
    )


# -- replaying a log with take-backs ------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """The position after the first `ply` entries of a log, with each seat's decision
    start (turns.next_since)."""

    ply: int
    state: object
    since: dict[int, int]


def start(eng: Engine, players: int, options: Options) -> Position:
    state = eng.new(players, options)
    return Position(0, state, turns.next_since(eng, state, {}, 0, None))


def replay(eng: Engine, players: int, options: Options,
           log: Sequence[tuple[int, str]], known: Position | None = None) -> Position:
    """The position after the whole `log`, continuing from `known` (a position of the same
    log) when given. A take-back entry returns to the position before the entry it takes
    back; ValueError (or the engine's IllegalMove) for a log that does not replay."""
    position = known if known is not None and known.ply <= len(log) else None
    fresh = position is None
    if position is None:
        position = start(eng, players, options)
    state, since = position.state, position.since
    before: tuple[object, dict[int, int]] | None = None  # the position before the last entry
    for ply, (actor, move) in enumerate(log[position.ply:], start=position.ply + 1):
        if actor == TAKEBACK:
            index = undone_index(move)
            if index != ply - 2 or index < 0 or log[index][0] < 0:
                raise ValueError(f"log[{ply - 1}]: a take-back follows the seat's move it "
                                 f"takes back, not {move!r}")
            if before is None:
                if fresh:
                    raise ValueError(f"log[{ply - 1}]: nothing to take back")
                return replay(eng, players, options, log)  # the cache starts too late
            state = before[0]
            since = turns.next_since(eng, state, {}, ply, None)
            before = None
            continue
        before = (state, since)
        state = eng.apply(state, actor, move)
        since = turns.next_since(eng, state, since, ply, actor)
    return Position(len(log), state, since)


def replay_events(eng: Engine, players: int, options: Options,
                  log: Sequence[tuple[int, str]], after_ply: int) -> list[Event]:
    """The events of the log entries after `after_ply` (a take-back has none)."""
    position = replay(eng, players, options, log[:after_ply])
    state, events = position.state, []
    for index in range(after_ply, len(log)):
        actor, move = log[index]
        if actor == TAKEBACK:
            state = replay(eng, players, options, log[: index + 1]).state
            continue
        state, happened = eng.apply_events(state, actor, move)
        events.extend(happened)
    return events


def played(log: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """The game as it stands: the log without take-back entries and the moves they took
    back (what replays and reviews show)."""
    moves: list[tuple[int, str]] = []
    for actor, move in log:
        if actor == TAKEBACK:
            if moves:
                moves.pop()
        else:
            moves.append((actor, move))
    return moves


def taken_back(log: Sequence[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """Each take-back in `log`: (its index, the seat whose move it took back, that move)."""
    found = []
    for index, (actor, move) in enumerate(log):
        if actor == TAKEBACK:
            undone = log[undone_index(move)]
            found.append((index, undone[0], undone[1]))
    return found


# -- asking, answering --------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """A take-back asked at the table's ply `ply`: `asker` takes back `move` if `answerer`
    (the seat now to act) accepts before anything else is added to the log."""

    table_id: int
    ply: int
    asker: int
    answerer: int
    move: str


def _running(table: Table) -> None:
    if table.status == "finished":
        raise TableError("finished")
    if table.status != "running":
        raise TableError("not_running")


def open_request(table: Table, ply: int | None = None) -> Request:
    """The take-back that may be asked at `table` now (at `ply`, when the ask came from a
    board drawn then). TableError: finished, not_running, no_takeback (the game or table
    does not allow it), takeback_lapsed (the ply moved on), takeback_nothing (the last
    entry is no seat's move: the start, a take-back)."""
    _running(table)
    if not table_allows(table):
        raise TableError("no_takeback")
    if ply is not None and ply != table.ply:
        raise TableError("takeback_lapsed")
    if not table.log or table.log[-1][0] < 0:
        raise TableError("takeback_nothing")
    asker = table.log[-1][0]
    answerer = 1 - asker
    if table.to_act() != [answerer]:
        raise TableError("takeback_nothing")
    return Request(table.id, table.ply, asker, answerer, table.log[-1][1])


def ask(table: Table, user_id: int, ply: int | None = None) -> Request:
    """`user_id` asks to take back their last move: the Request, or TableError (those of
    `open_request`, not_seated, takeback_not_yours when the last move was the other's)."""
    seat = table.seat_of(user_id)
    if seat is None:
        _running(table)
        raise TableError("not_seated")
    request = open_request(table, ply)
    if seat != request.asker:
        raise TableError("takeback_not_yours")
    return request


def answer(table: Table, user_id: int, ply: int) -> Request:
    """The request asked at `ply` that `user_id` may answer (the answerer accepts or
    declines; the asker may withdraw it by declining). TableError as `open_request`, and
    not_seated, takeback_not_asked (a seat that is neither)."""
    seat = table.seat_of(user_id)
    request = open_request(table, ply)
    if seat is None:
        raise TableError("not_seated")
    if seat not in (request.answerer, request.asker):
        raise TableError("takeback_not_asked")
    return request


__all__ = [
    "KIND", "TAKEBACK", "Position", "Request", "answer", "ask", "entry",
    "game_allows", "open_request", "played", "replay", "replay_events", "table_allows",
    "taken_back", "undone_index",
]
