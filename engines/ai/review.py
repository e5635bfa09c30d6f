"""The post-game review: every decision of every seat, judged from that seat's own view.

`review(game, options, players, log)` replays a finished (or partial) game from its move log
and, at each decision a seat made with more than one legal move, asks the game's judge how
good the move played was next to the best one, seeing only `eng.view(state, seat)` — never a
hand or a deal the seat could not see. Each judge measures in its game's natural unit:

- Varanasi (two sides: 2 players or doubles): exact win/loss by the exact search of the hard
  level (a count-bounded proof); a move from a won position to a lost one is a blunder. A
  decision whose proof does not finish within the count is not judged.
- Senet: the chance of winning (the expectimax one throw deep that normal plays by, mapped to a
  probability by a logistic curve fitted on self-play), before and after the move.
- 6 nimmt!: the expected bullheads the seat takes in the rest of the round, by Monte Carlo
  over deals consistent with its view (the others' hands sampled, as the hard level does),
  for every legal move with the same samples; the loss is the move's excess over the best.
- Cows and Leopards: the hard level's alpha-beta evaluation a few moves deep; the loss is
  the evaluation drop, counted in cows (one capture), and mapped to a winning chance for the
  accuracy.
- Any other game whose spec names `PLAYOUTS` (the generic judge): the mean result of seeded
  random playouts after each legal move (engines/ai/generic.py), as a chance of winning.

Each game's spec (engines/registry.py) names its `Reviewer`: one of those defined here.

Every loss is also converted to "percentage points of winning chance" (6 nimmt!: 5 per
expected bullhead), and a move's accuracy is the usual exponential of that drop
(`move_accuracy`); a seat's accuracy is the mean over its judged decisions. The result is
plain data (lists and dicts), and a seed fixes it: every random choice is seeded from the
seed, the seat and the ply, and every search is bounded by counts, never by the clock.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines import CHANCE, OptionError, get_engine
from engines.ai import cows_leopards as cl
from engines.ai import generic
from engines.ai import senet as sn
from engines.ai import six_nimmt as sx
from engines.ai import varanasi as va
from engines.registry import part

MISTAKES = 3  # the biggest mistakes listed per seat
MISTAKE_DROP = 3.0  # percentage points: a smaller drop is not called a mistake

# A judge: (view, seat, legal moves, move played, rng) -> Judgement or None (not judged).
# Judgement: (value of the move played, value of the best move, the best move, series value),
# values in the game's unit, higher is better.
Judgement = tuple[float, float, str, float]
Judge = Callable[[dict, int, list[str], str, random.Random], Judgement | None]


def move_accuracy(drop: float) -> float:
    """0..100 for a drop of `drop` percentage points of winning chance (0 = the best move)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * max(0.0, drop)) - 3.1669))


def _logistic(value: float, scale: float) -> float:
    z = max(-60.0, min(60.0, value / scale))
    return 1.0 / (1.0 + math.exp(-z))


# -- Varanasi ---------------------------------------------------------------------------------

VARANASI_NODES = 400_000  # positions per decision for the exact proof


class _VaranasiJudge:
    """One solver per review, so that positions proven at one decision stay known at the
    next (the game's positions follow each other); each decision adds its own count."""

    def __init__(self) -> None:
        self.solvers: dict[tuple[bool, bool], va.WinLossSolver] = {}

    def __call__(self, view: dict, seat: int, legal: list[str], played: str,
                 rng: random.Random) -> Judgement | None:
        rules, pos, _, _ = va._read(view)
        if not rules.two_sided:
            return None  # 3 or 4 players on their own: no exact answer
        solver = self.solvers.setdefault(
            (rules.before, rules.misere), va.Solver(rules.before, rules.misere, 0))
        solver.limit = solver.nodes + VARANASI_NODES

        def wins(move_text: str) -> bool:
            move = va.parse_move(move_text)
            now = rules.wins_now(pos, move)
            if now is not None:
                return now
            return not solver.wins_spots(va.play(pos, move, rules.weighted)[0])

        try:
            if wins(played):
                return 1.0, 1.0, played, 1.0
            for move in legal:
                if move != played and wins(move):
                    return 0.0, 1.0, move, 1.0
        except va.OutOfBudget:
            return None
        return 0.0, 0.0, played, 0.0  # lost whatever the seat plays


# -- Senet ------------------------------------------------------------------------------------

