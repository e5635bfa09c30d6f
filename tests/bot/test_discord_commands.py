"""/board, the slash options of /play, the development-guild sync, the entry point,
configuration, i18n and narration (/rules and /help: test_discord_guide.py)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import simcord

from bot.client import TableBot
from bot.config import Config, read_dotenv
from bot.i18n import t
from bot.i18n.translator import Translator
from bot.narration import narrate
from bot.storage import open_database
from engines import GAME_IDS
from tests.bot.conftest import World, button_ids, open_and_start, png_of

ROOT = Path(__file__).resolve().parents[2]


async def test_play_options_are_typed(world: World) -> None:
    commands = {c.name: c for c in await world.bot.tree.fetch_commands()}
    play = commands["play"]
    games = {sub.name: sub for sub in play.options}
    assert set(games) == set(GAME_IDS)
    six = {o.name: o for o in games["six_nimmt"].options}
    assert [c.value for c in six["cards"].choices] == ["standard", "tactical", "logical"]
    assert (six["points"].min_value, six["points"].max_value) == (1, 1000)
    assert six["professional"].type.name == "boolean" and not six["professional"].required
    assert six["shuffle"].description.startswith("Shuffle the turn order")
    cows = {o.name: o for o in games["cows_leopards"].options}
    assert [c.value for c in cows["side"].choices] == ["cows", "leopards"]
    assert all(len(o.description) <= 100 for g in games.values() for o in g.options)
    # Options are checked by the engine: doubles need four players, so a start with two is
    # refused with the engine's reason.
    aki, bo = world.member("aki"), world.member("bo")
    lobby = (await aki.slash(world.channel, "play varanasi", teams=True)).response
    assert "teams on" in lobby.embeds[0].fields[1].value
    table_id = int(next(iter(button_ids(lobby))).split(":")[1])
    await bo.click(lobby, custom_id=f"lobby:{table_id}:join")
    refused = await aki.click(lobby, custom_id=f"lobby:{table_id}:start")
    (answer,) = refused.followups
    assert answer.ephemeral and answer.content.startswith("Those options don't work together:")
    assert (await world.table(table_id)).status == "lobby"


async def test_board_reposts_the_current_picture_and_buttons(world: World) -> None:
    table_id = await open_and_start(world, "senet", "aki", ["bo"])
    table = await world.table(table_id)
    place = world.place(table)
    before = world.last_board(place)
    result = await world.members["bo"].slash(place, "board")
    assert result.ephemeral
    again = world.last_board(place)
    assert again.id != before.id
    assert button_ids(again) == button_ids(before)
    png_of(await again.attachments[0].read())
    assert (await world.table(table_id)).message_id == again.id
    mover = world.members[table.seats[table.to_act()[0]].name]
    await mover.click(again, custom_id=next(iter(button_ids(again))))
    assert (await world.table(table_id)).ply > table.ply


async def test_dev_guild_sync(tmp_path: Path) -> None:
    path = tmp_path / "dev.sqlite3"
    await (await open_database(path)).close()
    guild_id = 4_200_000_000_000_000_000 >> 3
    bot = TableBot(Config(token=None, database=str(path), dev_guild_id=guild_id, workers=0),
                   rng=random.Random(1))
    env = simcord.Env(bot)
    guild = env.create_guild("Dev", id=guild_id)
    channel = guild.create_text_channel("dev")
    await env.start()
    try:
        member = guild.add_member(env.create_user("dev"))
        available = member.available_commands(channel)
        assert "play senet" in available and "move" in available and "rules" in available
        assert not await bot.tree.fetch_commands()  # nothing global
    finally:
        await env.shutdown()
        await bot.close_storage()


def test_entry_point_without_token(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    environ["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=environ,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "discord.com/developers" in done.stderr


def test_config_from_env_and_dotenv(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("# settings\nexport DISCORD_TOKEN='abc'\nDEV_GUILD_ID=42 # mine\n"
                      "BOT_DATABASE=\n", encoding="utf-8")
    assert read_dotenv(dotenv)["DISCORD_TOKEN"] == "abc"
    config = Config.load({}, dotenv)
    assert (config.token, config.dev_guild_id, config.database) == ("abc", 42,
                                                                    "data/bot.sqlite3")
    config = Config.load({"DISCORD_TOKEN": "env", "BOT_DATABASE": "/data/x.db"}, dotenv)
    assert (config.token, config.database) == ("env", "/data/x.db")
    assert Config.load({}, tmp_path / "missing").token is None


async def test_i18n_and_translator() -> None:
    assert t("fr", "Card {card}", card=7) == "Card 7"  # no catalogue: English
    assert t(None, "Players") == "Players"
    from discord import Locale, app_commands

    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, None)
    text = app_commands.locale_str("Open a game table here")
    assert await Translator().translate(text, Locale.french, context) is None


def test_narration_names_players_with_badges() -> None:
    take = {"type": "take", "seat": 0, "card": 33, "row": 2, "cards": [40, 41, 42, 43, 44],
            "bullheads": 7, "reason": "sixth"}
    assert narrate("six_nimmt", [take], ["Aki", "Bo"]) == (
        "🔵1 Aki played 33 and took row 2: 7 bullheads.")
    assert narrate("six_nimmt", [{"type": "pick", "seat": 1}], ["Aki", "Bo"]) == ""
    senet = [{"type": "throw", "seat": 1, "value": 4, "water": False},
             {"type": "move", "seat": 1, "from": 8, "to": 12, "backward": False},
             {"type": "extra_throw", "seat": 1}]
    assert narrate("senet", senet, ["Aki", "Bo"]) == (
        "🟠2⚫ Bo threw 4, moved a stone 8 → 12 and throws again.")
