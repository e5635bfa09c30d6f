"""Senet as played on Board Game Arena: docs/rules/senet.md, implemented literally.

The state is a small immutable-by-convention object holding the 30-character board string of
the position JSON. Speed matters (random playouts for the computer players), so the legal
moves of a "move" phase are computed once per state and cached on it; `apply` looks the move
up there and builds the next board with string slicing. Events are only built when asked for
(`apply_events`), by the same code path.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import CHANCE, Engine, KeyedState, ranks_from_scores, require_field
from engines.explained import IllegalMove, OptionError, Word
from engines.info import Chance, Decision, GameInfo
from engines.options import Option, check_options

# Phases, as in the position JSON.
THROW = "throw"  # chance throws for `turn`
MOVE = "move"  # `turn` moves with `throw`
WATER = "water"  # `turn` chooses return / try for the stone on 27
TRY = "try"  # chance throws for the House of Water attempt
OVER = "over"
PHASES = (THROW, MOVE, WATER, TRY, OVER)
_PHASE = {p: p for p in PHASES}  # loaded phases become these very objects

COLOURS = "WB"  # board character of seat 0 (White) and seat 1 (Black)
EMPTY = "."
START_BOARD = "BW" * 5 + EMPTY * 20  # seat 1 (Black) on the odd squares 1..9, White on 2..10

BEAUTY, WATER_SQ, SECOND_LIFE = 26, 27, 15
_THROWS = tuple(f"throw {v}" for v in range(1, 6))
_THROW_VALUE = {m: v for v, m in enumerate(_THROWS, 1)}
# Four two-sided sticks = four random bits; the value is the number of light sides up, and
# no light side up counts 5. Indexing by 4 random bits gives the exact 4/6/4/1/1 sixteenths.
_STICKS = tuple(_THROWS[(bin(bits).count("1") or 5) - 1] for bits in range(16))
_ODDS = {m: _STICKS.count(m) / 16 for m in _THROWS}
_EXTRA = (False, True, False, False, True, True)  # by value: forward 1, 4, 5 throw again
_MOVE_NAME = tuple(f"move {s}" for s in range(31))
_PASS = (0, 0, False)  # the cached "pass" entry: (from, to, backward); to 0 = borne off


class SenetState(KeyedState):
    """One position. Treat as immutable: `_moves` is only a cache of derived legal moves."""

    __slots__ = ("board", "off", "turn", "phase", "throw", "_moves")

    def __init__(self, board: str, off: tuple[int, int], turn: int, phase: str, throw: int | None):
        self.board = board  # character i is square i + 1
        self.off = off
        self.turn = turn
        self.phase = phase
        self.throw = throw
        self._moves: dict[str, tuple[int, int, bool]] | None = None

    def _key(self) -> tuple:
        return (self.board, self.off, self.turn, self.phase, self.throw)

    def __repr__(self) -> str:
        return (
            f"SenetState({self.board!r}, off={self.off}, turn={self.turn}, "
            f"phase={self.phase!r}, throw={self.throw})"
        )


def _stones(board: str, ch: str) -> list[int]:
    """Squares (1..30, ascending) holding a stone of character `ch`."""
    out = []
    i = board.find(ch)
    while i >= 0:
        out.append(i + 1)
        i = board.find(ch, i + 1)
    return out


def _protected(board: str, t: int, ch: str) -> bool:
    """Is the stone `ch` on square t protected? Only squares 1..26 count, for both stones."""
    if t > BEAUTY:
        return False
    return (t >= 2 and board[t - 2] == ch) or (t < BEAUTY and board[t] == ch)


def _generate(board: str, turn: int, v: int) -> dict[str, tuple[int, int, bool]]:
    """Legal moves with throw v: {move string: (from, to, backward)}, to 0 = off, or pass."""
    me = COLOURS[turn]
    opp = COLOURS[1 - turn]
    find = board.find
    fwd: dict[str, tuple[int, int, bool]] = {}
    i = find(me)
    while i >= 0:  # each stone of the mover, found by str.find (fast, in C)
        s = i + 1
        i = find(me, s)
        if s < BEAUTY:
            t = s + v
            if t > BEAUTY:  # no stone may pass 26
                continue
            c = board[t - 1]
            if c == me:
                continue
            # Protection inlined (t <= 26 here): same colour just before or after.
            if c == opp and (board[t - 2] == opp or (t < BEAUTY and board[t] == opp)):
                continue
            fwd[_MOVE_NAME[s]] = (s, t, False)
        elif s == BEAUTY:
            if v == 5:
                fwd[_MOVE_NAME[s]] = (s, 0, False)
            elif board[BEAUTY + v - 1] != me:  # 27..30 never protected
                fwd[_MOVE_NAME[s]] = (s, BEAUTY + v, False)
        elif (s == 28 and v == 3) or (s == 29 and v == 2) or s == 30:
            fwd[_MOVE_NAME[s]] = (s, 0, False)
    if fwd:
        return fwd
    back: dict[str, tuple[int, int, bool]] = {}
    for s in _stones(board, me):
        if v < s <= BEAUTY:  # 27..30 never go back; nothing goes below square 1
            t = s - v
            c = board[t - 1]
            if c == me:
                continue
            if c == opp and ((t >= 2 and board[t - 2] == opp) or board[t] == opp):
                continue
            back[_MOVE_NAME[s]] = (s, t, True)
    return back or {"pass": _PASS}


def _moves_of(state: SenetState) -> dict[str, tuple[int, int, bool]]:
    moves = state._moves
    if moves is None:
        assert state.throw is not None  # moves exist once the sticks are thrown
        moves = state._moves = _generate(state.board, state.turn, state.throw)
    return moves


def _first_free_from(board: str, square: int) -> int:
    """The first empty square from `square` downwards (House of Second Life rule)."""
    for q in range(square, 0, -1):
        if board[q - 1] == EMPTY:
            return q
    # 15 squares cannot all hold stones other than one of the ten: unreachable.
    raise AssertionError("no free square below 15")


def _set(board: str, square: int, ch: str) -> str:
    return board[: square - 1] + ch + board[square:]


def _begin(board: str, off: tuple[int, int], seat: int) -> SenetState:
    """A turn (or an extra throw) of `seat` begins: the House of Water comes first."""
    if board[WATER_SQ - 1] == COLOURS[seat]:
        return SenetState(board, off, seat, WATER, None)
    return SenetState(board, off, seat, THROW, None)


def _result(off: tuple[int, int]) -> dict:
    scores = list(off)
    return {"scores": scores, "ranks": ranks_from_scores(scores)}


def _bear_off(
    board: str, off: tuple[int, int], turn: int, extra: bool, ev: list | None
) -> SenetState:
    """After a stone left the board: the game ends, or an extra throw, or the turn passes."""
    off = (off[0] + 1, off[1]) if turn == 0 else (off[0], off[1] + 1)
    if off[turn] == 5:
        if ev is not None:
            ev.append({"type": "game_over", **_result(off), "winner": turn})
        return SenetState(board, off, turn, OVER, None)
    if extra:
        if ev is not None:
            ev.append({"type": "extra_throw", "seat": turn})
        return _begin(board, off, turn)
    return _begin(board, off, 1 - turn)


def _why_not(state: SenetState, move: str) -> IllegalMove:
    """Plain words for a player whose move in phase "move" is not legal."""
    if move in ("return", "try"):
        return IllegalMove(
            "you have no stone in the House of Water (square 27) at the start of this turn"
        )
    if move == "pass":
        return IllegalMove("you must move: a stone can move, and moves are compulsory")
    parts = move.split(" ")
    if len(parts) != 2 or parts[0] != "move" or not parts[1].isdigit():
        return IllegalMove(
            "unknown move {move!r}; moves look like 'move 12', 'return', 'try' or 'pass'",
            move=move,
        )
    s = int(parts[1])
    if not 1 <= s <= 30 or parts[1] != str(s):
        return IllegalMove("there is no square {square}; squares are 1 to 30", square=parts[1])
    board, v = state.board, state.throw
    assert v is not None  # a move is explained only after a throw
    me, opp = COLOURS[state.turn], COLOURS[1 - state.turn]
    if board[s - 1] != me:
        return IllegalMove("you have no stone on square {square}", square=s)
    moves = _moves_of(state)
    if "pass" not in moves and not next(iter(moves.values()))[2]:
        # Some stone can move forward, so this one must move forward too.
        if s < BEAUTY:
            t = s + v
            if t > BEAUTY:
                return IllegalMove(
                    "square 26 must be reached exactly (the stone on {square} would pass it)",
                    square=s,
                )
        elif s == BEAUTY:
            t = BEAUTY + v
        elif s == 28:
            return IllegalMove(
                "a stone on square 28 leaves the board only with a throw of exactly 3"
            )
        elif s == 29:
            return IllegalMove(
                "a stone on square 29 leaves the board only with a throw of exactly 2"
            )
        else:
            return IllegalMove("the stone on square {square} cannot move now", square=s)
        if board[t - 1] == me:
            return IllegalMove("you cannot land on your own stone on square {square}", square=t)
        if board[t - 1] == opp and _protected(board, t, opp):
            return IllegalMove("a protected stone cannot be taken")
        return IllegalMove("the stone on square {square} cannot move now", square=s)
    # No stone can move forward, so a stone must move backward.
    if s > BEAUTY:
        return IllegalMove("no stone can move forward, so a stone must move backward: "
                           "stones on squares 27 to 30 never move backward")
    t = s - v
    if t < 1:
        return IllegalMove("no stone can move forward, so a stone must move backward: "
                           "a stone cannot move back below square 1")
    if board[t - 1] == me:
        return IllegalMove("no stone can move forward, so a stone must move backward: "
                           "you cannot land on your own stone on square {square}", square=t)
    if board[t - 1] == opp and _protected(board, t, opp):
        return IllegalMove("no stone can move forward, so a stone must move backward: "
                           "a protected stone cannot be taken")
    return IllegalMove("no stone can move forward, so a stone must move backward: "
                       "the stone on square {square} cannot move now", square=s)


def _move(state: SenetState, info: tuple[int, int, bool], ev: list | None) -> SenetState:
    s, t, backward = info
    board, turn = state.board, state.turn
    if s == 0:
        if ev is not None:
            ev.append({"type": "pass", "seat": turn})
        return _begin(board, state.off, 1 - turn)
    me = COLOURS[turn]
    assert state.throw is not None  # a stone moves after a throw
    extra = not backward and _EXTRA[state.throw]
    if t == 0:
        board = board[: s - 1] + EMPTY + board[s:]
        if ev is not None:
            ev.append({"type": "bear_off", "seat": turn, "from": s, "throw": state.throw})
        return _bear_off(board, state.off, turn, extra, ev)
    victim = board[t - 1]  # "." or the opponent: what ends up on square s
    if victim != EMPTY and t > WATER_SQ:
        # A swapped stone on 28..30 drowns: to 27, or if taken 15 and below.
        board = _set(_set(board, s, EMPTY), t, me)
        dest = WATER_SQ if board[WATER_SQ - 1] == EMPTY else _first_free_from(board, SECOND_LIFE)
        board = _set(board, dest, victim)
    elif s < t:
        board = board[: s - 1] + victim + board[s : t - 1] + me + board[t:]
        dest = s
    else:
        board = board[: t - 1] + me + board[t : s - 1] + victim + board[s:]
        dest = s
    if ev is not None:
        ev.append({"type": "move", "seat": turn, "from": s, "to": t, "backward": backward})
        if victim != EMPTY:
            ev.append({"type": "swap", "seat": turn, "square": t, "victim": 1 - turn, "to": dest})
            if dest != s:
                ev.append({"type": "drown", "seat": 1 - turn, "from": t, "to": dest})
    if extra:
        if ev is not None:
            ev.append({"type": "extra_throw", "seat": turn})
        return _begin(board, state.off, turn)
    return _begin(board, state.off, 1 - turn)


class SenetEngine(Engine):
    info = GameInfo(
        id="senet", name="Senet", min_players=2, max_players=2,
        decisions=(Decision(MOVE, ("move", "pass")), Decision(WATER, ("return", "try"))),
        chance=Chance("throw", (THROW, TRY), listed=True),
        sides=(Word("white"), Word("black")),
    )
    option_spec = [
        Option("players", "int", 2, low=2, high=2, help="Senet is for two players"),
    ]

    # -- options and start -------------------------------------------------------------
    def default_options(self, players: int) -> dict[str, Any]:
        self._check_players(players)
        return {"players": players}

    def new(self, players: int, options: dict[str, Any] | None = None) -> SenetState:
        self._check_players(players)
        if options is not None and not isinstance(options, dict):
            raise OptionError("options must be an object")
        check_options(self.option_spec, self.default_options(players), players, options)
        return SenetState(START_BOARD, (0, 0), 0, THROW, None)

    # -- who acts and what they may do -------------------------------------------------
    def to_act(self, state: SenetState) -> list[int]:
        phase = state.phase
        if phase == THROW or phase == TRY:
            return [CHANCE]
        if phase == OVER:
            return []
        return [state.turn]

    def legal_moves(self, state: SenetState, actor: int) -> list[str]:
        phase = state.phase
        if phase == MOVE:
            return sorted(_moves_of(state)) if actor == state.turn else []
        if phase == THROW or phase == TRY:
            return list(_THROWS) if actor == CHANCE else []
        if phase == WATER and actor == state.turn:
            return ["return", "try"]
        return []

    def chance_odds(self, state: SenetState) -> dict[str, float]:
        if state.phase != THROW and state.phase != TRY:
            raise ValueError("chance does not act now: the sticks are not being thrown")
        return dict(_ODDS)

    def sample_chance(self, state: SenetState, rng: random.Random) -> str:
        if state.phase != THROW and state.phase != TRY:
            raise ValueError("chance does not act now: the sticks are not being thrown")
        return _STICKS[rng.getrandbits(4)]

    # -- moves -------------------------------------------------------------------------
    def apply(self, state: SenetState, actor: int, move: str) -> SenetState:
        # Fast paths for the two hot cases of a playout; everything else (and every error)
        # goes through _play, which is the one place the rules are written.
        phase = state.phase
        if type(move) is not str:  # unhashable junk must not reach the dict lookups
            return self._resolve(state, actor, move, None)
        if phase == MOVE:
            if actor == state.turn:
                moves = state._moves
                if moves is None:
                    assert state.throw is not None  # phase move: thrown
                    moves = state._moves = _generate(state.board, actor, state.throw)
                info = moves.get(move)
                if info is not None:
                    return _move(state, info, None)
        elif phase == THROW and actor == CHANCE:
            v = _THROW_VALUE.get(move)
            if v is not None:
                return SenetState(state.board, state.off, state.turn, MOVE, v)
        return self._resolve(state, actor, move, None)

    def _resolve(self, state: SenetState, actor: int, move: str, ev: list | None) -> SenetState:
        if not isinstance(move, str):
            raise IllegalMove("a move is a short text such as 'move 12' or 'pass'")
        phase = state.phase
        turn = state.turn
        if phase == MOVE:
            if actor != turn:
                raise self._not_your_turn(state, actor)
            info = _moves_of(state).get(move)
            if info is None:
                raise _why_not(state, move)
            return _move(state, info, ev)
        if phase == THROW or phase == TRY:
            if actor != CHANCE:
                raise self._not_your_turn(state, actor)
            v = _THROW_VALUE.get(move)
            if v is None:
                raise IllegalMove("unknown throw {move!r}; the sticks show 1 to 5 ('throw 3')",
                                  move=move)
            if ev is not None:
                ev.append({"type": "throw", "seat": turn, "value": v, "water": phase == TRY})
            if phase == THROW:
                return SenetState(state.board, state.off, turn, MOVE, v)
            if v == 4:  # the try succeeded: the stone leaves from 27, and a 4 throws again
                board = _set(state.board, WATER_SQ, EMPTY)
                if ev is not None:
                    ev.append({"type": "bear_off", "seat": turn, "from": WATER_SQ, "throw": v})
                return _bear_off(board, state.off, turn, True, ev)
            if ev is not None:
                ev.append({"type": "water_fail", "seat": turn})
            return _begin(state.board, state.off, 1 - turn)
        if phase == WATER:
            if actor != turn:
                raise self._not_your_turn(state, actor)
            if move == "try":
                return SenetState(state.board, state.off, turn, TRY, None)
            if move != "return":
                raise IllegalMove(
                    "your stone is in the House of Water (square 27): choose 'return' or 'try'"
                )
            board = _set(state.board, WATER_SQ, EMPTY)
            q = _first_free_from(board, SECOND_LIFE)
            board = _set(board, q, COLOURS[turn])
            if ev is not None:
                ev.append({"type": "water_return", "seat": turn, "to": q})
            return _begin(board, state.off, 1 - turn)
        raise IllegalMove("the game is over")

    def _not_your_turn(self, state: SenetState, actor: int) -> IllegalMove:
        if actor == CHANCE:
            return IllegalMove("the sticks are not thrown now: a player must move")
        if actor == state.turn:  # chance acts first
            return IllegalMove("wait for the throw: the sticks are thrown before you move")
        return IllegalMove("it is not your turn")

    # -- results and positions ---------------------------------------------------------
    def standings(self, state: SenetState) -> list[float]:
        """Stones borne off, the game's score."""
        return list(state.off)

    def outcome(self, state: SenetState) -> dict | None:
        if state.phase != OVER:
            return None
        return _result(state.off)

    def dump(self, state: SenetState) -> dict:
        return {
            "game": self.id,
            "options": {"players": 2},
            "board": state.board,
            "off": list(state.off),
            "turn": state.turn,
            "phase": state.phase,
            "throw": state.throw,
        }

    def load(self, position: dict) -> SenetState:
        if require_field(position, "game") != self.id:
            raise ValueError(f"field 'game' must be {self.id!r}")
        options = require_field(position, "options")
        if not isinstance(options, dict):
            raise ValueError("field 'options' must be an object")
        try:
            check_options(self.option_spec, self.default_options(2), 2, options)
        except ValueError as e:
            raise ValueError(f"field 'options': {e}") from None
        board = require_field(position, "board")
        if not isinstance(board, str) or len(board) != 30:
            raise ValueError("field 'board' must be a string of 30 characters")
        if set(board) - set("WB."):
            raise ValueError("field 'board' may hold only 'W', 'B' and '.'")
        off = require_field(position, "off")
        if (
            not isinstance(off, list)
            or len(off) != 2
            or any(isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 5 for n in off)
        ):
            raise ValueError("field 'off' must be a list of two whole numbers from 0 to 5")
        for seat in (0, 1):
            on_board = board.count(COLOURS[seat])
            if on_board + off[seat] != 5:
                raise ValueError(
                    f"field 'board': seat {seat} ({COLOURS[seat]}) has {on_board} stones on the "
                    f"board and {off[seat]} off ('off'), but must have 5 in all"
                )
        turn = require_field(position, "turn")
        if type(turn) is not int or turn not in (0, 1):
            raise ValueError("field 'turn' must be 0 or 1")
        phase = require_field(position, "phase")
        if not isinstance(phase, str) or phase not in _PHASE:
            raise ValueError(f"field 'phase' must be one of {', '.join(PHASES)}")
        phase = _PHASE[phase]
        throw = require_field(position, "throw")
        if phase == MOVE:
            if type(throw) is not int or throw not in (1, 2, 3, 4, 5):
                raise ValueError("field 'throw' must be 1 to 5 in phase 'move'")
        elif throw is not None:
            raise ValueError(f"field 'throw' must be null in phase {phase!r}")
        if phase == OVER:
            if off[turn] != 5 or off[1 - turn] == 5:
                raise ValueError(
                    "field 'turn' must be the winner, the only seat with 5 off, in phase 'over'"
                )
        else:
            if 5 in off:
                raise ValueError(f"field 'phase' is {phase!r} but a seat has borne off 5 stones")
            on_water = board[WATER_SQ - 1] == COLOURS[turn]
            if on_water != (phase in (WATER, TRY)):
                raise ValueError(
                    f"field 'phase' is {phase!r}, impossible when the stone on square 27 "
                    f"{'is' if on_water else 'is not'} the turn's: a turn starting there "
                    "is 'water' or 'try', any other is 'throw' or 'move'"
                )
        return SenetState(board, (off[0], off[1]), turn, phase, throw)

    def view(self, state: SenetState, seat: int | None) -> dict:
        position = self.dump(state)  # nothing is hidden in Senet
        position["to_act"] = self.to_act(state)
        return position


ENGINE = SenetEngine()