# Evaluation points per logistic unit. On 60 games of normal self-play the likelihood is
# flat from 60 to 200 (the evaluation predicts a game of dice weakly); 40 costs little
# likelihood (0.698 against 0.689 nats) and lets a lost swap or a drowned stone register.
SENET_SCALE = 40.0
SENET_DEPTH = 1  # throws searched: depth 3 took 21 s for a 237-move game (loaded machine)
SENET_NODES = 20_000


def senet_chances(view: dict, seat: int, legal: list[str]) -> dict[str, float]:
    """Each legal move's chance of winning for `seat` (0..1): the expectimax SENET_DEPTH
    throws deep (one, if the count runs out) through the logistic curve."""
    state = sn._load(view)
    search = sn._Search(seat, SENET_NODES)
    values: dict[str, float] = {}
    for depth in (SENET_DEPTH, 1):  # if the count runs out, one throw deep
        try:
            values = {m: search.value(search.child(state, seat, m), depth) for m in legal}
            break
        except sn._Abort:
            search = sn._Search(seat, 10**9)
    return {m: _logistic(v, SENET_SCALE) for m, v in values.items()}


def _senet(view: dict, seat: int, legal: list[str], played: str,
           rng: random.Random) -> Judgement | None:
    chance = senet_chances(view, seat, legal)
    best = max(legal, key=lambda m: (chance[m], m == played))
    return chance[played], chance[best], best, chance[best]


# -- 6 nimmt! ---------------------------------------------------------------------------------

SIX_NIMMT_SAMPLES = 16
SIX_NIMMT_PCT = 5.0  # percentage points of winning chance per expected bullhead


def _six_nimmt(view: dict, seat: int, legal: list[str], played: str,
               rng: random.Random) -> Judgement | None:
    t = sx.Table(view, seat)
    total = dict.fromkeys(legal, 0.0)
    for _ in range(SIX_NIMMT_SAMPLES):
        seed = rng.getrandbits(32)
        if t.phase == "draft":
            for m in legal:
                total[m] += sx._run_draft(t, int(m.split()[1]), random.Random(seed))[0]
            continue
        world, picks = sx._sample(t, rng)
        if t.phase == "pick":
            picks = sx._others_picks(world, t, picks, random.Random(seed ^ 0x5EED))
        for m in legal:
            sim = world.copy()
            r = random.Random(seed)
            if t.phase == "pick":
                sx._run_pick(sim, t, picks, int(m.split()[1]), r)
            else:
                sx._run_choice(sim, t, m, r)
            total[m] += sim.loss[seat]
    # Values are minus the expected bullheads (higher is better).
    value = {m: -total[m] / SIX_NIMMT_SAMPLES for m in legal}
    best = max(legal, key=lambda m: (value[m], m == played))
    # The series: the points the seat expects to hold at the end of the round.
    return value[played], value[best], best, view["points"][seat] + value[best]


# -- Cows and Leopards ------------------------------------------------------------------------

CL_DEPTH = 2  # a move and the reply, then captures (quiescence)
CL_NODES = 30_000
CL_SCALE = 150.0  # evaluation points per logistic unit: a capture is CAPTURE = 100


def _cows_leopards(view: dict, seat: int, legal: list[str], played: str,
                   rng: random.Random) -> Judgement | None:
    game = cl.Game(view["options"], full=True)
    s = game.read(view)
    values: dict[str, float] = {}
    for depth in (CL_DEPTH, 1):  # the shallower search if the count runs out
        search = cl.Search(game, CL_NODES if depth > 1 else 10**9)
        try:
            for m in game.moves(s):
                child = game.play(s, m)
                v = -search.negamax(child, depth - 1, -2 * cl.WIN, 2 * cl.WIN, 1)
                values[cl.move_str(m)] = v / cl.CAPTURE  # in cows
            break
        except cl.OutOfBudget:
            values = {}
    if played not in values:
        return None
    best = max(values, key=lambda m: (values[m], m == played))
    return values[played], values[best], best, values[best]


def _cl_chance(value: float) -> float:
    return _logistic(value * cl.CAPTURE, CL_SCALE)


# -- the review -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Reviewer:
    """How one game's decisions are judged: `new_judge()` makes the judge of one review,
    `drop(played, best)` is the percentage points of winning chance lost between the values
    of the move played and the best one, `unit` names the loss shown to players and
    `series_unit` how the series reads."""

    new_judge: Callable[[], Judge]
    drop: Callable[[float, float], float]
    unit: str
    series_unit: str


