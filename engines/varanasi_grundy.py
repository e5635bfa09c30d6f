"""Exact play of two-sided Varanasi sets: the one search behind the Grundy values and the
computer players' win/loss proofs.

A take touches every tower whose top has the colour, so a position is not a sum of towers:
values are computed for the whole board by memoised search. To keep that search small,
spot order and empty spots are dropped (towers are sorted), and for Grundy values colours
are relabelled too, because neither changes the game.

A tower is an int of 12 bits: 3 bits per size (size 1 in the lowest bits) holding colour + 1,
or 0 where the tower lacks that size. Sizes in a tower are distinct, so the set of discs fixes
the order, and putting K top discs on another tower is a bitwise OR.

- `children(pos, before)`: every position one turn away (the moves of the rules).
- `grundy…`: Grundy values, normal play (a position is lost for the player to move exactly
  when its value is 0); unbounded, memoised (under `canonical`) for the life of the process.
- `Solver`: win/loss only, normal play or misère, bounded by a count of positions; it prunes
  far more than whole Grundy values, so the computer players use it. It is compiled from
  engines/_varanasi_search.c where the install could (`NativeSolver`), else `PySolver`, the
  same search in Python and its specification.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import permutations, product
from operator import itemgetter
from typing import Any

from engines.varanasi import k_range, parse_tower

_N_CODES = 1 << 12
HEIGHT = [0] * _N_CODES
TOP_SIZE = [0] * _N_CODES  # size of the top disc (the smallest one)
TOP_COLOUR = [-1] * _N_CODES
POP = [0] * _N_CODES  # the tower without its top disc
# BELOW[code][x]: how many top discs are smaller than size x
BELOW: list[tuple[int, ...]] = [(0,) * 5] * _N_CODES
# SPLIT[code][k] = (the top k discs, the rest) for k = 0..height
SPLIT: list[tuple[tuple[int, int], ...]] = [()] * _N_CODES
SQUARE = [0] * _N_CODES  # HEIGHT squared
# _SIG[code]: for each disc (colour c, size i + 1), the tower's colour-blind shape (a 4-bit
# mask of its sizes) at bit 16 * c + 4 * i; OR-ing over the towers gives every colour's
# signature at once (a colour has one disc per size, so nothing overlaps).
_SIG = [0] * _N_CODES


def _build_tables() -> None:
    for code in range(1, _N_CODES):
        fields = [(code >> 3 * i) & 7 for i in range(4)]
        if 7 in fields:
            continue  # only 6 colours
        present = [i for i in range(4) if fields[i]]  # size - 1, top (smallest) first
        shape = sum(1 << i for i in present)
        HEIGHT[code] = len(present)
        SQUARE[code] = len(present) ** 2
        TOP_SIZE[code] = present[0] + 1
        TOP_COLOUR[code] = fields[present[0]] - 1
        POP[code] = code & ~(7 << 3 * present[0])
        BELOW[code] = tuple(sum(1 for i in present if i + 1 < x) for x in range(5))
        _SIG[code] = sum(shape << (16 * (fields[i] - 1) + 4 * i) for i in present)
        split = [(0, code)]
        moved = 0
        for i in present:
            moved |= fields[i] << 3 * i
            split.append((moved, code & ~moved))
        SPLIT[code] = tuple(split)


_build_tables()


def tower_code(tower: Iterable[int]) -> int:
    """The 12-bit code of a tower of engine disc ints (`size << 3 | colour`)."""
    code = 0
    for d in tower:
        code |= ((d & 7) + 1) << 3 * ((d >> 3) - 1)
    return code


# A search key counts a tower as more than any sum of squared heights can be (at most 6 x 16).
_KEY_TOWERS = 128

# -- the moves --------------------------------------------------------------------------------

# (rest of the source, new destination, change of the search key) for each legal K, per
# (source, destination) pair and height rule: a pure function of the two codes, cached up to
# a bound.
_PAIRS: tuple[dict[int, tuple[tuple[int, int, int], ...]], ...] = ({}, {})
_PAIRS_BOUND = 500_000


def pair_moves(src: int, dst: int, before: bool) -> tuple[tuple[int, int, int], ...]:
    """Every move of top discs from tower `src` onto tower `dst`: (what stays, the new
    destination, how much the move changes the search key of `children_keyed`), K = 1, 2, …
    in order."""
    table = _PAIRS[before]
    out = table.get(src << 12 | dst)
    if out is None:
        split = SPLIT[src]
        ks = k_range(HEIGHT[src], HEIGHT[dst], BELOW[src][TOP_SIZE[dst]], before)
        gone = SQUARE[src] + SQUARE[dst]
        moves = []
        for moved, rest in (split[k] for k in ks):
            # An emptied source is one tower fewer.
            left = SQUARE[rest] if rest else _KEY_TOWERS
            moves.append((rest, dst | moved, gone - SQUARE[dst | moved] - left))
        out = tuple(moves)
        if len(table) >= _PAIRS_BOUND:
            table.clear()
        table[src << 12 | dst] = out
    return out


def children_keyed(
    pos: tuple[int, ...], before: bool
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every position one turn after `pos` (sorted non-zero codes; spots do not matter), as
    (sorted codes, search key): the takes first, then the moves. () is the board emptied by a
    take. The key is where the solver looks first (smaller first): fewest towers, then the
    most piled up (the largest sum of squared heights). Such positions have the fewest moves,
    so they are solved fastest and refute most often (`bench/varanasi_exact.py`: about a
    third fewer 5-colour positions left unsolved than fewest towers alone). A move's key is
    the parent's plus a change cached with the move, so it costs next to nothing."""
    tops = 0
    for code in pos:
        tops |= 1 << TOP_COLOUR[code]
    for c in range(6):
        if tops >> c & 1:
            popped = [POP[x] if TOP_COLOUR[x] == c else x for x in pos]
            taken = tuple(sorted([x for x in popped if x]))
            yield taken, _KEY_TOWERS * len(taken) - sum(map(SQUARE.__getitem__, taken))
    table = _PAIRS[before]
    sizes = [TOP_SIZE[x] for x in pos]
    n = len(pos)
    squares = _KEY_TOWERS * n - sum(map(SQUARE.__getitem__, pos))
    for i in range(n):
        src = pos[i]
        below = BELOW[src]
        for j in range(n):
            if not below[sizes[j]]:
                continue  # no disc of the source fits (always so for j == i)
            dst = pos[j]
            moves = table.get(src << 12 | dst)
            if moves is None:
                moves = pair_moves(src, dst, before)
            for rest, new, change in moves:
                # Copying and patching the parent is cheaper than rebuilding from the others.
                child = list(pos)
                child[j] = new
                if rest:
                    child[i] = rest
                else:
                    del child[i]
                child.sort()
                yield tuple(child), squares + change


