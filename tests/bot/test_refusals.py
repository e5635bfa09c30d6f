"""Engine refusals (illegal moves, bad options) reach the player in their own language: the
engines raise English templates with params, the service passes them on in the TableError,
and the bot translates the template and the word params (colours, row ends, option names)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.features.common.errors import table_error_text
from bot.i18n.refusals import error_reason
from bot.tables import TableError, TableService
from bot.tables.errors import reason_params
from engines import IllegalMove, OptionError, get_engine
from engines.explained import Word
from engines.six_nimmt import _side_message
from tests.bot.conftest import World, open_and_start, private_text

GUILD, CHANNEL, HOST = 1, 10, 100


async def refusal(code: str, call: Any) -> TableError:
    with pytest.raises(TableError) as info:
        await call
    assert info.value.code == code, info.value
    return info.value


def test_templates_keep_the_english_text() -> None:
    err = IllegalMove("you have no stone on square {square}", square=12)
    assert str(err) == "you have no stone on square 12" and isinstance(err, ValueError)
    assert err.template == "you have no stone on square {square}"
    assert err.params == {"square": 12}
    plain = IllegalMove("the game is over")  # one plain string still works
    assert str(plain) == plain.template == "the game is over" and plain.params == {}
    assert isinstance(OptionError("x"), ValueError)
    assert reason_params(ValueError("odd")) == {"reason": "odd"}  # no template: English only


async def test_illegal_move_from_the_service_in_both_languages(service: TableService) -> None:
    lobby = await service.open_table(GUILD, CHANNEL, "senet", None, HOST, "Aki")
    await service.join(lobby.id, HOST + 1, "Bo")
    table = (await service.start(lobby.id, HOST, shuffle=False)).table
    mover = table.seats[table.to_act()[0]].user_id
    error = await refusal("illegal", service.play(table.id, mover, "move 29"))
    assert error.params["reason"] == "you have no stone on square 29"  # existing keys kept
    assert error.params["move"] == "move 29"
    assert error.params["reason_template"] == "you have no stone on square {square}"
    assert error.params["reason_params"] == {"square": 29}
    assert table_error_text(error, "ja") == "その手は選べません：29マスにあなたの駒はありません"
    assert table_error_text(error, "en-US") == \
        "That move isn't allowed: you have no stone on square 29"


async def test_bad_options_in_both_languages(service: TableService) -> None:
    # An option name is shown as the client shows it (the "option" context).
    error = await refusal("bad_options", service.open_table(
        GUILD, 20, "six_nimmt", {"points": 0}, HOST, "H"))
    assert table_error_text(error, "ja") == \
        "そのオプションの組み合わせは使えません：オプション「持ち点」は1〜1000で指定してください"
    assert table_error_text(error, "en-US") == \
        "Those options don't work together: option 'points' must be from 1 to 1000"
    error = await refusal("bad_options", service.open_table(
        GUILD, 21, "senet", {"speed": 1}, HOST, "H"))
    assert table_error_text(error, "ja").endswith("「speed」というオプションはありません")
    # Refused at start: the engine's own check of a combination.
    lobby = await service.open_table(GUILD, 22, "varanasi", {"teams": True}, HOST, "H")
    for uid in (HOST + 1, HOST + 2):
        await service.join(lobby.id, uid, f"U{uid}")
    error = await refusal("bad_options", service.start(lobby.id, HOST))
    assert table_error_text(error, "ja").endswith("ペア戦はちょうど4人のときだけ選べます")
    assert "option 'teams' needs exactly 4 players" in table_error_text(error, "en-US")


def test_word_params_are_translated() -> None:
    eng = get_engine("varanasi")
    state = eng.apply(eng.new(2), -1, "setup r1|b1|g1|r2|b2|g2|r3|b3|g3|r4|b4|g4")
    with pytest.raises(IllegalMove) as info:
        eng.apply_events(state, 0, "take k")
    assert info.value.params == {"colour": "black"} and isinstance(
        info.value.params["colour"], Word)
    error = TableError("illegal", move="take k", **reason_params(info.value))
    assert table_error_text(error, "ja") == "その手は選べません：一番上が黒のディスクはありません"
    assert table_error_text(error, "en-US") == "That move isn't allowed: no top disc is black"

    # 6 nimmt! row ends are words; the move texts to type stay as they are.
    side = _side_message(17, [(2, "right"), (0, "left")])
    assert str(side) == ("17 is as close to the left end of row 1 as to the right end of row 3: "
                         "choose 'place 1 left' or 'place 3 right'")
    assert error_reason("ja", side) == ("17は1列目の左端にも3列目の右端にも同じだけ近いため、"
                                        "「place 1 left」か「place 3 right」を選んでください")
    assert error_reason("en-US", side) == str(side)
    assert error_reason("ja", ValueError("plain")) == "plain"


# -- through the simulated Discord ----------------------------------------------------------


async def test_move_refusal_follows_the_user_locale(
    world: World, user_locales: dict[int, str]
) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"], shuffle=False)
    table = await world.table(table_id)
    place = world.place(table)
    mover = world.members[table.seats[table.to_act()[0]].name]
    user_locales[mover.user.id] = "ja"
    text = private_text(await mover.slash(place, "move", move="move 29"))
    assert text == "その手は選べません：29マスにあなたの駒はありません"
    user_locales[mover.user.id] = "en-US"
    text = private_text(await mover.slash(place, "move", move="move 29"))
    assert text == "That move isn't allowed: you have no stone on square 29"
    assert (await world.table(table_id)).ply == table.ply


async def test_word_param_in_a_move_refusal(world: World, user_locales: dict[int, str]) -> None:
    table_id = await open_and_start(world, "varanasi", "aki", ["bo"], shuffle=False)
    table = await world.table(table_id)
    place = world.place(table)
    mover = world.members[table.seats[table.to_act()[0]].name]
    user_locales[mover.user.id] = "ja"
    text = private_text(await mover.slash(place, "move", move="take k"))  # black: not in play
    assert text == "その手は選べません：一番上が黒のディスクはありません"
    user_locales[mover.user.id] = "en-GB"
    text = private_text(await mover.slash(place, "move", move="take k"))
    assert text == "That move isn't allowed: no top disc is black"
