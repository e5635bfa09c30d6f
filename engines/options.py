"""Game options: what each one means and which values it takes, and how a table's options are
checked and merged over a game's defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.explained import OptionError, OptionName


@dataclass(frozen=True)
class Option:
    """One game option: its kind, allowed values and what it means (for /play and /rules)."""

    name: str
    kind: str  # "bool", "int", "choice"
    default: Any
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False
    help: str = ""

    def check(self, value: Any) -> Any:
        if value is None and self.nullable:
            return None
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError("option {name!r} must be true or false",
                                  name=OptionName(self.name))
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError("option {name!r} must be a whole number",
                                  name=OptionName(self.name))
            assert self.low is not None and self.high is not None  # int options have both
            if not self.low <= value <= self.high:
                raise OptionError("option {name!r} must be from {low} to {high}",
                                  name=OptionName(self.name), low=self.low, high=self.high)
            return value
        if value not in self.choices:
            raise OptionError("option {name!r} must be one of {choices}",
                              name=OptionName(self.name), choices=", ".join(self.choices))
        return value


def check_options(
    spec: list[Option], defaults: dict[str, Any], players: int, given: dict[str, Any] | None
) -> dict[str, Any]:
    """Merge `given` over `defaults`, rejecting unknown names and bad values by name."""
    options = dict(defaults)
    known = {o.name: o for o in spec}
    for name, value in (given or {}).items():
        if name == "players":
            if value != players:
                raise OptionError("option 'players' is {value!r} but the table has {seats} seats",
                                  value=value, seats=players)
            continue
        if name not in known:
            raise OptionError("unknown option {name!r}", name=OptionName(name))
        options[name] = known[name].check(value)
    return options
