"""Computer players for Varanasi (docs/rules/varanasi.md). Nothing is hidden, so the view
is the position.

- easy: a random legal move, but a take that wins the set is taken (and, in misère, a take
  that loses it is avoided when anything else is legal).
- normal: that, plus: never leave a position where the next player wins at once by taking
  everything, a small exact search for endgames, and greed (takes that gain discs) otherwise.
- hard: where the set is a two-sided game (2 players, or doubles, whose seats alternate
  teams) it is played exactly, normal play or misère, by the memoised win/loss search of
  `engines.varanasi_grundy` (compiled from engines/_varanasi_search.c by the install, in
  Python where no C compiler was at hand: the same moves, slower), bounded by a count of
  positions. Win/loss alone prunes far more than whole Grundy values (which have no bound: a
  4-colour start can take seconds, a 5-colour one minutes). For 3 or 4 players it first looks
  for a win it can force against all the others together (paranoid search). Where that is
  not solved within the count, or the position is lost anyway, UCT (Monte Carlo tree
  search, a reward per seat) picks the move, with playouts that take a winning last take
  when they see one. In normal play a position is lost exactly when its Grundy value is 0,
  so where the count suffices a won position gets a move to a Grundy-0 position.

Searches run on a compact copy of the position: a tower is the 12-bit code of
`varanasi_grundy` (3 bits per size holding colour + 1), so a take pops the lowest field and a
move of K top discs is a bitwise OR. Every bound is a count (positions, playouts), never the
clock, so a seed and a budget fix the move under any load.
"""

from __future__ import annotations

import math
import random
from typing import Any

from engines import get_engine
from engines.varanasi import k_range
from engines.varanasi_grundy import (
    BELOW,
    HEIGHT,
    POP,
    SPLIT,
    TOP_COLOUR,
    TOP_SIZE,
    OutOfBudget,
    Solver,
    WinLossSolver,
    canonical,
    children,
)

ENG = get_engine("varanasi")
COLOURS = "rbgywk"

# Positions of the exact search and UCT playout steps per second of budget: the counts are
# what bound a search (so that a seed fixes the move). The rate is the compiled search's
# (engines/_varanasi_search.c), measured on the 2-core build machine: at 1,500,000 a second
# hard's move on the hardest sampled 4- and 5-colour positions takes at most 0.62 s alone and
# 0.89 s while two other jobs keep both cores busy (`bench/varanasi_exact.py` reports the
# times). Where the install could not compile it, the Python search visits the same positions
# (the same moves) about 20 times slower.
SOLVER_NODES_PER_SECOND = 1_500_000
# The 3-4 player search keeps relabelling colours (`canonical`) and its fewest-towers order:
# there they settle more positions for the count (with the two-sided search's order it took
# 1.8 x the positions on sampled 4-player sets). It stays in Python: 40,000 a second.
PARANOID_NODES_PER_SECOND = 40_000
PARANOID_SHARE = 0.4  # of hard's budget, for the 3-4 player search
PLAYOUT_STEPS_PER_SECOND = 10_000
SOLVER_SHARE = 0.9  # of hard's budget, for the exact search in two-sided sets
NORMAL_SOLVER_NODES = 300  # normal's endgame search: a few ms
UCT_C = 0.8
WIN_WEIGHT = 0.7  # the UCT reward: 0.7 for winning the set + 0.3 x its share of the points

# -- positions and moves (towers as the codes of engines.varanasi_grundy) --------------------


def parse_code(text: str) -> int:
    """A tower string of a position ("b4r3", "" when empty) as a code."""
    code = 0
    for i in range(0, len(text), 2):
        size = int(text[i + 1])
        code |= (COLOURS.index(text[i]) + 1) << 3 * (size - 1)
    return code


# Internal moves: a take is the colour (0..5); a move is (from, k, to) with 0-based spots.
Move = Any


def move_str(move: Move) -> str:
    if isinstance(move, int):
        return f"take {COLOURS[move]}"
    f, k, t = move
    return f"move {f + 1} {k} {t + 1}"


