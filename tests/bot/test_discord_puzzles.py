"""/puzzle on simulated Discord: a member plays a puzzle privately, answers with one press
(right: the rating rises and the streak grows; wrong: the reverse), the message turns into
the answer with "Next puzzle"; refusals are polite; /puzzle stats; the starter set is loaded
once; the daily puzzle is posted once per server and day even by two bot processes."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import pytest

from bot.features.puzzles import service as puzzle_service
from bot.features.puzzles.daily import DailyPuzzles
from bot.features.puzzles.service import PuzzleService
from bot.storage import Database, open_database
from bot.tables.ratings import initial, ordinal
from bot.tables.settings import ServerSettings
from engines.ai.puzzles import mine
from tests.bot.conftest import (
    World,
    admin,
    button_ids,
    custom_ids,
    open_and_start,
    png_of,
    resign,
    text_of,
)
from tests.bot.test_discord_settings import field
from tests.helpers.puzzles import distinct_senet_puzzles


@pytest.fixture(autouse=True)
def no_starter_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """No shipped puzzles: each test says which puzzles exist (before the bot starts)."""
    monkeypatch.setattr(puzzle_service, "starter", lambda game: [])


async def add_puzzles(world: World, count: int) -> list[dict[str, Any]]:
    """`count` Senet puzzles of table 12 between Aki and Bo, stored for the server."""
    aki, bo = world.member("aki"), world.member("bo")
    puzzles = distinct_senet_puzzles(count)
    added = await world.bot.puzzles.store_mined(world.guild.id, 12, [(aki.id, "Aki"),
                                                                     (bo.id, "Bo")], puzzles)
    assert added == count
    return puzzles


def shown_puzzle(result: Any) -> Any:
    message = result.response
    assert result.ephemeral and message is not None, result
    return message


def choice_for(message: Any, puzzles: list[dict[str, Any]], right: bool) -> tuple[str, dict]:
    """The custom id of the right (or a wrong) choice of the puzzle `message` shows."""
    ids = [c for c in custom_ids(message) if c.startswith("pz:a:")]
    assert ids, custom_ids(message)
    labels = button_ids(message)
    for puzzle in puzzles:
        if len(puzzle["legal"]) != len(ids):
            continue
        wanted = puzzle["best"] if right else puzzle["played"]
        index = puzzle["legal"].index(wanted)
        custom_id = next(c for c in ids if c.endswith(f":{index}"))
        if labels[custom_id]:
            return custom_id, puzzle
    raise AssertionError("no puzzle matches the message")


async def test_no_puzzles_is_refused_politely(world: World) -> None:
    aki = world.member("aki")
    result = await aki.slash(world.channel, "puzzle play", game="senet")
    assert result.ephemeral
    assert "no puzzles of that game for you yet" in text_of(result.response)
    result = await aki.slash(world.channel, "puzzle play")
    assert "no puzzles for you yet" in text_of(result.response)


async def test_a_member_solves_a_puzzle_then_misses_one(world: World) -> None:
    puzzles = await add_puzzles(world, 2)
    aki = world.member("aki")
    first = shown_puzzle(await aki.slash(world.channel, "puzzle play", game="senet"))
    text = text_of(first)
    assert "Puzzle · Senet" in text and "From table 12, Aki v Bo: Aki played" in text
    png_of(await first.attachments[0].read())
    assert first.attachments[0].description  # alt text
    custom_id, puzzle = choice_for(first, puzzles, right=True)

    answered = await aki.click(first, custom_id=custom_id)
    after = answered.response or first
    text = text_of(after)
    assert "Correct!" in text and "Chance to win" in text
    assert "Streak: 1 (best 1)" in text and "Puzzle rating: 0.0 →" in text
    assert not [c for c in custom_ids(after) if c.startswith("pz:a:")]
    assert [c for c in custom_ids(after) if c.startswith("pz:n:")]
    png_of(await after.attachments[0].read())
    me, = await world.bot.puzzles.stats(world.guild.id, aki.id)
    assert ordinal(me.mu, me.sigma) > ordinal(*initial()) and me.streak == 1
    solved_row = await world.bot.puzzles.repo.pick(world.guild.id, world.member("bo").id,
                                                   ["senet"], 25.0, [])
    assert solved_row is not None

    # "Next puzzle": the other one, in the same message
    nxt = await aki.click(after, custom_id=next(c for c in custom_ids(after)
                                                if c.startswith("pz:n:")))
    second = nxt.response or after
    assert "Puzzle · Senet" in text_of(second)
    custom_id, _ = choice_for(second, [p for p in puzzles if p is not puzzle], right=False)
    missed = await aki.click(second, custom_id=custom_id)
    text = text_of(missed.response or second)
    assert "Not quite" in text and "Streak: 0 (best 1)" in text
    me, = await world.bot.puzzles.stats(world.guild.id, aki.id)
    assert (me.attempts, me.solved, me.streak, me.best_streak) == (2, 1, 0, 1)

    stats = await aki.slash(world.channel, "puzzle stats")
    embed = stats.response.embeds[0]
    assert stats.ephemeral and embed.fields[0].name == "Senet"
    assert "solved 1 of 2" in embed.fields[0].value and "best 1" in embed.fields[0].value


async def test_a_puzzle_answers_once(world: World) -> None:
    puzzles = await add_puzzles(world, 1)
    aki = world.member("aki")
    shown = shown_puzzle(await aki.slash(world.channel, "puzzle play"))
    right, _ = choice_for(shown, puzzles, right=True)
    wrong, _ = choice_for(shown, puzzles, right=False)
    # Discord fails to edit the message: the answer is stored and told in a new message
    world.env.inject_error("PATCH", "/webhooks/*", status=500, times=1)
    answered = await aki.click(shown, custom_id=right)
    assert "Correct!" in text_of(answered.followups[-1])
    # the message still shows its choices: a second press is refused privately
    refused = await aki.click(shown, custom_id=wrong)
    assert refused.ephemeral and "answered already" in text_of(refused.response)
    me, = await world.bot.puzzles.stats(world.guild.id, aki.id)
    assert (me.attempts, me.solved) == (1, 1)


# -- mining a finished table -----------------------------------------------------------------


async def test_a_finished_tables_blunder_becomes_a_puzzle_of_its_server(world: World) -> None:
    """Aki blunders at a one-set Varanasi table and resigns; once the final board is posted
    the game is mined in the background and the blunder is Aki's puzzle next time."""
    for _ in range(6):  # a deal where the player to move can blunder (most have)
        table = await world.table(await open_and_start(world, "varanasi", "aki", ["bo"],
                                                       sets=1))
        seat = table.to_act()[0]
        legal = sorted(table.legal_moves(seat))
        blunders = {m: found for m in legal
                    if (found := mine("varanasi", dict(table.options), 2,
                                      [*table.log, (seat, m)]))}
        if blunders:
            break
        await resign(world.member(table.seats[seat].name), world.place(table))
    else:
        raise AssertionError("no deal with a blunder")
    blunder, [expected] = next(iter(blunders.items()))
    mover = table.seats[seat]
    member = world.member(mover.name)
    await member.slash(world.place(table), "move", move=blunder)
    await resign(member, world.place(table))
    await world.bot.puzzle_miner.idle()  # mined in the background once the end was posted
    assert (await world.table(table.id)).status == "finished"

    shown = shown_puzzle(await member.slash(world.channel, "puzzle play", game="varanasi"))
    text = text_of(shown)
    names = " v ".join(seat.name for seat in table.seats)
    assert f"From table {table.id}, {names}: {mover.name} played" in text
    ids = [c for c in custom_ids(shown) if c.startswith("pz:a:")]
    assert len(ids) == len(legal)
    right = ids[0].rsplit(":", 1)[0] + f":{legal.index(expected['best'])}"
    answered = await member.click(shown, custom_id=right)
    text = text_of(answered.response or shown)
    assert "Correct!" in text and "The winning line:" in text


