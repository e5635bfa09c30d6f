"""Engine refusals in the player's language.

The engines refuse a move or an option with `engines.IllegalMove` / `engines.OptionError`,
built from an English template and params (`IllegalMove("you have no stone on square
{square}", square=12)`); `python -m tools.messages` lists every template. The table service
carries them in the TableError params `reason_template` / `reason_params` (next to `reason`,
the English text), and `refusal_text` says them in the player's language.

Params that are words (`engines.explained.Word`: colours, ends of a row) are translated too, option
names (`engines.explained.OptionName`) are shown as the client shows them; numbers, squares, spots,
point names and move texts are shown as they are.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_, t
from bot.i18n.grammar import option_label
from engines.explained import OptionName, Word

# Every word the engines pass as a Word param, marked for the catalogues.
WORDS = (
    N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("white"), N_("black"),  # varanasi
    N_("left"), N_("right"),  # the ends of a 6 nimmt! row
)


def refusal_params(locale: object, params: Mapping[str, object]) -> dict[str, object]:
    """`params` with the Word values translated and option names labelled for `locale`."""
    out: dict[str, object] = {}
    for key, value in params.items():
        if isinstance(value, OptionName):
            value = option_label(locale, str(value))
        elif isinstance(value, Word):
            value = t(locale, str(value))
        out[key] = value
    return out


def refusal_text(locale: object, template: str, params: Mapping[str, object] | None = None) -> str:
    """The engine's refusal `template` translated for `locale` and formatted with `params`."""
    if not params:
        return t(locale, template)
    return t(locale, template, **refusal_params(locale, params))


def error_reason(locale: object, error: BaseException) -> str:
    """An engine error (IllegalMove, OptionError or any ValueError) said for `locale`."""
    template = getattr(error, "template", None)
    if not isinstance(template, str):
        return str(error)
    return refusal_text(locale, template, getattr(error, "params", None))
