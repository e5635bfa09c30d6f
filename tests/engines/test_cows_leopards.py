"""Cows and Leopards (docs/rules/cows_leopards.md): boards, rules, options, positions."""

from __future__ import annotations

import functools
import json
import random
from collections import defaultdict

import pytest

from engines import CHANCE, IllegalMove, get_engine
from engines.cows_leopards import ENGINE, board
from engines.cows_leopards import _Board as Board
from tests.helpers.refusals import refusal

ENG = ENGINE


def position(**changes) -> dict:
    """A documented position (defaults: the start of a default game) with some fields changed."""
    options = {
        "players": 2,
        "board": "B",
        "captures": 8,
        "leopard_deadline": False,
        "quiet_limit": 100,
    }
    options.update(changes.pop("options", {}))
    pos = {
        "game": "cows_leopards",
        "options": options,
        "cows": [],
        "leopards": ["e5"],
        "hand": {"cows": 24, "leopards": 1},
        "captured": 0,
        "turn": 0,
        "quiet": 0,
        "phase": "play",
    }
    pos.update(changes)
    return pos


def play(state, *moves: str):
    for move in moves:
        state = ENG.apply(state, ENG.to_act(state)[0], move)
    return state


# ----- an independent reading of the rules, from board() data only -----


@functools.cache
def _reference_board(board_id: str) -> tuple[dict, dict, dict, dict]:
    """board(), adjacency, {(from, to): over} and {from: [(over, to)]}, read from board()."""
    bd = board(board_id)
    adj: dict[str, set[str]] = defaultdict(set)
    for p, q in bd["lines"]:
        adj[p].add(q)
        adj[q].add(p)
    jumps_from: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for a, b, c in bd["jumps"]:
        jumps_from[a].append((b, c))
    return bd, adj, {(a, c): b for a, b, c in bd["jumps"]}, jumps_from


def reference_moves(pos: dict) -> list[str]:
    if pos["phase"] == "over":
        return []
    bd, adj, _, jumps_from = _reference_board(pos["options"]["board"])
    cows, leopards = set(pos["cows"]), set(pos["leopards"])
    empty = set(bd["points"]) - cows - leopards
    drops = [f"drop {p}" for p in empty]
    if pos["turn"] == 0:
        if pos["hand"]["cows"]:
            return sorted(drops)
        return sorted(f"{p}-{q}" for p in cows for q in adj[p] & empty)
    moves = []
    if pos["hand"]["leopards"]:
        moves += drops
        if pos["options"]["leopard_deadline"] and not pos["hand"]["cows"]:
            return sorted(moves)
    moves += [f"{p}-{q}" for p in leopards for q in adj[p] & empty]
    moves += [f"{a}x{c}" for a in leopards for b, c in jumps_from[a] if b in cows and c in empty]
    return sorted(moves)


def expected_after(pos: dict, move: str) -> dict:
    """The position after `move`, following the rule file's words."""
    new = {
        **pos,
        "cows": list(pos["cows"]),
        "leopards": list(pos["leopards"]),
        "hand": dict(pos["hand"]),
    }
    side = "cows" if pos["turn"] == 0 else "leopards"
    jumped = False
    if move.startswith("drop "):
        new[side].append(move[5:])
        new["hand"][side] -= 1
    elif "x" in move:
        a, c = move.split("x")
        over = _reference_board(pos["options"]["board"])[2][a, c]
        new["leopards"] = [c if p == a else p for p in new["leopards"]]
        new["cows"].remove(over)
        new["captured"] += 1
        jumped = True
    else:
        a, c = move.split("-")
        new[side] = [c if p == a else p for p in new[side]]
    new["cows"].sort()
    new["leopards"].sort()
    if jumped or pos["hand"]["cows"]:
        new["quiet"] = 0  # before the last cow drop, at it, and after a capture
    else:
        new["quiet"] = pos["quiet"] + 1
    new["turn"] = 1 - pos["turn"]
    new["phase"] = "play"
    over = (
        new["captured"] >= pos["options"]["captures"]
        or not reference_moves(new)
        or new["quiet"] >= pos["options"]["quiet_limit"]
    )
    new["phase"] = "over" if over else "play"
    return new


# ----- identity, options -----


def test_registry_identity_and_options() -> None:
    assert get_engine("cows_leopards") is ENG
    assert (ENG.id, ENG.min_players, ENG.max_players) == ("cows_leopards", 2, 2)
    assert ENG.default_options(2) == {
        "players": 2,
        "board": "B",
        "captures": 8,
        "leopard_deadline": False,
        "quiet_limit": 100,
    }
    spec = {o.name: o for o in ENG.option_spec}
    assert set(spec) == {"board", "captures", "leopard_deadline", "quiet_limit"}
    assert all(o.help for o in spec.values())
    assert spec["board"].choices == ("A", "B")
    assert (spec["captures"].low, spec["captures"].high) == (1, 24)
    assert (spec["quiet_limit"].low, spec["quiet_limit"].high) == (10, 1000)
    with pytest.raises(ValueError, match="players"):
        ENG.default_options(3)


