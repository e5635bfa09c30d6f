"""The pages of /rules. Each game's guide (complete enough that someone who never played can
play, written from docs/rules/<game>.md) is in its presentation, bot/games/<game>.py
(`guide`): "goal", "setup", "turn", "special" and "notation"; "options" is built from the
engine's option spec (bot/features/guide/rules.py). Texts may name commands as `{/move}`.
"""

from __future__ import annotations

from bot.i18n import N_

PAGES: tuple[str, ...] = ("goal", "setup", "turn", "special", "options", "notation")
PAGE_TITLES: dict[str, str] = {
    "goal": N_("Goal"),
    "setup": N_("Setup"),
    "turn": N_("A turn"),
    "special": N_("Special rules"),
    "options": N_("Options"),
    "notation": N_("Notation"),
}