VARANASI = Reviewer(_VaranasiJudge, lambda p, b: 100.0 * (b - p), "win", "won")
SENET = Reviewer(lambda: _senet, lambda p, b: 100.0 * (b - p), "chance", "chance")
SIX_NIMMT = Reviewer(lambda: _six_nimmt, lambda p, b: SIX_NIMMT_PCT * (b - p), "bullheads",
                     "points")
COWS_LEOPARDS = Reviewer(lambda: _cows_leopards,
                         lambda p, b: 100.0 * (_cl_chance(b) - _cl_chance(p)), "cows", "cows")


# -- any game whose views hide nothing ----------------------------------------------------------

PLAYOUT_COUNT = 48  # playouts per legal move


def _playouts(view: dict, seat: int, legal: list[str], played: str,
              rng: random.Random) -> Judgement | None:
    try:
        eng, state = generic.position(view)
    except ValueError:
        return None  # a view with hidden parts: the generic judge cannot see the position
    values = generic.move_values(eng, state, seat, legal, PLAYOUT_COUNT, rng)
    best = max(legal, key=lambda m: (values[m], m == played))
    return values[played], values[best], best, values[best]


PLAYOUTS = Reviewer(lambda: _playouts, lambda p, b: 100.0 * (b - p), "chance", "chance")


def reviewer(game: str) -> Reviewer | None:
    """The reviewer the game's spec names (None: the game is not reviewed)."""
    found: Reviewer | None = part(game, "reviewer")
    return found


def reviewable(game: str) -> bool:
    try:
        return reviewer(game) is not None
    except OptionError:  # an unknown game
        return False


def review(game: str, options: dict[str, Any], players: int,
           log: list[tuple[int, str]] | list[list[Any]], seed: int = 0) -> dict[str, Any]:
    """Replay `log` (pairs (actor, move), chance moves with actor CHANCE) of a game of
    `players` seats with `options` and judge every decision. Returns plain data:

    {"game", "unit" (of a mistake's loss), "series_unit", "plies" (moves in the log),
     "seats": [{"seat", "accuracy" (0..100, None if nothing was judged), "judged",
                "mistakes": [{"index" (of the move in the log), "turn" (the seat's
                 decisions so far, from 1), "move", "better", "loss", "drop"} ...] (biggest
                 first, at most MISTAKES), "series": [[index, value] ...]} ...]}
    """
    eng = get_engine(game)
    judging = reviewer(game)
    if judging is None:
        raise ValueError(f"{game} has no review")
    judge, drop_of = judging.new_judge(), judging.drop
    state = eng.new(players, dict(options))
    seats: list[dict[str, Any]] = [
        {"seat": s, "accuracy": None, "judged": 0, "mistakes": [], "series": []}
        for s in range(players)
    ]
    scores: list[list[float]] = [[] for _ in range(players)]
    found: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    turns = [0] * players
    for index, (actor, move) in enumerate(log):
        if actor != CHANCE:
            turns[actor] += 1
            legal = eng.legal_moves(state, actor)
            if len(legal) > 1 and move in legal:
                rng = random.Random(seed * 1_000_003 + index * 101 + actor)
                verdict = judge(eng.view(state, actor), actor, sorted(legal), move, rng)
                if verdict is not None:
                    played, best, better, series = verdict
                    drop = max(0.0, drop_of(played, best))
                    scores[actor].append(move_accuracy(drop))
                    seats[actor]["series"].append([index, round(series, 4)])
                    if drop >= MISTAKE_DROP and better != move:
                        found[actor].append({
                            "index": index, "turn": turns[actor], "move": move,
                            "better": better, "loss": round(best - played, 3),
                            "drop": round(drop, 1),
                        })
        state = eng.apply(state, actor, move)
    for s in range(players):
        seats[s]["judged"] = len(scores[s])
        if scores[s]:
            seats[s]["accuracy"] = round(sum(scores[s]) / len(scores[s]), 1)
        found[s].sort(key=lambda m: (-m["drop"], m["index"]))
        seats[s]["mistakes"] = found[s][:MISTAKES]
    return {"game": game, "unit": judging.unit, "series_unit": judging.series_unit,
            "plies": len(log),
            "seats": seats}
