"""Cows and Leopards: a hunt game of 24 cows (seat 0) against 2 leopards (seat 1).

Implements docs/rules/cows_leopards.md. The boards live in data/cows_leopards_boards.json
(points and drawn lines); adjacency and jumps are derived from that data here.

A state is a plain tuple, so it is immutable and cheap to build in random playouts:
    (cows, leopards, cows_in_hand, leopards_in_hand, captured, turn, quiet, reason, config)
`cows` and `leopards` are bitmasks over the board's points, numbered in sorted-name order so
that walking bits upwards walks point names (and move strings) in sorted order. `reason` is
None while the game runs, else the game_over reason of EVENTS.md.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from engines.base import CHANCE, Engine, MovePart, require_field
from engines.explained import IllegalMove, OptionError, Word
from engines.info import Decision, GameInfo
from engines.options import Option, check_options

GAME_ID = "cows_leopards"
COWS = 24
_DATA_FILE = Path(__file__).resolve().parent / "data" / "cows_leopards_boards.json"
_NAME = re.compile(r"[a-i][1-9]")
_SIDE = ("cows", "leopards")
_STEP_MOVE = re.compile(r"([a-i][1-9])([-x])([a-i][1-9])")

State = tuple  # (cows, leopards, cows_hand, leopards_hand, captured, turn, quiet, reason, cfg)

# Move kinds in the per-board move table.
_DROP, _STEP, _JUMP = 0, 1, 2
_CHUNK = 8
_CHUNK_MASK = (1 << _CHUNK) - 1


def _coords(name: str) -> tuple[int, int]:
    return ord(name[0]) - 97, int(name[1]) - 1


def _name(x: int, y: int) -> str:
    return f"{chr(97 + x)}{y + 1}"


class _Board:
    """Everything about one board that play needs, computed once from the data file."""

    def __init__(self, board_id: str, spec: dict) -> None:
        points = spec.get("points")
        lines = spec.get("lines")
        if not isinstance(points, list) or not isinstance(lines, list):
            raise ValueError(f"board {board_id!r} needs 'points' and 'lines' lists")
        for p in points:
            if not isinstance(p, str) or not _NAME.fullmatch(p):
                raise ValueError(f"board {board_id!r}: bad point name {p!r}")
        if len(set(points)) != len(points):
            raise ValueError(f"board {board_id!r}: a point is listed twice")
        if "e5" not in points:
            raise ValueError(f"board {board_id!r} has no e5, where the first leopard starts")
        self.id = board_id
        self.name = str(spec.get("name", board_id))
        # Two-character names sort like their (x, y): bits in this order walk names sorted.
        self.names: list[str] = sorted(points)
        n = len(self.names)
        self.n = n
        self.index = {p: i for i, p in enumerate(self.names)}
        self.all = (1 << n) - 1

        adjacent: set[tuple[str, str]] = set()
        for line in lines:
            if not isinstance(line, list) or len(line) < 2:
                raise ValueError(f"board {board_id!r}: a line needs two or more points: {line!r}")
            for p in line:
                if p not in self.index:
                    raise ValueError(f"board {board_id!r}: line point {p!r} is not in 'points'")
            for p, q in zip(line, line[1:], strict=False):
                if p == q:
                    raise ValueError(f"board {board_id!r}: a line joins {p} to itself")
                adjacent.add((p, q))
                adjacent.add((q, p))
        self.pairs = sorted((p, q) for p, q in adjacent if p < q)
        # A jump A over B to C: B adjacent to A, C - B = B - A on the lattice, B-C joined.
        triples = []
        for a, b in adjacent:
            (ax, ay), (bx, by) = _coords(a), _coords(b)
            cx, cy = 2 * bx - ax, 2 * by - ay
            if 0 <= cx < 9 and 0 <= cy < 9:
                c = _name(cx, cy)
                if (b, c) in adjacent:
                    triples.append((a, b, c))
        self.triples = sorted(triples)

        bit = {p: 1 << i for i, p in enumerate(self.names)}
        self.bit_name = {b: p for p, b in bit.items()}
        self.nb: dict[int, int] = {b: 0 for b in bit.values()}
        steps: dict[int, list[tuple[int, str]]] = {b: [] for b in bit.values()}
        jumps: dict[int, list[tuple[int, int, str]]] = {b: [] for b in bit.values()}
        self.moves: dict[str, tuple[int, int, int, int]] = {}
        for p in self.names:
            self.moves[f"drop {p}"] = (_DROP, bit[p], 0, 0)
        for p, q in sorted(adjacent):
            self.nb[bit[p]] |= bit[q]
            steps[bit[p]].append((bit[q], f"{p}-{q}"))
            self.moves[f"{p}-{q}"] = (_STEP, bit[p], bit[q], 0)
        for a, b, c in sorted(triples, key=lambda t: (t[0], t[2])):
            jumps[bit[a]].append((bit[b], bit[c], f"{a}x{c}"))
            self.moves[f"{a}x{c}"] = (_JUMP, bit[a], bit[c], bit[b])
        # Lists per point, each sorted by target name, so legal_moves never sorts.
        self.steps = {b: tuple(v) for b, v in steps.items()}
        self.jumps = {b: tuple(v) for b, v in jumps.items()}
        self.drops = tuple((bit[p], f"drop {p}") for p in self.names)
        # Lookup tables so legal_moves neither sorts nor tests points one by one:
        # step_table[p] = (neighbour mask, {empty neighbours: their step strings}), and the
        # drops are read in chunks of _CHUNK points, {empty points of a chunk: drop strings}.
        self.step_table: dict[int, tuple[int, dict[int, tuple[str, ...]]]] = {}
        for pb, moves in self.steps.items():
            table = {}
            sub = self.nb[pb]
            while True:  # every subset of the neighbours
                table[sub] = tuple(s for to, s in moves if to & sub)
                if not sub:
                    break
                sub = (sub - 1) & self.nb[pb]
            self.step_table[pb] = (self.nb[pb], table)
        # "d4-e4" < "drop d4" < "e5-e6": moves from columns a..d sort before the drops.
        self.after_drops = {bit[p]: p > "drop" for p in self.names}
        self.drop_chunks = self._chunks([s for _, s in self.drops])
        self.name_chunks = self._chunks(self.names)

    @staticmethod
    def _chunks(items: list[str]) -> list[tuple[int, tuple[tuple[str, ...], ...]]]:
        """[(shift, {bits of this chunk: the items of the set bits})] in chunks of _CHUNK."""
        chunks = []
        for shift in range(0, len(items), _CHUNK):
            part = items[shift : shift + _CHUNK]
            chunks.append(
                (
                    shift,
                    tuple(
                        tuple(s for i, s in enumerate(part) if bits >> i & 1)
                        for bits in range(1 << _CHUNK)
                    ),
                )
            )
        return chunks

    def mask(self, names: list[str]) -> int:
        m = 0
        for p in names:
            m |= 1 << self.index[p]
        return m

    def names_of(self, mask: int) -> list[str]:
        """Point names of the set bits, sorted (low bits first are the smaller names)."""
        out: list[str] = []
        for shift, table in self.name_chunks:
            out += table[mask >> shift & _CHUNK_MASK]
        return out

    def explain(self, move: Any) -> IllegalMove:
        """Why a string that is not in the move table is no move on this board."""
        text = move if isinstance(move, str) else repr(move)
        m = re.fullmatch(r"drop ([a-z]\d+)", text)
        if m:
            return IllegalMove("{point} is not a point on board {board}", point=m.group(1),
                               board=self.id)
        m = re.fullmatch(r"([a-z]\d+)([-x])([a-z]\d+)", text)
        if m:
            p, kind, q = m.groups()
            for r in (p, q):
                if r not in self.index:
                    return IllegalMove("{point} is not a point on board {board}", point=r,
                                       board=self.id)
            if p == q:
                return IllegalMove("a piece must move to another point")
            if kind == "-":
                return IllegalMove("{a} and {b} are not joined by a line", a=p, b=q)
            return IllegalMove(
                "there is no jump from {a} to {b}: a jump goes over the next point on a line "
                "to the point just beyond it", a=p, b=q,
            )
        return IllegalMove(
            "{move!r} is not a move: write drop P, P-Q or PxQ (like drop d4, e5-e6, e5xe7)",
            move=text,
        )

    def public(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "points": list(self.names),
            "coords": {p: list(_coords(p)) for p in self.names},
            "lines": [list(pq) for pq in self.pairs],
            "jumps": [list(t) for t in self.triples],
        }


def _read_data() -> dict[str, dict]:
    data = json.loads(_DATA_FILE.read_text(encoding="utf-8"))
    return data["boards"]


_BOARD_SPECS = _read_data()
_BOARDS: dict[str, _Board] = {}


def _board(board_id: str) -> _Board:
    b = _BOARDS.get(board_id)
    if b is None:
        if board_id not in _BOARD_SPECS:
            known = ", ".join(sorted(_BOARD_SPECS))
            raise OptionError("unknown board {board!r}; boards: {boards}", board=board_id,
                              boards=known)
        b = _BOARDS[board_id] = _Board(board_id, _BOARD_SPECS[board_id])
    return b


def board(board_id: str) -> dict:
    """A board for renderers: points (sorted names), coords {name: [x, y]} with x, y from 0..8
    (a1 = [0, 0] bottom left), lines (adjacent pairs), jumps ([from, over, to]); a fresh copy."""
    return _board(board_id).public()


class _Config:
    """Options of one table, shared by every state of it (never changed)."""

    __slots__ = ("board", "captures", "deadline", "quiet_limit", "options")

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.board = _board(options["board"])
        self.captures: int = options["captures"]
        self.deadline: bool = options["leopard_deadline"]
        self.quiet_limit: int = options["quiet_limit"]


_CONFIGS: dict[tuple, _Config] = {}


def _config(options: dict[str, Any]) -> _Config:
    key = tuple(sorted(options.items()))
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = _CONFIGS[key] = _Config(dict(options))
    return cfg


def _can_move(b: _Board, cows: int, leops: int, ch: int, lh: int, side: int) -> bool:
    empty = b.all & ~(cows | leops)
    if side == 0:
        if ch:
            return bool(empty)
        nb = b.nb
        m = cows
        while m:
            low = m & -m
            if nb[low] & empty:
                return True
            m ^= low
        return False
    if lh:
        return bool(empty)
    m = leops
    while m:
        low = m & -m
        if b.nb[low] & empty:
            return True
        for over, to, _ in b.jumps[low]:
            if cows & over and empty & to:
                return True
        m ^= low
    return False


def _end_reason(
    cfg: _Config, cows: int, leops: int, ch: int, lh: int, cap: int, turn: int, quiet: int
) -> str | None:
    """The end check of the rules, in their order, with `turn` the side to move next."""
    if cap >= cfg.captures:
        return "captures"
    if not _can_move(cfg.board, cows, leops, ch, lh, turn):
        return "cows_stuck" if turn == 0 else "leopards_trapped"
    if quiet >= cfg.quiet_limit:
        return "quiet"
    return None


_RESULTS: dict[str, tuple[list[float], list[int]]] = {
    "captures": ([0, 1], [2, 1]),
    "cows_stuck": ([0, 1], [2, 1]),
    "leopards_trapped": ([1, 0], [1, 2]),
    "quiet": ([0.5, 0.5], [1, 1]),
}


class CowsLeopards(Engine):
    info = GameInfo(
        id=GAME_ID, name="Cows and Leopards", min_players=2, max_players=2,
        decisions=(Decision("play", ("drop", "step", "jump")),),
        sides=tuple(map(Word, _SIDE)),
    )
    option_spec = [
        Option(
            "board",
            "choice",
            "B",
            choices=tuple(sorted(_BOARD_SPECS)),
            help="A: 37 points, the square with top and bottom triangles; "
            "B: 49 points, all four triangles (wider, better for the leopards)",
        ),
        Option(
            "captures",
            "int",
            8,
            low=1,
            high=24,
            help="the leopards win when they have captured this many cows",
        ),
        Option(
            "leopard_deadline",
            "bool",
            False,
            help="the second leopard must be dropped on the leopards' turn right after "
            "the last cow is dropped",
        ),
        Option(
            "quiet_limit",
            "int",
            100,
            low=10,
            high=1000,
            help="once every cow is dropped, this many moves in a row without a capture "
            "end the game in a draw",
        ),
    ]

    # ----- moves as parts -----
    def parse_move(self, move: str) -> tuple[MovePart, ...]:
        """("drop", P), ("step", P, Q) for "P-Q", ("jump", P, Q) for "PxQ"."""
        if isinstance(move, str):
            if move.startswith("drop ") and _NAME.fullmatch(move[5:]):
                return ("drop", move[5:])
            m = _STEP_MOVE.fullmatch(move)
            if m:
                return ("step" if m[2] == "-" else "jump", m[1], m[3])
        raise ValueError(f"{move!r} is not a move: write 'drop P', 'P-Q' or 'PxQ'")

    def format_move(self, parts: tuple[MovePart, ...] | list[MovePart]) -> str:
        kind, *points = parts
        if kind == "drop" and len(points) == 1:
            return f"drop {points[0]}"
        if kind in ("step", "jump") and len(points) == 2:
            return f"{points[0]}{'-' if kind == 'step' else 'x'}{points[1]}"
        raise ValueError(f"{parts!r} is not a move")

    # ----- options and start -----
    def default_options(self, players: int) -> dict[str, Any]:
        self._check_players(players)
        return {"players": players, **{o.name: o.default for o in self.option_spec}}

    def new(self, players: int, options: dict[str, Any] | None = None) -> State:
        self._check_players(players)
        if options is not None and not isinstance(options, dict):
            raise OptionError("options must be an object of option names and values")
        opts = check_options(self.option_spec, self.default_options(players), players, options)
        cfg = _config(opts)
        centre = 1 << cfg.board.index["e5"]
        return (0, centre, COWS, 1, 0, 0, 0, None, cfg)

    # ----- who acts, what is legal -----
    def to_act(self, state: State) -> list[int]:
        return [] if state[7] is not None else [state[5]]

    def legal_moves(self, state: State, actor: int) -> list[str]:
        cows, leops, ch, lh, _cap, turn, _quiet, reason, cfg = state
        if reason is not None or actor != turn:
            return []
        b = cfg.board
        empty = b.all ^ (cows | leops)
        if turn == 0:
            out: list[str] = []
            if ch:
                for shift, table in b.drop_chunks:
                    out += table[empty >> shift & _CHUNK_MASK]
                return out
            step_table = b.step_table
            m = cows
            while m:
                low = m & -m
                m ^= low
                nb, table = step_table[low]
                out += table[nb & empty]
            return out
        drops: list[str] | None = None
        if lh:
            drops = []
            for shift, table in b.drop_chunks:
                drops += table[empty >> shift & _CHUNK_MASK]
            if cfg.deadline and not ch:
                return drops
        out = []
        m = leops
        while m:
            low = m & -m
            m ^= low
            if drops is not None and b.after_drops[low]:
                out += drops
                drops = None
            nb, table = b.step_table[low]
            out += table[nb & empty]
            for over, to, s in b.jumps[low]:
                if cows & over and empty & to:
                    out.append(s)
        if drops is not None:
            out += drops
        return out

    # ----- chance never acts in this game -----
    def chance_odds(self, state: State) -> dict[str, float]:
        # The contract's answer where chance has no small set of outcomes; here it never acts.
        raise NotImplementedError("chance never acts in Cows and Leopards")

    def sample_chance(self, state: State, rng: random.Random) -> str:
        raise ValueError("chance never acts in Cows and Leopards")

    # ----- moves -----
    def _refuse(self, state: State, actor: int) -> IllegalMove:
        if state[7] is not None:
            return IllegalMove("the game is over")
        if actor == CHANCE:
            return IllegalMove("chance does not act in Cows and Leopards")
        if actor not in (0, 1):
            return IllegalMove("seat {seat} does not play: seat 0 has the cows, 1 the leopards",
                               seat=actor)
        if state[5] == 0:
            return IllegalMove("it is the cows' turn")
        return IllegalMove("it is the leopards' turn")

    def apply(self, state: State, actor: int, move: str) -> State:
        """The next state, without events (the fast path of random playouts)."""
        cows, leops, ch, lh, cap, turn, quiet, reason, cfg = state
        if reason is not None or actor != turn:
            raise self._refuse(state, actor)
        b = cfg.board
        mv = b.moves.get(move) if isinstance(move, str) else None
        if mv is None:
            raise b.explain(move)
        kind, a, to, over = mv
        occ = cows | leops
        if kind == _DROP:
            if turn == 0:
                if not ch:
                    raise IllegalMove("no cow is left in hand: step a cow instead")
                if occ & a:
                    raise IllegalMove("{point} is not empty", point=move[5:])
                cows |= a
                ch -= 1  # quiet is 0 while cows are in hand and the last drop does not count
            else:
                if not lh:
                    raise IllegalMove("both leopards are already on the board")
                if occ & a:
                    raise IllegalMove("{point} is not empty", point=move[5:])
                leops |= a
                lh = 0
                if not ch:
                    quiet += 1
        elif turn == 0:
            if kind == _JUMP:
                raise IllegalMove("cows never capture: only leopards jump")
            if ch:
                raise IllegalMove("cows cannot move until all {count} are dropped", count=COWS)
            if not cows & a:
                raise IllegalMove("there is no cow on {point}", point=move[:2])
            if occ & to:
                raise IllegalMove("{point} is not empty", point=move[3:])
            cows ^= a | to
            quiet += 1
        else:
            if lh and not ch and cfg.deadline:
                raise IllegalMove("the second leopard must be dropped now")
            if not leops & a:
                raise IllegalMove("there is no leopard on {point}", point=move[:2])
            if kind == _JUMP:
                if not cows & over:
                    raise IllegalMove("there is no cow on {point} to jump over",
                                      point=b.bit_name[over])
                if occ & to:
                    raise IllegalMove("{point} is not empty", point=move[3:])
                cows ^= over
                cap += 1
                quiet = 0
            else:
                if occ & to:
                    raise IllegalMove("{point} is not empty", point=move[3:])
                if not ch:
                    quiet += 1
            leops ^= a | to
        turn ^= 1
        # The end check, inlined from _end_reason for speed.
        if cap >= cfg.captures:
            reason = "captures"
        elif not _can_move(b, cows, leops, ch, lh, turn):
            reason = "cows_stuck" if turn == 0 else "leopards_trapped"
        elif quiet >= cfg.quiet_limit:
            reason = "quiet"
        return (cows, leops, ch, lh, cap, turn, quiet, reason, cfg)

    def apply_events(self, state: State, actor: int, move: str) -> tuple[State, list[dict]]:
        new = self.apply(state, actor, move)
        kind, _a, _to, over = new[8].board.moves[move]
        if kind == _DROP:
            events = [{"type": "drop", "seat": actor, "point": move[5:]}]
        elif kind == _STEP:
            events = [{"type": "step", "seat": actor, "from": move[:2], "to": move[3:]}]
        else:
            events = [
                {
                    "type": "jump",
                    "seat": actor,
                    "from": move[:2],
                    "over": new[8].board.bit_name[over],
                    "to": move[3:],
                    "captured": new[4],
                }
            ]
        if new[7] is not None:
            result = self.outcome(new)
            assert result is not None  # the game has ended
            events.append({"type": "game_over", **result, "reason": new[7]})
        return new, events

    def outcome(self, state: State) -> dict | None:
        if state[7] is None:
            return None
        scores, ranks = _RESULTS[state[7]]
        return {"scores": list(scores), "ranks": list(ranks)}

    def end_reason(self, state: State) -> str | None:
        """Why the game ended ("captures", "leopards_trapped", "cows_stuck", "quiet") or None."""
        return state[7]

    # ----- positions -----
    def dump(self, state: State) -> dict:
        cows, leops, ch, lh, cap, turn, quiet, reason, cfg = state
        b = cfg.board
        return {
            "game": GAME_ID,
            "options": dict(cfg.options),
            "cows": b.names_of(cows),
            "leopards": b.names_of(leops),
            "hand": {"cows": ch, "leopards": lh},
            "captured": cap,
            "turn": turn,
            "quiet": quiet,
            "phase": "play" if reason is None else "over",
        }

    def load(self, position: dict) -> State:
        game = require_field(position, "game")
        if game != GAME_ID:
            raise ValueError(f"field 'game' is {game!r}, not {GAME_ID!r}")
        options = require_field(position, "options")
        if not isinstance(options, dict):
            raise ValueError("field 'options' must be an object")
        try:
            opts = check_options(self.option_spec, self.default_options(2), 2, options)
        except ValueError as e:
            raise ValueError(f"field 'options': {e}") from None
        cfg = _config(opts)
        b = cfg.board

        def points(field: str) -> int:
            names = require_field(position, field)
            if not isinstance(names, list):
                raise ValueError(f"field {field!r} must be a list of points")
            for p in names:
                if not isinstance(p, str) or p not in b.index:
                    raise ValueError(f"field {field!r}: {p!r} is not a point on board {b.id}")
            if len(set(names)) != len(names):
                raise ValueError(f"field {field!r} lists a point twice")
            return b.mask(names)

        def count(value: Any, field: str, low: int, high: int) -> int:
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"field {field!r} must be a whole number from {low} to {high}")
            return value

        cows = points("cows")
        leops = points("leopards")
        if cows & leops:
            both = ", ".join(b.names_of(cows & leops))
            raise ValueError(f"field 'leopards': {both} also holds a cow")
        hand = require_field(position, "hand")
        if not isinstance(hand, dict) or set(hand) != {"cows", "leopards"}:
            raise ValueError("field 'hand' must be an object with 'cows' and 'leopards'")
        ch = count(hand["cows"], "hand", 0, COWS)
        lh = count(hand["leopards"], "hand", 0, 1)
        cap = count(require_field(position, "captured"), "captured", 0, COWS)
        turn = count(require_field(position, "turn"), "turn", 0, 1)
        quiet = count(require_field(position, "quiet"), "quiet", 0, cfg.quiet_limit)
        phase = require_field(position, "phase")
        if phase not in ("play", "over"):
            raise ValueError("field 'phase' must be 'play' or 'over'")

        on_board = cows.bit_count()
        if on_board + ch + cap != COWS:
            raise ValueError(
                f"field 'captured': {on_board} cows on the board + {ch} in hand + {cap} captured "
                f"must make {COWS}"
            )
        if leops.bit_count() + lh != 2:
            raise ValueError(
                f"field 'leopards': {leops.bit_count()} on the board + {lh} in hand must make 2"
            )
        if cap > cfg.captures:
            raise ValueError(f"field 'captured': the game ends at {cfg.captures} captures")
        if ch and quiet:
            raise ValueError("field 'quiet' must be 0 while cows are in hand")
        if ch == COWS and turn == 1:
            raise ValueError("field 'turn': the cows move first")
        if cfg.deadline and lh and not ch and turn == 0:
            raise ValueError(
                "field 'hand': with leopard_deadline the second leopard is dropped right after "
                "the last cow"
            )
        reason = _end_reason(cfg, cows, leops, ch, lh, cap, turn, quiet)
        if (reason is None) != (phase == "play"):
            if reason is None:
                raise ValueError("field 'phase' is 'over' but the game goes on in this position")
            raise ValueError(f"field 'phase' is 'play' but the game is over ({reason})")
        return (cows, leops, ch, lh, cap, turn, quiet, reason, cfg)

    def view(self, state: State, seat: int | None) -> dict:
        # Nothing is hidden in this game.
        position = self.dump(state)
        position["to_act"] = self.to_act(state)
        return position


ENGINE = CowsLeopards()