@pytest.mark.parametrize(
    "options, name",
    [
        ({"board": "C"}, "board"),
        ({"board": "a"}, "board"),
        ({"captures": 0}, "captures"),
        ({"captures": 25}, "captures"),
        ({"captures": True}, "captures"),
        ({"captures": "8"}, "captures"),
        ({"quiet_limit": 9}, "quiet_limit"),
        ({"quiet_limit": 1001}, "quiet_limit"),
        ({"leopard_deadline": 1}, "leopard_deadline"),
        ({"colour": "red"}, "colour"),
        ({"players": 3}, "players"),
    ],
)
def test_new_rejects_bad_options_by_name(options: dict, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        ENG.new(2, options)


def test_new_rejects_a_wrong_table() -> None:
    for players in (1, 3, True, "2"):
        with pytest.raises(ValueError, match="players"):
            ENG.new(players)


def test_new_position() -> None:
    state = ENG.new(
        2, {"players": 2, "board": "A", "captures": 5, "quiet_limit": 10, "leopard_deadline": True}
    )
    assert ENG.dump(state) == position(
        options={"board": "A", "captures": 5, "quiet_limit": 10, "leopard_deadline": True}
    )
    assert ENG.dump(ENG.new(2)) == position()
    assert ENG.to_act(ENG.new(2)) == [0]
    assert ENG.outcome(ENG.new(2)) is None


# ----- boards -----


@pytest.mark.parametrize("board_id, points, lines, jumps", [("A", 37, 76, 112), ("B", 49, 96, 144)])
def test_board_counts(board_id: str, points: int, lines: int, jumps: int) -> None:
    bd = board(board_id)
    assert (len(bd["points"]), len(bd["lines"]), len(bd["jumps"])) == (points, lines, jumps)
    assert bd["points"] == sorted(bd["points"])
    assert len({tuple(pq) for pq in bd["lines"]}) == lines
    assert all(bd["coords"][p] == [ord(p[0]) - 97, int(p[1]) - 1] for p in bd["points"])
    # every jump goes straight over a joined point to a joined point
    pairs = {frozenset(pq) for pq in bd["lines"]}
    for a, b, c in bd["jumps"]:
        (ax, ay), (bx, by), (cx, cy) = (bd["coords"][p] for p in (a, b, c))
        assert (cx - bx, cy - by) == (bx - ax, by - ay)
        assert frozenset((a, b)) in pairs and frozenset((b, c)) in pairs


def _lines_from_the_rule_text(board_id: str) -> set[frozenset[str]]:
    """The boards as cows_leopards.md words them, built without the data file."""

    def name(x: int, y: int) -> str:
        return f"{'abcdefghi'[x]}{y + 1}"

    lines = set()
    for x in range(2, 7):
        for y in range(2, 7):
            ends = [(x + 1, y), (x, y + 1)]
            if (x + y) % 2 == 0:  # diagonals from even points, inside the square
                ends += [(x + 1, y + 1), (x + 1, y - 1)]
            for ex, ey in ends:
                if 2 <= ex <= 6 and 2 <= ey <= 6:
                    lines.add(frozenset((name(x, y), name(ex, ey))))
    # (apex, outward direction, sideways direction) of each triangle
    triangles = [((4, 6), (0, 1), (1, 0)), ((4, 2), (0, -1), (1, 0))]
    if board_id == "B":
        triangles += [((2, 4), (-1, 0), (0, 1)), ((6, 4), (1, 0), (0, 1))]
    for (ax, ay), (dx, dy), (lx, ly) in triangles:

        def at(out: int, side: int, ax=ax, ay=ay, dx=dx, dy=dy, lx=lx, ly=ly) -> str:
            return name(ax + out * dx + side * lx, ay + out * dy + side * ly)

        for chain in (
            [at(0, 0), at(1, -1), at(2, -2)],
            [at(0, 0), at(1, 1), at(2, 2)],
            [at(0, 0), at(1, 0), at(2, 0)],
            [at(1, -1), at(1, 0), at(1, 1)],
            [at(2, -2), at(2, 0), at(2, 2)],
        ):
            lines |= {frozenset(pq) for pq in zip(chain, chain[1:], strict=False)}
    return lines


@pytest.mark.parametrize("board_id", ["A", "B"])
def test_board_data_matches_the_rule_text(board_id: str) -> None:
    expected = _lines_from_the_rule_text(board_id)
    assert {frozenset(pq) for pq in board(board_id)["lines"]} == expected
    assert set(board(board_id)["points"]) == set().union(*expected)


def test_board_shapes() -> None:
    a, b = board("A"), board("B")
    square = {f"{x}{y}" for x in "cdefg" for y in "34567"}
    top = {"d8", "e8", "f8", "c9", "e9", "g9"}
    bottom = {"d2", "e2", "f2", "c1", "e1", "g1"}
    left = {"b4", "b5", "b6", "a3", "a5", "a7"}
    right = {"h4", "h5", "h6", "i3", "i5", "i7"}
    assert set(a["points"]) == square | top | bottom
    assert set(b["points"]) == square | top | bottom | left | right
    # Lines and jumps written as the points they pass, in the moves' notation: "c9-e9".
    lines = {"-".join(pq) for pq in b["lines"]}
    joined = "c9-e9 d8-e7 c9-d8 e8-e9 d8-e8 a3-a5 a3-b4 b4-c5 c3-d4 d4-e3 c3-d3 c3-c4 g5-h4"
    apart = "d3-e4 c4-d5 c9-d9 e5-e7 d8-e9 c3-d2 b5-c4 b4-c4"
    assert set(joined.split()) - lines == set()
    assert set(apart.split()) & lines == set()
    jumps = {"-".join(t) for t in b["jumps"]}
    over = ("c9-e9-g9 g9-e9-c9 e9-e8-e7 e8-e7-e6 c9-d8-e7 d8-e7-f6 e5-e6-e7 a3-a5-a7 c5-b5-a5 "
            "e1-e2-e3 d8-e8-f8")
    assert set(over.split()) - jumps == set()
    assert "d3-e4-f5" not in jumps
    assert "g5-h4-i3" in jumps and "g5-h4-i3" not in {"-".join(t) for t in a["jumps"]}
    # a fresh copy each time
    a["points"].clear()
    assert len(board("A")["points"]) == 37
    with pytest.raises(ValueError, match="board"):
        board("Z")


def test_a_board_can_be_added_as_data() -> None:
    # a 3 x 2 patch around e5 with one diagonal: adjacency and jumps come from the data
    spec = {
        "points": ["d4", "e4", "f4", "d5", "e5", "f5"],
        "lines": [["d4", "e4", "f4"], ["d5", "e5", "f5"], ["d4", "d5"], ["d4", "e5"]],
    }
    bd = Board("T", spec).public()
    assert bd["lines"] == [
        ["d4", "d5"],
        ["d4", "e4"],
        ["d4", "e5"],
        ["d5", "e5"],
        ["e4", "f4"],
        ["e5", "f5"],
    ]
    assert bd["jumps"] == [
        ["d4", "e4", "f4"],
        ["d5", "e5", "f5"],
        ["f4", "e4", "d4"],
        ["f5", "e5", "d5"],
    ]
    with pytest.raises(ValueError, match="z1"):
        Board("T", {"points": ["e5", "z1"], "lines": []})
    with pytest.raises(ValueError, match="e6"):
        Board("T", {"points": ["e5"], "lines": [["e5", "e6"]]})
    with pytest.raises(ValueError, match="e5"):
        Board("T", {"points": ["e4"], "lines": []})


# ----- play -----


def test_cows_drop_first_anywhere_empty() -> None:
    for board_id, n in (("A", 37), ("B", 49)):
        state = ENG.new(2, {"board": board_id})
        moves = ENG.legal_moves(state, 0)
        assert len(moves) == n - 1 and moves == sorted(moves)
        assert "drop e5" not in moves
        assert ENG.legal_moves(state, 1) == []
        assert ENG.legal_moves(state, CHANCE) == []


def test_leopards_drop_step_and_jump_sorted() -> None:
    state = play(ENG.new(2), "drop d4")
    moves = ENG.legal_moves(state, 1)
    assert moves == sorted(moves)
    assert [m for m in moves if not m.startswith("drop")] == [
        "e5-d5",
        "e5-d6",
        "e5-e4",
        "e5-e6",
        "e5-f4",
        "e5-f5",
        "e5-f6",
        "e5xc3",
    ]
    assert len([m for m in moves if m.startswith("drop")]) == 49 - 2
    assert ENG.to_act(state) == [1]


def test_leopard_moves_merge_around_the_drops() -> None:
    # a leopard in column a..d sorts before "drop ...", one in e..i after
    state = ENG.load(
        position(leopards=["c5"], cows=["d5"], hand={"cows": 23, "leopards": 1}, turn=1)
    )
    moves = ENG.legal_moves(state, 1)
    assert moves == sorted(moves) == reference_moves(ENG.dump(state))
    assert moves[0].startswith("c5") and moves[-1].startswith("drop")


def test_cows_cannot_move_until_all_dropped() -> None:
    state = play(ENG.new(2), "drop d4", "e5-e6")
    assert "cows cannot move until all 24 are dropped" in refusal(ENG, state, 0, "d4-d5")


# 23 cows on board B, leaving the leopards room: one more drop ends the cows' drops.
TWENTY_THREE_COWS = (
    "a3", "a5", "a7", "b4", "b5", "b6", "c1", "c3", "c4", "c5", "c6", "c7", "c9", "d2", "d3",
    "d4", "d5", "d6", "d7", "d8", "e1", "e2", "e3",
)


def test_cows_step_after_the_last_drop() -> None:
    cows = list(TWENTY_THREE_COWS)
    state = ENG.load(position(cows=cows, hand={"cows": 1, "leopards": 0}, leopards=["e5", "g5"]))
    state = play(state, "drop i5")
    assert ENG.dump(state)["hand"] == {"cows": 0, "leopards": 0}
    state = play(state, "e5-e6")
    moves = ENG.legal_moves(state, 0)
    assert moves and all("-" in m for m in moves)
    assert "d5-e5" in moves and "i5-i3" in moves and "i5-h5" in moves
    assert "no cow is left in hand" in refusal(ENG, state, 0, "drop f5")
    assert "there is no cow on f5" in refusal(ENG, state, 0, "f5-f6")
    assert "e6 is not empty" in refusal(ENG, state, 0, "d6-e6")


# (options, moves played from the start, actor, refused move, the reason it gives)
LEOPARDS_TURN = ("drop e6",)
REFUSALS = [
    ({}, (), 0, "drop e5", "e5 is not empty"),
    ({}, (), 1, "e5-e6", "it is the cows' turn"),
    ({}, (), CHANCE, "drop a3", "chance"),
    ({}, (), 2, "drop a3", "seat 2"),
    ({}, (), 0, "drop", "not a move"),
    ({}, (), 0, None, "not a move"),
    ({}, (), 0, "Drop a3", "not a move"),
    ({}, (), 0, "drop z9", "z9 is not a point on board B"),
    ({"board": "A"}, (), 0, "drop a3", "a3 is not a point on board A"),
    ({}, LEOPARDS_TURN, 0, "drop a3", "it is the leopards' turn"),
    ({}, LEOPARDS_TURN, 1, "e5-e7", "e5 and e7 are not joined by a line"),
    ({}, LEOPARDS_TURN, 1, "d3-e4", "d3 and e4 are not joined by a line"),
    ({}, LEOPARDS_TURN, 1, "e5-e5", "another point"),
    ({}, LEOPARDS_TURN, 1, "e5xe8", "no jump from e5 to e8"),
    ({}, LEOPARDS_TURN, 1, "e5-e6", "e6 is not empty"),
    ({}, LEOPARDS_TURN, 1, "drop e6", "e6 is not empty"),
    ({}, LEOPARDS_TURN, 1, "e5xg7", "there is no cow on f6 to jump over"),
    ({}, LEOPARDS_TURN, 1, "e6-e7", "there is no leopard on e6"),
    ({}, ("drop e6", "e5xe7", "drop d4", "e7-e6"), 0, "d4xf6", "cows never capture"),
    ({}, ("drop e6", "e5xe7", "drop d4", "drop a3", "drop a5"), 1, "drop i3",
     "both leopards are already on the board"),
]


@pytest.mark.parametrize(("options", "played", "actor", "move", "reason"), REFUSALS)
def test_illegal_moves_say_why(options: dict, played: tuple[str, ...], actor: int, move: str,
                               reason: str) -> None:
    state = play(ENG.new(2, options), *played)
    assert reason in refusal(ENG, state, actor, move)


def test_jump_captures_once_and_is_not_compulsory() -> None:
    # e5 over e6 to e7, and from e7 a second jump over e8 would be possible: no chain
    state = ENG.load(position(cows=["e6", "e8"], hand={"cows": 22, "leopards": 1}, turn=1))
    moves = ENG.legal_moves(state, 1)
    assert "e5xe7" in moves and "e5-d5" in moves  # steps stay legal beside a jump
    after, events = ENG.apply_events(state, 1, "e5xe7")
    assert events == [
        {"type": "jump", "seat": 1, "from": "e5", "over": "e6", "to": "e7", "captured": 1}
    ]
    pos = ENG.dump(after)
    assert pos["cows"] == ["e8"] and pos["leopards"] == ["e7"] and pos["captured"] == 1
    assert pos["turn"] == 0 and ENG.to_act(after) == [0]


def test_jump_along_a_triangle_base() -> None:
    state = ENG.load(
        position(
            cows=["e9"],
            leopards=["c9"],
            hand={"cows": 23, "leopards": 1},
            turn=1,
            options={"board": "A"},
        )
    )
    assert "c9xg9" in ENG.legal_moves(state, 1)
    assert ENG.dump(play(state, "c9xg9"))["leopards"] == ["g9"]


def test_captures_reached_wins_for_the_leopards() -> None:
    state = ENG.load(
        position(cows=["e6"], hand={"cows": 23, "leopards": 1}, turn=1, options={"captures": 1})
    )
    after, events = ENG.apply_events(state, 1, "e5xe7")
    assert ENG.outcome(after) == {"scores": [0, 1], "ranks": [2, 1]}
    assert events[-1] == {
        "type": "game_over",
        "scores": [0, 1],
        "ranks": [2, 1],
        "reason": "captures",
    }
    assert ENG.end_reason(after) == "captures"
    assert ENG.to_act(after) == [] and ENG.legal_moves(after, 0) == []
    assert ENG.dump(after)["phase"] == "over"
    assert "the game is over" in refusal(ENG, after, 0, "drop a3")


def _trap_position(**changes) -> dict:
    # both leopards in triangle corners; h6-i7 closes the last gap around i3
    fields = {
        "cows": ["a5", "a7", "b4", "c5", "g5", "h4", "h6", "i5"],
        "leopards": ["a3", "i3"],
        "hand": {"cows": 0, "leopards": 0},
        "captured": 16,
        "quiet": 5,
        "options": {"captures": 24, "quiet_limit": 10},
    }
    return position(**(fields | changes))


def test_trapped_leopards_lose() -> None:
    state = ENG.load(_trap_position())
    after, events = ENG.apply_events(state, 0, "h6-i7")
    assert events == [
        {"type": "step", "seat": 0, "from": "h6", "to": "i7"},
        {"type": "game_over", "scores": [1, 0], "ranks": [1, 2], "reason": "leopards_trapped"},
    ]
    assert ENG.dump(after)["turn"] == 1 and ENG.legal_moves(after, 1) == []


def test_trap_beats_the_quiet_limit_on_the_same_move() -> None:
    after = ENG.apply(ENG.load(_trap_position(quiet=9)), 0, "h6-i7")
    assert ENG.dump(after)["quiet"] == 10
    assert ENG.outcome(after) == {"scores": [1, 0], "ranks": [1, 2]}
    assert ENG.end_reason(after) == "leopards_trapped"


def test_a_leopard_in_hand_is_never_trapped() -> None:
    pos = _trap_position(leopards=["i3"], hand={"cows": 0, "leopards": 1})
    pos["cows"].remove("a5")
    pos["captured"] = 17
    after = ENG.apply(ENG.load(pos), 0, "h6-i7")
    assert ENG.outcome(after) is None
    assert all(m.startswith("drop") for m in ENG.legal_moves(after, 1))


def test_stuck_cows_lose() -> None:
    state = ENG.load(
        position(
            cows=["c9"],
            leopards=["e7", "e9"],
            hand={"cows": 0, "leopards": 0},
            captured=23,
            turn=1,
            options={"board": "A", "captures": 24},
        )
    )
    after, events = ENG.apply_events(state, 1, "e7-d8")
    assert events[-1] == {
        "type": "game_over",
        "scores": [0, 1],
        "ranks": [2, 1],
        "reason": "cows_stuck",
    }
    assert ENG.to_act(after) == []


def test_quiet_counter_and_draw() -> None:
    cows = list(TWENTY_THREE_COWS)
    state = ENG.load(
        position(cows=cows, hand={"cows": 1, "leopards": 1}, options={"quiet_limit": 10})
    )
    state = play(state, "drop i5")  # the last drop does not count
    assert ENG.dump(state)["quiet"] == 0
    state = play(state, "drop i3")  # a leopard drop after it does
    assert ENG.dump(state)["quiet"] == 1
    for expected in range(2, 11):
        assert ENG.outcome(state) is None
        actor = ENG.to_act(state)[0]
        move = next(m for m in ENG.legal_moves(state, actor) if "x" not in m)
        state, events = ENG.apply_events(state, actor, move)
        assert ENG.dump(state)["quiet"] == expected
    assert ENG.outcome(state) == {"scores": [0.5, 0.5], "ranks": [1, 1]}
    assert events[-1]["reason"] == "quiet"


def test_quiet_stays_zero_while_cows_are_in_hand() -> None:
    state = ENG.new(2)
    for _ in range(5):
        state = play(state, "drop " + next(m[5:] for m in ENG.legal_moves(state, 0)))
        state = play(state, next(m for m in ENG.legal_moves(state, 1) if "-" in m))
        assert ENG.dump(state)["quiet"] == 0


def test_a_capture_resets_quiet() -> None:
    state = ENG.load(
        position(
            cows=["e6"]
            + [f"{c}{r}" for c in "abc" for r in "13579" if f"{c}{r}" in board("B")["points"]],
            hand={"cows": 0, "leopards": 1},
            captured=14,
            quiet=7,
            turn=1,
            options={"captures": 20},
        )
    )
    assert ENG.dump(play(state, "e5-f5"))["quiet"] == 8
    assert ENG.dump(play(state, "e5xe7"))["quiet"] == 0


def test_leopard_deadline() -> None:
    cows = list(TWENTY_THREE_COWS)
    pos = position(cows=cows, hand={"cows": 1, "leopards": 1}, quiet=0)
    pos["cows"].remove("d4")
    pos["cows"].append("e6")
    pos["cows"].sort()
    for deadline in (False, True):
        pos["options"]["leopard_deadline"] = deadline
        state = ENG.load(pos)
        state = play(state, "drop i5")
        moves = ENG.legal_moves(state, 1)
        if deadline:
            assert moves and all(m.startswith("drop") for m in moves)
            for move in ("e5-e4", "e5xe7"):
                assert "the second leopard must be dropped now" in refusal(ENG, state, 1, move)
        else:
            assert "e5-e4" in moves and "e5xe7" in moves
            ENG.apply(state, 1, "e5xe7")
    # before the last cow drop the leopards may still wait
    pos["options"]["leopard_deadline"] = True
    pos["turn"] = 1
    pos["cows"].remove("a3")
    pos["hand"]["cows"] = 2
    state = ENG.load(pos)
    assert "e5-e4" in ENG.legal_moves(state, 1)


def test_chance_never_acts() -> None:
    state = ENG.new(2)
    with pytest.raises(ValueError):
        ENG.sample_chance(state, random.Random(1))
    with pytest.raises(NotImplementedError):
        ENG.chance_odds(state)


def test_events_of_drops_and_steps() -> None:
    state, events = ENG.apply_events(ENG.new(2), 0, "drop d4")
    assert events == [{"type": "drop", "seat": 0, "point": "d4"}]
    state, events = ENG.apply_events(state, 1, "drop a3")
    assert events == [{"type": "drop", "seat": 1, "point": "a3"}]
    state, events = ENG.apply_events(state, 0, "drop c3")
    _, events = ENG.apply_events(state, 1, "a3-a5")
    assert events == [{"type": "step", "seat": 1, "from": "a3", "to": "a5"}]


# ----- positions -----


# The documented keys of a position, in the order `dump` writes them.
FIELDS = ("game", "options", "cows", "leopards", "hand", "captured", "turn", "quiet", "phase")


def test_dump_load_view() -> None:
    pos = position(cows=["e4", "d4"], hand={"cows": 22, "leopards": 1}, turn=1)
    state = ENG.load(pos)
    dumped = ENG.dump(state)
    assert dumped["cows"] == ["d4", "e4"]
    assert ENG.dump(ENG.load(dumped)) == dumped
    assert list(dumped) == list(FIELDS)
    view = ENG.view(state, None)
    assert view.pop("to_act") == [1]
    assert view == dumped
    assert ENG.view(state, 0)["to_act"] == [1]
    # fresh objects: the caller may keep and change them
    dumped["options"]["board"] = "A"
    dumped["cows"].append("a3")
    assert ENG.dump(state)["options"]["board"] == "B" and ENG.dump(state)["cows"] == ["d4", "e4"]
    # missing options take their defaults
    short = position()
    short["options"] = {"board": "A"}
    assert ENG.dump(ENG.load(short))["options"] == ENG.default_options(2) | {"board": "A"}


# A game one capture wins, the leopards to move, a cow on d4: once the capture is made it is over.
ONE_CAPTURE_WINS = {"cows": ["d4"], "turn": 1, "options": {"captures": 1}}


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"game": "senet"}, "game"),
        ({"options": {"captures": 0}}, "captures"),
        ({"options": {"players": 3}}, "players"),
        ({"options": {"size": 3}}, "size"),
        ({"cows": ["z1"], "hand": {"cows": 23, "leopards": 1}}, "cows"),
        (
            {
                "cows": ["a3"],
                "hand": {"cows": 23, "leopards": 1},
                "turn": 1,
                "options": {"board": "A"},
            },
            "cows",
        ),
        ({"cows": "d4"}, "cows"),
        ({"cows": ["d4", "d4"], "hand": {"cows": 22, "leopards": 1}, "turn": 1}, "cows"),
        ({"leopards": ["e5", "e5"], "hand": {"cows": 24, "leopards": 0}}, "leopards"),
        ({"cows": ["e5"], "hand": {"cows": 23, "leopards": 1}, "turn": 1}, "leopards"),
        ({"leopards": [], "hand": {"cows": 24, "leopards": 1}}, "leopards"),
        ({"leopards": ["e5", "d4", "d5"], "hand": {"cows": 24, "leopards": 0}}, "leopards"),
        ({"hand": {"cows": 23, "leopards": 1}}, "captured"),
        ({"hand": {"cows": 24, "leopards": 2}, "leopards": []}, "hand"),
        ({"hand": {"cows": 25, "leopards": 1}}, "hand"),
        ({"hand": {"cows": 24}}, "hand"),
        ({"hand": [24, 1]}, "hand"),
        ({"captured": -1}, "captured"),
        ({**ONE_CAPTURE_WINS, "hand": {"cows": 22, "leopards": 1}, "captured": 1}, "phase"),
        ({**ONE_CAPTURE_WINS, "hand": {"cows": 21, "leopards": 1}, "captured": 2}, "captured"),
        ({"turn": 2}, "turn"),
        ({"turn": 1}, "turn"),
        ({"quiet": 3}, "quiet"),
        ({"quiet": 101}, "quiet"),
        ({"quiet": "0"}, "quiet"),
        ({"phase": "done"}, "phase"),
        ({"phase": "over"}, "phase"),
    ],
)
def test_load_rejects_by_field(changes: dict, field: str) -> None:
    options = changes.pop("options", {})
    pos = position(**changes)
    pos["options"].update(options)
    with pytest.raises(ValueError, match=field):
        ENG.load(pos)


