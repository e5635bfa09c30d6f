"""/rules (a private guide in pages, shareable), /help (every command, privately) and the
confirmation of /resign, through simcord, in English and Japanese."""

from __future__ import annotations

import re

import simcord

from bot.features.guide.texts import PAGES
from bot.i18n import commands
from engines import GAME_IDS, get_engine
from tests.bot.conftest import World, children, custom_ids, open_and_start, png_of, resign

MENTION = re.compile(r"</([a-z_ ]+):(\d+)>")


def page_select(message) -> str:
    (select,) = [c for c in children(message) if str(c.custom_id).startswith("rules:")]
    return select.custom_id


async def read_pages(member: simcord.MemberActor, channel, game: str) -> dict[str, object]:
    """Open /rules `game` and turn to every page; page key -> the embed shown."""
    result = await member.slash(channel, "rules", game=game)
    assert result.ephemeral
    message = result.followups[-1] if result.followups else result.response
    assert message.ephemeral
    assert message.attachments and message.attachments[0].filename == "rules.png"
    png_of(await message.attachments[0].read())
    seen = {"goal": message.embeds[0]}
    for page in PAGES[1:]:
        await member.select(message, [page], custom_id=page_select(message))
        refreshed = [m for m in channel.history(viewer=member) if m.id == message.id]
        message = refreshed[0] if refreshed else message
        seen[page] = message.embeds[0]
    return seen


async def test_rules_pages_in_english(world: World) -> None:
    aki = world.member("aki")
    for game in GAME_IDS:
        pages = await read_pages(aki, world.channel, game)
        assert [e.title.split(": ")[-1] for e in pages.values()] == [
            "Goal", "Setup", "A turn", "Special rules", "Options", "Notation"]
        assert all(e.image.url == "attachment://rules.png" for e in pages.values())
        options = pages["options"].description
        for option in get_engine(game).option_spec:
            if option.name != "players":
                assert f"**{option.name}**" in options
        assert MENTION.search(pages["notation"].description)  # </move:id>
    senet = await read_pages(aki, world.channel, "senet")
    assert "26" in senet["special"].description and "exactly **3**" in senet[
        "special"].description
    assert "backward" in senet["turn"].description
    six = await read_pages(aki, world.channel, "six_nimmt")
    assert "**10 cards**" in six["setup"].description and "four rows" in six[
        "setup"].description
    assert "55 has 7" in six["setup"].description
    varanasi = await read_pages(aki, world.channel, "varanasi")
    assert "passing is not allowed" in varanasi["turn"].description
    assert "empty spot" in varanasi["turn"].description
    # the default that depends on the player count is given per count
    assert "3 with 2 players, 4 with 3 players and 5 with 4 players" in varanasi[
        "options"].description
    cows = await read_pages(aki, world.channel, "cows_leopards")
    assert "e5" in cows["setup"].description and "cows move first" in cows[
        "setup"].description
    # nothing was posted in the channel: the guide is private
    assert not [m for m in world.bot_messages(world.channel) if not m.flags.ephemeral]


async def test_rules_pages_in_japanese_and_sharing(world: World, user_locales) -> None:
    aki, bo = world.member("aki"), world.member("bo")
    user_locales[aki.user.id] = "ja"
    pages = await read_pages(aki, world.channel, "varanasi")
    titles = [e.title for e in pages.values()]
    assert titles[0] == "バラナシの遊び方：目的"
    assert titles[-1] == "バラナシの遊び方：手の書き方"
    options = pages["options"].description
    assert "**色数**" in options and "colours" not in options  # the slash option's name
    assert "2人なら3、3人なら4、4人なら5" in options
    assert "（3〜6、既定：" in options and options.count("既定：") == len(
        [o for o in get_engine("varanasi").option_spec if o.name != "players"])
    assert "パスはできません" in pages["turn"].description
    # Sharing posts the page in the channel, in the channel's language (English here).
    result = await aki.slash(world.channel, "rules", game="senet")
    message = result.followups[-1] if result.followups else result.response
    share = next(c for c in custom_ids(message) if c.startswith("rshare:"))
    shared = await aki.click(message, custom_id=share)
    assert shared.ephemeral
    public = [m for m in world.bot_messages(world.channel) if not m.flags.ephemeral]
    assert len(public) == 1 and public[0].embeds[0].title == "How to play Senet: Goal"
    png_of(await public[0].attachments[0].read())
    assert public[0] in world.bot_messages(world.channel, viewer=bo)


async def test_help_lists_every_command_privately(world: World, user_locales) -> None:
    aki = world.member("aki")
    result = await aki.slash(world.channel, "help")
    assert result.ephemeral
    (embed,) = result.response.embeds
    lines = embed.description.splitlines()
    named = {m.group(1) for line in lines for m in [MENTION.match(line)] if m}
    available = set(aki.available_commands(world.channel))
    # every command a member can use, plus the moderators' /settings; one line each
    assert available <= named and named - available <= {"settings"}
    assert len(lines) == len(named)
    ids = commands.known()
    assert all(f"</{path}:{ids[path.split()[0]]}>" in embed.description for path in named)
    user_locales[aki.user.id] = "ja"
    (japanese,) = (await aki.slash(world.channel, "help")).response.embeds
    assert japanese.title == "コマンド一覧"
    assert "投了します" in japanese.description


async def test_resign_asks_for_confirmation(world: World, user_locales) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"])
    table = await world.table(table_id)
    place = world.place(table)
    bo = world.members["bo"]
    user_locales[bo.user.id] = "ja"
    asked = await bo.slash(place, "resign")
    assert asked.ephemeral
    assert "本当に投了しますか" in asked.response.content
    assert (await world.table(table_id)).status == "running"  # nothing happened yet
    done = await resign(bo, place)
    answers = [m.content for m in done.followups] + [done.response.content if done.response
                                                       else ""]
    assert any("投了しました" in text for text in answers), answers
    assert (await world.table(table_id)).status == "finished"
    # the old question's button no longer resigns anything
    late = await bo.click(asked.response, custom_id=f"resign:{table_id}")
    assert late.acknowledged
    outsider = world.member("cy")
    refused = await outsider.slash(place, "resign")
    assert refused.ephemeral and not custom_ids(refused.response)
