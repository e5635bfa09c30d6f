"""Grundy values of two-player, normal-play Varanasi sets (the player who takes the last disc
wins; a position is lost for the player to move exactly when its Grundy value is 0).

A take touches every tower whose top has the colour, so a position is not a sum of towers:
the value is computed for the whole board by memoised search. To keep that search small,
positions are canonicalised: spot order and empty spots are dropped (towers are sorted) and
colours are relabelled, because neither changes the game.

Internally a tower is an int of 12 bits: 3 bits per size (size 1 in the lowest bits) holding
colour + 1, or 0 where the tower lacks that size. Sizes in a tower are distinct, so the set of
discs fixes the order, and putting K top discs on another tower is a bitwise OR.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations, product

from engines.varanasi import parse_tower

_N_CODES = 1 << 12
_HEIGHT = [0] * _N_CODES
_TOP_SIZE = [0] * _N_CODES  # size of the top disc (the smallest one)
_TOP_COLOUR = [-1] * _N_CODES
_POP = [0] * _N_CODES  # the tower without its top disc
# _SIG[code]: for each disc (colour c, size i + 1), the tower's colour-blind shape (a 4-bit
# mask of its sizes) at bit 16 * c + 4 * i; OR-ing over the towers gives every colour's
# signature at once (a colour has one disc per size, so nothing overlaps).
_SIG = [0] * _N_CODES
# _SPLITS[code] = ((k, moved, rest, size of the lowest moved disc), …) for k = 1..height
_SPLITS: list[tuple[tuple[int, int, int, int], ...]] = [()] * _N_CODES


def _build_tables() -> None:
    for code in range(1, _N_CODES):
        fields = [(code >> 3 * i) & 7 for i in range(4)]
        if any(f == 7 for f in fields):
            continue  # only 6 colours
        present = [i for i in range(4) if fields[i]]  # size - 1, top (smallest) first
        shape = sum(1 << i for i in present)
        _HEIGHT[code] = len(present)
        _TOP_SIZE[code] = present[0] + 1
        _TOP_COLOUR[code] = fields[present[0]] - 1
        _POP[code] = code & ~(7 << 3 * present[0])
        _SIG[code] = sum(shape << (16 * (fields[i] - 1) + 4 * i) for i in present)
        splits = []
        moved = 0
        for k, i in enumerate(present, 1):
            moved |= fields[i] << 3 * i
            splits.append((k, moved, code & ~moved, i + 1))
        _SPLITS[code] = tuple(splits)


_build_tables()

# Memo keys are tuples of sorted tower codes (packing them into bytes or ints saves memory
# but costs several times more time per lookup).
_MEMO: dict[bool, dict[tuple[int, ...], int]] = {False: {(): 0}, True: {(): 0}}
_RELABEL: dict[tuple[int, ...], list[int]] = {}


def tower_code(tower: Iterable[int]) -> int:
    """The 12-bit code of a tower of engine disc ints (`size << 3 | colour`)."""
    code = 0
    for d in tower:
        code |= ((d & 7) + 1) << 3 * ((d >> 3) - 1)
    return code


def _relabel_table(label: tuple[int, ...]) -> list[int]:
    """Recode 6 bits (two size fields) at a time: label[colour] is the new colour + 1."""
    table = _RELABEL.get(label)
    if table is None:
        full = (0, *label, 7)
        table = [full[v & 7] | full[v >> 3] << 3 for v in range(64)]
        _RELABEL[label] = table
    return table


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
    tied = any(present[i][0] == present[i + 1][0] for i in range(len(present) - 1))
    if not tied:
        label = [0] * 6
        for n, (_, colour) in enumerate(present, 1):
            label[colour] = n
        table = _relabel_table(tuple(label))
        return sorted([table[c & 63] | table[c >> 6] << 6 for c in towers])
    groups: list[list[int]] = []
    last = None
    for sig, colour in present:
        if sig != last:
            groups.append([])
            last = sig
        groups[-1].append(colour)
    best: list[int] | None = None
    for order in product(*(permutations(g) for g in groups)):
        label = [0] * 6
        n = 0
        for group in order:
            for colour in group:
                n += 1
                label[colour] = n
        table = _relabel_table(tuple(label))
        key = sorted([table[c & 63] | table[c >> 6] << 6 for c in towers])
        if best is None or key < best:
            best = key
    return best if best is not None else []


def _grundy(pos: list[int], before: bool, memo: dict[tuple[int, ...], int]) -> int:
    """mex of the children's values; `pos` is canonical. Depth stays small (at most the discs
    plus the moves of one set, about a hundred for 24 discs), so plain recursion is safe."""
    children: list[list[int]] = []
    for colour in {_TOP_COLOUR[code] for code in pos}:
        child = []
        for code in pos:
            if _TOP_COLOUR[code] == colour:
                code = _POP[code]
                if code:
                    child.append(code)
            else:
                child.append(code)
        children.append(child)
    n = len(pos)
    for i in range(n):
        src = pos[i]
        s = _HEIGHT[src]
        splits = _SPLITS[src]
        for j in range(n):
            if j == i:
                continue
            dst = pos[j]
            d = _HEIGHT[dst]
            if before and d <= s:
                continue
            top = _TOP_SIZE[dst]
            for k, moved, rest, lowest in splits:
                if lowest >= top:
                    break  # lower discs are larger still
                if d + k <= s:
                    continue
                child = [c for m, c in enumerate(pos) if m != i and m != j]
                child.append(dst | moved)
                if rest:
                    child.append(rest)
                children.append(child)
    values = set()
    for child in children:
        child.sort()
        raw = tuple(child)
        v = memo.get(raw)
        if v is None:
            canon = canonical(child)
            key = tuple(canon)
            v = memo.get(key)
            if v is None:
                v = _grundy(canon, before, memo)
                memo[key] = v
            memo[raw] = v  # a raw key is a real position of the same class: safe to share
        values.add(v)
    g = 0
    while g in values:
        g += 1
    return g


def _rule(height_rule: str) -> bool:
    if height_rule not in ("after", "before"):
        raise ValueError("height_rule must be 'after' or 'before'")
    return height_rule == "before"


def grundy_codes(codes: Iterable[int], height_rule: str = "after") -> int:
    """The Grundy value of a position given as tower codes (see `tower_code`)."""
    before = _rule(height_rule)
    memo = _MEMO[before]
    canon = canonical(codes)
    key = tuple(canon)
    v = memo.get(key)
    if v is None:
        v = _grundy(canon, before, memo)
        memo[key] = v
    return v


def grundy(towers: list[str], height_rule: str = "after") -> int:
    """The Grundy value of towers written as in positions ("r3", "b2r1", "" for an empty spot).

    0 means the player to move loses with best play (normal play: the last taker wins)."""
    seen: set[int] = set()
    codes = []
    for text in towers:
        tower = parse_tower(text)
        for d in tower:
            if d in seen:
                raise ValueError(f"a disc appears twice in {towers!r}")
            seen.add(d)
        codes.append(tower_code(tower))
    return grundy_codes(codes, height_rule)


def grundy_of_towers(towers: Iterable[tuple[int, ...]], height_rule: str = "after") -> int:
    """The Grundy value of an engine state's towers (tuples of disc ints, bottom first)."""
    return grundy_codes((tower_code(t) for t in towers), height_rule)


def clear_cache() -> None:
    """Forget every computed value (the memo grows with every new position searched)."""
    for memo in _MEMO.values():
        memo.clear()
        memo[()] = 0