def test_load_rejects_missing_fields_and_other_impossibilities() -> None:
    for name in FIELDS:
        pos = position()
        del pos[name]
        with pytest.raises(ValueError, match=name):
            ENG.load(pos)
    with pytest.raises(ValueError):
        ENG.load([])
    # the deadline makes a cows' turn with no cow and a leopard in hand impossible
    cows = [p for p in board("B")["points"] if p not in ("e5", "i3")][:24]
    pos = position(cows=cows, hand={"cows": 0, "leopards": 1}, options={"leopard_deadline": True})
    ENG.load(
        position(
            cows=cows, hand={"cows": 0, "leopards": 1}, turn=1, options={"leopard_deadline": True}
        )
    )
    with pytest.raises(ValueError, match="hand"):
        ENG.load(pos)
    # a phase "over" that the end check confirms is accepted, every reason
    over = _trap_position(
        cows=["a5", "a7", "b4", "c5", "g5", "h4", "i5", "i7"], turn=1, phase="over"
    )
    assert ENG.outcome(ENG.load(over)) == {"scores": [1, 0], "ranks": [1, 2]}
    over["phase"] = "play"
    with pytest.raises(ValueError, match="phase"):
        ENG.load(over)


def test_quiet_limit_position_must_be_over() -> None:
    pos = _trap_position(quiet=10)
    with pytest.raises(ValueError, match="phase"):
        ENG.load(pos)
    pos["phase"] = "over"
    assert ENG.outcome(ENG.load(pos)) == {"scores": [0.5, 0.5], "ranks": [1, 1]}


