"""Settings from the environment (and a `.env` file): token, development guild, database path,
shards, worker processes, Discord's API address."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from bot.shards import parse_shards, shard_of

DEFAULT_DATABASE = "data/bot.sqlite3"


def read_dotenv(path: str | os.PathLike[str] = ".env") -> dict[str, str]:
    """`KEY=value` lines of a .env file (comments, blank lines, `export ` and quotes allowed)."""
    values: dict[str, str] = {}
    file = Path(path)
    if not file.is_file():
        return values
    for raw in file.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        key, value = key.strip(), value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        if key:
            values[key] = value
    return values


@dataclass(frozen=True)
class Config:
    """What `python -m bot` needs; the environment wins over `.env`."""

    token: str | None
    dev_guild_id: int | None = None
    database: str = DEFAULT_DATABASE
    sync_commands: bool = True
    workers: int | None = None  # processes drawing boards (None: one per core; 0: threads)
    # Sharding: both None for one plain connection; else this process serves `shard_ids`
    # out of `shard_count` shards (BOT_SHARD_COUNT, BOT_SHARD_IDS).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # Bot processes sharing this machine's cores (BOT_PROCESSES; None: the cluster's size
    # from the shard settings, see `processes_here`).
    processes: int | None = None
    # Discord's REST API base (BOT_DISCORD_API), e.g. a shared rate-limit proxy's
    # http://nirn-proxy:8080/api/v10; None: Discord itself.
    api_base: str | None = None

    @property
    def processes_here(self) -> int:
        """How many bot processes divide this machine's cores: BOT_PROCESSES, else the
        cluster's size as the shard settings tell it (shards in all / shards here, so that
        compose.yaml's two processes of one shard each count 2), else 1."""
        if self.processes is not None:
            return self.processes
        if self.shard_count is None or not self.shard_ids:
            return 1
        return max(1, math.ceil(self.shard_count / len(self.shard_ids)))

    def serves_guild(self, guild_id: int | None) -> bool:
        """Whether this process's shards receive this server's events (None: direct
        messages, which arrive on shard 0)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return (0 if guild_id is None else shard_of(guild_id, self.shard_count)) in self.shard_ids

    @classmethod
    def load(
        cls, environ: dict[str, str] | None = None, dotenv: str | os.PathLike[str] = ".env"
    ) -> Config:
        values = read_dotenv(dotenv)
        values.update(os.environ if environ is None else environ)
        guild = (values.get("DEV_GUILD_ID") or "").strip()
        if guild and not guild.isdigit():
            raise ValueError("DEV_GUILD_ID must be a server id (a number)")
        shard_count, shard_ids = parse_shards(values.get("BOT_SHARD_COUNT") or "",
                                              values.get("BOT_SHARD_IDS") or "")
        # One process registers the slash commands: by default the one serving shard 0.
        sync = (values.get("BOT_SYNC_COMMANDS") or "").strip().lower()
        workers = (values.get("BOT_WORKERS") or "").strip()
        if workers and not workers.isdigit():
            raise ValueError("BOT_WORKERS must be a number of processes (0: threads only)")
        processes = (values.get("BOT_PROCESSES") or "").strip()
        if processes and (not processes.isdigit() or int(processes) < 1):
            raise ValueError("BOT_PROCESSES must be the number of bot processes on this "
                             "machine (1 or more)")
        return cls(
            token=(values.get("DISCORD_TOKEN") or "").strip() or None,
            dev_guild_id=int(guild) if guild else None,
            database=(values.get("BOT_DATABASE") or "").strip() or DEFAULT_DATABASE,
            sync_commands=(sync not in ("0", "false", "no", "off") if sync
                           else shard_ids is None or 0 in shard_ids),
            shard_count=shard_count,
            shard_ids=shard_ids,
            workers=int(workers) if workers else None,
            processes=int(processes) if processes else None,
            api_base=parse_api_base(values.get("BOT_DISCORD_API") or ""),
        )


def parse_api_base(text: str) -> str | None:
    """BOT_DISCORD_API as discord.py's REST base URL (None when unset): an http(s) URL; a bare
    address such as http://nirn-proxy:8080 gets Discord's path /api/v10."""
    text = text.strip().rstrip("/")
    if not text:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
        raise ValueError(f"BOT_DISCORD_API must be an http(s) address such as "
                         f"http://nirn-proxy:8080/api/v10 (got {text!r})")
    return text if parts.path else text + "/api/v10"


NO_TOKEN_HELP = """\
No bot token: set DISCORD_TOKEN in the environment or in a .env file (DISCORD_TOKEN=...).

To get one: open https://discord.com/developers/applications, create an application
(or pick yours), open "Bot", press "Reset Token" and copy it. Invite the bot with the
OAuth2 URL generator: scopes "bot" and "applications.commands"; permissions Send Messages,
Send Messages in Threads, Create Public Threads, Embed Links, Attach Files, Read Message
History. For fast command updates while developing, also set DEV_GUILD_ID=<your server id>
(or pass --dev-guild ID)."""
