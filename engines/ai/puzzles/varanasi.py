"""Varanasi puzzles: a set the seat had won, left lost by the move played.

Only two-sided sets (2 players, or doubles) have an exact answer: the win/loss search of the
hard level (engines/varanasi_grundy.py) proves, within a count of positions, whether each
legal move wins the set against any defence. A decision makes a puzzle when the move played
loses and another wins; every winning move is counted correct (values: 1 wins, 0 loses), but
not when more than half of the legal moves win (nothing to find). The best move is the winning
move hard would play (the bigger take first); the `line` goes on from it, as far as LINE_PLIES
plies and the count of LINE_NODES prove: the opponent's longest resistance (the reply that
leaves the fewest winning moves, then the most discs) and a winning answer, in turn.

One search serves the whole log, so positions proven at one decision stay known at the next;
each decision adds NODES to its count (LOG_NODES in all for one log), and one whose proof
does not finish makes no puzzle.
"""

from __future__ import annotations

import random

from engines.ai import varanasi as va
from engines.ai.puzzles.base import PuzzleMaker, Verdict
from engines.base import View
from engines.varanasi_grundy import HEIGHT, NATIVE, OutOfBudget, Solver, WinLossSolver

NODES = 300_000  # positions per decision for the proof
# Positions for one log's proofs and lines: about 2 s of the compiled search (2.5 s in Python,
# where a tenth as many are searched); the first decisions first.
LOG_NODES = 3_000_000 if NATIVE else 150_000
LINE_NODES = 50_000  # positions for the line after it
LINE_PLIES = 5


class Finder:
    """One log's finder: its search, and what that search proved, last the whole log."""

    def __init__(self) -> None:
        self.solvers: dict[tuple[bool, bool], WinLossSolver] = {}

    def _left(self) -> int:
        return LOG_NODES - sum(s.nodes for s in self.solvers.values())

    def __call__(self, view: View, seat: int, legal: list[str], played: str,
                 rng: random.Random) -> Verdict | None:
        rules, pos, _, _ = va._read(view)
        if not rules.two_sided:
            return None  # 3 or 4 players on their own: no exact answer
        solver = self.solvers.setdefault((rules.before, rules.misere),
                                         Solver(rules.before, rules.misere, 0))
        solver.limit = solver.nodes + min(NODES, self._left())
        try:
            if _wins(rules, solver, pos, va.parse_move(played)):
                return None
            winning = {m for m in legal if _wins(rules, solver, pos, va.parse_move(m))}
        except OutOfBudget:
            return None
        if not winning or 2 * len(winning) > len(legal):
            return None
        best = va.move_str(next(m for m in va._order_for_win(
            rules, pos, [va.parse_move(m) for m in legal]) if va.move_str(m) in winning))
        solver.limit = solver.nodes + max(0, min(LINE_NODES, self._left()))
        line = _line(rules, solver, pos, best)
        values = {m: float(m in winning) for m in legal}
        # A rarer winning move is a harder find: it ranks first.
        return Verdict(best, tuple(sorted(winning)), values, 2.0 - len(winning) / len(legal),
                       tuple(line))


def _wins(rules: va.Rules, solver: WinLossSolver, pos: tuple[int, ...], move: va.Move) -> bool:
    """Whether `move` wins the set for the side playing it (OutOfBudget if unproven)."""
    now = rules.wins_now(pos, move)
    if now is not None:
        return now
    return not solver.wins_spots(va.play(pos, move, rules.weighted)[0])


def _discs(pos: tuple[int, ...]) -> int:
    return sum(HEIGHT[c] for c in pos)


def _line(rules: va.Rules, solver: WinLossSolver, pos: tuple[int, ...], best: str) -> list[str]:
    """The winning line from `best`: the longest resistance and a winning answer, in turn,
    as far as the count proves (a shorter line rather than an unproven one)."""
    line = [best]
    move = va.parse_move(best)
    try:
        while len(line) < LINE_PLIES and rules.wins_now(pos, move) is None:
            pos = va.play(pos, move, rules.weighted)[0]
            if not any(pos):
                break
            replies = []
            for reply in va.gen_moves(pos, rules.before):
                if rules.wins_now(pos, reply) is not None:
                    continue  # the set ends there: no resistance
                after = va.play(pos, reply, rules.weighted)[0]
                answers = [m for m in va._order_for_win(rules, after,
                                                        va.gen_moves(after, rules.before))
                           if _wins(rules, solver, after, m)]
                if not answers:
                    return line  # not proven after all: no line beyond what is
                replies.append((len(answers), -_discs(after), va.move_str(reply), reply,
                                answers[0]))
            if not replies or len(line) + 2 > LINE_PLIES:
                break
            _, _, text, reply, move = min(replies)
            pos = va.play(pos, reply, rules.weighted)[0]
            line += [text, va.move_str(move)]
    except OutOfBudget:
        pass
    return line


MAKER = PuzzleMaker(Finder, "win")
