"""Shard settings: what an operator writes in BOT_SHARD_COUNT / BOT_SHARD_IDS, and what the
process then is (which shards, whether it registers the slash commands, which servers it owns).
Two real processes on a fake gateway are in tests/wire/test_shards.py."""

from __future__ import annotations

import pytest
from discord.ext import commands

from bot.__main__ import parse_args
from bot.client import ShardedTableBot, TableBot, create_bot
from bot.config import Config
from bot.launch import use_test_server
from bot.shards import shard_of


def load(**environ: str) -> Config:
    return Config.load(environ, dotenv="/nonexistent/.env")


def test_without_shard_settings_the_bot_is_one_plain_connection() -> None:
    config = load(DISCORD_TOKEN="x")
    assert (config.shard_count, config.shard_ids, config.sync_commands) == (None, None, True)
    bot = create_bot(config)
    assert type(bot) is TableBot
    assert not isinstance(bot, commands.AutoShardedBot)
    assert bot.owns_guild(123 << 22) and bot.owns_guild(None)


def test_a_shard_list_makes_an_auto_sharded_bot_on_those_shards_only() -> None:
    bot = create_bot(load(BOT_SHARD_COUNT="4", BOT_SHARD_IDS=" 3, 1"))
    assert isinstance(bot, ShardedTableBot)
    assert isinstance(bot, TableBot) and isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [3, 1])
    assert [bot.owns_guild(n << 22) for n in range(8)] == [False, True, False, True] * 2
    assert not bot.owns_guild(None)  # direct messages arrive on shard 0


def test_a_shard_count_alone_means_every_shard() -> None:
    config = load(BOT_SHARD_COUNT="3")
    assert config.shard_ids == (0, 1, 2)
    assert create_bot(config).shard_ids == [0, 1, 2]


def test_only_the_process_with_shard_0_registers_commands_unless_told() -> None:
    assert load(BOT_SHARD_COUNT="2", BOT_SHARD_IDS="0").sync_commands
    assert not load(BOT_SHARD_COUNT="2", BOT_SHARD_IDS="1").sync_commands
    assert load(BOT_SHARD_COUNT="2", BOT_SHARD_IDS="1", BOT_SYNC_COMMANDS="1").sync_commands
    assert not load(BOT_SHARD_COUNT="2", BOT_SHARD_IDS="0",
                    BOT_SYNC_COMMANDS="off").sync_commands
    assert not load(BOT_SYNC_COMMANDS="0").sync_commands


@pytest.mark.parametrize(("count", "ids", "message"), [
    ("", "0", "BOT_SHARD_IDS needs BOT_SHARD_COUNT"),
    ("0", "", "BOT_SHARD_COUNT must be a whole number"),
    ("two", "", "BOT_SHARD_COUNT must be a whole number"),
    ("2", "0,0", "lists a shard twice"),
    ("2", "2", "shard 2 does not exist with BOT_SHARD_COUNT=2"),
    ("2", "-1", "shard numbers separated by commas"),
    ("2", "0;1", "shard numbers separated by commas"),
])
def test_impossible_shard_settings_are_refused_clearly(count: str, ids: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load(BOT_SHARD_COUNT=count, BOT_SHARD_IDS=ids)


def test_shard_of_is_discords_formula() -> None:
    guild = 81384788765712384  # the timestamp part of the id, 19403645698, modulo the count
    assert [shard_of(guild, count) for count in (1, 2, 3, 4, 5)] == [0, 0, 1, 2, 3]
    assert [shard_of((n << 22) | 0x3FFFFF, 3) for n in range(6)] == [0, 1, 2, 0, 1, 2]


def test_sync_is_a_subcommand_and_no_subcommand_runs_the_bot() -> None:
    assert parse_args([]).command is None
    args = parse_args(["sync", "--dev-guild", "42"])
    assert (args.command, args.dev_guild) == ("sync", 42)
    assert parse_args(["--dev-guild", "7", "sync"]).dev_guild == 7


@pytest.mark.parametrize("url", ["https://discord.com", "http://example.com:80",
                                 "http://10.0.0.1:8080", "http://127.0.0.1"])
def test_the_test_server_setting_refuses_anything_but_this_machine(url: str) -> None:
    with pytest.raises(ValueError, match="tests only"):
        use_test_server(url)
