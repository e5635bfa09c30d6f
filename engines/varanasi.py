"""Varanasi (docs/rules/varanasi.md): an impartial Nim relative played on towers of discs.

The state is compact and immutable so that random playouts stay fast: towers are tuples of
disc ints (bottom first), a disc being `size << 3 | colour` (size 1..4, colour 0..5 in the
order r b g y w k). Taking a colour pops tops; moving splices tuples. `apply` skips events;
`apply_events` runs the same code and records what happened.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engines.base import CHANCE, Engine, KeyedState, ranks_from_scores, require_field
from engines.explained import IllegalMove, OptionError, Word
from engines.info import Chance, Decision, GameInfo
from engines.options import Option, check_options

COLOUR_LETTERS = "rbgywk"
COLOUR_NAMES = tuple(map(Word, ("red", "blue", "green", "yellow", "white", "black")))
SIZES = (1, 2, 3, 4)
MAX_HEIGHT = 4  # one disc per size in a tower
MAX_SPOTS = 24  # 6 colours x 4 sizes, each spot starts with at least one disc

SETUP, PLAY, OVER = 0, 1, 2
PHASE_NAMES = ("setup", "play", "over")
_PHASE_OF = {name: i for i, name in enumerate(PHASE_NAMES)}

DEFAULT_COLOURS = {2: 3, 3: 4, 4: 5}
OPTION_NAMES = (
    "players", "colours", "height_rule", "scoring", "weighted", "misere", "teams",
    "team_scoring", "sets", "target",
)


def disc(colour: int, size: int) -> int:
    """The disc int of `colour` (0..5) and `size` (1..4)."""
    return size << 3 | colour


DISC_STR: dict[int, str] = {
    disc(c, s): COLOUR_LETTERS[c] + str(s) for c in range(len(COLOUR_LETTERS)) for s in SIZES
}
STR_DISC: dict[str, int] = {text: d for d, text in DISC_STR.items()}


def tower_str(tower: tuple[int, ...]) -> str:
    """A tower as written in positions and setup moves: bottom disc first, "" when empty."""
    return "".join([DISC_STR[d] for d in tower])


_PARSED: dict[str, tuple[int, ...]] = {}  # valid tower strings only, so at most 2,401


def parse_tower(text: str) -> tuple[int, ...]:
    """A tower string ("b4r3", "" for empty) as disc ints; ValueError if it is not a tower."""
    if isinstance(text, str):
        cached = _PARSED.get(text)
        if cached is not None:
            return cached
    if not isinstance(text, str) or len(text) % 2:
        raise ValueError(f"{text!r} is not a tower (discs are written colour + size, e.g. r4)")
    discs: list[int] = []
    for i in range(0, len(text), 2):
        d = STR_DISC.get(text[i : i + 2])
        if d is None:
            raise ValueError(f"{text[i:i + 2]!r} in {text!r} is not a disc")
        if discs and d >> 3 >= discs[-1] >> 3:
            raise ValueError(f"in {text!r} a disc sits on a disc that is not larger")
        discs.append(d)
    tower = tuple(discs)
    _PARSED[text] = tower
    return tower


# Move strings are parsed through a table: the fast path of `apply` is one dict lookup, and
# only canonical spellings are in it. Odd spellings fall back to `_slow_parse`.
_TAKE, _MOVE = 0, 1
_PARSE: dict[str, tuple[int, ...]] = {}
_TAKE_STR = tuple(f"take {letter}" for letter in COLOUR_LETTERS)
_MOVE_STR: list[list[list[str]]] = [
    [[f"move {f + 1} {k} {t + 1}" for t in range(MAX_SPOTS)] for k in range(MAX_HEIGHT + 1)]
    for f in range(MAX_SPOTS)
]
for _c, _text in enumerate(_TAKE_STR):
    _PARSE[_text] = (_TAKE, _c)
for _f in range(MAX_SPOTS):
    for _k in range(1, MAX_HEIGHT + 1):
        for _t in range(MAX_SPOTS):
            _PARSE[_MOVE_STR[_f][_k][_t]] = (_MOVE, _f, _k, _t)


def _slow_parse(move: Any) -> tuple[int, ...]:
    parts = move.split(" ") if isinstance(move, str) else []
    if len(parts) == 4 and parts[0] == "move" and all(
        p.isdigit() and p.isascii() and str(int(p)) == p for p in parts[1:]
    ):
        f, k, t = (int(p) for p in parts[1:])
        if f < 1 or t < 1:
            raise IllegalMove("spots are numbered from 1")
        if k < 1:
            raise IllegalMove("a move takes at least one disc")
        return (_MOVE, f - 1, k, t - 1)
    if len(parts) == 2 and parts[0] == "take":
        raise IllegalMove("{colour!r} is not a colour; colours are r b g y w k",
                          colour=parts[1])
    raise IllegalMove("{move!r} is not a move: write 'take C' or 'move F K T'", move=move)


class VaranasiOptions:
    """The option dict plus the flags the rules read on every move, computed once."""

    __slots__ = (
        "data", "players", "colours", "before", "last_take", "weighted", "misere", "teams",
        "team_sum", "sets", "target", "discs",
    )

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = {name: data[name] for name in OPTION_NAMES}
        self.players: int = data["players"]
        self.colours: int = data["colours"]
        self.before: bool = data["height_rule"] == "before"
        self.last_take: bool = data["scoring"] == "last_take"
        self.weighted: bool = data["weighted"]
        self.misere: bool = data["misere"]
        self.teams: bool = data["teams"]
        self.team_sum: bool = data["team_scoring"] == "sum"
        self.sets: int = data["sets"]
        self.target: int | None = data["target"]
        self.discs = frozenset(disc(c, s) for c in range(self.colours) for s in SIZES)


@dataclass(slots=True, eq=False, repr=False)
class VaranasiState(KeyedState):
    """One position. Never changed after creation; `apply` builds a new one."""

    opts: VaranasiOptions
    set_no: int
    phase: int
    towers: tuple[tuple[int, ...], ...]
    turn: int
    taken: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]

    def _key(self) -> tuple:
        return (
            tuple(self.opts.data.items()), self.set_no, self.phase, self.towers, self.turn,
            self.taken, self.scores,
        )

    def __repr__(self) -> str:
        towers = "|".join(tower_str(t) for t in self.towers)
        return (
            f"VaranasiState(set={self.set_no}, phase={PHASE_NAMES[self.phase]}, "
            f"towers={towers!r}, turn={self.turn}, scores={list(self.scores)})"
        )


_TAKES_FOR: list[list[str]] = [
    sorted(_TAKE_STR[c] for c in range(len(COLOUR_LETTERS)) if mask >> c & 1)
    for mask in range(1 << len(COLOUR_LETTERS))
]
# Per tower (at most 2,400 distinct): height, top size, top colour bit, and below[x] = how
# many top discs are smaller than size x, i.e. the most discs that may go onto a tower whose
# top has size x (sizes grow downwards, so those discs are a prefix from the top).
_INFO: dict[tuple[int, ...], tuple[int, int, int, tuple[int, ...]]] = {}


def _info(tower: tuple[int, ...]) -> tuple[int, int, int, tuple[int, ...]]:
    sizes = [d >> 3 for d in tower]
    below = tuple(sum(1 for z in sizes if z < x) for x in range(5))
    result = (len(tower), tower[-1] >> 3, 1 << (tower[-1] & 7), below)
    _INFO[tower] = result
    return result


def k_range(s: int, d: int, kmax: int, before: bool) -> range:
    """The counts K of top discs that may move from a tower of height `s` onto one of height
    `d` whose top is larger than the `kmax` top discs of the source (the height rule)."""
    if before:
        return range(1, kmax + 1) if d > s else range(0)
    return range(max(1, s - d + 1), kmax + 1)


def legal_move_list(towers: tuple[tuple[int, ...], ...], before: bool) -> list[str]:
    """Every legal take and move on `towers`, sorted (all "move …" sort before "take …")."""
    info = _INFO
    spots = [(i, info.get(t) or _info(t)) for i, t in enumerate(towers) if t]
    moves: list[str] = []
    tops = 0
    for i, (s, _, bit, below) in spots:
        tops |= bit
        strs = _MOVE_STR[i]
        for j, (d, top, _, _) in spots:
            kmax = below[top]
            if not kmax or j == i:
                continue
            for k in k_range(s, d, kmax, before):
                moves.append(strs[k][j])
    moves.sort()
    moves += _TAKES_FOR[tops]
    return moves


def _value(discs: tuple[int, ...], weighted: bool) -> int:
    """Points of some taken discs: one each, or their sizes when weighted."""
    if weighted:
        return sum(d >> 3 for d in discs)
    return len(discs)


def _choice(name: str, choices: tuple[str, str], text: str) -> Option:
    """An option of two named values, the first the default."""
    return Option(name, "choice", choices[0], choices=choices, help=text)


def _flag(name: str, text: str) -> Option:
    """An on/off option, off by default."""
    return Option(name, "bool", False, help=text)


class VaranasiEngine(Engine):
    info = GameInfo(
        id="varanasi", name="Varanasi", min_players=2, max_players=4,
        decisions=(Decision(PHASE_NAMES[PLAY], ("move", "take")),),
        chance=Chance("setup", (PHASE_NAMES[SETUP],)),
        event_tables=(2, 4),
    )
    option_spec = [
        Option(
            "colours", "int", 3, low=3, high=6,
            help="How many colours of discs are in play (4 discs of each colour). "
            "Default 3 for 2 players, 4 for 3 players, 5 for 4 players.",
        ),
        _choice("height_rule", ("after", "before"),
                "'after': after a move the destination must be higher than the source tower "
                "was; 'before': the destination must already be higher than the source."),
        _choice("scoring", ("set_total", "last_take"),
                "'set_total': the set winner scores every disc they took in the set; "
                "'last_take': only the discs of the final take."),
        _flag("weighted", "A disc scores its size (1 to 4) instead of 1 point."),
        _flag("misere", "Misère: taking the last disc loses the set; the next seat wins it. "
              "Only for 2 players or teams."),
        _flag("teams", "Doubles for 4 players: the 1st and 3rd players in turn order against "
              "the 2nd and 4th."),
        _choice("team_scoring", ("winner", "sum"),
                "With teams: 'winner': only the set winner's discs score; 'sum': both "
                "partners of the winning team score the discs they took."),
        Option("sets", "int", 3, low=1, high=99,
               help="How many sets the match lasts (ignored when a target is set)."),
        Option("target", "int", None, low=1, high=999, nullable=True,
               help="Play sets until a player (or team) has at least this many points."),
    ]

    # -- options and start -------------------------------------------------------------------

    def default_options(self, players: int) -> dict[str, Any]:
        self._check_players(players)
        options: dict[str, Any] = {"players": players}
        for option in self.option_spec:
            options[option.name] = option.default
        options["colours"] = DEFAULT_COLOURS[players]
        return options

    def _options(self, players: int, given: dict[str, Any] | None) -> VaranasiOptions:
        self._check_players(players)
        if given is not None and not isinstance(given, dict):
            raise OptionError("options must be a dict of option names to values")
        data = check_options(self.option_spec, self.default_options(players), players, given)
        if data["teams"] and players != 4:
            raise OptionError("option 'teams' needs exactly 4 players")
        if data["misere"] and not (players == 2 or data["teams"]):
            raise OptionError("option 'misere' is only for 2 players or for teams")
        return VaranasiOptions(data)

    def new(self, players: int, options: dict[str, Any] | None = None) -> VaranasiState:
        opts = self._options(players, options)
        return VaranasiState(opts, 1, SETUP, (), 0, ((),) * players, (0,) * players)

    # -- who acts and what they may do --------------------------------------------------------

    def to_act(self, state: VaranasiState) -> list[int]:
        phase = state.phase
        if phase == PLAY:
            return [state.turn]
        if phase == SETUP:
            return [CHANCE]
        return []

    def legal_moves(self, state: VaranasiState, actor: int) -> list[str]:
        if state.phase == PLAY:
            if actor != state.turn:
                return []
            return legal_move_list(state.towers, state.opts.before)
        if state.phase == SETUP and actor == CHANCE:
            raise NotImplementedError("a setup has too many outcomes to list; use sample_chance")
        return []

    def chance_odds(self, state: VaranasiState) -> dict[str, float]:
        raise NotImplementedError("a setup has too many outcomes to list; use sample_chance")

    def sample_chance(self, state: VaranasiState, rng: random.Random) -> str:
        """A random setup. The seed only says to place the discs on the board as towers, so:
        discs go largest first (same size in random order), each onto a new spot or onto a
        uniformly chosen tower whose top is larger, every choice equally likely; then the
        towers are shuffled into spots 1..n."""
        if state.phase != SETUP:
            raise ValueError("chance does not act now: the towers are already set up")
        towers: list[list[int]] = []
        for size in (4, 3, 2, 1):
            open_towers = [t for t in towers if t[-1] >> 3 > size]
            colours = list(range(state.opts.colours))
            rng.shuffle(colours)
            for c in colours:
                pick = rng.randrange(len(open_towers) + 1)
                if pick == len(open_towers):
                    towers.append([disc(c, size)])
                else:
                    open_towers.pop(pick).append(disc(c, size))
        rng.shuffle(towers)
        return "setup " + "|".join(tower_str(tuple(t)) for t in towers)

    # -- applying moves -------------------------------------------------------------------------

    def _resolve(
        self, state: VaranasiState, actor: int, move: str, events: list[dict] | None
    ) -> VaranasiState:
        phase = state.phase
        if phase == SETUP:
            if actor != CHANCE:
                raise IllegalMove("wait: the towers of the next set are not set up yet")
            return self._setup(state, move, events)
        if phase == OVER:
            raise IllegalMove("the match is over")
        turn = state.turn
        if actor != turn:
            if actor == CHANCE:
                raise IllegalMove("chance does not act now: the set is being played")
            raise IllegalMove("it is not your turn")
        try:
            parsed = _PARSE[move]
        except (KeyError, TypeError):  # odd spellings, or not a string at all
            parsed = _slow_parse(move)
        towers = state.towers
        opts = state.opts
        if parsed[0] == _TAKE:
            c = parsed[1]
            new_towers = list(towers)
            got = []
            spots = []
            for i, tower in enumerate(towers):
                if tower and tower[-1] & 7 == c:
                    new_towers[i] = tower[:-1]
                    got.append(tower[-1])
                    spots.append(i)
            if not got:
                raise IllegalMove("no top disc is {colour}", colour=COLOUR_NAMES[c])
            if events is not None:
                events.append(
                    {
                        "type": "take",
                        "seat": turn,
                        "colour": COLOUR_LETTERS[c],
                        "discs": [[i + 1, DISC_STR[d]] for i, d in zip(spots, got, strict=True)],
                    }
                )
            took = tuple(got)
            taken = list(state.taken)
            taken[turn] = taken[turn] + took
            new_towers_t = tuple(new_towers)
            if any(new_towers_t):
                return VaranasiState(
                    opts, state.set_no, PLAY, new_towers_t, (turn + 1) % opts.players,
                    tuple(taken), state.scores,
                )
            return self._end_set(state, new_towers_t, tuple(taken), took, events)
        _, f, k, t = parsed
        n = len(towers)
        if f >= n:
            raise IllegalMove("there is no spot {spot}", spot=f + 1)
        if t >= n:
            raise IllegalMove("there is no spot {spot}", spot=t + 1)
        src = towers[f]
        if not src:
            raise IllegalMove("spot {spot} is empty", spot=f + 1)
        if f == t:
            raise IllegalMove("discs must move onto another spot")
        s = len(src)
        if k > s:
            if s == 1:
                raise IllegalMove("spot {spot} has only 1 disc", spot=f + 1)
            raise IllegalMove("spot {spot} has only {count} discs", spot=f + 1, count=s)
        dst = towers[t]
        if not dst:
            raise IllegalMove("spot {spot} is empty; discs never move onto an empty spot",
                              spot=t + 1)
        moved = src[s - k :]
        if moved[0] >> 3 >= dst[-1] >> 3:
            raise IllegalMove("a disc can only go on a larger disc")
        d = len(dst)
        if opts.before:
            if d <= s:
                raise IllegalMove("spot {to} must already be higher than spot {spot}",
                                  to=t + 1, spot=f + 1)
        elif d + k <= s:
            raise IllegalMove("the tower must end higher than spot {spot} was", spot=f + 1)
        new_towers = list(towers)
        new_towers[f] = src[: s - k]
        new_towers[t] = dst + moved
        if events is not None:
            events.append(
                {
                    "type": "move", "seat": turn, "from": f + 1, "count": k, "to": t + 1,
                    "discs": [DISC_STR[x] for x in moved],
                }
            )
        return VaranasiState(
            opts, state.set_no, PLAY, tuple(new_towers), (turn + 1) % opts.players,
            state.taken, state.scores,
        )

    def _setup(
        self, state: VaranasiState, move: str, events: list[dict] | None
    ) -> VaranasiState:
        if not isinstance(move, str) or not move.startswith("setup "):
            raise IllegalMove("chance must set up the towers: 'setup T1|T2|…'")
        opts = state.opts
        towers = []
        for n, text in enumerate(move[6:].split("|"), 1):
            if not text:
                raise IllegalMove("spot {spot} is empty; every spot starts with a tower",
                                  spot=n)
            try:
                towers.append(parse_tower(text))
            except ValueError as exc:
                raise IllegalMove("spot {spot}: {problem}", spot=n, problem=str(exc)) from None
        placed = [d for tower in towers for d in tower]
        if len(placed) != len(opts.discs) or set(placed) != opts.discs:
            seen: set[int] = set()
            for d in placed:
                if d not in opts.discs:
                    raise IllegalMove("disc {disc} is not in use", disc=DISC_STR[d])
                if d in seen:
                    raise IllegalMove("disc {disc} is placed twice", disc=DISC_STR[d])
                seen.add(d)
            names = " ".join(sorted(DISC_STR[d] for d in opts.discs - seen))
            raise IllegalMove("every disc in use must be placed; missing: {discs}",
                              discs=names)
        if events is not None:
            events.append(
                {"type": "setup", "set": state.set_no, "towers": [tower_str(t) for t in towers]}
            )
        n = opts.players
        return VaranasiState(
            opts, state.set_no, PLAY, tuple(towers), (state.set_no - 1) % n, ((),) * n,
            state.scores,
        )

    def _end_set(
        self,
        state: VaranasiState,
        towers: tuple[tuple[int, ...], ...],
        taken: tuple[tuple[int, ...], ...],
        last_take: tuple[int, ...],
        events: list[dict] | None,
    ) -> VaranasiState:
        opts = state.opts
        n = opts.players
        last = state.turn
        # Misère: the next seat wins; with teams (seats alternate) that is the other team.
        winner = (last + 1) % n if opts.misere else last
        points = [0] * n
        if opts.last_take:
            points[winner] = _value(last_take, opts.weighted)
        elif opts.teams and opts.team_sum:
            for seat in range(winner % 2, n, 2):
                points[seat] = _value(taken[seat], opts.weighted)
        else:
            points[winner] = _value(taken[winner], opts.weighted)
        scores = tuple(a + b for a, b in zip(state.scores, points, strict=True))
        if opts.target is None:
            over = state.set_no >= opts.sets
        else:
            over = max(_totals(opts, scores)) >= opts.target
        if events is not None:
            events.append(
                {
                    "type": "set_end", "set": state.set_no, "winner": winner,
                    "last_taker": last, "points": points, "scores": list(scores),
                }
            )
        if over:
            final = VaranasiState(opts, state.set_no, OVER, towers, last, taken, scores)
            if events is not None:
                result = self.outcome(final)
                assert result is not None  # the match is over
                events.append({"type": "game_over", **result})
            return final
        set_no = state.set_no + 1
        return VaranasiState(opts, set_no, SETUP, (), (set_no - 1) % n, ((),) * n, scores)

    # -- results and positions ----------------------------------------------------------------

    def standings(self, state: VaranasiState) -> list[float]:
        """Each seat's total over the finished sets."""
        return list(state.scores)

    def teams(self, options: dict[str, Any]) -> list[list[int]] | None:
        """Doubles: seats 0 and 2 against 1 and 3."""
        return [[0, 2], [1, 3]] if options.get("teams") else None

    def outcome(self, state: VaranasiState) -> dict | None:
        if state.phase != OVER:
            return None
        scores = list(state.scores)
        if state.opts.teams:
            # Two teams are ranked, not four seats: 1 and 2 (both 1 on equal totals).
            team_ranks = ranks_from_scores(_totals(state.opts, state.scores))
            ranks = [team_ranks[seat % 2] for seat in range(len(scores))]
        else:
            ranks = ranks_from_scores(scores)
        return {"scores": scores, "ranks": ranks}

    def dump(self, state: VaranasiState) -> dict:
        return {
            "game": self.id,
            "options": dict(state.opts.data),
            "set": state.set_no,
            "phase": PHASE_NAMES[state.phase],
            "towers": [tower_str(t) for t in state.towers],
            "turn": state.turn,
            "taken": [[DISC_STR[d] for d in seat] for seat in state.taken],
            "scores": list(state.scores),
        }

    def view(self, state: VaranasiState, seat: int | None) -> dict:
        view = self.dump(state)
        view["to_act"] = self.to_act(state)
        return view

    def load(self, position: dict) -> VaranasiState:
        if require_field(position, "game") != self.id:
            raise ValueError(f"position field 'game' must be {self.id!r}")
        raw = require_field(position, "options")
        if not isinstance(raw, dict):
            raise _bad("options", "must be an object")
        for name in OPTION_NAMES:
            if name not in raw:
                raise _bad("options", f"option {name!r} is missing")
        players = raw["players"]
        try:
            opts = self._options(players, raw)
        except ValueError as exc:
            raise _bad("options", str(exc)) from None
        n = opts.players

        set_no = require_field(position, "set")
        if not _is_int(set_no) or set_no < 1:
            raise _bad("set", "must be a whole number from 1")
        if opts.target is None and set_no > opts.sets:
            raise _bad("set", f"the match has only {opts.sets} sets")
        phase_name = require_field(position, "phase")
        if not isinstance(phase_name, str) or phase_name not in _PHASE_OF:
            raise _bad("phase", "must be 'setup', 'play' or 'over'")
        phase = _PHASE_OF[phase_name]

        raw_scores = require_field(position, "scores")
        if not isinstance(raw_scores, list) or len(raw_scores) != n:
            raise _bad("scores", f"must be a list of {n} numbers")
        if not all(_is_int(x) and x >= 0 for x in raw_scores):
            raise _bad("scores", "scores are whole numbers from 0")
        scores = tuple(raw_scores)
        best = max(_totals(opts, scores))
        if phase == OVER:
            if opts.target is None and set_no != opts.sets:
                raise _bad("set", f"a finished match has played all {opts.sets} sets")
            if opts.target is not None and best < opts.target:
                raise _bad("scores", "the match is over but nobody reached the target")
        elif opts.target is not None and best >= opts.target:
            raise _bad("scores", "somebody reached the target, so the match would be over")

        raw_towers = require_field(position, "towers")
        if not isinstance(raw_towers, list):
            raise _bad("towers", "must be a list of tower strings")
        towers = []
        for i, text in enumerate(raw_towers, 1):
            try:
                towers.append(parse_tower(text))
            except ValueError as exc:
                raise _bad("towers", f"spot {i}: {exc}") from None
        if len(towers) > MAX_SPOTS:
            raise _bad("towers", f"there are at most {MAX_SPOTS} spots")
        if phase == SETUP and towers:
            raise _bad("towers", "must be [] before the setup")
        if phase == PLAY and not any(towers):
            raise _bad("towers", "a set in play has at least one disc on the board")
        if phase == OVER and (not towers or any(towers)):
            raise _bad("towers", "a finished match has only empty spots")

        raw_taken = require_field(position, "taken")
        if not isinstance(raw_taken, list) or len(raw_taken) != n:
            raise _bad("taken", f"must be a list of {n} lists of discs")
        taken = []
        for seat_taken in raw_taken:
            if not isinstance(seat_taken, list) or not all(
                isinstance(x, str) and x in STR_DISC for x in seat_taken
            ):
                raise _bad("taken", "each seat's list holds discs such as 'r4'")
            taken.append(tuple(STR_DISC[x] for x in seat_taken))
        if phase == SETUP and any(taken):
            raise _bad("taken", "nothing is taken before the setup")

        turn = require_field(position, "turn")
        if not _is_int(turn) or not 0 <= turn < n:
            raise _bad("turn", f"must be a seat from 0 to {n - 1}")
        if phase == SETUP and turn != (set_no - 1) % n:
            raise _bad("turn", f"seat {(set_no - 1) % n} begins set {set_no}")
        if phase == OVER and not taken[turn]:
            raise _bad("turn", "at the end it is the seat that took the last disc")

        if phase != SETUP:
            counted: dict[int, str] = {}
            for field, groups in (("towers", towers), ("taken", taken)):
                for group in groups:
                    for d in group:
                        if d not in opts.discs:
                            raise _bad(field, f"disc {DISC_STR[d]} is not in use")
                        if d in counted:
                            raise _bad(field, f"disc {DISC_STR[d]} appears twice")
                        counted[d] = field
            missing = opts.discs - counted.keys()
            if missing:
                names = " ".join(sorted(DISC_STR[d] for d in missing))
                raise _bad("towers", f"discs missing from towers and taken: {names}")
        return VaranasiState(opts, set_no, phase, tuple(towers), turn, tuple(taken), scores)


def _totals(opts: VaranasiOptions, scores: tuple[int, ...]) -> list[int]:
    """What `target` and ranks compare: seat totals, or the two team totals."""
    if opts.teams:
        return [scores[0] + scores[2], scores[1] + scores[3]]
    return list(scores)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(field: str, message: str) -> ValueError:
    return ValueError(f"position field {field!r}: {message}")


ENGINE = VaranasiEngine()
