"""Computer players for 6 nimmt! (docs/rules/six_nimmt.md), from a seat's view only.

- easy: a random legal move, but never a card that certainly takes a row while a card that
  does not exists; takes a cheap row; never picks a side that takes a row when the other
  does not.
- normal: a one-turn risk model. For each card it finds the row it would join and estimates
  the chance that enough cards played by the others this turn land on that row before it
  (they come from the cards this seat has not seen, uniformly; in Logical from the others'
  visible hands) to make it the sixth: expected bullheads taken, lowest wins. Takes the
  cheapest row; drafts (Logical) cards next to its own.
- hard: determinised Monte Carlo. Each sample deals the unseen cards to the other seats
  consistently with the view (hand sizes, face-down picks chosen from the sampled hand),
  then every candidate move is played out to the end of the round, hard's own seat on the
  normal policy (lightly noised). The other seats are played under two models, alternate
  samples each: "sharp" (the normal policy, noised) and "wild" (uniformly random picks,
  takes and sides, like a beginner or the random baseline). Candidates are pruned by
  successive halving on the mean of the two models' bullheads; normal's own move is kept in
  every round as the reference, and hard leaves it only for a move that loses less under
  *each* model and, on the mean, by a standard error of the paired difference (every sample
  plays both moves from the same deal). Where the search cannot tell, or the models disagree
  — the table is strong or weak and a view cannot say which — hard plays normal's move, so
  it does not play worse than normal at either kind of table (bench/arena.py --tables).
  The whole search is bounded by a count of simulated picks only (so a seed fixes the
  decision under any load). The same search chooses `take` rows and Professional `place`
  sides; Logical drafts are chosen by the sharp model alone (the draft is finished by the
  normal policy before the round is played out).

A view has no history, so cards taken from rows earlier in the round cannot be told apart
from cards still in hands: they count as unseen (sampled into hands), as they would for a
player who did not keep notes. For the same reason hard cannot tell a careful player from a
careless one by the cards they played before, and hedges between the two models instead.

The simulator here is a small copy of the placement rules working on plain lists: playouts
need the rows at every pick, and the engine's public API would cost a dump per pick. The
tests check it against the engine.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from itertools import accumulate
from math import ceil, log2

from engines.six_nimmt import BULL, DECK, HAND, ROW_LIMIT, ROWS  # the engine's numbers

# The share of easy's decisions that are normal's (engines/ai/__init__.py): normal is only
# about 1.6 points a round better than the one-ply greedy baseline, and easy's own move
# about 2.7 worse, so 0.8 puts easy midway (bench/arena.py).
EASY_SKILL = 0.8


# Simulated picks per second of budget for the hard level, measured on the 2-core build
# machine under load (about 2x headroom): the count, not the clock, bounds the search.
PICKS_PER_SECOND = 15_000
# A pick's cost relative to the basic rules with hidden hands, by (professional, logical):
# the nearest-end search and the per-seat risk of open hands are slower.
PICK_COST = {(False, False): 1.0, (False, True): 2.5, (True, False): 3.0, (True, True): 3.3}
NOISE = 0.15  # rollout policy: bullheads of random jitter (ties, a little humility)
EXTRA_PER_CARD = 1.5  # a sixth card also takes the cards the others just added
# Hard's two models of the other seats (see _hard_play): the weight of "wild" (they play at
# random) against "sharp" (they play the normal policy), and how sure the search must be that
# a move beats normal's before it plays it: better under each model, and on the weighted mean
# by SURE_Z standard errors of the paired difference, over at least SURE_SAMPLES playouts per
# model.
WILD_WEIGHT = 0.5
SURE_Z = 1.0
SURE_SAMPLES = 4


class World:
    """A full position of one round as plain lists: rows, every hand, what all have seen."""

    __slots__ = ("n", "pro", "open", "top", "rows", "hands", "seen", "loss")

    def __init__(self, n: int, pro: bool, open_hands: bool, top: int, rows: list[list[int]],
                 hands: list[list[int]], seen: bytearray, loss: list[int]) -> None:
        self.n = n
        self.pro = pro
        self.open = open_hands  # Logical: hands are public
        self.top = top
        self.rows = rows
        self.hands = hands  # each ascending
        self.seen = seen  # seen[c] = 1: c is public and in no hand (rows, revealed)
        self.loss = loss  # bullheads taken this round, per seat

    def copy(self) -> World:
        return World(self.n, self.pro, self.open, self.top, [r[:] for r in self.rows],
                     [h[:] for h in self.hands], self.seen[:], self.loss[:])


# ---- placement rules -------------------------------------------------------------------------


def _targets(rows: list[list[int]], card: int, pro: bool) -> list[tuple[int, bool]]:
    """Where `card` goes: [(row, right_end)]; empty = it fits nowhere; two = a side choice."""
    if not pro:
        best, r = 0, -1
        for k in range(ROWS):
            last = rows[k][-1]
            if best < last < card:
                best, r = last, k
        return [(r, True)] if r >= 0 else []
    best = 1000
    ends: list[tuple[int, bool]] = []
    for k in range(ROWS):
        row = rows[k]
        if card > row[-1]:
            d, right = card - row[-1], True
        elif card < row[0]:
            d, right = row[0] - card, False
        else:
            continue
        if d < best:
            best, ends = d, [(k, right)]
        elif d == best:
            ends.append((k, right))
    return ends


def _row_bulls(row: list[int]) -> int:
    total = 0
    for c in row:
        total += BULL[c]
    return total


def _put(w: World, seat: int, card: int, r: int, right: bool) -> None:
    row = w.rows[r]
    if len(row) == ROW_LIMIT:
        w.loss[seat] += _row_bulls(row)
        w.rows[r] = [card]
    elif right:
        row.append(card)
    else:
        row.insert(0, card)


def _take(w: World, seat: int, card: int, r: int) -> None:
    w.loss[seat] += _row_bulls(w.rows[r])
    w.rows[r] = [card]


# ---- the normal policy: a one-turn risk model ------------------------------------------------


def _tail(m: int, p: float, s: int) -> float:
    """P(Binomial(m, p) >= s)."""
    if s <= 0:
        return 1.0
    if s > m or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    q = 1.0 - p
    term = q ** m
    cdf = term
    ratio = p / q
    for k in range(1, s):
        term *= ratio * (m - k + 1) / k
        cdf += term
    return max(0.0, 1.0 - cdf)


def _tail_many(probs: list[float], s: int) -> float:
    """P(at least s successes) for independent trials with these probabilities."""
    if s <= 0:
        return 1.0
    if s > len(probs):
        return 0.0
    dist = [1.0] + [0.0] * s  # dist[k]: P(k successes), k == s absorbs "s or more"
    for p in probs:
        if p <= 0.0:
            continue
        for k in range(s, 0, -1):
            if k == s:
                dist[k] += dist[k - 1] * p
            else:
                dist[k] = dist[k] * (1.0 - p) + dist[k - 1] * p
        dist[0] *= 1.0 - p
    return dist[s]


class Knowledge:
    """What one seat may assume about the cards the others play this turn."""

    __slots__ = ("pre", "unseen", "m", "opp")

    def __init__(self, pre: list[int] | None, unseen: int, m: int,
                 opp: list[list[int]] | None) -> None:
        self.pre = pre  # pre[x]: cards <= x that are unseen by everyone (hidden hands)
        self.unseen = unseen  # how many cards this seat has not seen
        self.m = m  # how many others play a card this turn
        self.opp = opp  # Logical: the card lists each other seat plays from


_FLIP = bytes([1, 0]) + bytes(254)


def _prefix_unseen(seen: bytearray, top: int) -> list[int]:
    """pre[x] = how many cards <= x are not in `seen` (seen[0] is unused and 0)."""
    flipped = seen.translate(_FLIP)
    flipped[0] = 0
    return list(accumulate(flipped))


def _risk(k: Knowledge, hand: list[int], lo: int, hi: int, s: int) -> float:
    """P(at least s of the others' cards fall strictly between lo and hi)."""
    if s > k.m or hi - lo <= 1:
        return 0.0
    if k.opp is not None:
        probs = []
        for cards in k.opp:
            if cards:
                g = bisect_left(cards, hi) - bisect_right(cards, lo)
                probs.append(g / len(cards))
        return _tail_many(probs, s)
    assert k.pre is not None  # hidden hands: no opp, so pre
    lo = max(lo, 0)
    hi = min(hi, len(k.pre))
    g = k.pre[hi - 1] - k.pre[lo] - (bisect_left(hand, hi) - bisect_right(hand, lo))
    if g <= 0 or k.unseen <= 0:
        return 0.0
    return _tail(k.m, g / k.unseen, s)


def _place_cost(rows: list[list[int]], card: int, r: int, right: bool, k: Knowledge,
                hand: list[int]) -> float:
    """Expected bullheads from putting `card` at that end of row r this turn."""
    row = rows[r]
    bulls = _row_bulls(row)
    s = ROW_LIMIT - len(row)
    if s <= 0:
        return float(bulls)
    if right:
        lo = row[-1]
    else:  # lower cards near the left end may get there first
        lo = card - (row[0] - card)
    return _risk(k, hand, lo, card, s) * (bulls + EXTRA_PER_CARD * s)


def _card_cost(rows: list[list[int]], card: int, pro: bool, k: Knowledge,
               hand: list[int]) -> tuple[float, bool]:
    """(expected bullheads, certain take) of playing `card` now."""
    ends = _targets(rows, card, pro)
    if not ends:
        return float(min(_row_bulls(r) for r in rows)), True
    best = min(_place_cost(rows, card, r, right, k, hand) for r, right in ends)
    certain = all(len(rows[r]) == ROW_LIMIT for r, _ in ends)
    return best, certain


def _pick_normal(w: World, seat: int, k: Knowledge, rng: random.Random | None,
                 noise: float = 0.0, info: list[tuple[int, int, int]] | None = None) -> int:
    hand = w.hands[seat]
    if len(hand) == 1:
        return hand[0]
    if w.pro or k.opp is not None:
        costs = [_card_cost(w.rows, c, w.pro, k, hand)[0] for c in hand]
    else:
        costs = _basic_costs(info or _row_info(w.rows), hand, k)
    if noise:
        assert rng is not None  # noise needs an rng
        rand = rng.random
        costs = [x + noise * rand() for x in costs]
    best = min(costs)
    return hand[costs.index(best)]


def _row_info(rows: list[list[int]]) -> list[tuple[int, int, int]]:
    """(end, length, bullheads) of each row, by ascending end."""
    return sorted((row[-1], len(row), _row_bulls(row)) for row in rows)


def _basic_costs(info: list[tuple[int, int, int]], hand: list[int],
                 k: Knowledge) -> list[float]:
    """_card_cost for every card of an ascending hand under the basic rules, hidden hands.

    The hot loop of every playout, so the rows are summarised once (`_row_info`, shared by
    the seats of a turn) and the hand is walked in step with the ascending row ends.
    """
    cheapest = float(min(x[2] for x in info))
    pre, unseen, m = k.pre, k.unseen, k.m
    assert pre is not None  # hidden hands
    costs = []
    j = -1  # index in info of the highest end below the card
    lo_idx = 0  # index in hand of the first card above that end
    for i, c in enumerate(hand):
        while j + 1 < ROWS and info[j + 1][0] < c:
            j += 1
            e = info[j][0]
            while lo_idx < len(hand) and hand[lo_idx] <= e:
                lo_idx += 1
        if j < 0:
            costs.append(cheapest)
            continue
        e, length, bulls = info[j]
        s = ROW_LIMIT - length
        if s <= 0:
            costs.append(float(bulls))
            continue
        g = pre[c - 1] - pre[e] - (i - lo_idx)
        if g <= 0 or unseen <= 0:
            costs.append(0.0)
            continue
        p = g / unseen
        costs.append(_tail(m, p, s) * (bulls + EXTRA_PER_CARD * s))
    return costs


def _take_normal(rows: list[list[int]]) -> int:
    """The cheapest row; on a tie the longer one (it is the more dangerous to leave)."""
    return min(range(ROWS), key=lambda r: (_row_bulls(rows[r]), -len(rows[r]), r))


def _side_normal(rows: list[list[int]], ends: list[tuple[int, bool]]) -> tuple[int, bool]:
    """Between two tied ends: avoid a full row, else the cheaper take, else the shorter row."""
    def key(e: tuple[int, bool]) -> tuple:
        row = rows[e[0]]
        full = len(row) == ROW_LIMIT
        return (full, _row_bulls(row) if full else 0, len(row), e[0], e[1])
    return min(ends, key=key)


def _knowledge(w: World, seat: int, pre: list[int] | None, pre_total: int) -> Knowledge:
    """Seat's view in a playout: the unseen cards are everything neither public nor its own."""
    if w.open:
        opp = [w.hands[j] for j in range(w.n) if j != seat]
        return Knowledge(None, 0, w.n - 1, opp)
    return Knowledge(pre, pre_total - len(w.hands[seat]), w.n - 1, None)


# ---- playing out a round -----------------------------------------------------------------------


def _resolve(w: World, plays: list[tuple[int, int]], wild: list[bool] | None = None,
             rng: random.Random | None = None) -> None:
    """Reveal and place a turn's cards, lowest first; choices by the normal policy, or at
    random for the `wild` seats."""
    plays.sort()
    seen = w.seen
    for card, _ in plays:
        seen[card] = 1
    for card, seat in plays:
        if wild is not None and wild[seat]:
            assert rng is not None  # wild seats choose at random
            _place_wild(w, card, seat, rng)
        else:
            _place_one(w, card, seat)


def _place_one(w: World, card: int, seat: int) -> None:
    ends = _targets(w.rows, card, w.pro)
    if not ends:
        _take(w, seat, card, _take_normal(w.rows))
        return
    if len(ends) == 1:
        r, right = ends[0]
    else:
        r, right = _side_normal(w.rows, ends)
    _put(w, seat, card, r, right)


def _place_wild(w: World, card: int, seat: int, rng: random.Random) -> None:
    """A seat that plays at random also takes a row and chooses a side at random."""
    ends = _targets(w.rows, card, w.pro)
    if not ends:
        _take(w, seat, card, rng.randrange(ROWS))
        return
    r, right = ends[0] if len(ends) == 1 else ends[rng.randrange(len(ends))]
    _put(w, seat, card, r, right)


def _finish_round(w: World, rng: random.Random, noise: float,
                  wild: list[bool] | None = None) -> int:
    """Play every remaining turn with the (noised) normal policy, the `wild` seats at random;
    returns picks simulated."""
    picks = 0
    n = w.n
    while w.hands[0]:
        if w.open:
            pre, total = None, 0
        else:
            pre = _prefix_unseen(w.seen, w.top)
            total = pre[w.top]
        info = None if w.pro else _row_info(w.rows)
        plays = []
        for seat in range(n):
            if wild is not None and wild[seat]:
                hand = w.hands[seat]
                plays.append((hand[rng.randrange(len(hand))], seat))
                continue
            k = _knowledge(w, seat, pre, total)
            c = _pick_normal(w, seat, k, rng, noise, info)
            plays.append((c, seat))
        for c, seat in plays:
            w.hands[seat].remove(c)
        _resolve(w, plays, wild, rng)
        picks += n
    return picks


# ---- reading the view --------------------------------------------------------------------------


class Table:
    """The parts of a 6 nimmt! view a player needs, checked once."""

    def __init__(self, view: dict, seat: int) -> None:
        opts = view["options"]
        self.seat = seat
        self.n = opts["players"]
        self.pro = bool(opts["professional"])
        self.mode = opts["cards"]
        self.open = self.mode == "logical"
        self.top = DECK if self.mode == "standard" else HAND * self.n + ROWS
        self.phase = view["phase"]
        self.rows = [list(r) for r in view["rows"]]
        self.hands = [None if h is None else list(h) for h in view["hands"]]
        self.hand = sorted(self.hands[seat] or [])
        self.picked = list(view["picked"])
        self.pending = view["pending"]
        self.queue = [(q[0], q[1]) for q in view["queue"]]
        self.pool = sorted(view.get("pool") or [])
        self.drafter = view.get("drafter")
        self.sizes = list(view.get("hand_sizes") or [len(h or []) for h in view["hands"]])

    def visible(self) -> set[int]:
        """Every card this seat sees: rows, its hand and pick, the revealed cards, the pool."""
        vis = {c for r in self.rows for c in r}
        vis.update(self.hand)
        mine = self.picked[self.seat]
        if isinstance(mine, int) and not isinstance(mine, bool):
            vis.add(mine)
        vis.update(c for c, _ in self.queue)
        if self.pending is not None:
            vis.add(self.pending["card"])
        if self.open:
            for h in self.hands:
                vis.update(h or [])
            vis.update(self.pool)
        return vis

    def public_seen(self) -> bytearray:
        """seen[] as every seat knows it: rows and revealed cards."""
        seen = bytearray(self.top + 1)
        for r in self.rows:
            for c in r:
                seen[c] = 1
        for c, _ in self.queue:
            seen[c] = 1
        if self.pending is not None:
            seen[self.pending["card"]] = 1
        return seen

    def knowledge(self) -> Knowledge:
        """This seat's knowledge at the root, for the normal policy."""
        m = self.n - 1
        hidden = sorted(set(range(1, self.top + 1)) - self.visible())
        if self.open:
            opp = []
            for j in range(self.n):
                if j == self.seat:
                    continue
                # A face-down pick is still shown in its (public) hand until the reveal,
                # so a seat that picked plays one of its hand's cards like the others.
                opp.append(sorted(self.hands[j] or []))
            return Knowledge(None, 0, m, opp)
        seen = bytearray(self.top + 1)
        for c in range(1, self.top + 1):
            seen[c] = 1
        for c in hidden:
            seen[c] = 0
        for c in self.hand:
            seen[c] = 0  # _risk subtracts the seat's own hand itself
        pre = _prefix_unseen(seen, self.top)
        return Knowledge(pre, len(hidden), m, None)

    def legal(self) -> list[str]:
        """The seat's legal moves, computed from the view alone (checked against the engine)."""
        if self.phase == "pick":
            if self.picked[self.seat] is not None:
                return []
            return sorted(f"play {c}" for c in self.hand)
        if self.phase == "draft":
            return sorted(f"draft {c}" for c in self.pool) if self.drafter == self.seat else []
        if self.pending is None or self.pending["seat"] != self.seat:
            return []
        if self.phase == "take":
            return [f"take {r}" for r in range(1, ROWS + 1)]
        if self.phase == "side":
            ends = _targets(self.rows, self.pending["card"], True)
            return sorted(_side_move(r, right) for r, right in ends)
        return []


def _side_move(r: int, right: bool) -> str:
    return f"place {r + 1} {'right' if right else 'left'}"


def _parse_side(move: str) -> tuple[int, bool]:
    _, r, end = move.split(" ")
    return int(r) - 1, end == "right"


# ---- easy ----------------------------------------------------------------------------------------


def _easy(t: Table, legal: list[str], rng: random.Random) -> str:
    if t.phase == "pick":
        k = t.knowledge()
        safe = [m for m in legal
                if not _card_cost(t.rows, int(m.split()[1]), t.pro, k, t.hand)[1]]
        return rng.choice(safe or legal)
    if t.phase == "take":
        bulls = [_row_bulls(r) for r in t.rows]
        cheap = min(bulls)
        ok = [f"take {r + 1}" for r in range(ROWS) if bulls[r] <= cheap + 2]
        return rng.choice(ok)
    if t.phase == "side":
        ok = [m for m in legal if len(t.rows[_parse_side(m)[0]]) < ROW_LIMIT]
        return rng.choice(ok or legal)
    return rng.choice(legal)


# ---- normal --------------------------------------------------------------------------------------


def _draft_score(hand: list[int], pool: list[int], card: int) -> float:
    """Logical draft: cards next to one's own are safe (nobody can play between them)."""
    held = set(hand)
    score = 0.0
    if card - 1 in held:
        score += 2.0
    if card + 1 in held:
        score += 1.0
    score -= 0.2 * BULL[card]
    # The lowest cards of the pool tend to have to take a row.
    below = bisect_left(pool, card)
    score += 0.5 * min(below, 8) / 8
    return score


def _draft_normal(hand: list[int], pool: list[int]) -> int:
    return max(pool, key=lambda c: (_draft_score(hand, pool, c), -c))


def _normal(t: Table, legal: list[str]) -> str:
    if t.phase == "pick":
        k = t.knowledge()
        best = min(t.hand, key=lambda c: (_card_cost(t.rows, c, t.pro, k, t.hand)[0], c))
        return f"play {best}"
    if t.phase == "take":
        return f"take {_take_normal(t.rows) + 1}"
    if t.phase == "side":
        ends = [_parse_side(m) for m in legal]
        return _side_move(*_side_normal(t.rows, ends))
    if t.phase == "draft":
        return f"draft {_draft_normal(t.hand, t.pool)}"
    return legal[0]


# ---- hard: determinised Monte Carlo --------------------------------------------------------------


def _sample(t: Table, rng: random.Random,
            wild: list[bool] | None = None) -> tuple[World, dict[int, int]]:
    """A full round position consistent with the view, and the others' face-down picks (a
    `wild` seat's at random)."""
    n = t.n
    hidden = sorted(set(range(1, t.top + 1)) - t.visible())
    rng.shuffle(hidden)
    hands: list[list[int]] = []
    need_pick = []
    for j in range(n):
        if j == t.seat:
            hands.append(t.hand[:])
        elif t.open:
            hands.append(sorted(t.hands[j] or []))
        else:
            size = t.sizes[j]
            hands.append(sorted(hidden[:size]))
            del hidden[:size]
        if j != t.seat and t.picked[j] is not None:
            need_pick.append(j)
    seen = t.public_seen()
    w = World(n, t.pro, t.open, t.top, [r[:] for r in t.rows], hands, seen, [0] * n)
    picks: dict[int, int] = {}
    if need_pick:
        if t.open:
            for j in need_pick:  # the view shows the pick back in the hand: one of those
                picks[j] = rng.choice(hands[j])
                hands[j].remove(picks[j])
        else:
            # Give each seat that already picked one more card, and let the normal policy
            # choose which of its cards lies face down.
            for j in need_pick:
                hands[j].append(hidden.pop())
                hands[j].sort()
            pre = _prefix_unseen(seen, t.top)
            for j in need_pick:
                if wild is not None and wild[j]:
                    picks[j] = rng.choice(hands[j])
                    continue
                k = _knowledge(w, j, pre, pre[t.top])
                c = _pick_normal(w, j, k, None)
                picks[j] = c
            for j in need_pick:
                hands[j].remove(picks[j])
    return w, picks


def _others_picks(w: World, t: Table, picks: dict[int, int], rng: random.Random,
                  wild: list[bool] | None = None) -> dict:
    """Picks of the seats that have not picked yet: the normal policy (noised), or at random
    for the `wild` seats."""
    out = dict(picks)
    if w.open:
        pre, total = None, 0
    else:
        pre = _prefix_unseen(w.seen, w.top)
        total = pre[w.top]
    for j in range(w.n):
        if j != t.seat and j not in out:
            if wild is not None and wild[j]:
                out[j] = rng.choice(w.hands[j])
                continue
            out[j] = _pick_normal(w, j, _knowledge(w, j, pre, total), rng, NOISE)
    return out


def _run_pick(w: World, t: Table, picks: dict[int, int], card: int, rng: random.Random,
              wild: list[bool] | None = None) -> int:
    plays = [(c, j) for j, c in picks.items()]
    plays.append((card, t.seat))
    for c, j in plays:
        if c in w.hands[j]:
            w.hands[j].remove(c)
    _resolve(w, plays, wild, rng)
    return _finish_round(w, rng, NOISE, wild)


def _run_choice(w: World, t: Table, move: str, rng: random.Random,
                wild: list[bool] | None = None) -> int:
    """Take a row or place at an end, then place the rest of the revealed cards."""
    card = t.pending["card"]
    if move.startswith("take"):
        _take(w, t.seat, card, int(move.split()[1]) - 1)
    else:
        r, right = _parse_side(move)
        _put(w, t.seat, card, r, right)
    for c, j in t.queue:
        if wild is not None and wild[j]:
            _place_wild(w, c, j, rng)
        else:
            _place_one(w, c, j)
    return _finish_round(w, rng, NOISE, wild)


def _run_draft(t: Table, card: int, rng: random.Random) -> tuple[int, int]:
    """Finish the draft with the normal policy, then play the round; (my loss, picks)."""
    hands = [sorted(h or []) for h in t.hands]
    pool = t.pool[:]
    seat = t.seat
    n = t.n
    drafter = seat
    pool.remove(card)
    hands[seat].append(card)
    hands[seat].sort()
    while len(pool) > ROWS:
        drafter = (drafter + 1) % n
        c = _draft_normal(hands[drafter], pool)
        pool.remove(c)
        hands[drafter].append(c)
        hands[drafter].sort()
    rows = [[c] for c in sorted(pool)]
    seen = bytearray(t.top + 1)
    for c in pool:
        seen[c] = 1
    w = World(n, t.pro, True, t.top, rows, hands, seen, [0] * n)
    picks = _finish_round(w, rng, NOISE)
    return w.loss[seat], picks + n * HAND


def _hard(t: Table, legal: list[str], rng: random.Random, budget: float) -> str:
    work = budget * PICKS_PER_SECOND  # simulated basic-rules picks allowed
    turns_left = max(1, len(t.hand) if t.phase != "draft" else HAND)
    per_playout = t.n * turns_left * PICK_COST[t.pro, t.open]
    if t.phase == "draft":
        per_playout *= 2.2  # the rest of the draft costs about as much again
    playouts = max(len(legal), int(work / per_playout))

    # Candidate order (and ties) follow the normal policy's preference.
    first = _normal(t, legal)
    cands = [first] + [m for m in legal if m != first]
    if t.phase == "draft":
        if len(cands) > 12:
            ranked = sorted(t.pool, key=lambda c: -_draft_score(t.hand, t.pool, c))
            cands = [first] + [f"draft {c}" for c in ranked if f"draft {c}" != first][:11]
        return _hard_draft(t, cands, rng, playouts)
    return _hard_play(t, cands, rng, playouts)


def _hard_draft(t: Table, cands: list[str], rng: random.Random, playouts: int) -> str:
    """Successive halving over drafts, each finished and played out by the normal policy."""
    total = {m: 0.0 for m in cands}
    count = {m: 0 for m in cands}
    alive = cands[:]
    rounds = max(1, ceil(log2(len(alive))))
    per_round = max(len(alive), playouts // rounds)
    for _ in range(rounds):
        samples = max(1, per_round // len(alive))
        for _ in range(samples):
            seed = rng.getrandbits(32)
            for m in alive:
                loss, _ = _run_draft(t, int(m.split()[1]), random.Random(seed))
                total[m] += loss
                count[m] += 1
        # Keep the better half (ties keep the normal policy's order: sorted is stable).
        alive.sort(key=lambda m: total[m] / max(count[m], 1))
        alive = alive[:max(1, (len(alive) + 1) // 2)]
        if len(alive) == 1:
            break
    return alive[0]


class Evidence:
    """Hard's playouts under two models of the other seats, per candidate move: "sharp"
    (they play the normal policy) and "wild" (they play uniformly at random). Every sample
    plays every live candidate from one dealt world, so differences are paired."""

    def __init__(self, cands: list[str]) -> None:
        self.loss: dict[str, tuple[list[float], list[float]]] = {m: ([], []) for m in cands}

    def add(self, move: str, wild: bool, loss: float) -> None:
        self.loss[move][wild].append(loss)

    def mean(self, move: str, wild: bool) -> float:
        xs = self.loss[move][wild]
        return sum(xs) / len(xs) if xs else 0.0

    def score(self, move: str, weight: float) -> float:
        """Expected loss with the wild model weighted `weight`."""
        return (1.0 - weight) * self.mean(move, False) + weight * self.mean(move, True)

    def surely_better(self, move: str, ref: str, weight: float) -> bool:
        """`move` loses less than `ref` under each model and, weighted, by SURE_Z standard
        errors of the paired difference (`move` was played on every sample `ref` was)."""
        mean = 0.0
        var = 0.0
        for wild, share in ((False, 1.0 - weight), (True, weight)):
            xs, ys = self.loss[move][wild], self.loss[ref][wild]
            k = min(len(xs), len(ys))
            if k < SURE_SAMPLES:
                return False
            d = [x - y for x, y in zip(xs[-k:], ys[-k:], strict=True)]
            m = sum(d) / k
            if m > 0.0:
                return False
            mean += share * m
            var += share * share * sum((x - m) ** 2 for x in d) / (k - 1) / k
        return mean + SURE_Z * var ** 0.5 < 0.0


def _hard_play(t: Table, cands: list[str], rng: random.Random, playouts: int) -> str:
    """Successive halving over picks, takes or sides; normal's move (cands[0]) stays in every
    round as the reference, and is left only for a move that does better under both models
    of the other seats."""
    first = cands[0]
    weight = WILD_WEIGHT
    ev = Evidence(cands)
    alive = cands[:]
    rounds = max(1, ceil(log2(len(alive))))
    per_round = max(len(alive), playouts // rounds)
    sample = 0
    others = [j for j in range(t.n) if j != t.seat]
    for _ in range(rounds):
        samples = max(2, per_round // len(alive))
        samples += samples % 2  # as many wild samples as sharp ones
        for _ in range(samples):
            wild_model = sample % 2 == 1
            sample += 1
            wild = [wild_model and j in others for j in range(t.n)]
            seed = rng.getrandbits(32)
            w, picks = _sample(t, rng, wild)
            if t.phase == "pick":
                plays = _others_picks(w, t, picks, random.Random(seed ^ 0x5EED), wild)
            for m in alive:
                sim = w.copy()
                r = random.Random(seed)
                if t.phase == "pick":
                    _run_pick(sim, t, plays, int(m.split()[1]), r, wild)
                else:
                    _run_choice(sim, t, m, r, wild)
                ev.add(m, wild_model, sim.loss[t.seat])
        # Keep the better half (ties keep the normal policy's order: sorted is stable), and
        # normal's move as the reference.
        ranked = sorted(alive, key=lambda m: ev.score(m, weight))
        keep = ranked[:max(1, (len(ranked) + 1) // 2)]
        alive = [m for m in cands if m in keep or m == first]
        if len(alive) <= 2:
            break
    best = min(alive, key=lambda m: ev.score(m, weight))
    if best == first:
        return first
    # Both were played on every sample: the differences are paired.
    return best if ev.surely_better(best, first, weight) else first


# ---- entry point -------------------------------------------------------------------------------


def choose(view: dict, seat: int, level: str, rng: random.Random, budget: float = 1.0) -> str:
    """The move `level` plays for `seat`, seeing only `view`."""
    t = Table(view, seat)
    legal = t.legal()
    if not legal:
        raise ValueError(f"seat {seat} has no move to make now")
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        move = _easy(t, legal, rng)
    elif level == "normal":
        move = _normal(t, legal)
    else:
        move = _hard(t, legal, rng, budget)
    return move if move in legal else legal[0]
