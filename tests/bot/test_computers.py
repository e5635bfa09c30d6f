"""Computer players at tables (bot/tables/computers.py): seats, moves, results, hints.

Decision tested here: a table of only computers cannot exist, because the host always keeps
a seat (the host leaving a lobby cancels it); a member with computers plays to the end."""

from __future__ import annotations

import random

import pytest

from bot.features.table.board import to_act_line
from bot.tables import TableError, TableService
from bot.tables import computers as cpu
from bot.tables.computers import computer_level, result_user_id
from bot.tables.thinking import choose
from tests.bot.backends import Opener
from tests.helpers import nim

GUILD, CHANNEL, HOST, OTHER = 1, 10, 100, 200



pytestmark = pytest.mark.usefixtures("quick_computers")


@pytest.fixture
async def service(opener: Opener) -> TableService:
    return TableService(await opener(), rng=random.Random(5))


async def play_out(service: TableService, table_id: int, seed: int = 1) -> int:
    """The member moves (a seeded random legal move) until the game ends; returns moves."""
    rng, moves = random.Random(seed), 0
    await service.computers_play(table_id)
    table = await service.get(table_id)
    while table.status == "running":
        legal = service.legal_moves_for(table, HOST)
        assert legal, "the member's turn never came: the computers must answer"
        await service.play(table_id, HOST, rng.choice(legal))
        answers = await service.computers_play(table_id)
        table, moves = await service.get(table_id), moves + 1
        assert all(step.auto for answer in answers for step in answer.steps[:1])
        assert HOST in [table.seats[s].user_id for s in table.to_act()] or \
            table.status == "finished"
    return moves


async def test_add_and_remove_computer_seats(service: TableService) -> None:
    table = await service.open_table(GUILD, CHANNEL, "varanasi", None, HOST, "Host")
    table = await service.add_computer(table.id, HOST, "hard")
    table = await service.add_computer(table.id, HOST, "hard")
    table = await service.add_computer(table.id, HOST, "easy")
    assert [computer_level(s.user_id) for s in table.seats] == [None, "hard", "hard", "easy"]
    assert len({s.user_id for s in table.seats}) == 4 and table.computer_seats() == {
        1: "hard", 2: "hard", 3: "easy"}
    with pytest.raises(TableError) as err:  # Varanasi seats 4 at most
        await service.add_computer(table.id, HOST, "normal")
    assert err.value.code == "table_full"
    for user, level, code in ((OTHER, "easy", "not_host"), (HOST, "expert", "bad_level")):
        with pytest.raises(TableError) as err:
            await service.add_computer(table.id, user, level)
        assert err.value.code == code
    with pytest.raises(TableError) as err:
        await service.remove_computer(table.id, OTHER)
    assert err.value.code == "not_host"
    table = await service.remove_computer(table.id, HOST, "hard")  # the last hard one
    assert table.computer_seats() == {1: "hard", 2: "easy"}
    table = await service.remove_computer(table.id, HOST)
    table = await service.remove_computer(table.id, HOST)
    assert table.computer_seats() == {}
    with pytest.raises(TableError) as err:
        await service.remove_computer(table.id, HOST)
    assert err.value.code == "not_seated"
    await service.add_computer(table.id, HOST, "normal")
    await service.start(table.id, HOST)
    with pytest.raises(TableError) as err:
        await service.add_computer(table.id, HOST, "easy")
    assert err.value.code == "not_lobby"


async def test_computer_takes_a_side_and_sides_are_checked(service: TableService) -> None:
    table = await service.open_table(GUILD, CHANNEL, "cows_leopards", None, HOST, "Host",
                                     side=0)
    with pytest.raises(TableError) as err:
        await service.add_computer(table.id, HOST, "easy", side=0)
    assert err.value.code == "side_taken"
    table = await service.add_computer(table.id, HOST, "easy", side=1)
    with pytest.raises(TableError) as err:
        await service.join(table.id, OTHER, "Other", side=1)
    assert err.value.code == "table_full"  # two seats: the computer holds the second
    result = await service.start(table.id, HOST)
    assert result.table.seats[1].user_id < 0 and result.to_act == [0]


@pytest.mark.parametrize("game, side", [("senet", None), ("cows_leopards", 1),
                                        ("test_nim", None)])
async def test_member_against_a_computer_plays_to_the_end(
    service: TableService, game: str, side: int | None, nim_id: str
) -> None:
    """Against the game's own computer player, or the one the fifth game's spec names."""
    table = await service.open_table(GUILD, CHANNEL, game, None, HOST, "Host")
    table = await service.add_computer(table.id, HOST, "normal", side=side)
    await service.start(table.id, HOST, shuffle=True)
    answers = await service.computers_play(table.id)  # the computer's own steps, if it opens
    table = await service.get(table.id)
    assert [table.seats[s].user_id for s in table.to_act()] == [HOST]
    computer = next(i for i, s in enumerate(table.seats) if s.user_id < 0)
    assert all(step.auto for r in answers for step in r.steps if step.actor == computer)
    await play_out(service, table.id)
    table = await service.get(table.id)
    assert table.status == "finished" and table.outcome is not None
    assert any(actor == computer for actor, _ in table.log)  # the computer answered
    results = await service._results.get_results(table.id)
    assert {r.user_id for r in results} == {HOST, -2}
    assert next(r for r in results if r.user_id == -2).name == "Computer (normal)"
    board = await service.leaderboard(GUILD, game)
    entry = next(row for row in board if row.user_id == -2)
    assert entry.name == "Computer (normal)" and entry.games == 1 and entry.rating is not None
    stats = await service.stats(GUILD, HOST)
    assert stats.games == 1


