"""Computer players for Cows and Leopards (docs/rules/cows_leopards.md), for either side.
Nothing is hidden, so the view is the position.

- easy: normal's move on a share of its turns (engines/ai), else a random legal move without
  the plainest blunders: the leopards capture when they can; the cows leave no cow that can be
  jumped at once when they can, and at least never put the cow they move where it can.
- normal: one ply: the move whose position evaluates best, the leopards' captures in reply
  looked at (a capture quiescence), on a lighter evaluation (below).
- hard: alpha-beta (negamax) with iterative deepening, a transposition table, captures and
  the previous best move tried first, and the same capture quiescence at the leaves. It is
  bounded by a count of positions only (never the clock), so a seed and a budget fix the
  move under any load. The deepest search that finished gives the move (or a better move found by
  the unfinished one). As the leopards, hard then looks again at the moves nearly as good
  against the best defence, with the cows' reply taken as the ones normal's evaluation would
  choose (a careful but one-ply herd falls to a fork set up two moves ahead, which the best
  defence would avoid), and plays the one whose worst such reply leaves it best off, once a
  search again shows it within EXPECT_MARGIN of the best against the best defence (shares of
  the count are set aside for both). As the cows, hard counts a draw at the
  quiet limit as a loss of about three cows (CONTEMPT), so it gives up a cow to start the count
  again rather than sit out a draw it cannot break.

The evaluation (from the cows' side): captures, cows that can be jumped now, cows that could
be jumped once a leopard arrives, the leopards' mobility, trapped leopards, all fading towards
a draw as the quiet limit nears. Hard adds the room the leopards on the board have to roam
(nearer empty points weigh more; counted also while a leopard is in hand) and how close the
cows stand to the leopards, and weighs the cows that could be jumped more: without these,
normal's herd is looser and does not close in. Hard leopards also count a cost for a leopard
in a triangle (OUTSIDE): a triangle joins the square only at its apex, so a cow there shuts
the leopard out of play.

Searches run on a copy of the position with points on a 9 x 9 lattice (index 9x + y), so
every line direction is a shift of a Python int and the evaluation works on whole masks.
"""

from __future__ import annotations

import random
from typing import Any

from engines import get_engine
from engines.cows_leopards import board as board_data

ENG = get_engine("cows_leopards")

EASY_SKILL = 0.3  # the share of easy's turns that play normal's move (engines/ai)
# Positions (search nodes) per second of budget: 40 000 take about 0.3 s of one core of the
# 2-core build machine (evaluations remembered), so about 3x headroom for a loaded machine.
NODES_PER_SECOND = 40_000
MAX_DEPTH = 12
WIN = 100_000.0

# Evaluation weights, in points of the cows' side; a captured cow is 100.
CAPTURE = 100.0
THREAT_ONE = 30.0  # one cow can be jumped now (the cows can usually defend it)
THREAT_MORE = 70.0  # two or more: one of them will usually fall
OPEN = 4.0  # per way a cow could be jumped once a leopard stands on the far side
OPEN_NORMAL = 1.0  # normal's weight for it: a looser herd, open to two-move attacks
MOBILITY = 4.0  # per step or jump a leopard on the board has
HAND_MOBILITY = 12  # what a leopard still in hand counts as
TRAPPED = 60.0  # per leopard on the board with no move
ROOM = 8.0  # per empty point the leopards on the board can walk to: the cows close in
ADVANCE = 1.5  # per cow and step nearer a leopard (from 4 away): the cows close in
QUIET_FADE = 30  # over the last moves before the quiet limit, the evaluation fades to a draw
# Hard cows count a draw at the quiet limit as this much worse than an even game: careful
# cows can always hold a draw, so they win only by chances such as a cow given up to start
# the count again with the leopards drawn into the herd (bounded: each cow given costs
# CAPTURE, so after three or four the draw is preferred).
CONTEMPT = 350.0
# Hard leopards: what a leopard in a triangle costs (a cow on the apex shuts it in; without
# this, the room there draws a leopard in while the cows drop and the herd walls it off).
OUTSIDE = 40.0
# Hard leopards: the share of the count for the second look with the cows' replies taken as
# normal's (_expected), how much worse against the best defence a move it prefers may be,
# and the plies searched after such a reply.
EXPECT_SHARE = 0.25
CHECK_SHARE = 0.05  # of the count, for checking the pick against the best defence
EXPECT_MARGIN = 15.0
EXPECT_DEPTH = 4