# ----- random games against the rules' own words -----

OPTION_SETS = [
    {"board": "A", "quiet_limit": 10},
    {"board": "B", "quiet_limit": 10},
    {"board": "A", "quiet_limit": 12, "leopard_deadline": True},
    {"board": "B", "quiet_limit": 11, "leopard_deadline": True, "captures": 3},
    {"board": "A", "quiet_limit": 10, "captures": 1},
    {"board": "B", "quiet_limit": 14, "captures": 24},
    {"board": "A", "quiet_limit": 10, "captures": 24, "leopard_deadline": True},
]
# Games where both sides hunt (below) reach the trapped and stuck endings random play misses.
HUNT_OPTIONS = [
    {"board": "A", "quiet_limit": 60, "captures": 24},
    {"board": "B", "quiet_limit": 60, "captures": 24, "leopard_deadline": True},
    {"board": "A", "quiet_limit": 30},
]
RANDOM_GAMES = 1000
HUNT_GAMES = 12


def hunt(state, actor: int, moves: list[str], rng: random.Random) -> str:
    """Mostly greedy: end the game if possible, leopards capture, else leave the foe few moves."""
    if rng.random() < 0.3:
        return rng.choice(moves)
    best = None
    for move in moves:
        after = ENG.apply(state, actor, move)
        if ENG.outcome(after) is not None:
            return move
        score = len(ENG.legal_moves(after, 1 - actor)) + rng.random() - 100 * ("x" in move)
        if best is None or score < best[0]:
            best = (score, move)
    return best[1]