def children(pos: tuple[int, ...], before: bool) -> list[tuple[int, ...]]:
    """Every position one turn after `pos`, as `children_keyed` gives them, without keys."""
    return [child for child, _ in children_keyed(pos, before)]


# -- canonical form ---------------------------------------------------------------------------

_RELABEL: dict[tuple[int, ...], list[int]] = {}


def _relabel_table(label: tuple[int, ...]) -> list[int]:
    """Recode 6 bits (two size fields) at a time: label[colour] is the new colour + 1."""
    table = _RELABEL.get(label)
    if table is None:
        full = (0, *label, 7)
        table = [full[v & 7] | full[v >> 3] << 3 for v in range(64)]
        _RELABEL[label] = table
    return table


def _relabelled(towers: list[int], order: Iterable[int]) -> list[int]:
    """`towers` with the colours renamed 1, 2, … in `order`, sorted."""
    label = [0] * 6
    for n, colour in enumerate(order, 1):
        label[colour] = n
    table = _relabel_table(tuple(label))
    return sorted([table[c & 63] | table[c >> 6] << 6 for c in towers])


def canonical(codes: Iterable[int]) -> list[int]:
    """The same sorted codes for every position that differs only by spot order or colour names.

    Colours are ordered by an invariant (for each size, the shape of the tower holding that
    colour's disc); colours that tie are tried in every order and the smallest result is kept,
    so the result does not depend on the names we started from."""
    towers = [c for c in codes if c]
    total = 0
    for code in towers:
        total |= _SIG[code]
    present = []
    for colour in range(6):
        sig = total >> 16 * colour & 0xFFFF
        if sig:
            present.append((sig, colour))
    present.sort()
    if all(present[i][0] != present[i + 1][0] for i in range(len(present) - 1)):
        label = [0] * 6
        for n, (_, colour) in enumerate(present, 1):
            label[colour] = n
        table = _relabel_table(tuple(label))
        return sorted([table[c & 63] | table[c >> 6] << 6 for c in towers])
    groups: dict[int, list[int]] = {}
    for sig, colour in present:
        groups.setdefault(sig, []).append(colour)
    orders = product(*(permutations(g) for g in groups.values()))
    return min(_relabelled(towers, [c for group in order for c in group]) for order in orders)


