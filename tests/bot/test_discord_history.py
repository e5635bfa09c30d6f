"""/history, /replay and /export after a couple of finished games."""

from __future__ import annotations

import io
import json

from PIL import Image

from bot.tables.export import load_export
from tests.bot.conftest import Driver, World, button_ids, open_and_start, resign


async def finish(world: World, table_id: int, plies: int, resigner: str) -> None:
    """Play a few moves through the UI, then one player resigns (the game ends)."""
    await Driver(world, table_id, seed=table_id).play_until(stop=lambda t: t.ply >= plies)
    table = await world.table(table_id)
    if table.status == "running":  # a short game may have ended by itself
        result = await resign(world.members[resigner], world.place(table))
        assert result.ephemeral
    assert (await world.table(table_id)).status == "finished"


async def test_history_replay_export(world: World) -> None:
    first = await open_and_start(world, "senet", "aki", ["bo"])
    await finish(world, first, 8, "bo")
    second = await open_and_start(world, "cows_leopards", "bo", ["aki"],
                                  sides={"bo": 0, "aki": 1})
    await finish(world, second, 6, "aki")
    aki = world.members["aki"]

    shown = await aki.slash(world.channel, "history")
    text = shown.response.embeds[0].description
    assert text.index(f"table {second}") < text.index(f"table {first}")  # newest first
    assert "#1 aki" in text and "#2 bo" in text and "#1 bo" in text and "#2 aki" in text
    assert "<t:" in text  # Discord timestamps
    mine = await world.member("cy").slash(world.channel, "history", member=world.members["bo"])
    assert f"table {first}" in mine.response.embeds[0].description

    choices = await aki.autocomplete(world.channel, "replay", "table", "")
    assert [c["value"] for c in choices][:2] == [second, first]

    replayed = await aki.slash(world.channel, "replay", table=first)
    message = replayed.followups[-1] if replayed.followups else replayed.response
    assert not message.ephemeral
    attachment = message.attachments[0]
    assert attachment.filename.endswith(".gif")
    image = Image.open(io.BytesIO(await attachment.read()))
    assert image.format == "GIF" and image.n_frames >= 3

    exported = await aki.slash(world.channel, "export", table=second)
    message = exported.followups[-1] if exported.followups else exported.response
    data = json.loads(await message.attachments[0].read())
    state, steps = load_export(data)
    table = await world.table(second)
    assert table.engine.dump(state) == table.engine.dump(table.state)
    assert len(steps) == table.ply


async def test_replay_of_unknown_table_is_refused(world: World) -> None:
    aki = world.member("aki")
    refused = await aki.slash(world.channel, "replay", table=9999)
    assert refused.ephemeral
    assert "can't find that table" in refused.response.content
    running = await open_and_start(world, "senet", "aki", ["bo"])
    refused = await aki.slash(world.channel, "export", table=running)
    assert refused.ephemeral and "aren't allowed" in refused.response.content


async def resigned_to_a_computer(world: World, monkeypatch) -> int:
    """A Senet table in a Japanese-speaking server where aki resigns to a normal computer."""
    monkeypatch.setenv("BOT_COMPUTER_DELAY", "0")
    await world.bot.service.settings.update(world.guild.id, language="ja")
    aki = world.member("aki")
    await world.before_play("aki")
    lobby = (await aki.slash(world.channel, "play senet")).response
    table_id = int(next(iter(button_ids(lobby))).split(":")[1])
    await aki.click(lobby, custom_id=f"lobby:{table_id}:cpunormal")
    start = next(i for i in button_ids(lobby) if ":start" in i)
    await aki.click(lobby, custom_id=start)
    table = await world.table(table_id)
    await resign(aki, world.place(table))
    assert (await world.table(table_id)).status == "finished"
    return table_id


async def test_replay_has_alt_text_naming_the_players(world: World, monkeypatch) -> None:
    """The replay's GIF carries a description for screen readers, in the channel's language,
    naming the member and the computer as the boards do."""
    table_id = await resigned_to_a_computer(world, monkeypatch)
    replayed = await world.members["aki"].slash(world.channel, "replay", table=table_id)
    message = replayed.followups[-1] if replayed.followups else replayed.response
    (attachment,) = message.attachments
    alt = attachment.description or ""
    assert 0 < len(alt) <= 1024
    assert "リプレイ" in alt and "aki" in alt and "コンピューター（ふつう）" in alt, alt
    assert "Computer" not in alt


async def test_export_names_a_computer_in_the_readers_language(world: World,
                                                               monkeypatch) -> None:
    """The export names the computer as the channel reads it and keeps its raw id and level;
    the file still replays."""
    table_id = await resigned_to_a_computer(world, monkeypatch)
    exported = await world.members["aki"].slash(world.channel, "export", table=table_id)
    message = exported.followups[-1] if exported.followups else exported.response
    data = json.loads(await message.attachments[0].read())
    table = await world.table(table_id)
    computer = next(i for i, seat in enumerate(table.seats) if seat.user_id < 0)
    seat = data["seats"][computer]
    assert seat == {"seat": computer, "name": "コンピューター（ふつう）",
                    "user_id": table.seats[computer].user_id, "computer": "normal"}
    member = data["seats"][1 - computer]
    assert member["name"] == "aki" and "computer" not in member
    state, _ = load_export(data)
    assert table.engine.dump(state) == table.engine.dump(table.state)
