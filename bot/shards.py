"""Shard clusters: which of Discord's shards a process serves, and which shard a server is on.

Discord splits a bot's servers into N shards by id; each gateway connection serves one shard,
and direct messages always arrive on shard 0. Several processes with disjoint shard ids
(BOT_SHARD_IDS) out of the same count (BOT_SHARD_COUNT) share one database."""

from __future__ import annotations


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a server's events (Discord's formula)."""
    return (guild_id >> 22) % shard_count


def parse_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """`(shard_count, shard_ids)` from BOT_SHARD_COUNT and BOT_SHARD_IDS ("0,2"); both None
    when unset (one plain connection, no sharding). A count alone means all its shards."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ValueError("BOT_SHARD_IDS needs BOT_SHARD_COUNT (the total number of shards "
                             "across all processes)")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ValueError(f"BOT_SHARD_COUNT must be a whole number of shards, 1 or more "
                         f"(got {count_text!r})")
    count = int(count_text)
    if not ids_text:
        return count, tuple(range(count))
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(part.isdigit() for part in parts):
        raise ValueError(f"BOT_SHARD_IDS must be shard numbers separated by commas, like 0,2 "
                         f"(got {ids_text!r})")
    ids = tuple(int(part) for part in parts)
    if len(set(ids)) != len(ids):
        raise ValueError(f"BOT_SHARD_IDS lists a shard twice ({ids_text!r})")
    outside = [shard for shard in ids if shard >= count]
    if outside:
        raise ValueError(f"BOT_SHARD_IDS: shard {outside[0]} does not exist with "
                         f"BOT_SHARD_COUNT={count} (shards are numbered 0 to {count - 1})")
    return count, ids