# -- win/loss ---------------------------------------------------------------------------------


def _sorted_codes(pos: Iterable[int]) -> tuple[int, ...]:
    """Codes by spot as the solver keys them: the towers, sorted, without empty spots."""
    return tuple(sorted(c for c in pos if c))


_FIRST = itemgetter(0)


class OutOfBudget(Exception):
    """The count of positions ran out."""


class WinLossSolver:
    """Win/loss of a set played by two sides taking turns (2 players, or the two teams).

    `wins(pos)` is True when the side to move wins with best play: normal play, the side that
    takes the last disc wins (so False exactly when the Grundy value is 0); misère, it loses.
    Positions are memoised as sorted codes. Each position searched counts one against `limit`
    (a caller may raise it between searches, keeping the memo); OutOfBudget is raised past it
    (what was proven stays memoised). `Solver` is the compiled search where it was built
    (`NativeSolver`), else `PySolver`: both search the same positions in the same order, so
    they give the same answers for the same count, only at different speeds."""

    def __init__(self, before: bool, misere: bool, nodes: int) -> None:
        self.before = before
        self.misere = misere
        self.limit = nodes
        self.nodes = 0

    def wins(self, pos: tuple[int, ...]) -> bool:
        """`pos`: sorted non-zero codes, not empty."""
        raise NotImplementedError

    def known(self, pos: Iterable[int]) -> bool | None:
        """What is proven of codes by spot (zeros for empty spots), or None."""
        raise NotImplementedError

    def remembered(self) -> int:
        """How many positions are memoised."""
        raise NotImplementedError

    def forget(self) -> None:
        """Empty the memo (the count goes on)."""
        raise NotImplementedError

    def wins_spots(self, pos: Iterable[int]) -> bool:
        """`wins` for codes by spot (zeros for empty spots); an empty board: the side to move
        did not take the last disc, so it wins exactly in misère."""
        codes = _sorted_codes(pos)
        return self.wins(codes) if codes else self.misere


class PySolver(WinLossSolver):
    """The search in Python: the specification the compiled one follows.

    Unlike the Grundy values, it does not relabel colours (`canonical`): relabelling finds
    more positions already proven (a fifth fewer searched), but costs more time than it
    saves. Without it a proof of the hardest sampled starts of `bench/varanasi_exact.py`
    takes 0.6 of the time."""

    def __init__(self, before: bool, misere: bool, nodes: int) -> None:
        super().__init__(before, misere, nodes)
        self.memo: dict[tuple[int, ...], bool] = {}

    def wins(self, pos: tuple[int, ...]) -> bool:
        memo = self.memo
        known = memo.get(pos)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget
        result = False
        unknown = []
        for child, key in children_keyed(pos, self.before):
            if not child:
                if not self.misere:
                    result = True  # take the last disc and win
                    break
                continue  # misère: taking the last disc loses
            v = memo.get(child)
            if v is None:
                unknown.append((key, child))
            elif not v:
                result = True  # a reply already proven lost: no need to make the others
                break
        if not result:
            unknown.sort(key=_FIRST)  # stable: equal keys keep the order they were made in
            for _, child in unknown:
                if not self.wins(child):
                    result = True
                    break
        memo[pos] = result
        return result

    def known(self, pos: Iterable[int]) -> bool | None:
        codes = _sorted_codes(pos)
        return self.memo.get(codes) if codes else self.misere

    def remembered(self) -> int:
        return len(self.memo)

    def forget(self) -> None:
        self.memo.clear()