# -- the starter set ---------------------------------------------------------------------------


async def test_the_starter_set_is_loaded_once_and_comes_after_the_servers_own(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped, own = distinct_senet_puzzles(2)
    monkeypatch.setattr(puzzle_service, "starter",
                        lambda game: [dict(shipped)] if game == "senet" else [])
    assert await world.bot.puzzles.load_starter() == 1
    assert await world.bot.puzzles.load_starter() == 0  # every start: nothing new
    aki = world.member("aki")
    await world.bot.puzzles.store_mined(world.guild.id, 12, [(aki.id, "Aki"), (2, "Bo")],
                                        [own])
    first = shown_puzzle(await aki.slash(world.channel, "puzzle play"))
    assert "From table 12" in text_of(first)  # the server's own first
    custom_id, _ = choice_for(first, [own], right=True)
    after = await aki.click(first, custom_id=custom_id)
    nxt = await aki.click(after.response or first, custom_id="pz:n:senet")
    starter = nxt.response
    assert starter is not None and "Puzzle · Senet" in text_of(starter)
    assert "From table" not in text_of(starter)  # a shipped puzzle has no source


# -- the daily puzzle ----------------------------------------------------------------------------


async def test_the_daily_puzzle_is_posted_once_by_two_processes(world: World) -> None:
    """Two bot processes over one database run the daily chore: one post a day; the next
    day's post says how many solved yesterday's and who was fastest."""
    await add_puzzles(world, 3)
    aki, bo = world.member("aki"), world.member("bo")
    boss = admin(world)
    zones = await boss.autocomplete(world.channel, "settings", "time_zone", "tok")
    assert [c["value"] for c in zones][:1] == ["Asia/Tokyo"]
    saved = await boss.slash(world.channel, "settings", puzzle_channel=world.channel,
                             time_zone="Asia/Tokyo")
    embed = saved.response.embeds[0]
    assert field(embed, "Time zone") == "Asia/Tokyo"
    assert field(embed, "Daily puzzle") == f"<#{world.channel.id}>"
    refused = await boss.slash(world.channel, "settings", time_zone="Mars/Olympus")
    assert "time zone must be a name such as Asia/Tokyo" in text_of(refused.response)

    bot = world.bot
    assert bot.db is not None
    other_db = await open_database(world.database)  # a second process's connection
    days_later = [0]  # the processes' clock runs ahead by this many days

    def clock() -> datetime:
        return bot.service.now() + timedelta(days=days_later[0])

    def process(db: Database) -> DailyPuzzles:
        service = PuzzleService(db.puzzles, ServerSettings(db.settings, clock), clock)
        return DailyPuzzles(bot.owns_guild, service, bot.daily_puzzles.places)

    try:
        first, second = process(bot.db), process(other_db)
        posts = await asyncio.gather(first.post_due(), second.post_due())
        assert sorted(posts) == [0, 1]
        assert await first.post_due() == 0 and await second.post_due() == 0
        daily = [m for m in world.bot_messages(world.channel) if "Daily puzzle" in m.content]
        assert len(daily) == 1
        post = daily[0]
        png_of(await post.attachments[0].read())
        assert post.attachments[0].description
        solve = next(c for c in custom_ids(post) if c.startswith("pz:d:"))
        # Aki solves it privately; Bo misses; Aki pressing again is told politely
        puzzles = distinct_senet_puzzles(3)
        for member, right in ((aki, True), (bo, False)):
            await world.env.advance_time(60)
            shown = shown_puzzle(await member.click(post, custom_id=solve))
            custom_id, _ = choice_for(shown, puzzles, right=right)
            await member.click(shown, custom_id=custom_id)
        again = await aki.click(post, custom_id=solve)
        assert again.ephemeral and "already" in text_of(again.response)

        # the next local day (Tokyo): one new post, and yesterday's shows its solvers
        days_later[0] = 1
        posts = await asyncio.gather(second.post_due(), first.post_due())
        assert sorted(posts) == [0, 1]
        daily = [m for m in world.bot_messages(world.channel) if "Daily puzzle" in m.content]
        assert len(daily) == 2
        assert "Solved by 1 member" in daily[0].content and f"<@{aki.id}> 1:00" in daily[0].content
        assert "Yesterday's puzzle: Solved by 1 member" in daily[1].content
    finally:
        await other_db.close()


async def test_a_puzzle_in_japanese(world: World, user_locales: dict[int, str]) -> None:
    puzzles = await add_puzzles(world, 1)
    aki = world.member("aki")
    user_locales[aki.id] = "ja"
    shown = shown_puzzle(await aki.slash(world.channel, "puzzle play"))
    assert "パズル・セネト" in text_of(shown) and "卓12（Aki 対 Bo）より" in text_of(shown)
    custom_id, _ = choice_for(shown, puzzles, right=False)
    answered = await aki.click(shown, custom_id=custom_id)
    text = text_of(answered.response or shown)
    assert "惜しい" in text and "勝率" in text and "連続正解：0（最高0）" in text
    stats = await aki.slash(world.channel, "puzzle stats")
    assert "1問中0問正解" in stats.response.embeds[0].fields[0].value
