"""/review of a finished game: each player's accuracy and biggest mistakes, the evaluation
picture, and a button per mistake showing the board after it beside the better move."""

from __future__ import annotations

import io

from bot.features.review import review as review_ui
from PIL import Image

from tests.bot.conftest import World, button_ids, open_and_start
from tests.bot.test_discord_history import finish


async def test_review_of_a_finished_game(world: World) -> None:
    review_ui.forget()
    table_id = await open_and_start(world, "senet", "aki", ["bo"])
    await finish(world, table_id, 40, "bo")
    aki = world.members["aki"]

    shown = await aki.slash(world.channel, "review", table=table_id)
    message = shown.followups[-1] if shown.followups else shown.response
    assert not message.ephemeral
    embed = message.embeds[0]
    assert f"table {table_id}" in embed.title
    names = [field.name for field in embed.fields]
    assert len(names) == 2
    assert names[0].startswith("1. aki: accuracy ") and names[1].startswith("2. bo: ")
    picture = Image.open(io.BytesIO(await message.attachments[0].read()))
    assert picture.format == "PNG" and picture.width >= 800

    buttons = [i for i in button_ids(message) if i.startswith(f"rv:{table_id}:")]
    assert len(buttons) == sum(field.value.count("Move ") for field in embed.fields)

    # Asked again, the review comes from the cache (the same text, nothing recomputed).
    cached = len(review_ui._cache)
    again = await world.member("cy").slash(world.channel, "review", table=table_id)
    message2 = again.followups[-1] if again.followups else again.response
    assert message2.embeds[0].fields[0].value == embed.fields[0].value
    assert len(review_ui._cache) == cached


async def test_review_of_a_running_game_is_refused(world: World) -> None:
    running = await open_and_start(world, "senet", "aki", ["bo"])
    refused = await world.member("aki").slash(world.channel, "review", table=running)
    assert refused.ephemeral
    assert "aren't allowed" in refused.response.content
    unknown = await world.member("aki").slash(world.channel, "review", table=9999)
    assert unknown.ephemeral and "can't find that table" in unknown.response.content


async def test_a_blunder_is_listed_with_its_button(world: World) -> None:
    """Varanasi, judged exactly: a game where the players move at random has mistakes, and
    each listed one gets its button."""
    review_ui.forget()
    table_id = await open_and_start(world, "varanasi", "aki", ["bo"], sets=1)
    await finish(world, table_id, 12, "aki")
    shown = await world.members["bo"].slash(world.channel, "review", table=table_id)
    message = shown.followups[-1] if shown.followups else shown.response
    text = "\n".join(field.value for field in message.embeds[0].fields)
    buttons = [i for i in button_ids(message) if i.startswith(f"rv:{table_id}:")]
    assert buttons and len(buttons) == text.count("Move ")
    assert "turns a won game into a lost one" in text

    # Anyone may look at a mistake: a private reply with both boards.
    pressed = await world.member("cy").click(message, custom_id=buttons[0])
    reply = pressed.followups[-1] if pressed.followups else pressed.response
    assert reply.ephemeral
    assert "red is the move played" in reply.content
    board = Image.open(io.BytesIO(await reply.attachments[0].read()))
    assert board.format == "PNG" and 800 <= board.width <= 1200
