"""6 nimmt! (engine id "six_nimmt"): the rules of docs/rules/six_nimmt.md.

Speed matters (random playouts for computer players), so the state is a small __slots__
object of tuples, move strings are looked up in prebuilt dicts instead of being parsed, and
`apply` shares one resolution routine with `apply_events` that only builds events on demand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import CHANCE, Engine, KeyedState, ranks_from_scores, require_field
from engines.explained import IllegalMove, OptionError, Word
from engines.info import Chance, Decision, GameInfo
from engines.options import Option, check_options

DECK = 104
HAND = 10
ROWS = 4
ROW_LIMIT = 5  # a sixth card takes the row

DEAL, DRAFT, PICK, TAKE, SIDE, OVER = "deal", "draft", "pick", "take", "side", "over"
PHASES = (DEAL, DRAFT, PICK, TAKE, SIDE, OVER)
CARD_MODES = ("standard", "tactical", "logical")


def _bullheads(card: int) -> int:
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


# Index 0 is unused so that BULL[card] needs no offset.
BULL: tuple[int, ...] = (0,) + tuple(_bullheads(c) for c in range(1, DECK + 1))


def bullheads(card: int) -> int:
    """Penalty points printed on `card` (1..104)."""
    if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= DECK:
        raise ValueError(f"card must be a whole number from 1 to {DECK}, not {card!r}")
    return BULL[card]


# Hands and the pool are kept internally in the order of their move strings ("play 1",
# "play 10", "play 100", ... "play 2"), so legal_moves is one list comprehension with no sort;
# dump/view sort them numerically as the position format wants.
_SRANK = [0] * (DECK + 1)
for _i, _c in enumerate(sorted(range(1, DECK + 1), key=str)):
    _SRANK[_c] = _i
_skey = _SRANK.__getitem__

_PLAY_STR = ("",) + tuple(f"play {c}" for c in range(1, DECK + 1))
_DRAFT_STR = ("",) + tuple(f"draft {c}" for c in range(1, DECK + 1))
_PLAY = {f"play {c}": c for c in range(1, DECK + 1)}
_DRAFT = {f"draft {c}": c for c in range(1, DECK + 1)}
_TAKE = {f"take {r}": r - 1 for r in range(1, ROWS + 1)}
_TAKE_MOVES = sorted(_TAKE)
_PLACE = {f"place {r} {e}": (r - 1, e) for r in range(1, ROWS + 1) for e in ("left", "right")}
_CARD_STR = tuple(str(c) for c in range(DECK + 1))
_TOKEN = {str(c): c for c in range(1, DECK + 1)}  # canonical spellings only ("07" is refused)

OPTION_SPEC = [
    Option("points", "int", 66, 1, 1000,
           help="starting points; each bullhead taken costs one point"),
    Option("professional", "bool", False,
           help="cards may also go before the left end of a row, at the nearest end"),
    Option("cards", "choice", "standard", choices=CARD_MODES,
           help="standard: all 104 cards dealt at random; tactical: only cards 1 to "
                "10 x players + 4; logical: the tactical cards face up, drafted in turn"),
    Option("rounds", "int", None, 1, 100, nullable=True,
           help="if set, the game also ends after this many rounds"),
]
_DEFAULTS = {o.name: o.default for o in OPTION_SPEC}


class _Cfg:
    """Everything fixed by the options, shared by every state of a game."""

    __slots__ = ("n", "points", "pro", "mode", "rounds", "top", "size", "cards", "tokens",
                 "options")

    def __init__(self, options: dict[str, Any]) -> None:
        n = options["players"]
        self.n = n
        self.points = options["points"]
        self.pro = options["professional"]
        self.mode = options["cards"]
        self.rounds = options["rounds"]
        self.size = HAND * n + ROWS  # cards dealt each round
        self.top = DECK if self.mode == "standard" else self.size
        self.cards = tuple(range(1, self.top + 1))
        self.tokens = frozenset(_CARD_STR[c] for c in self.cards)  # to check deal strings
        self.options = {
            "players": n,
            "points": self.points,
            "professional": self.pro,
            "cards": self.mode,
            "rounds": self.rounds,
        }


_cfgs: dict[tuple, _Cfg] = {}


def _cfg(options: dict[str, Any]) -> _Cfg:
    key = (options["players"], options["points"], options["professional"], options["cards"],
           options["rounds"])
    cfg = _cfgs.get(key)
    if cfg is None:
        cfg = _cfgs[key] = _Cfg(options)
    return cfg


@dataclass(slots=True, eq=False, repr=False)
class State(KeyedState):
    """One position. Immutable by convention: every field is a tuple, an int or None.

    rows: 4 tuples; hands/pool: tuples in move-string order (see _SRANK); picked: per seat
    card or None; pending: (seat, card) or None; queue: ((card, seat), ...) ascending.
    """

    cfg: _Cfg
    round: int
    phase: str
    rows: tuple
    hands: tuple
    picked: tuple
    pending: tuple[int, int] | None
    queue: tuple
    points: tuple
    pool: tuple
    drafter: int | None

    def _key(self) -> tuple:
        return (self.cfg.options["players"], self.cfg.points, self.cfg.pro, self.cfg.mode,
                self.cfg.rounds, self.round, self.phase, self.rows, self.hands, self.picked,
                self.pending, self.queue, self.points, self.pool, self.drafter)

    def __repr__(self) -> str:
        return f"<six_nimmt State round={self.round} phase={self.phase} rows={self.rows}>"


_EMPTY_ROWS = ((), (), (), ())
_ROW_IDX = tuple(range(ROWS))


def _pro_ends(rows: Sequence[Sequence[int]], card: int) -> tuple[list[tuple[int, str]], int]:
    """Professional: the ends nearest to `card` that it fits, and their distance."""
    best = 1000
    ends: list[tuple[int, str]] = []
    for r in range(ROWS):
        row = rows[r]
        last = row[-1]
        if card > last:
            d, end = card - last, "right"
        elif card < row[0]:
            d, end = row[0] - card, "left"
        else:
            continue  # never inserted inside a row
        if d < best:
            best = d
            ends = [(r, end)]
        elif d == best:
            ends.append((r, end))
    return ends, best


def _side_moves(ends: list[tuple[int, str]]) -> list[str]:
    return sorted(f"place {r + 1} {e}" for r, e in ends)


def _no_fit_message(cfg: _Cfg, card: int) -> IllegalMove:
    if cfg.pro:
        return IllegalMove("{card} fits no end of any row: choose a row to take", card=card)
    return IllegalMove("{card} is lower than every row: choose a row to take", card=card)


def _side_message(card: int, ends: list[tuple[int, str]]) -> IllegalMove:
    (ra, ea), (rb, eb) = sorted(ends)
    move_a, move_b = f"place {ra + 1} {ea}", f"place {rb + 1} {eb}"
    return IllegalMove(
        "{card} is as close to the {end_a} end of row {row_a} as to the {end_b} end of row "
        "{row_b}: choose {move_a!r} or {move_b!r}",
        card=card, end_a=Word(ea), row_a=ra + 1, end_b=Word(eb), row_b=rb + 1,
        move_a=move_a, move_b=move_b,
    )


def _take_row(rows: list, pts: list, seat: int, card: int, r: int, reason: str,
              ev: list | None) -> None:
    """`seat` takes row r (its bullheads come off their points) and `card` starts it anew."""
    taken = rows[r]
    bulls = 0
    for x in taken:
        bulls += BULL[x]
    pts[seat] -= bulls
    rows[r] = [card]
    if ev is not None:
        ev.append({"type": "take", "seat": seat, "card": card, "row": r + 1, "cards": taken,
                   "bullheads": bulls, "reason": reason})


def _put(rows: list, pts: list, seat: int, card: int, r: int, end: str, ev: list | None) -> None:
    """`card` joins row r at `end`, or, as the sixth card, takes the row and starts it."""
    row = rows[r]
    if len(row) == ROW_LIMIT:
        _take_row(rows, pts, seat, card, r, "sixth", ev)
        return
    if end == "right":
        row.append(card)
    else:
        row.insert(0, card)
    if ev is not None:
        ev.append({"type": "place", "seat": seat, "card": card, "row": r + 1, "end": end})


def _run(cfg: _Cfg, rnd: int, rows: list, hands: tuple, queue: Sequence[tuple[int, int]],
         start: int, pts: list, ev: list | None) -> State:
    """Place revealed cards queue[start:] in order; stop where a player must choose.

    `rows` (a list of lists) and `pts` are private copies that this function may change.
    """
    pro = cfg.pro
    ends = [row[-1] for row in rows]  # right ends, all the basic rules look at
    for i in range(start, len(queue)):
        card, seat = queue[i]
        if pro:
            fits, _ = _pro_ends(rows, card)
            if len(fits) != 1:
                kind = SIDE if fits else TAKE
                return _stop(cfg, rnd, rows, hands, queue, i, pts, ev, kind, fits)
            r, end = fits[0]
        else:
            best = 0
            r = -1
            for k in _ROW_IDX:
                last = ends[k]
                if best < last < card:
                    best = last
                    r = k
            if r < 0:
                return _stop(cfg, rnd, rows, hands, queue, i, pts, ev, TAKE, [])
            end = "right"
        _put(rows, pts, seat, card, r, end, ev)
        ends[r] = rows[r][-1]
    # Every card of the turn is placed. All hands have the same size after a turn.
    if hands[0]:
        n = cfg.n
        return State(cfg, rnd, PICK, tuple(map(tuple, rows)), hands, (None,) * n, None, (),
                     tuple(pts), (), None)
    return _end_round(cfg, rnd, tuple(map(tuple, rows)), tuple(pts), ev)


def _stop(cfg: _Cfg, rnd: int, rows: list, hands: tuple, queue: Sequence[tuple[int, int]],
          i: int, pts: list, ev: list | None, kind: str, ends: list[tuple[int, str]]) -> State:
    card, seat = queue[i]
    if ev is not None:
        options = _TAKE_MOVES[:] if kind == TAKE else _side_moves(ends)
        ev.append({"type": "choose", "seat": seat, "card": card, "kind": kind,
                   "options": options})
    return State(cfg, rnd, kind, tuple(map(tuple, rows)), hands, (None,) * cfg.n,
                 (seat, card), tuple(queue[i + 1:]), tuple(pts), (), None)


def _end_round(cfg: _Cfg, rnd: int, rows: tuple, pts: tuple, ev: list | None) -> State:
    n = cfg.n
    if ev is not None:
        ev.append({"type": "round_end", "round": rnd, "points": list(pts)})
    empty = ((),) * n
    nones = (None,) * n
    if min(pts) <= 0 or (cfg.rounds is not None and rnd >= cfg.rounds):
        # The last rows stay on the table and the round number stays.
        if ev is not None:
            ev.append({"type": "game_over", "scores": list(pts),
                       "ranks": ranks_from_scores(list(pts))})
        return State(cfg, rnd, OVER, rows, empty, nones, None, (), pts, (), None)
    return _round_start(cfg, rnd + 1, pts)


def _round_start(cfg: _Cfg, rnd: int, pts: tuple) -> State:
    n = cfg.n
    if cfg.mode == "logical":
        pool = tuple(sorted(cfg.cards, key=_skey))
        return State(cfg, rnd, DRAFT, _EMPTY_ROWS, ((),) * n, (None,) * n, None, (), pts,
                     pool, (rnd - 1) % n)
    return State(cfg, rnd, DEAL, _EMPTY_ROWS, ((),) * n, (None,) * n, None, (), pts, (), None)


# --------------------------------------------------------------------------------------------
# Loading: every field checked, errors name the field.


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int_field(v: Any, field: str, low: int, high: int | None = None) -> int:
    if not _is_int(v):
        raise ValueError(f"{field}: must be a whole number, not {v!r}")
    if v < low or (high is not None and v > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{field}: must be {bound}, not {v}")
    return v


_INT_ONLY = {int}


def _card_list(v: Any, field: str, top: int, index: int | None = None) -> None:
    """Raise a ValueError naming `field[index]` unless `v` is an ascending list of cards."""
    if index is not None:
        field = f"{field}[{index}]"
    if type(v) is not list:
        raise ValueError(f"{field}: must be a list of cards")
    for c in v:
        if type(c) is not int:  # bool is refused too
            raise ValueError(f"{field}: {c!r} is not a card")
        if not 0 < c <= top:
            raise ValueError(f"{field}: card {c} is not in use (cards 1 to {top})")
    if any(a >= b for a, b in zip(v, v[1:], strict=False)):
        raise ValueError(f"{field}: cards must be in ascending order")


def _seat_field(v: Any, field: str, n: int) -> int:
    if not _is_int(v) or not 0 <= v < n:
        raise ValueError(f"{field}: {v!r} is not a seat (0 to {n - 1})")
    return v


_FIELDS = ("game", "options", "round", "phase", "rows", "hands", "picked", "pending", "queue",
           "points", "pool", "drafter")
_FIELD_SET = frozenset(_FIELDS)


class SixNimmt(Engine):
    option_spec = OPTION_SPEC
    info = GameInfo(
        id="six_nimmt", name="6 nimmt!", min_players=2, max_players=10,
        decisions=(
            Decision(PICK, ("play",), simultaneous=True, private=True),
            Decision(DRAFT, ("draft",)),
            Decision(TAKE, ("take",)),
            Decision(SIDE, ("place",)),
        ),
        # A deal names every hand: its move string must never be shown to a player.
        chance=Chance("deal", (DEAL,), secret=True),
        event_tables=(3, 6),
    )

    # ---- setup ---------------------------------------------------------------------------

    def default_options(self, players: int) -> dict[str, Any]:
        self._check_players(players)
        return {"players": players, **_DEFAULTS}

    def new(self, players: int, options: dict[str, Any] | None = None) -> State:
        self._check_players(players)
        if options is not None and not isinstance(options, dict):
            raise OptionError("options must be a dict of option names to values")
        opts = check_options(OPTION_SPEC, self.default_options(players), players, options)
        cfg = _cfg(opts)
        return _round_start(cfg, 1, (cfg.points,) * players)

    # ---- who acts, what they may do -------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        ph = state.phase
        if ph == PICK:
            return [i for i, p in enumerate(state.picked) if p is None]
        if ph == DEAL:
            return [CHANCE]
        if ph == DRAFT:
            assert state.drafter is not None
            return [state.drafter]
        if ph == TAKE or ph == SIDE:
            assert state.pending is not None
            return [state.pending[0]]
        return []

    def legal_moves(self, state: State, actor: int) -> list[str]:
        ph = state.phase
        if ph == PICK:
            if 0 <= actor < state.cfg.n and state.picked[actor] is None:
                return [_PLAY_STR[c] for c in state.hands[actor]]
            return []
        if ph == DEAL:
            if actor == CHANCE:
                raise NotImplementedError("a deal has too many outcomes to list")
            return []
        if ph == DRAFT:
            if actor == state.drafter:
                return [_DRAFT_STR[c] for c in state.pool]
            return []
        if ph == TAKE:
            assert state.pending is not None
            return _TAKE_MOVES[:] if actor == state.pending[0] else []
        if ph == SIDE:
            assert state.pending is not None
            if actor == state.pending[0]:
                return _side_moves(_pro_ends(state.rows, state.pending[1])[0])
            return []
        return []

    def chance_odds(self, state: State) -> dict[str, float]:
        raise NotImplementedError("a deal has too many outcomes to list")

    def sample_chance(self, state: State, rng: random.Random) -> str:
        if state.phase != DEAL:
            raise ValueError("chance does not act now")
        cfg = state.cfg
        # Sorting by random keys is a uniform shuffle, about a third cheaper than rng.sample
        # (playouts deal once a round). cfg.cards is 1..top, so position i holds card i + 1.
        r = rng.random
        keys = [r() for _ in cfg.cards]
        order = sorted(range(cfg.top), key=keys.__getitem__)
        return "deal " + " ".join([_CARD_STR[i + 1] for i in order[:cfg.size]])

    # ---- moves ----------------------------------------------------------------------------

    def apply(self, state: State, actor: int, move: str) -> State:
        # The hot path of a playout is a legal pick; anything else goes through _apply,
        # which checks every case and words the errors.
        if state.phase == PICK and type(move) is str:
            picked = state.picked
            c = _PLAY.get(move)
            if (c is not None and type(actor) is int and 0 <= actor < len(picked)
                    and picked[actor] is None):
                hand = state.hands[actor]
                if c in hand:
                    i = hand.index(c)
                    hands = state.hands
                    hands = hands[:actor] + (hand[:i] + hand[i + 1:],) + hands[actor + 1:]
                    picked = picked[:actor] + (c,) + picked[actor + 1:]
                    if None in picked:
                        return State(state.cfg, state.round, PICK, state.rows, hands, picked,
                                     None, (), state.points, (), None)
                    queue = sorted(zip(picked, range(len(picked)), strict=True))
                    return _run(state.cfg, state.round, [list(r) for r in state.rows], hands,
                                queue, 0, list(state.points), None)
        return self._resolve(state, actor, move, None)

    def _resolve(self, st: State, actor: int, move: str, ev: list | None) -> State:
        cfg = st.cfg
        n = cfg.n
        ph = st.phase
        if not isinstance(move, str):
            raise IllegalMove("a move must be text, like 'play 42'")
        if ph == OVER:
            raise IllegalMove("the game is over")
        if actor == CHANCE:
            if ph != DEAL:
                raise IllegalMove("chance does not act now")
            return self._deal(st, move, ev)
        if isinstance(actor, bool) or not isinstance(actor, int) or not 0 <= actor < n:
            raise IllegalMove("there is no seat {seat}", seat=actor)
        if ph == DEAL:
            raise IllegalMove("the cards have not been dealt yet")
        if ph == PICK:
            return self._pick(st, actor, move, ev)
        if ph == DRAFT:
            return self._draft(st, actor, move, ev)
        assert st.pending is not None  # phase take or side
        seat, card = st.pending
        if actor != seat:
            if ph == TAKE:
                raise IllegalMove("it is not your turn: seat {seat} must choose a row to take",
                                  seat=seat)
            raise IllegalMove(
                "it is not your turn: seat {seat} must choose an end for card {card}",
                seat=seat, card=card,
            )
        rows = [list(r) for r in st.rows]
        pts = list(st.points)
        if ph == TAKE:
            r = _TAKE.get(move)
            if r is None:
                self._bad_row(move)
                raise _no_fit_message(cfg, card)
            _take_row(rows, pts, seat, card, r, "lowest", ev)
        else:
            ends, _ = _pro_ends(st.rows, card)
            choice = _PLACE.get(move)
            if choice is None:
                self._bad_row(move)
                raise _side_message(card, ends)
            if choice not in ends:
                r, end = choice
                (ra, ea), (rb, eb) = sorted(ends)
                move_a, move_b = f"place {ra + 1} {ea}", f"place {rb + 1} {eb}"
                raise IllegalMove(
                    "{card} cannot go at the {end} end of row {row}: choose {move_a!r} or "
                    "{move_b!r}",
                    card=card, end=Word(end), row=r + 1, move_a=move_a, move_b=move_b,
                )
            # Place it, then let _run go on from the queue.
            queue = ((card, seat),) + st.queue
            return self._place_chosen(cfg, st, rows, pts, queue, choice, ev)
        return _run(cfg, st.round, rows, st.hands, st.queue, 0, pts, ev)

    @staticmethod
    def _bad_row(move: str) -> None:
        parts = move.split(" ")
        if (len(parts) >= 2 and parts[0] in ("take", "place") and parts[1].isdigit()
                and not 1 <= int(parts[1]) <= ROWS):
            raise IllegalMove("row {row} does not exist", row=parts[1])

    @staticmethod
    def _place_chosen(cfg: _Cfg, st: State, rows: list, pts: list, queue: tuple,
                      choice: tuple[int, str], ev: list | None) -> State:
        card, seat = queue[0]
        _put(rows, pts, seat, card, *choice, ev)
        return _run(cfg, st.round, rows, st.hands, queue, 1, pts, ev)

    def _deal(self, st: State, move: str, ev: list | None) -> State:
        cfg = st.cfg
        if not move.startswith("deal "):
            raise IllegalMove("chance must deal: 'deal C1 C2 ...'")
        tokens = move[5:].split(" ")
        if len(tokens) != cfg.size:
            raise IllegalMove("a deal needs {size} cards, not {count}", size=cfg.size,
                              count=len(tokens))
        if not cfg.tokens.issuperset(tokens) or len(set(tokens)) != len(tokens):
            seen = set()
            for t in tokens:
                c = _TOKEN.get(t)
                if c is None:
                    raise IllegalMove("{card!r} is not a card", card=t)
                if c > cfg.top:
                    raise IllegalMove("card {card} is not in use (cards 1 to {top})", card=c,
                                      top=cfg.top)
                if c in seen:
                    raise IllegalMove("card {card} is dealt twice", card=c)
                seen.add(c)
        # Canonical card strings sort in move-string order, the order hands are kept in.
        n = cfg.n
        get = _TOKEN.__getitem__
        hands = tuple(tuple(map(get, sorted(tokens[HAND * i:HAND * i + HAND])))
                      for i in range(n))
        rows = tuple((get(t),) for t in tokens[HAND * n:])
        if ev is not None:
            ev.append({"type": "deal", "round": st.round})
            ev.append({"type": "rows_start", "rows": [list(r) for r in rows]})
        return State(cfg, st.round, PICK, rows, hands, (None,) * n, None, (), st.points, (),
                     None)

    def _pick(self, st: State, actor: int, move: str, ev: list | None) -> State:
        c = _PLAY.get(move)
        if c is None:
            raise IllegalMove("{move!r} is not a move now: pick a card with 'play C'",
                              move=move)
        if st.picked[actor] is not None:
            raise IllegalMove("you have already picked this turn")
        hand = st.hands[actor]
        if c not in hand:
            raise IllegalMove("you do not hold card {card}", card=c)
        i = hand.index(c)
        hands = st.hands[:actor] + (hand[:i] + hand[i + 1:],) + st.hands[actor + 1:]
        picked = st.picked[:actor] + (c,) + st.picked[actor + 1:]
        if ev is not None:
            ev.append({"type": "pick", "seat": actor})
        if None in picked:
            return State(st.cfg, st.round, PICK, st.rows, hands, picked, None, (), st.points,
                         (), None)
        # The last pick: reveal everything and resolve the turn now.
        queue = sorted(zip(picked, range(st.cfg.n), strict=True))
        if ev is not None:
            ev.append({"type": "reveal", "cards": [list(q) for q in queue]})
        return _run(st.cfg, st.round, [list(r) for r in st.rows], hands, queue, 0,
                    list(st.points), ev)

    def _draft(self, st: State, actor: int, move: str, ev: list | None) -> State:
        if actor != st.drafter:
            raise IllegalMove("it is not your turn: seat {seat} drafts now", seat=st.drafter)
        c = _DRAFT.get(move)
        if c is None:
            raise IllegalMove("{move!r} is not a move now: take a card with 'draft C'",
                              move=move)
        pool = st.pool
        if c not in pool:
            raise IllegalMove("card {card} is not in the pool", card=c)
        cfg = st.cfg
        i = pool.index(c)
        pool = pool[:i] + pool[i + 1:]
        hand = tuple(sorted(st.hands[actor] + (c,), key=_skey))
        hands = st.hands[:actor] + (hand,) + st.hands[actor + 1:]
        if ev is not None:
            ev.append({"type": "draft", "seat": actor, "card": c})
        if len(pool) > ROWS:
            return State(cfg, st.round, DRAFT, _EMPTY_ROWS, hands, st.picked, None, (),
                         st.points, pool, (actor + 1) % cfg.n)
        rows = tuple((c,) for c in sorted(pool))
        if ev is not None:
            ev.append({"type": "rows_start", "rows": [list(r) for r in rows]})
        return State(cfg, st.round, PICK, rows, hands, st.picked, None, (), st.points, (),
                     None)

    # ---- results and positions -------------------------------------------------------------

    def standings(self, state: State) -> list[float]:
        """Points left to each seat."""
        return list(state.points)

    def outcome(self, state: State) -> dict | None:
        if state.phase != OVER:
            return None
        scores = list(state.points)
        return {"scores": scores, "ranks": ranks_from_scores(scores)}

    def dump(self, state: State) -> dict:
        pending = state.pending
        return {
            "game": self.id,
            "options": dict(state.cfg.options),
            "round": state.round,
            "phase": state.phase,
            "rows": [list(r) for r in state.rows],
            "hands": [sorted(h) for h in state.hands],
            "picked": list(state.picked),
            "pending": None if pending is None else {"seat": pending[0], "card": pending[1]},
            "queue": [[c, s] for c, s in state.queue],
            "points": list(state.points),
            "pool": sorted(state.pool),
            "drafter": state.drafter,
        }

    def view(self, state: State, seat: int | None) -> dict:
        n = state.cfg.n
        if seat is not None and (not _is_int(seat) or not 0 <= seat < n):
            raise ValueError(f"there is no seat {seat!r}")
        d = self.dump(state)
        public_hands = state.cfg.mode == "logical"  # drafted face up
        for i in range(n):
            if i != seat:
                pick = state.picked[i]
                if not public_hands:
                    d["hands"][i] = None
                elif pick is not None:
                    # The pick leaves the hand at once, so the hand alone would tell it:
                    # until the reveal it is shown back in the (public) hand.
                    d["hands"][i] = sorted(state.hands[i] + (pick,))
                d["picked"][i] = True if pick is not None else None
        d["hand_sizes"] = [len(h) for h in state.hands]
        d["to_act"] = self.to_act(state)
        return d

    def load(self, position: dict) -> State:
        if not isinstance(position, dict):
            raise ValueError("position must be a JSON object")
        if position.keys() != _FIELD_SET:
            for key in position:
                if key not in _FIELD_SET:
                    raise ValueError(f"position has an unknown field {key!r}")
            for key in _FIELDS:
                require_field(position, key)
        if position["game"] != self.id:
            raise ValueError(f"game: expected {self.id!r}, not {position['game']!r}")
        cfg = self._load_options(position["options"])
        n, top = cfg.n, cfg.top

        rnd = _int_field(position["round"], "round", 1, cfg.rounds)
        phase = position["phase"]
        if phase not in PHASES:
            raise ValueError(f"phase: must be one of {', '.join(PHASES)}, not {phase!r}")

        rows = position["rows"]
        if type(rows) is not list or len(rows) != ROWS or any(type(r) is not list for r in rows):
            raise ValueError("rows: must be a list of 4 lists of cards")
        hands = position["hands"]
        if type(hands) is not list or len(hands) != n or any(type(h) is not list for h in hands):
            raise ValueError(f"hands: must be a list of {n} lists of cards")
        picked = position["picked"]
        if type(picked) is not list or len(picked) != n:
            raise ValueError(f"picked: must be a list of {n} cards or nulls")
        pending = position["pending"]
        if pending is not None:
            if type(pending) is not dict or pending.keys() != {"seat", "card"}:
                raise ValueError("pending: must be null or {\"seat\": s, \"card\": c}")
            _seat_field(pending["seat"], "pending.seat", n)
        queue = position["queue"]
        if type(queue) is not list:
            raise ValueError("queue: must be a list of [card, seat] pairs")
        for k, q in enumerate(queue):
            if type(q) is not list or len(q) != 2:
                raise ValueError(f"queue[{k}]: must be a [card, seat] pair")
            _seat_field(q[1], f"queue[{k}]", n)
        pool = position["pool"]
        if type(pool) is not list:
            raise ValueError("pool: must be a list of cards")

        # Cards: one quick test over all of them (ints in use, each once, lists ascending);
        # only when it fails does the slow path look for the field to name.
        queued = [q[0] for q in queue]
        everything = [c for r in rows for c in r] + [c for h in hands for c in h]
        everything += [c for c in picked if c is not None] + queued + pool
        if pending is not None:
            everything.append(pending["card"])
        if everything and not (
            set(map(type, everything)) == _INT_ONLY
            and 0 < min(everything) and max(everything) <= top
            and len(set(everything)) == len(everything)
            and all(r == sorted(r) for r in rows) and all(h == sorted(h) for h in hands)
            and pool == sorted(pool) and queued == sorted(queued)
        ):
            self._name_bad_card(top, rows, hands, picked, pending, queue, pool)
        if pending is not None:
            pending = (pending["seat"], pending["card"])

        points = position["points"]
        if type(points) is not list or len(points) != n:
            raise ValueError(f"points: must be a list of {n} whole numbers")
        for i, p in enumerate(points):
            if not _is_int(p):
                raise ValueError(f"points[{i}]: must be a whole number, not {p!r}")
            if p > cfg.points:
                raise ValueError(f"points[{i}]: {p} is more than the {cfg.points} starting points")
        drafter = position["drafter"]
        if drafter is not None:
            _seat_field(drafter, "drafter", n)

        self._check_phase(cfg, rnd, phase, rows, hands, picked, pending, queue, points, pool,
                          drafter)
        return State(cfg, rnd, phase, tuple(tuple(r) for r in rows),
                     tuple(tuple(sorted(h, key=_skey)) for h in hands), tuple(picked), pending,
                     tuple((q[0], q[1]) for q in queue), tuple(points),
                     tuple(sorted(pool, key=_skey)), drafter)

    @staticmethod
    def _name_bad_card(top: int, rows: list, hands: list, picked: list, pending: dict | None,
                       queue: list, pool: list) -> None:
        """Raise the ValueError naming the first field whose cards are wrong."""
        for k, r in enumerate(rows):
            _card_list(r, "rows", top, k)
        for i, h in enumerate(hands):
            _card_list(h, "hands", top, i)
        for i, p in enumerate(picked):
            if p is not None:
                _card_list([p], "picked", top, i)
        if pending is not None:
            _card_list([pending["card"]], "pending.card", top)
        for k, q in enumerate(queue):
            _card_list([q[0]], "queue", top, k)
        if any(a[0] >= b[0] for a, b in zip(queue, queue[1:], strict=False)):
            raise ValueError("queue: cards must be in ascending order")
        _card_list(pool, "pool", top)
        groups = [(f"rows[{k}]", r) for k, r in enumerate(rows)]
        groups += [(f"hands[{i}]", h) for i, h in enumerate(hands)]
        groups.append(("picked", [p for p in picked if p is not None]))
        groups.append(("pending", [pending["card"]] if pending is not None else []))
        groups.append(("queue", [q[0] for q in queue]))
        groups.append(("pool", pool))
        seen: set[int] = set()
        for field, cards in groups:
            for c in cards:
                if c in seen:
                    raise ValueError(f"{field}: card {c} appears more than once")
                seen.add(c)
        raise ValueError("cards: a card is wrong")  # not reached: a check above names it

    def _load_options(self, options: Any) -> _Cfg:
        if not isinstance(options, dict):
            raise ValueError("options: must be an object")
        if "players" not in options:
            raise ValueError("options: missing 'players'")
        players = options["players"]
        try:
            self._check_players(players)
        except ValueError as e:
            raise ValueError(f"options: {e}") from None
        for o in OPTION_SPEC:
            if o.name not in options:
                raise ValueError(f"options: missing {o.name!r}")
        try:
            opts = check_options(OPTION_SPEC, _DEFAULTS, players, options)
        except ValueError as e:
            raise ValueError(f"options: {e}") from None
        opts["players"] = players
        return _cfg(opts)

    @staticmethod
    def _check_phase(cfg: _Cfg, rnd: int, phase: str, rows: list, hands: list, picked: list,
                     pending: tuple[int, int] | None, queue: list, points: list, pool: list,
                     drafter: int | None) -> None:
        """The phase-dependent rules a reachable position obeys."""
        n = cfg.n
        if phase != DRAFT:
            if pool:
                raise ValueError(f"pool: must be empty in phase {phase!r}")
            if drafter is not None:
                raise ValueError(f"drafter: must be null in phase {phase!r}")
        if phase not in (TAKE, SIDE):
            if pending is not None:
                raise ValueError(f"pending: must be null in phase {phase!r}")
            if queue:
                raise ValueError(f"queue: must be empty in phase {phase!r}")
        if phase != PICK and any(p is not None for p in picked):
            raise ValueError(f"picked: must be all null in phase {phase!r}")
        if phase in (DEAL, DRAFT):
            if any(rows):
                raise ValueError(f"rows: must be empty in phase {phase!r}")
            if any(p <= 0 for p in points):
                raise ValueError("points: a seat has no points left, so the game is over")
            if rnd == 1 and any(p != cfg.points for p in points):
                raise ValueError("points: nobody has taken a card before the first round")
        else:
            for k, r in enumerate(rows):
                if not 1 <= len(r) <= ROW_LIMIT:
                    raise ValueError(f"rows[{k}]: a row holds 1 to 5 cards, not {len(r)}")

        if phase == DEAL:
            if cfg.mode == "logical":
                raise ValueError("phase: logical cards are drafted, never dealt")
            for i, h in enumerate(hands):
                if h:
                    raise ValueError(f"hands[{i}]: must be empty before the deal")
        elif phase == DRAFT:
            if cfg.mode != "logical":
                raise ValueError("phase: only logical cards are drafted")
            if len(pool) <= ROWS:
                raise ValueError("pool: the draft ends when 4 cards are left")
            drafted = cfg.size - len(pool)
            if sum(map(len, hands)) != drafted:
                raise ValueError("pool: pool and hands must hold every card in use")
            first = (rnd - 1) % n
            for i, h in enumerate(hands):
                expect = drafted // n + (1 if (i - first) % n < drafted % n else 0)
                if len(h) != expect:
                    raise ValueError(f"hands[{i}]: holds {len(h)} cards but {expect} have "
                                     "been drafted by this seat")
            if drafter != (first + drafted) % n:
                raise ValueError(f"drafter: seat {(first + drafted) % n} drafts now, not "
                                 f"{drafter!r}")
        elif phase == PICK:
            waiting = [i for i in range(n) if picked[i] is None]
            if not waiting:
                raise ValueError("picked: every seat has picked, so the turn is resolved")
            h = len(hands[waiting[0]])
            if not 1 <= h <= HAND:
                raise ValueError(f"hands[{waiting[0]}]: a seat still to pick holds 1 to 10 "
                                 "cards")
            for i in range(n):
                expect = h if picked[i] is None else h - 1
                if len(hands[i]) != expect:
                    raise ValueError(f"hands[{i}]: holds {len(hands[i])} cards but {expect} "
                                     "are expected this turn")
            played = n * (HAND - h)
            if sum(map(len, rows)) > ROWS + played:
                raise ValueError("rows: hold more cards than have been played this round")
        elif phase in (TAKE, SIDE):
            if pending is None:
                raise ValueError(f"pending: phase {phase!r} needs a pending card")
            seat, card = pending
            h = len(hands[0])
            if h >= HAND:
                raise ValueError("hands[0]: a turn being placed means a card was played")
            for i in range(n):
                if len(hands[i]) != h:
                    raise ValueError(f"hands[{i}]: holds {len(hands[i])} cards but {h} are "
                                     "expected this turn")
            seats = [seat] + [q[1] for q in queue]
            if len(set(seats)) != len(seats):
                raise ValueError("queue: a seat has at most one card to place per turn")
            if queue and queue[0][0] < card:
                raise ValueError("queue: cards after the pending one must be higher")
            placed = n - len(seats)
            if sum(map(len, rows)) > ROWS + n * (HAND - 1 - h) + placed:
                raise ValueError("rows: hold more cards than have been played this round")
            ends = _pro_ends(rows, card)[0] if cfg.pro else None
            if phase == TAKE:
                if cfg.pro:
                    if ends:
                        raise ValueError(f"pending: card {card} fits a row end, so no row "
                                         "is taken")
                elif any(r[-1] < card for r in rows):
                    raise ValueError(f"pending: card {card} fits a row, so no row is taken")
            else:
                if not cfg.pro:
                    raise ValueError("phase: 'side' only happens with professional rules")
                assert ends is not None
                if len(ends) != 2:
                    raise ValueError(f"pending: card {card} has no tie between two row ends")
        else:  # over
            for i, h in enumerate(hands):
                if h:
                    raise ValueError(f"hands[{i}]: must be empty when the game is over")
            if min(points) > 0 and (cfg.rounds is None or rnd < cfg.rounds):
                raise ValueError("phase: the game is not over (every seat has points and "
                                 "rounds remain)")


ENGINE = SixNimmt()
