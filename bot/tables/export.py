"""Table exports: options, seats and the whole move log as JSON, in the shared notation.

    export = export_table(table)            # a JSON-able dict
    data = to_json_bytes(export)            # the file /export sends
    state, steps = load_export(json.loads(data))   # replays it; ValueError if it does not

The file holds everything needed to rebuild the game exactly: the engine options, the seat
count and the log of `(actor, move)` (chance moves included, actor -1), in the move strings of
docs/rules/. `position` is the final `eng.dump(state)`: `load_export` replays the log and
refuses a file whose log does not replay or does not reach that position, so a bug report (or
a test) reproduces the game exactly.

An accepted take-back (takeback.py) is a log entry of its own, `[-2, "takeback <i>"]`: actor
-2 is neither a seat nor chance, and `<i>` is the index of the entry it takes back, always the
seat's move just before it; replaying it returns to the position before that move (version 2;
files of version 1 have no take-backs and still load).

`seats` lists each seat as `{"seat", "name", "user_id"}`: `name` as the reader of the file
sees it (the caller passes the shown names: a computer is named by its level in the reader's
language), `user_id` the stored id (a member's Discord id; a computer's negative id, see
computers.py) and, for a computer, `computer` its level (easy, normal, hard) in plain words.
Replaying needs none of them: `load_export` only counts the seats.

A running table's log holds its chance moves (6 nimmt! deals show every hand), so exports are
for tables that no longer run: `exportable(table)` says whether one may be exported now.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import TypeGuard

from bot.tables import takeback
from bot.tables.computers import computer_level
from bot.tables.models import Seat, Step, Table
from engines import CHANCE, game_ids, get_engine
from engines.base import Move, Record

FORMAT = "tabletop-bot/table"
VERSION = 2  # 2: the log may hold take-backs


def exportable(table: Table) -> bool:
    """Finished tables, and tables cancelled after they started (nothing hidden remains)."""
    return table.state is not None and table.status in ("finished", "cancelled")


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _seat(index: int, seat: Seat, name: str) -> Record:
    entry: Record = {"seat": index, "name": name, "user_id": seat.user_id}
    level = computer_level(seat.user_id)
    if level is not None:
        entry["computer"] = level
    return entry


def export_table(table: Table, names: Sequence[str] | None = None) -> Record:
    """The export of a started table (ValueError for a lobby), the seats named by `names` (as
    shown to the reader; the stored names without). Does not check `exportable`: the caller
    decides who may see a running table's log."""
    if table.state is None:
        raise ValueError("the table has not started: there is no game to export")
    eng = table.engine
    shown = list(names) if names is not None else [seat.name for seat in table.seats]
    return {
        "format": FORMAT,
        "version": VERSION,
        "table_id": table.id,
        "game": table.game,
        "options": dict(table.options),
        "players": len(table.seats),
        "seats": [_seat(i, seat, name)
                  for i, (seat, name) in enumerate(zip(table.seats, shown, strict=True))],
        "status": table.status,
        "created_at": _iso(table.created_at),
        "started_at": _iso(table.started_at),
        "finished_at": _iso(table.finished_at),
        "outcome": table.outcome,
        "position": eng.dump(table.state),
        "log": [[actor, move] for actor, move in table.log],
    }


def to_json_bytes(export: Record) -> bytes:
    """UTF-8 JSON, one key per line and one log entry per line (readable in a bug report)."""
    lines = []
    for key, value in export.items():
        if key == "log" and isinstance(value, list) and value:
            entries = ",\n".join("    " + json.dumps(entry, ensure_ascii=False) for entry in value)
            lines.append(f'  "log": [\n{entries}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode("utf-8")


def from_json_bytes(data: bytes | str) -> tuple[object, list[Step]]:
    """`load_export` of a file's bytes (ValueError for bad JSON too): the engine state and
    the steps."""
    try:
        parsed = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"not a JSON file: {err}") from err
    return load_export(parsed)


def _field(data: Record, name: str) -> object:
    if name not in data:
        raise ValueError(f"export is missing field {name!r}")
    return data[name]


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _taken_back(index: int, move: str, before: object) -> object:
    """The position a take-back entry at `log[index]` returns to; ValueError if it does not
    take back the seat's move just before it."""
    try:
        undone = takeback.undone_index(move)
    except ValueError as err:
        raise ValueError(f"log[{index}]: {err}") from err
    if undone != index - 1 or before is None:
        raise ValueError(f"log[{index}]: a take-back must follow the seat's move it takes "
                         f"back (log[{index - 1}]), not {move!r}")
    return before


def load_export(data: Record) -> tuple[object, list[Step]]:
    """Check an export and replay its log through the engine: the final engine state and one
    `Step(actor, move, events)` per log entry. ValueError, naming the field or the log entry,
    for anything that does not replay exactly (including a final `position` it misses)."""
    if not isinstance(data, dict):
        raise ValueError("an export is a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise ValueError(f"format: expected {FORMAT!r}, not {data.get('format')!r}")
    version = data.get("version", VERSION)
    if not _is_int(version) or not 1 <= version <= VERSION:
        raise ValueError(f"version: this bot reads versions 1 to {VERSION}, not {version!r}")
    game = _field(data, "game")
    if not isinstance(game, str) or game not in game_ids():
        raise ValueError(f"game: unknown game {game!r}")
    eng = get_engine(game)
    players = _field(data, "players")
    if not _is_int(players):
        raise ValueError("players: must be a whole number")
    seats = data.get("seats")
    if seats is not None and (not isinstance(seats, list) or len(seats) != players):
        raise ValueError(f"seats: expected a list of {players} seats")
    options = _field(data, "options")
    if not isinstance(options, dict):
        raise ValueError("options: must be a JSON object")
    log = _field(data, "log")
    if not isinstance(log, list):
        raise ValueError("log: must be a list of [actor, move]")
    try:
        state = eng.new(players, options)
    except ValueError as err:
        raise ValueError(f"options: {err}") from err
    steps: list[Step] = []
    before: object = None  # the position before the last entry (a take-back returns to it)
    for index, entry in enumerate(log):
        if (not isinstance(entry, list | tuple) or len(entry) != 2 or not _is_int(entry[0])
                or not isinstance(entry[1], str)):
            raise ValueError(f"log[{index}]: must be [actor, move], not {entry!r}")
        actor, move = entry
        if actor == takeback.TAKEBACK:
            state = _taken_back(index, move, before)
            before = None
            steps.append(Step(actor, Move.of_words(move), []))
            continue
        if not (actor == CHANCE or 0 <= actor < players):
            raise ValueError(f"log[{index}]: there is no actor {actor}")
        try:
            before = state if actor != CHANCE else None
            state, events = eng.apply_events(state, actor, move)
        except ValueError as err:
            raise ValueError(f"log[{index}] ({actor}, {move!r}) does not replay: {err}") from err
        steps.append(Step(actor, eng.read_move(move), events))
    position = data.get("position")
    if position is not None and eng.dump(state) != position:
        raise ValueError("position: the log does not reach the exported final position")
    outcome = data.get("outcome")
    reached = eng.outcome(state)
    if isinstance(outcome, dict) and not outcome.get("resigned"):
        if reached is None or any(outcome.get(k) != reached[k] for k in ("scores", "ranks")):
            raise ValueError("outcome: the log does not end with that result")
    return state, steps


__all__ = [
    "FORMAT", "VERSION", "export_table", "exportable", "from_json_bytes", "load_export",
    "to_json_bytes",
]
