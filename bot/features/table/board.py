"""Texts of the board messages: header, narration, seats with badges, who acts, game over."""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.common.badges import game_title, mention_of, seat_label, seat_names
from bot.games import presentation
from bot.i18n import t
from bot.narration import narrate
from bot.tables import Table
from bot.tables.pipeline import auto_levels
from engines.base import Event, View

MEDALS = ("🥇", "🥈", "🥉")
MAX_CONTENT = 2000


def header(table: Table, locale: object) -> str:
    return t(locale, "**{game}** · table {table}", game=game_title(locale, table.game),
             table=table.id)


def players_line(table: Table, locale: object) -> str:
    names = seat_names(table, locale)
    return t(locale, "Players: {players}",
             players=" · ".join(seat_label(i, n, table.game) for i, n in enumerate(names)))


def is_private_pick(table: Table, view: View | None = None) -> bool:
    """A face-down decision (engine info, e.g. 6 nimmt!'s picks): every seat to act decides
    privately (DM or ephemeral), never with channel components."""
    if table.status != "running":
        return False
    view = view if view is not None else table.view(None)
    return table.engine.info.is_private(view.get("phase"))


def picked_line(table: Table, view: View, locale: object) -> str:
    """Who has picked, never what: ✅ for a face-down card, ⏳ for a pick still awaited (the
    seats still to act)."""
    waiting = set(table.to_act())
    names = seat_names(table, locale)
    marks = [
        f"{'⏳' if i in waiting else '✅'} {seat_label(i, n, table.game)}"
        for i, n in enumerate(names)
    ]
    return t(locale, "Picked: {marks}", marks=" · ".join(marks))


def to_act_line(table: Table, view: View, locale: object) -> str:
    seats = table.to_act()
    if not seats:
        return ""
    who = ", ".join(mention_of(table, s, locale) for s in seats)
    if all(s in auto_levels(table) for s in seats):  # no member acts: nobody to instruct
        return t(locale, "➡️ {who} is thinking…", who=who)
    phase = view.get("phase")
    prompt = presentation(table.game).prompt(phase, locale, who)
    if prompt is not None:
        return prompt
    if is_private_pick(table, view):
        return t(locale, "➡️ {who}: choose privately: use the menu I sent you by DM, or press "
                 "**Pick privately**.", who=who)
    return t(locale, "➡️ {who}: your turn. Use the buttons or menus below, or {/move}.",
             who=who)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def board_text(
    table: Table, events: Sequence[Event], locale: object, notes: Sequence[str] = ()
) -> str:
    """The message posted with the picture after a turn."""
    view = table.view(None)
    story = narrate(table.game, events, seat_names(table, locale), locale)
    tail = [players_line(table, locale)]
    if is_private_pick(table, view):
        tail.append(picked_line(table, view, locale))
    tail.extend(notes)
    act = to_act_line(table, view, locale)
    if act:
        tail.append(act)
    head = header(table, locale)
    room = MAX_CONTENT - len(head) - sum(len(x) + 1 for x in tail) - 2
    parts = [head]
    if story:
        parts.append(clip(story, max(room, 0)))
    return clip("\n".join(parts + tail), MAX_CONTENT)


def final_lines(table: Table, locale: object) -> list[str]:
    outcome = table.outcome or {}
    ranks = outcome.get("ranks") or []
    scores = outcome.get("scores") or [None] * len(ranks)
    names = seat_names(table, locale)
    lines = []
    for seat in sorted(range(len(ranks)), key=lambda s: (ranks[s], s)):
        rank = ranks[seat]
        medal = MEDALS[rank - 1] if rank <= len(MEDALS) else f"{rank}."
        label = seat_label(seat, names[seat], table.game)
        score = scores[seat] if seat < len(scores) else None
        if score is None:
            lines.append(f"{medal} {label}")
        else:
            shown = int(score) if float(score).is_integer() else score
            lines.append(f"{medal} {label} — {shown}")
    for seat in outcome.get("resigned") or []:
        lines.append(t(locale, "{player} resigned.",
                       player=seat_label(seat, names[seat], table.game)))
    return lines


def game_over_text(
    table: Table, events: Sequence[Event], locale: object, notes: Sequence[str] = ()
) -> str:
    story = narrate(table.game, events, seat_names(table, locale), locale)
    parts = [header(table, locale)]
    if story:
        parts.append(clip(story, 1000))
    parts.append(t(locale, "**Game over.** Final standings:"))
    parts.extend(final_lines(table, locale))
    parts.extend(notes)
    return clip("\n".join(parts), MAX_CONTENT)