def test_random_games_follow_the_rules() -> None:
    rng = random.Random(20240611)
    universes = {
        b: sorted(Board(b, {"points": board(b)["points"], "lines": board(b)["lines"]}).moves)
        for b in "AB"
    }
    reasons: dict[str, int] = defaultdict(int)
    for game in range(RANDOM_GAMES + HUNT_GAMES):
        hunting = game >= RANDOM_GAMES
        if hunting:
            options = HUNT_OPTIONS[game % len(HUNT_OPTIONS)]
        else:
            options = OPTION_SETS[game % len(OPTION_SETS)]
        state = ENG.new(2, options)
        universe = universes[options["board"]]
        oracle = game % 8 == 0  # every 8th game is checked against the rules' words each step
        every = oracle and game % 100 == 0  # and some apply every legal move at every step
        for _step in range(5000):
            actors = ENG.to_act(state)
            if oracle or not actors:
                pos = ENG.dump(state)
                assert len(pos["cows"]) + pos["hand"]["cows"] + pos["captured"] == 24
                assert len(pos["leopards"]) + pos["hand"]["leopards"] == 2
                assert not set(pos["cows"]) & set(pos["leopards"])
                assert ENG.dump(ENG.load(pos)) == pos
                assert pos["phase"] == ("play" if actors else "over")
                assert actors == ([pos["turn"]] if actors else [])
            if not actors:
                assert ENG.outcome(state) is not None
                assert ENG.legal_moves(state, 0) == ENG.legal_moves(state, 1) == []
                if oracle:
                    assert reference_moves(pos) == []
                break
            assert ENG.outcome(state) is None
            actor = actors[0]
            moves = ENG.legal_moves(state, actor)
            assert moves and moves == sorted(set(moves))
            assert ENG.legal_moves(state, 1 - actor) == []
            # illegal probes: a move of this board that is not legal now, and the idle seat
            probe = rng.choice(universe)
            for seat, move in ((actor, probe), (1 - actor, moves[0])):
                if seat == actor and move in moves:
                    continue
                try:
                    ENG.apply(state, seat, move)
                except IllegalMove as e:
                    assert str(e)
                else:
                    pytest.fail(f"{move} by seat {seat} was accepted")
            if oracle:
                assert moves == reference_moves(pos)
            for move in moves if every else ():
                assert ENG.dump(ENG.apply(state, actor, move)) == expected_after(pos, move)
            move = hunt(state, actor, moves, rng) if hunting else rng.choice(moves)
            before = state
            after, events = ENG.apply_events(state, actor, move)
            assert ENG.apply(state, actor, move) == after
            assert events[0]["type"] in ("drop", "step", "jump") and len(events) in (1, 2)
            assert (events[-1]["type"] == "game_over") == (ENG.outcome(after) is not None)
            if oracle:
                assert ENG.dump(state) == pos, "apply changed its input"
                assert ENG.dump(after) == expected_after(pos, move), move
                json.dumps(events)
            state = after
            assert state is not before
        else:
            pytest.fail("game did not end")
        result = ENG.outcome(state)
        reasons[ENG.end_reason(state)] += 1
        assert sorted(result["scores"]) in ([0, 1], [0.5, 0.5])
        assert result["ranks"] in ([1, 2], [2, 1], [1, 1])
    # whole games end by captures, the quiet limit and (hunting) trapped leopards; the
    # position fuzz below reaches stuck cows too
    assert {"captures", "quiet", "leopards_trapped"} <= set(reasons), reasons