def _index(name: str) -> int:
    return (ord(name[0]) - 97) * 9 + int(name[1]) - 1


def _name(i: int) -> str:
    return f"{chr(97 + i // 9)}{i % 9 + 1}"


class Board:
    """One board's lattice tables: neighbours, jumps, and per line direction the points a
    step or a jump may start from."""

    def __init__(self, board_id: str) -> None:
        data = board_data(board_id)
        self.points = [_index(p) for p in data["points"]]
        self.all = 0
        self.triangles = 0  # the points outside the square (x or y outside 2..6)
        for i in self.points:
            self.all |= 1 << i
            if not (2 <= i // 9 <= 6 and 2 <= i % 9 <= 6):
                self.triangles |= 1 << i
        self.nb = [0] * 81
        step_dirs: dict[int, int] = {}  # shift -> points with a neighbour that way
        for p, q in data["lines"]:
            a, b = _index(p), _index(q)
            self.nb[a] |= 1 << b
            self.nb[b] |= 1 << a
            step_dirs[b - a] = step_dirs.get(b - a, 0) | 1 << a
            step_dirs[a - b] = step_dirs.get(a - b, 0) | 1 << b
        # Per direction d: the points that have a neighbour at +d; shifts split by sign so
        # that the hot loops shift without a call.
        self.step_up = tuple((d, m) for d, m in step_dirs.items() if d > 0)
        self.step_down = tuple((-d, m) for d, m in step_dirs.items() if d < 0)
        # near[a]: the points within 3, 2 and 1 steps (Chebyshev) of a, so that a cow at
        # distance k is counted 4 - k times.
        self.near: list[tuple[int, ...]] = [()] * 81
        for a in self.points:
            rings = []
            for r in (3, 2, 1):
                m = 0
                for i in self.points:
                    if i != a and max(abs(i // 9 - a // 9), abs(i % 9 - a % 9)) <= r:
                        m |= 1 << i
                rings.append(m)
            self.near[a] = tuple(rings)
        # jumps[a] = ((over bit, to bit, to index), …); jump_dirs: shift -> the middle points
        self.jumps: list[tuple[tuple[int, int, int], ...]] = [()] * 81
        lists: dict[int, list[tuple[int, int, int]]] = {}
        jump_dirs: dict[int, int] = {}
        for p, over, q in data["jumps"]:
            a, b, c = _index(p), _index(over), _index(q)
            lists.setdefault(a, []).append((1 << b, 1 << c, c))
            jump_dirs[b - a] = jump_dirs.get(b - a, 0) | 1 << b
        for a, items in lists.items():
            self.jumps[a] = tuple(items)
        # Per direction d: the middle points B of jumps B - d over B to B + d.
        self.jump_up = tuple((d, m) for d, m in jump_dirs.items() if d > 0)
        self.jump_down = tuple((-d, m) for d, m in jump_dirs.items() if d < 0)

    def room(self, start: int, empty: int) -> float:
        """The empty points pieces at `start` could walk to, each weighted by how near it is
        (1 next door, 3 / (k + 2) at k steps): walls that lengthen the way to the far points
        count before they seal them off."""
        seen = start
        frontier = start
        up, down = self.step_up, self.step_down
        total = 0.0
        k = 0
        while frontier:
            grown = 0
            for d, valid in up:
                grown |= (frontier & valid) << d
            for d, valid in down:
                grown |= (frontier & valid) >> d
            frontier = grown & empty & ~seen
            seen |= frontier
            k += 1
            total += frontier.bit_count() * _ROOM_WEIGHT[min(k, 40)]
        return total


_ROOM_WEIGHT = [3 / (k + 2) for k in range(41)]
_BOARDS: dict[str, Board] = {}


def _board(board_id: str) -> Board:
    b = _BOARDS.get(board_id)
    if b is None:
        b = _BOARDS[board_id] = Board(board_id)
    return b


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# A state: (cows, leopards, cows in hand, leopards in hand, captured, turn, quiet) with lattice
# masks; a move: (kind, from, to, over) with kind 0 drop, 1 step, 2 jump and lattice indexes.
State = tuple[int, int, int, int, int, int, int]
Move = tuple[int, int, int, int]
DROP, STEP, JUMP = 0, 1, 2


def move_str(move: Move) -> str:
    kind, a, b, _ = move
    if kind == DROP:
        return f"drop {_name(b)}"
    return f"{_name(a)}{'-' if kind == STEP else 'x'}{_name(b)}"


class Game:
    """The rules on lattice states, for search: moves, their effect, the end check."""

    def __init__(self, options: dict[str, Any], full: bool = True) -> None:
        self.full = full  # normal's fast evaluation leaves out room and advance
        self.draw = 0.0  # what a draw at the quiet limit is worth to the cows
        self.outside = 0.0  # OUTSIDE when hard plays the leopards
        self.options = options
        self.b = _board(options["board"])
        self.captures: int = options["captures"]
        self.deadline: bool = options["leopard_deadline"]
        self.quiet_limit: int = options["quiet_limit"]
        self.cache: dict[tuple, float] = {}

    def read(self, view: dict) -> State:
        cows = 0
        for p in view["cows"]:
            cows |= 1 << _index(p)
        leops = 0
        for p in view["leopards"]:
            leops |= 1 << _index(p)
        hand = view["hand"]
        return (
            cows, leops, hand["cows"], hand["leopards"], view["captured"], view["turn"],
            view["quiet"],
        )

    def moves(self, s: State) -> list[Move]:
        """Every legal move; the leopards' jumps come first."""
        cows, leops, ch, lh, _, turn, _ = s
        b = self.b
        empty = b.all & ~(cows | leops)
        out: list[Move] = []
        if turn == 0:
            if ch:
                return [(DROP, -1, i, -1) for i in _bits(empty)]
            nb = b.nb
            for a in _bits(cows):
                for t in _bits(nb[a] & empty):
                    out.append((STEP, a, t, -1))
            return out
        drops = [(DROP, -1, i, -1) for i in _bits(empty)] if lh else []
        if lh and self.deadline and not ch:
            return drops
        steps = []
        for a in _bits(leops):
            for over, to, t in b.jumps[a]:
                if cows & over and empty & to:
                    out.append((JUMP, a, t, over.bit_length() - 1))
            for t in _bits(b.nb[a] & empty):
                steps.append((STEP, a, t, -1))
        return out + steps + drops

    def captures_of(self, s: State) -> list[Move]:
        cows, leops, _, lh, _, turn, _ = s
        if turn == 0 or (lh and self.deadline and not s[2]):
            return []
        empty = self.b.all & ~(cows | leops)
        out = []
        for a in _bits(leops):
            for over, to, t in self.b.jumps[a]:
                if cows & over and empty & to:
                    out.append((JUMP, a, t, over.bit_length() - 1))
        return out

    def play(self, s: State, move: Move) -> State:
        cows, leops, ch, lh, cap, turn, quiet = s
        kind, a, t, over = move
        if turn == 0:
            if kind == DROP:
                return (cows | 1 << t, leops, ch - 1, lh, cap, 1, quiet)
            return (cows ^ (1 << a | 1 << t), leops, ch, lh, cap, 1, quiet + 1)
        if kind == DROP:
            return (cows, leops | 1 << t, ch, 0, cap, 0, quiet if ch else quiet + 1)
        if kind == JUMP:
            return (cows ^ 1 << over, leops ^ (1 << a | 1 << t), ch, lh, cap + 1, 0, 0)
        return (cows, leops ^ (1 << a | 1 << t), ch, lh, cap, 0, quiet if ch else quiet + 1)

    def can_move(self, s: State) -> bool:
        cows, leops, ch, lh, _, turn, _ = s
        b = self.b
        empty = b.all & ~(cows | leops)
        if turn == 0:
            if ch:
                return bool(empty)
            # Some cow has an empty neighbour: shift the empty points back along each line.
            for d, valid in b.step_up:
                if (empty & (valid << d)) >> d & cows:
                    return True
            for d, valid in b.step_down:
                if (empty & (valid >> d)) << d & cows:
                    return True
            return False
        if lh:
            return bool(empty)
        return any(
            b.nb[a] & empty or any(cows & over and empty & to for over, to, _ in b.jumps[a])
            for a in _bits(leops)
        )

    def result(self, s: State) -> float | None:
        """None while the game goes on; else the value for the cows (WIN, -WIN or 0)."""
        if s[4] >= self.captures:
            return -WIN
        if not self.can_move(s):
            return WIN if s[5] == 1 else -WIN
        if s[6] >= self.quiet_limit:
            return self.draw
        return None

    def evaluate(self, s: State) -> float:
        """How good `s` (game not over) is for the cows; remembered, as searches meet the same
        positions again by other move orders (the side to move does not change it)."""
        quiet = s[6]
        fading = self.quiet_limit - quiet < QUIET_FADE
        key = (s[0], s[1], s[2], s[3], s[4], quiet if fading else -1)
        value = self.cache.get(key)
        if value is None:
            value = self.cache[key] = self._evaluate(s)
        return value

    def _evaluate(self, s: State) -> float:
        cows, leops, ch, lh, cap, _, quiet = s
        b = self.b
        empty = b.all & ~(cows | leops)
        value = -CAPTURE * cap
        # Cows that can be jumped now, and ways a cow could be jumped once a leopard stands
        # behind it: per direction, the middle points with an empty landing point.
        threatened = 0
        open_ways = 0
        attackers = empty | leops
        for d, middles in b.jump_up:
            exposed = cows & middles & (empty >> d)
            if exposed:
                threatened |= exposed & (leops << d)
                open_ways += (exposed & (attackers << d)).bit_count()
        for d, middles in b.jump_down:
            exposed = cows & middles & (empty << d)
            if exposed:
                threatened |= exposed & (leops >> d)
                open_ways += (exposed & (attackers >> d)).bit_count()
        if threatened:
            value -= THREAT_MORE if threatened & (threatened - 1) else THREAT_ONE
        value -= (OPEN if self.full else OPEN_NORMAL) * open_ways
        mobility = HAND_MOBILITY * lh
        for a in _bits(leops):
            moves = (b.nb[a] & empty).bit_count()
            for over, to, _ in b.jumps[a]:
                if cows & over and empty & to:
                    moves += 1
            if not moves:
                value += TRAPPED
            mobility += moves
        value -= MOBILITY * mobility
        if self.full:
            near = b.near
            for a in _bits(leops):
                value += ADVANCE * sum((cows & ring).bit_count() for ring in near[a])
            value -= ROOM * b.room(leops, empty)
        if self.outside and leops & b.triangles:
            value += self.outside * (leops & b.triangles).bit_count()
        left = self.quiet_limit - quiet
        if ch == 0 and left < QUIET_FADE:
            value = self.draw + (value - self.draw) * left / QUIET_FADE
        return value


class OutOfBudget(Exception):
    """The count of positions ran out."""


class Search:
    """Negamax alpha-beta with a transposition table and capture quiescence."""

    def __init__(self, game: Game, nodes: int) -> None:
        # Only the count bounds a search, so that a seed fixes the move under any load.
        self.game, self.limit, self.nodes = game, nodes, 0
        self.table: dict[tuple, tuple[int, float, int, Move | None]] = {}

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget

    def _static(self, s: State) -> float:
        """Value for the side to move, the game not being over."""
        v = self.game.evaluate(s)
        return v if s[5] == 0 else -v

    def _final(self, s: State, ply: int) -> float | None:
        r = self.game.result(s)
        if r is None:
            return None
        if abs(r) >= WIN:  # quicker wins and slower losses are better
            r = r - ply if r > 0 else r + ply
        return r if s[5] == 0 else -r

    def quiesce(self, s: State, alpha: float, beta: float, ply: int) -> float:
        """The leopards may capture (or not); the cows stand pat."""
        self._count()
        final = self._final(s, ply)
        if final is not None:
            return final
        best = self._static(s)
        if s[5] == 0 or best >= beta:
            return best
        alpha = max(alpha, best)
        game = self.game
        for m in game.captures_of(s):
            child = game.play(s, m)
            final = self._final(child, ply + 1)
            v = -(final if final is not None else self._static(child))
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        return best

    def negamax(self, s: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        if depth <= 0:
            return self.quiesce(s, alpha, beta, ply)
        self._count()
        final = self._final(s, ply)
        if final is not None:
            return final
        game = self.game
        q = s[6]
        key = (s[0], s[1], s[2], s[3], s[5], q if game.quiet_limit - q < QUIET_FADE + 12 else -1)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            e_depth, e_value, e_flag, first = entry
            if e_depth >= depth:
                if e_flag == 0:
                    return e_value
                if e_flag > 0 and e_value >= beta:
                    return e_value
                if e_flag < 0 and e_value <= alpha:
                    return e_value
        moves = game.moves(s)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        alpha0 = alpha
        best = -2 * WIN
        best_move = None
        for m in moves:
            v = -self.negamax(game.play(s, m), depth - 1, -beta, -alpha, ply + 1)
            if v > best:
                best = v
                best_move = m
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        flag = 1 if best >= beta else (-1 if best <= alpha0 else 0)
        self.table[key] = (depth, best, flag, best_move)
        return best

    def root(
        self, s: State, moves: list[Move], depth: int
    ) -> tuple[list[tuple[float, Move]], bool]:
        """Every root move's value at `depth` (exact for the best, bounds for the others),
        best first; True if the budget ran out before every move was searched."""
        game = self.game
        scored: list[tuple[float, Move]] = []
        alpha = -2 * WIN
        try:
            for m in moves:
                v = -self.negamax(game.play(s, m), depth - 1, -2 * WIN, -alpha + 1e-9, 1)
                scored.append((v, m))
                alpha = max(alpha, v)
        except OutOfBudget:
            scored.sort(key=lambda e: -e[0])
            return scored, True
        scored.sort(key=lambda e: -e[0])
        return scored, False


def _easy(game: Game, s: State, moves: list[Move], rng: random.Random) -> Move:
    if s[5] == 1:
        jumps = [m for m in moves if m[0] == JUMP]
        return rng.choice(jumps or moves)
    # Best: no cow at all can be jumped after the move; else at least not the cow just moved.
    safe, unmoved = [], []
    for m in moves:
        jumps = game.captures_of(game.play(s, m))
        if not jumps:
            safe.append(m)
        elif not any(j[3] == m[2] for j in jumps):
            unmoved.append(m)
    return rng.choice(safe or unmoved or moves)


def _one_ply(search: Search, s: State, moves: list[Move]) -> list[tuple[float, Move]]:
    out = []
    for m in moves:
        child = search.game.play(s, m)
        out.append((-search.quiesce(child, -2 * WIN, 2 * WIN, 1), m))
    return out


def _normal_choices(search: Search, s: State, moves: list[Move]) -> list[Move]:
    """The near-equal best moves by one ply that normal picks among (a little noise, so that
    normal does not always repeat itself)."""
    scored = _one_ply(search, s, moves)
    best = max(v for v, _ in scored)
    return [m for v, m in scored if v >= best - 1.0]


def _normal(game: Game, s: State, moves: list[Move], rng: random.Random) -> Move:
    return rng.choice(_normal_choices(Search(game, 1 << 30), s, moves))


def _hard(game: Game, s: State, moves: list[Move], rng: random.Random, budget: float) -> Move:
    limit = max(100, int(budget * NODES_PER_SECOND))
    expect_limit = check_limit = 0
    if s[5] == 1:
        expect_limit = int(limit * EXPECT_SHARE)
        check_limit = int(limit * CHECK_SHARE)
        limit = max(100, limit - expect_limit - check_limit)
    search = Search(game, limit)
    if len(moves) == 1:
        return moves[0]
    # Depth 1 (with quiescence) orders the moves and is the fallback answer; its few nodes
    # are not counted, so that even a tiny budget has an answer.
    one_ply = Search(game, 1 << 30)
    order = sorted(_one_ply(one_ply, s, moves), key=lambda e: -e[0])
    best_value = order[0][0]
    best = [m for v, m in order if v >= best_value - 1e-6]
    moves = [m for _, m in order]
    finished: list[tuple[float, Move]] = []  # the deepest finished search's values
    finished_depth = 0
    for depth in range(2, MAX_DEPTH + 1):
        scored, cut = search.root(s, moves, depth)
        if cut:
            # A partial iteration still counts when its best beats the previous best move.
            if scored and scored[0][1] != best[0]:
                prev = next((v for v, m in scored if m == best[0]), None)
                if prev is not None and scored[0][0] > prev:
                    best = [scored[0][1]]
            break
        finished, finished_depth = scored, depth
        top = scored[0][0]
        best = [m for v, m in scored if v >= top - 1e-6]
        moves = [m for _, m in scored]
        if abs(top) >= WIN / 2:
            break  # a forced result: deeper search changes nothing
    if expect_limit and finished and abs(finished[0][0]) < WIN / 2:
        floor = finished[0][0] - EXPECT_MARGIN
        # Root values below the best are upper bounds, so each pick is checked again
        # against the best defence, on what is left of the second look's count.
        near = [m for v, m in finished if v >= floor]
        picks, used = _expected(game, s, near, expect_limit)
        search.limit = search.nodes + check_limit + max(0, expect_limit - used)
        for pick in picks:
            if _holds(search, s, pick, finished_depth, floor):
                return pick
    return best[0] if len(best) == 1 else rng.choice(best)


def _expected(
    game: Game, s: State, candidates: list[Move], limit: int
) -> tuple[list[Move], int]:
    """The leopards' `candidates` (best first against the best defence) that do better than
    the first when the cows reply as a one-ply herd would (normal's choice and the near-equal
    moves its noise picks among), best first, and the count used; none when the count runs
    out before two are looked at."""
    light = Game(game.options, full=False)
    predictor = Search(light, 1 << 30)
    search = Search(game, limit)
    results: list[tuple[float, Move]] = []
    try:
        for m in candidates:
            child = game.play(s, m)
            if game.result(child) is not None:
                continue
            before = predictor.nodes
            replies = _normal_choices(predictor, child, game.moves(child))
            search.nodes += predictor.nodes - before
            worst = min(
                search.negamax(game.play(child, r), EXPECT_DEPTH, -2 * WIN, 2 * WIN, 2)
                for r in replies
            )
            results.append((worst, m))
    except OutOfBudget:
        pass
    used = min(search.nodes, limit)
    if len(results) < 2:
        return [], used
    first = results[0][0]
    better = sorted((e for e in results[1:] if e[0] > first + 1e-6), key=lambda e: -e[0])
    return [m for _, m in better], used


def _holds(search: Search, s: State, move: Move, depth: int, floor: float) -> bool:
    """Is `move` worth at least `floor` to the side to move against the best defence, at
    `depth`? A null-window search; False also when the count runs out."""
    try:
        v = -search.negamax(search.game.play(s, move), depth - 1, -floor - 1e-6,
                            -floor + 1e-6, 1)
    except OutOfBudget:
        return False
    return v >= floor - 1e-6


def choose(view: dict, seat: int, level: str, rng: random.Random, budget: float = 1.0) -> str:
    """The move `level` plays for `seat` (0 cows, 1 leopards) in `view`, its turn."""
    state = ENG.load(view)
    legal = ENG.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no move to make in this position")
    game = Game(view["options"], full=level == "hard")
    if level == "hard" and seat == 0:
        game.draw = -CONTEMPT
    if level == "hard" and seat == 1:
        game.outside = OUTSIDE
    s = game.read(view)
    moves = game.moves(s)
    if level == "easy":
        move = _easy(game, s, moves, rng)
    elif level == "normal":
        move = _normal(game, s, moves, rng)
    else:
        move = _hard(game, s, moves, rng, budget)
    text = move_str(move)
    # Our move generator mirrors the engine's; the engine's list is the authority.
    return text if text in legal else rng.choice(legal)
