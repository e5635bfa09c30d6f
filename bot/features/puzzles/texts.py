"""What members read about puzzles, in their language: the question, the answer with its
one-line reason, the rating change and streak, /puzzle stats, the daily post and refusals.

Moves are labelled as on the game's board (bot/features/table/labels.py): the position is
rebuilt from the puzzle's log (never shown) and the game's presentation describes each move.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.features.common.badges import badge, clean_name, game_title, shown_name
from bot.features.table.labels import Labels, describe
from bot.i18n import N_, t, tn
from bot.storage.puzzles import DailySolvers, PuzzlePlayer, PuzzleRow
from bot.tables.ratings import ordinal
from engines.ai.puzzles import decided, position
from engines.base import Record

log = logging.getLogger(__name__)

REFUSALS: dict[str, str] = {
    "no_puzzles": N_("Sorry, there are no puzzles of that game for you yet. Puzzles come from "
                     "the games finished on this server; try another game, or play one!"),
    "no_puzzles_any": N_("Sorry, there are no puzzles for you yet. Puzzles come from the games "
                         "finished on this server: play one, and its best moments become "
                         "puzzles."),
    "not_yours": N_("This puzzle is someone else's. Use {/puzzle play} for one of your own."),
    "answered": N_("This puzzle has been answered already: one answer per puzzle."),
    "gone": N_("Sorry, this puzzle is no longer available. Use {/puzzle play} for another."),
}

# The reason an answer is right or wrong, by the puzzle's unit (engines/ai/puzzles).
REASONS: dict[str, str] = {
    "cows": N_("Evaluation in cows: {first} {first_value} · {second} {second_value}"),
    "chance": N_("Chance to win: {first} {first_value}% · {second} {second_value}%"),
    "bullheads": N_("Expected bullheads: {first} {first_value} · {second} {second_value}"),
}


def labels_of(puzzle: Record, locale: object) -> Labels:
    """The labels of the puzzle's choices, as the board's buttons word them."""
    eng, state = position(puzzle)
    return Labels(eng, state, int(puzzle["seat"]), locale)


def line_labels(puzzle: Record, locale: object) -> list[str]:
    """The winning line in words (each move by whoever acts then); raw moves if the line
    does not replay from the position."""
    line = [str(m) for m in puzzle.get("line") or []]
    try:
        eng, state = position(puzzle)
        words = []
        for move in line:
            actor = eng.to_act(state)[0]
            words.append(describe(eng, state, actor, move, locale))
            state = eng.apply(state, actor, move)
        return words
    except Exception:  # a line the engine no longer replays: say the moves as they are
        log.info("puzzle %s: its line does not replay", puzzle.get("key"))
        return line


def players_text(locale: object, row: PuzzleRow) -> str:
    """'Aki v Bo' (computers by level, as the boards name them)."""
    names = [clean_name(shown_name(locale, uid, name)) for uid, name in row.players]
    return t(locale, " v ").join(names)


def source_line(locale: object, row: PuzzleRow, labels: Labels) -> str | None:
    """'From table 12, Aki v Bo: Aki played …' for a puzzle mined here."""
    if row.table_id is None or not row.players:
        return None
    seat = int(row.data["seat"])
    player = (clean_name(shown_name(locale, *row.players[seat])) if seat < len(row.players)
              else badge(seat, row.game))
    return t(locale, "From table {table}, {players}: {player} played **{move}**.",
             table=row.table_id, players=players_text(locale, row), player=player,
             move=labels[row.data["played"]])


def question_text(locale: object, row: PuzzleRow, labels: Labels) -> str:
    seat = int(row.data["seat"])
    lines = [
        t(locale, "🧩 **Puzzle · {game}**", game=game_title(locale, row.game)),
        t(locale, "{badge} to move: find the best move.", badge=badge(seat, row.game)),
    ]
    source = source_line(locale, row, labels)
    if source:
        lines.append(source)
    return "\n".join(lines)


def _value(locale: object, puzzle: Record, move: str) -> str:
    unit, value = str(puzzle["unit"]), float(puzzle["values"].get(move, 0.0))
    outcome = decided(puzzle, move)
    if outcome:
        return t(locale, "wins") if outcome > 0 else t(locale, "loses")
    if unit == "chance":
        return format(round(value * 100), "d")
    if unit == "bullheads":
        return format(-value, ".1f")  # stored as minus the expected bullheads
    return format(value, "+.1f")


def reason_line(locale: object, puzzle: Record, answer: str, correct: bool,
                labels: Labels) -> str:
    """Why: the winning line (unit win), else the values of the answer and of the best move
    (wrong) or of the move played in the game (right)."""
    unit = str(puzzle["unit"])
    other = puzzle["played"] if correct else puzzle["best"]
    if unit == "win" or unit not in REASONS:
        line = line_labels(puzzle, locale)
        if not line:
            return t(locale, "**{best}** wins.", best=labels[puzzle["best"]])
        return t(locale, "The winning line: {line}", line=" → ".join(line[:12]))
    return t(locale, REASONS[unit], first=labels[answer],
             first_value=_value(locale, puzzle, answer), second=labels[other],
             second_value=_value(locale, puzzle, other))


def rating_text(locale: object, before: tuple[float, float] | None,
                after: tuple[float, float]) -> str:
    old = ordinal(*before) if before is not None else 0.0
    new = ordinal(*after)
    return t(locale, "Puzzle rating: {old} → {new} ({change})", old=format(old, ".1f"),
             new=format(new, ".1f"), change=format(new - old, "+.1f"))


def streak_text(locale: object, streak: int, best: int) -> str:
    return t(locale, "Streak: {streak} (best {best})", streak=streak, best=best)


def answer_text(locale: object, row: PuzzleRow, answer: str, correct: bool, rated: bool,
                before: tuple[float, float] | None, after: tuple[float, float] | None,
                streak: int, best: int, labels: Labels) -> str:
    puzzle = row.data
    if correct:
        head = t(locale, "✅ **Correct!** {move} is a best move.", move=labels[answer])
    else:
        head = t(locale, "❌ **Not quite.** You chose {move}; better was **{best}**.",
                 move=labels[answer], best=labels[puzzle["best"]])
    lines = [t(locale, "🧩 **Puzzle · {game}**", game=game_title(locale, row.game)), head,
             reason_line(locale, puzzle, answer, correct, labels)]
    if rated and after is not None:
        lines.append(rating_text(locale, before, after))
        lines.append(streak_text(locale, streak, best))
    else:
        lines.append(t(locale, "You had answered this puzzle before: this answer is practice "
                               "and leaves your rating as it was."))
    return "\n".join(lines)


def stats_lines(locale: object, players: Sequence[PuzzlePlayer]) -> list[tuple[str, str]]:
    """(game, its line) per game the member has rated puzzles of."""
    return [
        (game_title(locale, p.game),
         t(locale, "Rating {rating} · solved {solved} of {attempts} · streak {streak} "
                   "(best {best})", rating=format(ordinal(p.mu, p.sigma), ".1f"),
           solved=p.solved, attempts=p.attempts, streak=p.streak, best=p.best_streak))
        for p in players
    ]


def minutes_seconds(seconds: float) -> str:
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def solvers_text(locale: object, solvers: DailySolvers) -> str:
    """'Solved by 4 · fastest: <@1> 0:42, <@2> 1:10, <@3> 3:05'."""
    if not solvers.count:
        return t(locale, "Nobody solved it.")
    head = tn(locale, "Solved by {count} member", "Solved by {count} members", solvers.count,
              count=solvers.count)
    fastest = ", ".join(f"<@{uid}> {minutes_seconds(s)}" for uid, s in solvers.fastest)
    return t(locale, "{solved} · fastest: {fastest}", solved=head, fastest=fastest)


def daily_text(locale: object, day: str, row: PuzzleRow,
               yesterday: DailySolvers | None) -> str:
    seat = int(row.data["seat"])
    lines = [
        t(locale, "🧩 **Daily puzzle · {day}** · {game}", day=day,
          game=game_title(locale, row.game)),
        t(locale, "{badge} to move: what is the best move? Press **Solve** to answer "
                  "privately; one answer each.", badge=badge(seat, row.game)),
    ]
    if yesterday is not None:
        lines.append(t(locale, "Yesterday's puzzle: {solvers}",
                       solvers=solvers_text(locale, yesterday)))
    return "\n".join(lines)


def daily_results_text(locale: object, solvers: DailySolvers) -> str:
    """The line added to a daily post once the next day's is made."""
    return t(locale, "**Results:** {solvers}", solvers=solvers_text(locale, solvers))