def _fuzz_position(rng: random.Random) -> dict:
    """A random position, often one move away from trapped leopards or stuck cows."""
    board_id = rng.choice("AB")
    bd, adj, jumps, _ = _reference_board(board_id)
    points = bd["points"]
    corners = [p for p in points if len(adj[p]) <= 3]
    kind = rng.randrange(3)
    ch = lh = 0
    if kind == 0:  # leopards in corners, hemmed in but for one gap a cow can fill
        leopards = rng.sample(corners, 2)
        near = set().union(*(adj[p] for p in leopards))
        near |= {c for a, c in jumps if a in leopards}
        cows = sorted(near - set(leopards))
        gap = cows.pop(rng.randrange(len(cows)))
        free = sorted(adj[gap] - set(leopards) - set(cows))
        cows += rng.sample(free, min(1, len(free)))
        turn = 0
    elif kind == 1:  # one cow in a corner, a leopard beside it, the other near
        cows = [rng.choice(corners)]
        first = rng.choice(sorted(adj[cows[0]]))
        second = rng.choice(sorted(set().union(*(adj[q] for q in adj[cows[0]])) - {cows[0], first}))
        leopards = [first, second]
        turn = 1
    else:  # anything
        lh = rng.randint(0, 1)
        chosen = rng.sample(points, rng.randint(0, 24) + 2 - lh)
        leopards, cows = chosen[: 2 - lh], chosen[2 - lh :]
        ch = rng.randint(0, 24 - len(cows))
        turn = rng.randint(0, 1)
    cows = cows[:24]
    captured = 24 - len(cows) - ch
    options = {
        "board": board_id,
        "quiet_limit": 20,
        "captures": rng.choice([captured + 1, 24]),
        "leopard_deadline": rng.random() < 0.2,
    }
    return position(
        options=options,
        cows=sorted(cows),
        leopards=sorted(leopards),
        hand={"cows": ch, "leopards": lh},
        captured=captured,
        turn=turn,
        quiet=0 if ch else rng.randint(0, 19),
    )


