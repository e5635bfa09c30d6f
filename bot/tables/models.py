"""What the table service hands out: Table, Seat, Step, MoveResult and standings rows.

These are snapshots: the service builds a new Table for every change and never alters one it
has handed out, so a cog may keep a Table while other moves happen.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from typing import TypeVar, cast

from bot.storage.results import StandingRow
from bot.storage.tables import TimerRow
from bot.tables.computers import computer_level
from bot.tables.errors import TableError
from engines import CHANCE, Engine, get_engine
from engines.base import Event, Move, Options, Outcome, View

T = TypeVar("T")


@dataclass(frozen=True)
class Seat:
    user_id: int
    name: str
    side: int | None = None  # the seat asked for in the lobby (cows_leopards: 0 cows, 1 leopards)


@dataclass(frozen=True)
class Step:
    """One applied move: a player's (actor = seat) or chance's (actor = CHANCE)."""

    actor: int
    move: Move  # read once by the engine; its text is what the log keeps
    events: list[Event]
    auto: bool = False  # played for the seat by the computer (deadline passed, taken over)


@dataclass(frozen=True)
class Table:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str
    options: Options  # full engine options (in a lobby: a preview for the seats so far)
    chosen_options: Options  # what the host set explicitly at open_table
    host_id: int
    status: str  # "lobby", "running", "finished", "cancelled"
    seats: list[Seat]  # join order in a lobby, turn order once started
    state: object  # engine state rebuilt from the log; None in a lobby or a cancelled lobby
    log: list[tuple[int, str]]
    posted_ply: int  # last ply whose board was posted; -1 when none was
    posted_final: bool  # the board of the finished game was posted
    message_id: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    outcome: Outcome | None  # engine outcome + "resigned": [seats]; None until finished
    # Per seat that must act: the ply at which its pending decision began (turns.py).
    since: dict[int, int] = field(default_factory=dict, repr=False, compare=False)
    # Absent players (deadlines.py): the table's rules, fixed at /play, and per seat the
    # deadlines missed in a row and the seats the computer plays for the rest of the game.
    deadline_seconds: int = 86400
    absence_rule: str = "takeover"
    max_misses: int = 3
    misses: dict[int, int] = field(default_factory=dict, repr=False, compare=False)
    taken_over: frozenset[int] = field(default=frozenset(), compare=False)
    hints: bool = False  # /hint allowed at this table: results recorded, ratings not updated
    # The pending deadline of each seat that must act (TimerRow by seat), read with the table.
    timers: dict[int, TimerRow] = field(default_factory=dict, repr=False, compare=False)
    # Where /play posted the lobby message (None: not posted, e.g. a crash right after saving).
    lobby_channel_id: int | None = None
    lobby_message_id: int | None = None

    def marked(self, posted_ply: int, message_id: int | None,
               posted_final: bool | None = None) -> Table:
        """This position with other marks of its post: what was worked out for the
        position stays with it."""
        marked = replace(self, posted_ply=posted_ply, message_id=message_id,
                         posted_final=self.posted_final if posted_final is None else posted_final)
        marked.__dict__["memo"] = self.memo  # the same position: one memo
        return marked

    @property
    def ply(self) -> int:
        return len(self.log)

    @property
    def engine(self) -> Engine:
        return get_engine(self.game)

    @property
    def place_id(self) -> int:
        """The channel or thread the table lives in."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def needs_post(self) -> bool:
        """A board that was committed but never posted (after a crash, say)."""
        if self.status == "running":
            return self.posted_ply < self.ply
        return self.status == "finished" and not self.posted_final

    def computer_seats(self) -> dict[int, str]:
        """Seats played by a computer player, with its level (computers.py)."""
        levels = {i: computer_level(s.user_id) for i, s in enumerate(self.seats)}
        return {i: level for i, level in levels.items() if level is not None}

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    # A Table is one committed position that never changes: what the engine says about it
    # is asked once and kept in its memo (the move, its board and autocomplete share it).

    @cached_property
    def memo(self) -> dict[Hashable, object]:
        """What is worked out once for this position (by this module and the layers above:
        move labels by seat and language); shared with its `marked` copies, never with
        another position."""
        return {}

    def _once(self, key: Hashable, work: Callable[[], T]) -> T:
        if key not in self.memo:
            self.memo[key] = work()
        return cast(T, self.memo[key])  # each key is only ever filled by its one `work`

    def to_act(self) -> list[int]:
        """Seats that must act now; [] unless running (chance is drawn by the service)."""
        if self.status != "running" or self.state is None:
            return []
        return list(self._once("to act", lambda: tuple(
            actor for actor in self.engine.to_act(self.state) if actor != CHANCE)))

    def legal_moves(self, seat: int) -> list[str]:
        """The moves `seat` may make now; [] if it need not act."""
        if seat not in self.to_act():
            return []
        return list(self._once(("legal moves", seat), lambda: tuple(
            self.engine.legal_moves(self.state, seat))))

    def view(self, seat: int | None = None) -> View:
        """The engine's view for `seat` (None = spectators: no hidden information; asked
        once per position, so callers must not change it)."""
        if self.state is None:
            raise TableError("not_running")
        if seat is not None:
            return self.engine.view(self.state, seat)
        return self._once("public view", lambda: self.engine.view(self.state, None))


@dataclass(frozen=True)
class MoveResult:
    table: Table  # after the move
    steps: list[Step]  # the player's move, then every chance move drawn after it
    to_act: list[int]
    finished: bool


@dataclass(frozen=True)
class Standing(StandingRow):
    """A player's record in one game, or over all games (game None, rating None): the stored
    standing (games, wins, average rank, mu and sigma) with its rating."""

    rating: float | None = None  # openskill ordinal (mu - 3 sigma); higher is better


@dataclass(frozen=True)
class PlayerStats:
    """`stats(guild_id, user_id)`: totals over all games and one Standing per game."""

    user_id: int
    name: str | None
    games: int
    wins: int
    average_rank: float | None
    by_game: list[Standing]