def parse_move(text: str) -> Move:
    parts = text.split()
    if parts[0] == "take":
        return COLOURS.index(parts[1])
    return (int(parts[1]) - 1, int(parts[2]), int(parts[3]) - 1)


def gen_moves(pos: tuple[int, ...], before: bool) -> list[Move]:
    """Every legal move on towers `pos` (codes by spot, 0 = empty): moves, then takes."""
    out: list[Move] = []
    tops = 0
    live = [(i, c) for i, c in enumerate(pos) if c]
    for i, src in live:
        tops |= 1 << TOP_COLOUR[src]
        s = HEIGHT[src]
        below = BELOW[src]
        for j, dst in live:
            if j == i:
                continue
            kmax = below[TOP_SIZE[dst]]
            if kmax:
                out.extend((i, k, j) for k in k_range(s, HEIGHT[dst], kmax, before))
    out.extend(c for c in range(6) if tops >> c & 1)
    return out


def play(pos: tuple[int, ...], move: Move, weighted: bool) -> tuple[tuple[int, ...], int]:
    """(the towers after `move`, the points it takes: discs, or sizes when weighted)."""
    new = list(pos)
    if isinstance(move, int):
        gain = 0
        for i, code in enumerate(pos):
            if code and TOP_COLOUR[code] == move:
                gain += TOP_SIZE[code] if weighted else 1
                new[i] = POP[code]
        return tuple(new), gain
    f, k, t = move
    moved, rest = SPLIT[pos[f]][k]
    new[f] = rest
    new[t] = pos[t] | moved
    return tuple(new), 0


def clears(pos: tuple[int, ...]) -> int:
    """The colour whose take empties the board (every tower one disc, one top colour), or -1."""
    colour = -1
    for code in pos:
        if code:
            if HEIGHT[code] != 1:
                return -1
            c = TOP_COLOUR[code]
            if colour < 0:
                colour = c
            elif c != colour:
                return -1
    return colour


# -- exact search -----------------------------------------------------------------------------


class Paranoid:
    """Can `me` force winning the set (taking the last disc) against all others together?
    3 or 4 players, normal play: the others move in turn and all of them try to stop me."""

    def __init__(self, players: int, before: bool, nodes: int) -> None:
        self.players = players
        self.before = before
        self.limit = nodes
        self.nodes = 0
        self.memo: dict[tuple[tuple[int, ...], int], bool] = {}

    def wins(self, pos: tuple[int, ...], offset: int) -> bool:
        """`offset`: how many turns until mine (0 = I move). `pos`: sorted codes, not empty."""
        key = (tuple(canonical(pos)), offset)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget
        nxt = (offset - 1) % self.players
        after = sorted(children(pos, self.before), key=len)
        if offset == 0:
            result = any(not child or self.wins(child, nxt) for child in after)
        else:
            result = all(child and self.wins(child, nxt) for child in after)
        self.memo[key] = result
        return result


# -- the game as the search sees it -----------------------------------------------------------