def test_random_positions_follow_the_rules() -> None:
    rng = random.Random(77)
    reasons: dict[str | None, int] = defaultdict(int)
    loaded = 0
    for _ in range(1100):
        pos = _fuzz_position(rng)
        outcomes, errors = [], []
        for phase in ("play", "over"):
            try:
                outcomes.append(ENG.load(pos | {"phase": phase}))
            except ValueError as e:
                errors.append(str(e))
        # the end check decides the phase: never both, and not neither for the phase's sake
        assert all("field" in e for e in errors)
        assert len(outcomes) <= 1, pos
        if not outcomes:
            assert not all("'phase'" in e for e in errors), (pos, errors)
            continue
        state = outcomes[0]
        pos = ENG.dump(state)
        assert ENG.dump(ENG.load(pos)) == pos
        loaded += 1
        moves = reference_moves(pos)
        assert ENG.to_act(state) == ([pos["turn"]] if pos["phase"] == "play" else [])
        assert ENG.legal_moves(state, pos["turn"]) == moves
        for move in moves:
            after = ENG.apply(state, pos["turn"], move)
            assert ENG.dump(after) == expected_after(pos, move), (pos, move)
            reasons[ENG.end_reason(after)] += 1
    assert loaded > 700
    assert {"captures", "quiet", "leopards_trapped", "cows_stuck"} <= set(reasons), reasons