def _native_module() -> Any:
    """engines/_varanasi_search.c, compiled by the install (setup.py), given the tables; None
    where it was not built (no C compiler)."""
    try:
        from engines import _varanasi_search as native  # type: ignore[attr-defined]  # C, no stub
    except ImportError:
        return None
    # SPLIT as two flat tables of 5 entries per code; (0, 0) where the tower is lower than k.
    splits = [split[k] if k < len(split) else (0, 0) for split in SPLIT for k in range(5)]
    moved = [top for top, _ in splits]
    rest = [left for _, left in splits]
    first, last = [], []
    for before in (False, True):
        for s, d, fit in product(range(5), repeat=3):
            ks = k_range(s, d, fit, before)
            first.append(ks.start if ks else 1)
            last.append(ks[-1] if ks else 0)
    below = [n for row in BELOW for n in row]
    native.tables(HEIGHT, TOP_SIZE, TOP_COLOUR, POP, below, moved, rest, SQUARE, first, last,
                  _KEY_TOWERS)
    return native


_NATIVE = _native_module()


class NativeSolver(WinLossSolver):
    """The compiled search (engines/_varanasi_search.c): what PySolver does, about 20 times
    faster. Its memo lives in C."""

    def __init__(self, before: bool, misere: bool, nodes: int) -> None:
        if _NATIVE is None:
            raise RuntimeError("engines/_varanasi_search.c was not compiled")
        super().__init__(before, misere, nodes)
        self._search = _NATIVE.new(before, misere)

    def wins(self, pos: tuple[int, ...]) -> bool:
        result, self.nodes = _NATIVE.wins(self._search, pos, self.nodes, self.limit)
        if result < 0:
            raise OutOfBudget
        return bool(result)

    def known(self, pos: Iterable[int]) -> bool | None:
        codes = _sorted_codes(pos)
        if not codes:
            return self.misere
        v = _NATIVE.known(self._search, codes)
        return None if v < 0 else bool(v)

    def remembered(self) -> int:
        return _NATIVE.size(self._search)

    def forget(self) -> None:
        _NATIVE.forget(self._search)


NATIVE = _NATIVE is not None  # whether the compiled search is here
Solver: type[WinLossSolver] = NativeSolver if NATIVE else PySolver


# -- Grundy values ----------------------------------------------------------------------------

# Memo keys are tuples of sorted tower codes (packing them into bytes or ints saves memory
# but costs several times more time per lookup).
_MEMO: dict[bool, dict[tuple[int, ...], int]] = {False: {(): 0}, True: {(): 0}}


def _grundy(pos: tuple[int, ...], before: bool, memo: dict[tuple[int, ...], int]) -> int:
    """mex of the children's values; `pos` is canonical. Depth stays small (at most the discs
    plus the moves of one set, about a hundred for 24 discs), so plain recursion is safe."""
    values = set()
    for child in children(pos, before):
        v = memo.get(child)
        if v is None:
            key = tuple(canonical(child))
            v = memo.get(key)
            if v is None:
                v = _grundy(key, before, memo)
                memo[key] = v
            memo[child] = v  # a raw key is a real position of the same class: safe to share
        values.add(v)
    g = 0
    while g in values:
        g += 1
    return g


def grundy_codes(codes: Iterable[int], height_rule: str = "after") -> int:
    """The Grundy value of a position given as tower codes (see `tower_code`)."""
    if height_rule not in ("after", "before"):
        raise ValueError("height_rule must be 'after' or 'before'")
    before = height_rule == "before"
    memo = _MEMO[before]
    key = tuple(canonical(codes))
    v = memo.get(key)
    if v is None:
        v = memo[key] = _grundy(key, before, memo)
    return v


def grundy(towers: list[str], height_rule: str = "after") -> int:
    """The Grundy value of towers written as in positions ("r3", "b2r1", "" for an empty spot).

    0 means the player to move loses with best play (normal play: the last taker wins)."""
    seen: set[int] = set()
    codes = []
    for text in towers:
        tower = parse_tower(text)
        if seen.intersection(tower):
            raise ValueError(f"a disc appears twice in {towers!r}")
        seen.update(tower)
        codes.append(tower_code(tower))
    return grundy_codes(codes, height_rule)