class Rules:
    """What a set's end is worth to each seat, read from the options."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.players: int = options["players"]
        self.before = options["height_rule"] == "before"
        self.last_take = options["scoring"] == "last_take"
        self.weighted: bool = options["weighted"]
        self.misere: bool = options["misere"]
        self.teams: bool = options["teams"]
        self.team_sum = options["team_scoring"] == "sum"
        colours: int = options["colours"]
        self.total = colours * (10 if self.weighted else 4)  # every disc's points
        # Two sides alternate: 2 players, or doubles (seats 0, 2 against 1, 3).
        self.two_sided = self.players == 2 or self.teams

    def side(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    def reward(self, last: int, taken: list[int], final: int) -> list[float]:
        """Per seat, for a set whose last take (worth `final`) was by `last`, with `taken`
        the points each seat took during the set."""
        n = self.players
        winner = (last + 1) % n if self.misere else last
        points = [0] * n
        if self.last_take:
            points[winner] = final
        elif self.teams and self.team_sum:
            for seat in range(winner % 2, n, 2):
                points[seat] = taken[seat]
        else:
            points[winner] = taken[winner]
        out = []
        for seat in range(n):
            if self.teams:
                won = seat % 2 == winner % 2
                got = points[seat] + points[(seat + 2) % n]
            else:
                won = seat == winner
                got = points[seat]
            out.append(WIN_WEIGHT * won + (1 - WIN_WEIGHT) * got / self.total)
        return out

    def wins_now(self, pos: tuple[int, ...], move: Move) -> bool | None:
        """True if `move` ends the set won by the mover's side, False if it ends it lost,
        None if the set goes on."""
        if not isinstance(move, int) or clears(pos) != move:
            return None
        return not self.misere


def _read(view: dict) -> tuple[Rules, tuple[int, ...], int, list[int]]:
    rules = Rules(view["options"])
    pos = tuple(parse_code(t) for t in view["towers"])
    weighted = rules.weighted
    taken = [sum(int(d[1]) if weighted else 1 for d in seat) for seat in view["taken"]]
    return rules, pos, view["turn"], taken


# -- easy and normal ---------------------------------------------------------------------------


def _easy(rules: Rules, pos: tuple[int, ...], legal: list[Move], rng: random.Random) -> Move:
    finishing = [m for m in legal if rules.wins_now(pos, m) is not None]
    for m in finishing:
        if rules.wins_now(pos, m):
            return m
    safe = [m for m in legal if m not in finishing]
    return rng.choice(safe or legal)


def _gives_away(rules: Rules, pos: tuple[int, ...], move: Move) -> bool:
    """After `move`, can the next player win the set at once by taking every disc left?
    (In misère taking the last disc loses, so nothing is handed over that way.)"""
    after, _ = play(pos, move, rules.weighted)
    return not rules.misere and clears(after) >= 0


def _normal(
    rules: Rules, pos: tuple[int, ...], legal: list[Move], rng: random.Random
) -> Move:
    for m in legal:
        if rules.wins_now(pos, m):
            return m
    ok = [m for m in legal if rules.wins_now(pos, m) is None] or legal
    if rules.two_sided:
        # A small exact search settles most endgames.
        solver = Solver(rules.before, rules.misere, NORMAL_SOLVER_NODES)
        try:
            for m in ok:
                after, _ = play(pos, m, rules.weighted)
                if not solver.wins_spots(after):
                    return m
        except OutOfBudget:
            pass
    else:
        # 3 or 4 players: a small search for a win the others cannot stop.
        search = Paranoid(rules.players, rules.before, NORMAL_SOLVER_NODES)
        move = paranoid_move(rules, pos, ok, search)
        if move is not None:
            return move
    safe = [m for m in ok if not _gives_away(rules, pos, m)] or ok
    # Greed: a take gains points; otherwise any safe move.
    gains = [(play(pos, m, rules.weighted)[1], m) for m in safe]
    best = max(g for g, _ in gains)
    if best and rng.random() < 0.7:
        return rng.choice([m for g, m in gains if g == best])
    return rng.choice(safe)


# -- hard ------------------------------------------------------------------------------------


def _order_for_win(rules: Rules, pos: tuple[int, ...], legal: list[Move]) -> list[Move]:
    """Moves in the order a winning one is picked: the bigger take first (more points)."""
    return sorted(legal, key=lambda m: -play(pos, m, rules.weighted)[1])


def solve_move(
    rules: Rules, pos: tuple[int, ...], legal: list[Move], solver: WinLossSolver
) -> tuple[bool | None, Move | None, list[Move]]:
    """Exact play where the set is two-sided: (True, a winning move, []) when the side to move
    wins; (False, None, []) when every move loses; (None, None, moves not proven losing) when
    the solver's count ran out first.

    The whole position is searched as the solver searches any other node, and a winning move
    is then read from its memo. Sharing the count among the root moves in rounds of doubling
    shares solved fewer won positions (`bench/varanasi_exact.py`), since the rounds search the
    same positions again. The count and the position fix the answer."""
    pending: list[tuple[Move, tuple[int, ...]]] = []
    for m in _order_for_win(rules, pos, legal):
        now = rules.wins_now(pos, m)
        if now is not None:
            if now:
                return True, m, []
            continue  # misère: the take that empties the board loses
        pending.append((m, play(pos, m, rules.weighted)[0]))
    if not pending:
        return False, None, []
    try:
        won: bool | None = solver.wins_spots(pos)
    except OutOfBudget:
        won = None
    known = [(m, solver.known(after)) for m, after in pending]
    if won:
        return True, next(m for m, wins in known if wins is False), []
    if won is False:
        return False, None, []
    return None, None, [m for m, wins in known if wins is not True]


def paranoid_move(
    rules: Rules, pos: tuple[int, ...], legal: list[Move], search: Paranoid
) -> Move | None:
    """A move that wins the set whatever the others do (3+ players, normal play), or None."""
    try:
        for m in _order_for_win(rules, pos, legal):
            after, _ = play(pos, m, rules.weighted)
            codes = tuple(sorted(c for c in after if c))
            if not codes or search.wins(codes, rules.players - 1):
                return m
    except OutOfBudget:
        pass
    return None


class _Node:
    __slots__ = ("pos", "seat", "taken", "moves", "children", "visits", "value")

    def __init__(self, pos: tuple[int, ...], seat: int, taken: list[int], moves: list[Move]):
        self.pos = pos
        self.seat = seat  # to move here
        self.taken = taken
        self.moves = moves  # untried
        self.children: list[tuple[Move, _Node | None, list[float]]] = []
        self.visits = 0
        self.value: list[float] = []


def _playout(
    rules: Rules, pos: tuple[int, ...], seat: int, taken: list[int], rng: random.Random,
    budget: list[int],
) -> list[float]:
    """Random play to the end of the set; a winning last take is always taken."""
    taken = list(taken)
    n = rules.players
    weighted = rules.weighted
    before = rules.before
    while True:
        budget[0] += 1
        colour = clears(pos)
        if colour < 0:
            move: Move = rng.choice(gen_moves(pos, before))
        elif not rules.misere:
            move = colour
        else:  # misère: the last disc is taken only when nothing else is legal
            moves = [m for m in gen_moves(pos, before) if m != colour]
            move = rng.choice(moves) if moves else colour
        pos, gain = play(pos, move, weighted)
        taken[seat] += gain
        if not any(pos):
            return rules.reward(seat, taken, gain)
        seat = (seat + 1) % n


def uct_move(
    rules: Rules, pos: tuple[int, ...], seat: int, taken: list[int], legal: list[Move],
    steps: int, rng: random.Random | None = None,
) -> Move:
    """UCT over `legal` at the root; each node keeps every seat's summed reward and the seat
    to move picks by its own reward (max^n); the count of steps bounds the search."""
    rng = rng if rng is not None else random.Random(0)
    n = rules.players
    root = _Node(pos, seat, taken, list(legal))
    rng.shuffle(root.moves)
    used = [0]
    log = math.log
    child: _Node | None  # None for a known set end among node.children
    while used[0] < steps:
        used[0] += 1  # every round costs at least a step, even one ending in a known set end
        node = root
        path: list[_Node] = [root]
        while True:
            if node.moves:  # expand one untried move
                move = node.moves.pop()
                after, gain = play(node.pos, move, rules.weighted)
                taken2 = list(node.taken)
                taken2[node.seat] += gain
                used[0] += 1
                if not any(after):
                    reward = rules.reward(node.seat, taken2, gain)
                    node.children.append((move, None, reward))
                else:
                    nxt = (node.seat + 1) % n
                    child = _Node(after, nxt, taken2, gen_moves(after, rules.before))
                    rng.shuffle(child.moves)
                    node.children.append((move, child, []))
                    path.append(child)
                    reward = _playout(rules, after, nxt, taken2, rng, used)
                break
            # select by UCB1 on the mover's own reward
            mover = node.seat
            lnv = log(node.visits + 1)
            best = -1.0
            pick = None
            for entry in node.children:
                _, child, fixed = entry
                if child is None:
                    score = fixed[mover] + UCT_C * math.sqrt(lnv / max(1, node.visits))
                else:
                    score = child.value[mover] / child.visits + UCT_C * math.sqrt(
                        lnv / child.visits
                    )
                if score > best:
                    best = score
                    pick = entry
            assert pick is not None
            _, child, fixed = pick
            if child is None:  # a set end: its reward is known
                reward = fixed
                break
            node = child
            path.append(node)
        for visited in path:
            visited.visits += 1
            if visited.value:
                for s in range(n):
                    visited.value[s] += reward[s]
            else:
                visited.value = list(reward)
    # The most visited move; a known set end counts as visited as often as its parent.
    best_move = None
    best_key: tuple[float, float] = (-1.0, -1.0)
    for move, child, fixed in root.children:
        if child is None:
            key = (fixed[seat] * root.visits, fixed[seat])
        else:
            key = (float(child.visits), child.value[seat] / child.visits)
        if key > best_key:
            best_key = key
            best_move = move
    return best_move if best_move is not None else legal[0]


def solver_nodes(budget: float) -> int:
    """Hard's count of positions for the exact search of a two-sided set, for `budget` seconds."""
    return max(50, int(SOLVER_SHARE * budget * SOLVER_NODES_PER_SECOND))


