"""The `GameInfo` record: what the bot needs to know about a game without asking its rules
again (names, seats, sides, which decisions are simultaneous or private, how chance acts).

Every engine has one as `eng.info`; docs/rules/engine-contract.md describes the fields.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Decision:
    """One kind of decision a game asks its seats for, named by the position's `phase`.

    `simultaneous`: every seat in `to_act` decides at once (no order among them).
    `private`: the choice is made face down: ask each seat apart (a DM or an ephemeral
    reply), never with buttons in the shared channel; views hide it until it is revealed.
    """

    phase: str
    kinds: tuple[str, ...]  # the move kinds offered: parse_move(move)[0]
    simultaneous: bool = False
    private: bool = False


@dataclass(frozen=True)
class Chance:
    """How chance acts in a game (the host draws it with `sample_chance`)."""

    kind: str = "none"  # "none", or the kind of its move strings: "throw", "deal", "setup"
    phases: tuple[str, ...] = ()  # the phases in which chance acts
    listed: bool = False  # chance_odds lists the outcomes; else only sample_chance works
    secret: bool = False  # the move string holds hidden cards: never show it to players


@dataclass(frozen=True)
class GameInfo:
    """What the bot needs to know about a game without asking its rules again.

    `name` is the English display name, also the message id the bot translates it by;
    `sides` names (as `Word`s, translated too) what each seat plays where seats differ.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    decisions: tuple[Decision, ...]
    chance: Chance = Chance()
    sides: tuple[str, ...] = ()  # engines.explained.Word values: the bot translates them
    # Table sizes (fewest, most) for a tournament's multi-table rounds; None: two-player
    # formats only.
    event_tables: tuple[int, int] | None = None

    def decision(self, phase: str | None) -> Decision | None:
        """The decision asked for in `phase` (a view's "phase"), None where no seat decides."""
        for decision in self.decisions:
            if decision.phase == phase:
                return decision
        return None

    def is_private(self, phase: str | None) -> bool:
        """Whether the decision of `phase` is taken face down (never in the channel)."""
        decision = self.decision(phase)
        return decision is not None and decision.private
