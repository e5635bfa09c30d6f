"""/puzzle on simulated Discord: a member plays a puzzle privately, answers with one press
(right: the rating rises and the streak grows; wrong: the reverse), the message turns into
the answer with "Next puzzle"; refusals are polite; /puzzle stats; the starter set is loaded
once; the daily puzzle is posted once per server and day even by two bot processes."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.features.puzzles import service as puzzle_service
from bot.tables.ratings import initial, ordinal
from tests.bot.conftest import World, button_ids, custom_ids, png_of, text_of
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
