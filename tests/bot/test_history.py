"""History, exports and replays of tables played through the table service."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from bot.storage import Database
from bot.tables import Table, TableError, TableService
from bot.tables.export import (
    FORMAT,
    export_table,
    exportable,
    from_json_bytes,
    load_export,
    to_json_bytes,
)
from bot.tables.history import export_file, recent_games, replay_file
from engines import CHANCE, get_engine
from renderers.replay import PlayedGame, replay_frames
from tests.bot.test_tables import play_random, started

GUILD, OTHER_GUILD = 1, 2


async def finish(service: TableService, game: str, players: int, channel: int, users: list[int],
                 options: dict | None = None, guild: int = GUILD, seed: int = 1) -> Table:
    result = await started(service, game, players, options=options, channel=channel,
                           guild=guild, users=users)
    result = await play_random(service, result, random.Random(seed))
    assert result.finished
    return result.table


@pytest.fixture
async def played(service: TableService) -> list[Table]:
    """Three finished tables in GUILD (oldest first), one elsewhere, one running, one resigned
    and one cancelled."""
    tables = [
        await finish(service, "six_nimmt", 3, 10, [100, 101, 102], {"points": 12}),
        await finish(service, "cows_leopards", 2, 11, [101, 103], {"quiet_limit": 10}),
        await finish(service, "varanasi", 2, 12, [100, 103], seed=3),
    ]
    await finish(service, "cows_leopards", 2, 13, [100, 101], {"quiet_limit": 10},
                 guild=OTHER_GUILD)
    running = await started(service, "six_nimmt", 2, channel=14, users=[102, 103])
    assert running.table.status == "running"
    resigning = await started(service, "senet", 2, channel=15, users=[104, 105])
    resigning = await play_random(service, resigning, random.Random(4), limit=6)
    resigned = (await service.resign(resigning.table.id, 104)).table
    cancelled = await started(service, "senet", 2, channel=16, users=[106, 107])
    await service.cancel(cancelled.table.id, 106, can_manage=True)
    return [*tables, resigned]


async def test_history_lists_finished_tables_newest_first(
    service: TableService, db: Database, played: list[Table]
) -> None:
    games = await recent_games(service, GUILD)
    assert [g.table_id for g in games] == [t.id for t in reversed(played)]
    assert games == await recent_games(db.history, GUILD) == await db.history.finished_tables(
        GUILD)
    for entry, table in zip(games, reversed(played), strict=True):
        assert entry.game == table.game and entry.guild_id == GUILD
        assert entry.finished_at == table.finished_at and entry.created_at == table.created_at
        assert [p.user_id for p in entry.players] == [s.user_id for s in table.seats]
        assert [p.name for p in entry.players] == [s.name for s in table.seats]
        assert [p.rank for p in entry.players] == table.outcome["ranks"]
        assert [p.score for p in entry.players] == table.outcome["scores"]
        assert entry.winners and all(p.rank == 1 for p in entry.winners)
    resigned = games[0]
    assert [p.resigned for p in resigned.players] == [p.user_id == 104 for p in resigned.players]
    assert [p.rank for p in resigned.players] == [2 if p.resigned else 1
                                                  for p in resigned.players]
    assert games[1].finished_at >= games[2].finished_at >= games[3].finished_at


async def test_history_of_one_member_and_limits(service: TableService,
                                                played: list[Table]) -> None:
    mine = await recent_games(service, GUILD, user_id=103)
    assert [g.table_id for g in mine] == [played[2].id, played[1].id]
    assert all(103 in [p.user_id for p in g.players] for g in mine)
    assert [g.table_id for g in await recent_games(service, GUILD, limit=1)] == [played[3].id]
    assert await recent_games(service, GUILD, user_id=999) == []
    assert len(await recent_games(service, OTHER_GUILD)) == 1
    assert await recent_games(service, 12345) == []


async def test_export_reloads_to_the_same_final_position(played: list[Table]) -> None:
    for table in played:
        export = export_table(table)
        data = to_json_bytes(export)
        loaded = json.loads(data)
        assert loaded == json.loads(json.dumps(export))
        assert loaded["format"] == FORMAT and loaded["game"] == table.game
        assert loaded["seats"][0] == {"seat": 0, "name": table.seats[0].name,
                                      "user_id": table.seats[0].user_id}
        assert loaded["log"] == [list(entry) for entry in table.log]
        state, steps = load_export(loaded)
        eng = get_engine(table.game)
        assert eng.dump(state) == eng.dump(table.state) == loaded["position"]
        assert [(s.actor, s.move.text) for s in steps] == table.log
        assert from_json_bytes(data)[0] == state
        # The same file drives a replay of the same game.
        frames = replay_frames(PlayedGame(loaded["game"], loaded["options"], loaded["players"],
                                          loaded["log"], loaded["outcome"]))
        assert frames[-1][0] == eng.view(table.state, None)
        assert exportable(table)


async def test_a_tampered_export_is_refused(played: list[Table]) -> None:
    original = json.loads(to_json_bytes(export_table(played[0])))  # 6 nimmt!

    def refused(change, match: str) -> None:
        data = json.loads(json.dumps(original))
        change(data)
        with pytest.raises(ValueError, match=match):
            load_export(data)

    def swap_a_pick(data: dict) -> None:
        index = next(i for i, (a, m) in enumerate(data["log"]) if a != CHANCE)
        actor, move = data["log"][index]
        data["log"][index] = [actor, "play 105"]

    def deal_twice(data: dict) -> None:
        actor, move = data["log"][0]
        cards = move.split()
        cards[2] = cards[1]
        data["log"][0] = [actor, " ".join(cards)]

    refused(swap_a_pick, r"log\[\d+\].*does not replay")
    refused(deal_twice, r"log\[0\].*does not replay")
    refused(lambda d: d["log"].pop(), "position")
    refused(lambda d: d["log"].__setitem__(1, [7, "play 3"]), r"log\[1\]: there is no actor")
    refused(lambda d: d["log"].__setitem__(1, ["0", "play 3"]), r"log\[1\]: must be")
    refused(lambda d: d.update(game="chess"), "game")
    refused(lambda d: d.update(options={"points": -1}), "options")
    refused(lambda d: d.update(format="other"), "format")
    refused(lambda d: d.pop("log"), "log")
    refused(lambda d: d["outcome"].update(ranks=[9, 9, 9]), "outcome")
    with pytest.raises(ValueError, match="JSON"):
        from_json_bytes(b"{not json")


async def test_files_for_the_discord_layer(service: TableService, played: list[Table]) -> None:
    finished = played[1]
    file = await export_file(service, finished.id, GUILD)
    assert file.filename == f"table-{finished.id}-cows_leopards.json"
    assert load_export(json.loads(file.data))[0] == finished.state

    with pytest.raises(TableError) as caught:
        await export_file(service, finished.id, OTHER_GUILD)
    assert caught.value.code == "not_found"
    running = (await service.running_tables())[0]
    with pytest.raises(TableError) as caught:
        await export_file(service, running.id, GUILD)
    assert caught.value.code == "not_allowed"

    # A replay of the resigned Senet table: a GIF whose last frame is the final picture.
    resigned = played[3]
    gif = await replay_file(service, resigned.id, GUILD, frame_ms=600)
    assert gif.filename.endswith(".gif") and gif.data[:6] == b"GIF89a"
    with Image.open(io.BytesIO(gif.data)) as image:
        assert image.n_frames == gif.frames >= 2
        image.seek(image.n_frames - 1)
        assert image.info["duration"] == 3000
    # A running table may be replayed too: public views only.
    live = await replay_file(service, running.id, GUILD)
    assert live.data[:6] == b"GIF89a" and live.frames >= 1


async def test_a_replay_is_drawn_in_the_readers_language(
    service: TableService, played: list[Table]
) -> None:
    resigned = played[3]
    english = await replay_file(service, resigned.id, GUILD, locale="en-US", frame_ms=600)
    japanese = await replay_file(service, resigned.id, GUILD, locale="ja", frame_ms=600)
    assert japanese.frames == english.frames
    # The same boards, but the words drawn on them (standings, labels) are Japanese.
    assert japanese.data != english.data