async def test_only_computers_cannot_sit_alone(service: TableService) -> None:
    """The host always holds a seat: leaving cancels the lobby rather than leaving computers."""
    table = await service.open_table(GUILD, CHANNEL, "senet", None, HOST, "Host")
    table = await service.add_computer(table.id, HOST, "easy")
    table = await service.leave(table.id, HOST)
    assert table.status == "cancelled"


async def test_six_nimmt_with_four_computers(service: TableService) -> None:
    table = await service.open_table(GUILD, CHANNEL, "six_nimmt", {"rounds": 1}, HOST, "Host")
    for level in ("easy", "normal", "hard", "hard"):
        table = await service.add_computer(table.id, HOST, level)
    result = await service.start(table.id, HOST)
    me = result.table.seat_of(HOST)
    assert len(result.to_act) == 5  # everyone picks at once ...
    answers = await service.computers_play(table.id)
    assert [sum(1 for step in r.steps if step.auto) for r in answers] == [1, 1, 1, 1]
    assert answers[-1].to_act == [me]  # ... the four computers one step each
    moves = await play_out(service, table.id)
    assert moves >= 10  # ten picks at least
    results = await service._results.get_results(table.id)
    assert sorted(r.user_id for r in results) == [-3, -3, -2, -1, HOST]
    ids = {row.user_id for row in await service.leaderboard(GUILD, "six_nimmt")}
    assert ids == {-3, -2, -1, HOST}


async def test_hints_only_where_allowed_and_table_unrated(service: TableService) -> None:
    off = await service.open_table(GUILD, CHANNEL, "senet", None, HOST, "Host")
    await service.add_computer(off.id, HOST, "easy")
    await service.start(off.id, HOST)
    with pytest.raises(TableError) as err:
        await service.hint(off.id, HOST)
    assert err.value.code == "no_hints"
    await service.cancel(off.id, HOST, can_manage=True)
    on = await service.open_table(GUILD, CHANNEL, "senet", None, HOST, "Host", hints=True)
    assert on.hints
    await service.add_computer(on.id, HOST, "easy")
    result = await service.start(on.id, HOST)
    move = await service.hint(on.id, HOST)
    assert move in service.legal_moves_for(result.table, HOST)
    with pytest.raises(TableError) as err:
        await service.hint(on.id, OTHER)
    assert err.value.code == "not_seated"
    await play_out(service, on.id)
    assert len(await service._results.get_results(on.id)) == 2  # results are recorded ...
    assert await service._results.get_ratings(GUILD, "senet", [HOST, -1]) == {}  # ... unrated


def test_result_entries_are_per_level() -> None:
    taken: set[int] = set()
    for _ in range(3):
        taken.add(cpu.seat_user_id("hard", taken))
    assert {result_user_id(u) for u in taken} == {-3} and len(taken) == 3
    assert result_user_id(1234) == 1234 and computer_level(1234) is None


def test_the_fifth_game_s_computer_is_its_spec_s_not_a_random_move(
    nim_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    """From heaps 0, 1, 3 only "take 2 from 3" wins: the playouts the spec names find it at
    every seed, where the random fallback would often not; and nothing failed on the way."""
    state = nim.ENGINE.load({**nim.ENGINE.dump(nim.ENGINE.new(2)), "heaps": [0, 1, 3]})
    view, legal = nim.ENGINE.view(state, 0), nim.ENGINE.legal_moves(state, 0)
    with caplog.at_level("WARNING"):
        moves = {choose(nim_id, view, legal, 0, level, seed, 0.3)
                 for level in ("normal", "hard") for seed in range(6)}
    assert moves == {"take 2 from 3"} and not caplog.records


async def test_a_board_waiting_for_a_computer_says_it_is_thinking(service: TableService) -> None:
    """The member's turn tells them how to move; the computer's turn tells nobody to press
    buttons, in either language."""
    table = await service.open_table(GUILD, CHANNEL, "cows_leopards", None, HOST, "Host",
                                     side=0)
    await service.add_computer(table.id, HOST, "easy", side=1)
    member_turn = (await service.start(table.id, HOST)).table
    assert "your turn" in to_act_line(member_turn, member_turn.view(None), "en")
    move = service.legal_moves_for(member_turn, HOST)[0]
    computer_turn = (await service.play(table.id, HOST, move)).table
    assert computer_turn.to_act() == [1]
    assert to_act_line(computer_turn, computer_turn.view(None), "en") == (
        "➡️ **Computer (easy)** is thinking…")
    assert to_act_line(computer_turn, computer_turn.view(None), "ja") == (
        "➡️ **コンピューター（やさしい）**：考え中…")
