"""Whole tournaments through simcord, from sign-up to final standings, with a restart in the
middle: an 8-player Swiss tournament of Senet and a 12-player 6 nimmt! tournament of
multi-table rounds with computer fill-ins. Members move through the table service (quick);
everything else (sign-up, start time, tables in threads, standings) goes through Discord."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from bot.features.tournaments.tournament import error_text
from bot.tables import TableError
from bot.tables.pipeline import auto_turn
from bot.tournaments.service import Tournament, TournamentError
from tests.bot.conftest import World, button_ids, png_of, resign

pytestmark = pytest.mark.usefixtures("fast_computers")


def organiser(world: World) -> Any:
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.member("org", roles=[role])


def private(result: Any) -> str:
    replies = [m for m in result.followups if m.content] or [result.response]
    assert replies and all(m.ephemeral for m in replies), result
    return replies[-1].content


async def tournament_of(world: World, tournament_id: int) -> Tournament:
    return await world.bot.tournaments.get(tournament_id)


async def play_round(world: World, tournament_id: int, rng: random.Random,
                     stop_after: int | None = None) -> Tournament:
    """Members move (random legal moves, through the service) at every table of the current
    round until the round is over (or `stop_after` tables have ended)."""
    service = world.bot.service
    start = (await tournament_of(world, tournament_id)).row.round
    for _ in range(5000):
        await world.env.settle()
        tournament = await tournament_of(world, tournament_id)
        if tournament.row.round != start or tournament.row.status != "running":
            return tournament
        games = [g for g in tournament.round_games() if g.table_id is not None]
        tables = [await service.get(g.table_id) for g in games]
        if stop_after is not None and sum(t.status != "running" for t in tables) >= stop_after:
            return tournament
        with world.env._bot_scope():  # noqa: SLF001 - moves as the bot's own work (timers)
            await move_everyone(service, tables, rng)
    raise AssertionError("the round did not end")


async def move_everyone(service: Any, tables: list[Any], rng: random.Random) -> None:
    """One move of each member who must act (or the computers' moves) at each table."""
    for table in tables:
        if table.status != "running":
            continue
        if auto_turn(table) is not None:
            await service.computers_play(table.id)
            continue
        for seat in table.to_act():
            user_id = table.seats[seat].user_id
            moves = service.legal_moves_for(table, user_id)
            try:
                table = (await service.play(table.id, user_id, rng.choice(moves))).table
            except TableError:
                break  # the position moved on (a computer): look again
            if table.status != "running":
                break


def channel_texts(world: World) -> list[Any]:
    return [m for m in world.bot_messages(world.channel) if not m.flags.ephemeral]


async def sign_up(world: World, lobby: Any, tournament_id: int, names: list[str]) -> None:
    for name in names:
        await world.member(name).click(lobby, custom_id=f"tour:{tournament_id}:join")


async def test_swiss_senet_for_eight_from_sign_up_to_final_standings(world: World) -> None:
    org = organiser(world)
    created = await org.slash(world.channel, "tournament create senet", format="swiss",
                              start="10", seats=8, deadline=3600)
    lobby = created.response
    assert lobby is not None and not lobby.ephemeral, created
    tournament_id = int(next(iter(button_ids(lobby))).split(":")[1])
    embed = lobby.embeds[0]
    assert "Swiss" in embed.description and "<t:" in embed.description
    # only organisers create tournaments
    refused = await world.member("mallory").slash(world.channel, "tournament create senet",
                                                  format="swiss")
    assert "Manage Server" in private(refused)
    names = ["aki", "bo", "cy", "dee", "eli", "fay", "gus", "hal"]
    await sign_up(world, lobby, tournament_id, names)
    lobby = created.response
    assert "8 of 8" in lobby.embeds[0].fields[0].name
    again = await world.member("aki").click(lobby, custom_id=f"tour:{tournament_id}:join")
    assert "already signed up" in private(again)
    full = await world.member("ivy").click(lobby, custom_id=f"tour:{tournament_id}:join")
    assert "full" in private(full)
    await world.member("hal").click(lobby, custom_id=f"tour:{tournament_id}:leave")
    await world.member("ivy").click(created.response, custom_id=f"tour:{tournament_id}:join")
    names[-1] = "ivy"
    listed = await world.member("aki").slash(world.channel, "tournament list")
    assert f"#{tournament_id}" in private(listed)

    # the start time is a timer: ten minutes later round 1 opens by itself
    await world.env.advance_time(11 * 60)
    await world.env.settle()
    tournament = await tournament_of(world, tournament_id)
    assert tournament.row.status == "running" and tournament.row.round == 1
    assert tournament.row.rounds == 3
    assert not button_ids(created.response), "the sign-up buttons go when it starts"
    assert "running" in created.response.embeds[0].description
    # a late join (an old client still showing the button) is refused with the reason
    with pytest.raises(TournamentError) as late:
        await world.bot.tournaments.join(tournament_id, world.member("hal").id, "hal")
    assert "already started" in error_text(late.value, None)
    games = tournament.round_games()
    assert len(games) == 4 and all(len(g.players) == 2 for g in games)
    for game in games:  # each table in its own thread, the players mentioned there
        table = await world.table(game.table_id)
        assert table.status == "running" and table.thread_id is not None
        place = world.place(table)
        greeting = world.bot_messages(place)[0].content
        assert all(f"<@{p}>" in greeting for p in game.players), greeting
        assert world.boards(place), "the first board is posted"

    rng = random.Random(11)
    tournament = await play_round(world, tournament_id, rng)
    assert tournament.row.round == 2
    # half of round 2, then the bot restarts; the rest after the restart
    await play_round(world, tournament_id, rng, stop_after=2)
    await world.restart()
    tournament = await play_round(world, tournament_id, rng)
    assert tournament.row.round == 3
    tournament = await play_round(world, tournament_id, rng)
    assert tournament.row.status == "finished"

    pairs = [frozenset(g.players) for g in tournament.row.games]
    assert len(pairs) == len(set(pairs)) == 12, "no pairing is played twice"
    assert all(g.points is not None for g in tournament.row.games)
    assert sum(s.points for s in tournament.standings) == 12
    texts = channel_texts(world)
    for number in (1, 2):  # each round's standings posted once, with the picture
        posts = [m for m in texts if f"round {number} is over" in m.content]
        assert len(posts) == 1, [m.content for m in texts]
        png_of(await posts[0].attachments[0].read())
    final = [m for m in texts if "is over! The winner is" in m.content]
    assert len(final) == 1
    winner = tournament.name_of(tournament.standings[0].player)
    assert winner in final[0].content
    png_of(await final[0].attachments[0].read())
    # results count for ratings as normal games do
    board = await world.member("aki").slash(world.channel, "leaderboard", game="senet")
    description = board.response.embeds[0].description
    assert sum(name in description for name in names) == 8
    shown = await world.member("bo").slash(world.channel, "tournament standings",
                                           tournament=tournament_id)
    reply = shown.followups[-1] if shown.followups else shown.response
    assert not reply.ephemeral and f"1. {winner}" in reply.content
    png_of(await reply.attachments[0].read())


async def test_six_nimmt_for_twelve_with_computers_check_in_and_a_restart(
        world: World) -> None:
    org = organiser(world)
    created = await org.slash(world.channel, "tournament create six_nimmt", format="tables",
                              start="30", seats=13, deadline=3600, round_count=2,
                              check_in=True, rounds=1)
    lobby = created.response
    tournament_id = int(next(iter(button_ids(lobby))).split(":")[1])
    assert f"tour:{tournament_id}:checkin" in button_ids(lobby)
    names = [f"p{i}" for i in range(11)]
    await sign_up(world, lobby, tournament_id, names)
    for name in names[:10]:  # p10 never checks in
        await world.member(name).click(created.response,
                                       custom_id=f"tour:{tournament_id}:checkin")
    not_in = await world.member("zed").click(created.response,
                                              custom_id=f"tour:{tournament_id}:checkin")
    assert "isn't signed up" in private(not_in)
    for level in ("easy", "normal"):
        added = await org.slash(world.channel, "tournament computer",
                                tournament=tournament_id, level=level)
        assert "computer player joined" in private(added)
    full = await org.slash(world.channel, "tournament computer", tournament=tournament_id)
    assert "full" in private(full)
    started = await org.slash(world.channel, "tournament start", tournament=tournament_id)
    assert "starts now" in private(started)
    await world.env.settle()
    tournament = await tournament_of(world, tournament_id)
    assert tournament.row.status == "running"
    players = {e.user_id for e in tournament.row.entrants}
    assert world.members["p10"].id not in players, "who did not check in is left out"
    assert len(players) == 12 and sum(p < 0 for p in players) == 2
    sizes = sorted(len(g.players) for g in tournament.round_games())
    assert sizes == [6, 6]

    rng = random.Random(5)
    await play_round(world, tournament_id, rng, stop_after=1)
    await world.restart()
    tournament = await play_round(world, tournament_id, rng)
    assert tournament.row.round == 2
    # the organiser drops a player in round 2: their table is forfeited
    dropped = next(g.players[0] for g in tournament.round_games() if g.players[0] > 0)
    member = next(m for m in world.members.values() if m.id == dropped)
    answer = await org.slash(world.channel, "tournament drop", tournament=tournament_id,
                             member=member)
    assert "dropped" in private(answer)
    tournament = await play_round(world, tournament_id, rng)
    assert tournament.row.status == "finished"
    assert sorted(len(g.players) for g in tournament.round_games(2)) == [6, 6]
    for game in tournament.row.games:  # every table was played to its end (or forfeited)
        assert game.points is not None and len(game.points) == 6
        table = await world.table(game.table_id)
        assert table.status == "finished"
        if dropped in game.players and game.round == 2:
            assert table.outcome["resigned"] == [table.seat_of(dropped)]
            assert game.points[game.players.index(dropped)] == 0
        else:
            assert len(table.log) > 10
    assert sum(s.points for s in tournament.standings) == pytest.approx(2 * 2 * 3)
    final = [m for m in channel_texts(world) if "is over! The winner is" in m.content]
    assert len(final) == 1
    png_of(await final[0].attachments[0].read())
    row = next(s for s in tournament.standings if s.player == dropped)
    assert row.games == 2


async def test_organiser_role_and_monthly_seasons(world: World) -> None:
    boss = organiser(world)
    referees = world.guild.create_role("Referees")
    ref = world.member("ref", roles=[referees])
    refused = await ref.slash(world.channel, "tournament create senet", format="swiss")
    assert "organiser role" in private(refused)
    saved = await boss.slash(world.channel, "settings", organiser_role=referees,
                             season="month")
    embed = saved.response.embeds[0]
    assert any(f.value == f"<@&{referees.id}>" for f in embed.fields), embed.fields
    assert any("monthly" in f.value and f"<#{world.channel.id}>" in f.value
               for f in embed.fields), embed.fields
    created = await ref.slash(world.channel, "tournament create senet", format="swiss")
    assert created.response is not None and not created.response.ephemeral
    tournament_id = int(next(iter(button_ids(created.response))).split(":")[1])
    cancelled = await ref.slash(world.channel, "tournament cancel", tournament=tournament_id)
    assert "cancelled" in private(cancelled)

    # a game in January, then February begins: January's top players are posted once
    aki, bo = world.member("aki"), world.member("bo")
    opened = await aki.slash(world.channel, "play senet")
    table_id = int(next(iter(button_ids(opened.response))).split(":")[1])
    await bo.click(opened.response, custom_id=f"lobby:{table_id}:join")
    start = next(i for i in button_ids(opened.response) if ":start" in i)
    await aki.click(opened.response, custom_id=start)
    table = await world.table(table_id)
    await resign(bo, world.place(table))
    board = await aki.slash(world.channel, "leaderboard", game="senet")
    january = board.response.embeds[0]
    assert "1/2026" in january.title and "aki" in january.description
    # February begins (the bot's clock jumps: simcord's clock cannot skip a month quickly)
    february = datetime(2026, 2, 1, 0, 5, tzinfo=UTC)
    world.bot.service.store._clock = lambda: february  # noqa: SLF001
    with world.env._bot_scope():  # noqa: SLF001 - as the deadline watcher's pass does
        assert await world.bot.seasons.check() == 1
        assert await world.bot.seasons.check() == 0, "a season's end is posted once"
    await world.env.settle()
    posts = [m for m in channel_texts(world) if m.embeds and "Season" in m.embeds[0].title]
    assert len(posts) == 1, [m.embeds[0].title for m in channel_texts(world) if m.embeds]
    (field_,) = posts[0].embeds[0].fields
    assert field_.name == "Senet" and "aki" in field_.value
    fresh = await aki.slash(world.channel, "leaderboard", game="senet")
    assert "2/2026" in fresh.response.embeds[0].title
    assert "No finished games in this season" in fresh.response.embeds[0].description
    past = await aki.slash(world.channel, "leaderboard", game="senet", season="2026-01")
    assert "aki" in past.response.embeds[0].description
    every = await aki.slash(world.channel, "leaderboard", game="senet", season="all")
    assert "rating" in every.response.embeds[0].description