def _hard(
    rules: Rules, pos: tuple[int, ...], seat: int, taken: list[int], legal: list[Move],
    rng: random.Random, budget: float,
) -> Move:
    for m in legal:
        if rules.wins_now(pos, m):
            return m
    candidates = legal
    spent = 0.0  # seconds of budget the exact search used, counted from its positions
    if rules.two_sided:
        solver = Solver(rules.before, rules.misere, solver_nodes(budget))
        result, move, open_moves = solve_move(rules, pos, legal, solver)
        if result and move is not None:
            return move
        if result is None and open_moves:
            candidates = open_moves  # the others are proven lost
        spent = solver.nodes / SOLVER_NODES_PER_SECOND
    elif not rules.misere:
        nodes = max(50, int(PARANOID_SHARE * budget * PARANOID_NODES_PER_SECOND))
        search = Paranoid(rules.players, rules.before, nodes)
        move = paranoid_move(rules, pos, legal, search)
        if move is not None:
            return move
        spent = search.nodes / PARANOID_NODES_PER_SECOND
    if len(candidates) == 1:
        return candidates[0]
    # Lost against perfect play, or too big to solve: UCT on the rest of the budget, counted
    # from the positions searched (not the clock, so that the seed fixes the move).
    left = max(0.0, budget - spent)
    steps = max(200, int(left * PLAYOUT_STEPS_PER_SECOND))
    return uct_move(rules, pos, seat, taken, candidates, steps, rng)


def choose(view: dict, seat: int, level: str, rng: random.Random, budget: float = 1.0) -> str:
    """The move `level` plays for `seat` in `view` (a position in play with `seat` to move)."""
    state = ENG.load(view)
    legal_strs = ENG.legal_moves(state, seat)
    if not legal_strs:
        raise ValueError(f"seat {seat} has no move to make in this position")
    rules, pos, turn, taken = _read(view)
    legal = [parse_move(s) for s in legal_strs]
    if level == "easy":
        move = _easy(rules, pos, legal, rng)
    elif level == "normal":
        move = _normal(rules, pos, legal, rng)
    else:
        move = _hard(rules, pos, turn, taken, legal, rng, budget)
    text = move_str(move)
    # Our move generator mirrors the engine's; the engine's list is the authority.
    return text if text in legal_strs else rng.choice(legal_strs)
