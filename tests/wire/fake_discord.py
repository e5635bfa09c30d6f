"""A small fake Discord on 127.0.0.1 for wire-level tests: the REST routes a bot uses at
login, command sync and interaction replies, and a websocket gateway speaking zlib-stream,
sharded by Discord's formula (with MESSAGE_CREATE/UPDATE for the messages posted and edited,
to the bots whose intents ask for them). Everything the bots send is recorded for the test to
inspect.

Facts it depends on (learned when discord.py was first pointed at such a fake): JSON replies
carry exactly `Content-Type: application/json`; its own errors are 400s (discord.py retries
5xx for seconds); one zlib compressor per connection, every frame flushed with Z_SYNC_FLUSH
(or, when discord.py asks for zstd-stream because `zstandard` is installed, its speed extra,
one zstd stream per connection, every frame a flushed block);
READY needs user, session_id, resume_gateway_url, application and guild stubs, then one
GUILD_CREATE per guild whose @everyone role has the guild's id."""

from __future__ import annotations

import itertools
import json
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

try:
    import zstandard
except ImportError:  # discord.py then asks for zlib-stream
    zstandard = None

try:  # discord.py's speed extra; the fake shares the bench's cores with the bots under test
    import orjson

    def to_json(payload: Any) -> bytes:
        return orjson.dumps(payload)

    from_json = orjson.loads
except ImportError:
    def to_json(payload: Any) -> bytes:
        return json.dumps(payload).encode()

    from_json = json.loads

APPLICATION_ID = 1_100_000_000_000_000_001
BOT_USER_ID = APPLICATION_ID  # a bot user shares its application's id
PLAYER_ID = 1_100_000_000_000_000_042
TIMESTAMP = "2026-01-01T00:00:00+00:00"
GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 9, 1 << 12  # the intents of message events
EPHEMERAL = 1 << 6
DISCORD_EPOCH_MS = 1_420_070_400_000  # 2015-01-01, where Discord's ids count from
ALL_PERMISSIONS = str((1 << 51) - 1)
# The bot may do everything but open threads, so tables are played in the channel itself.
BOT_PERMISSIONS = str((1 << 51) - 1 - (1 << 35) - (1 << 38))


def snowflake_now() -> int:
    """A Discord id (snowflake) made now: milliseconds since Discord's epoch, shifted."""
    return (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22


def shard_of(guild_id: int, shard_count: int) -> int:
    # Written out again on purpose: the fake must not trust the code under test.
    return (guild_id >> 22) % shard_count


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name,
            "avatar": None, "bot": bot, "system": False, "public_flags": 0, "flags": 0}


BOT_USER = user(BOT_USER_ID, "Tabletop", bot=True)
PLAYER = user(PLAYER_ID, "Ada")


def channel_id_of(guild_id: int, index: int = 0) -> int:
    """A fake server's text channels are numbered right after it (one by default)."""
    return guild_id + 1 + index


@dataclass
class Call:
    """One REST request a bot made."""

    method: str
    path: str  # below /api/v10, e.g. "/users/@me"
    json: Any
    token: str | None  # the bot token it carried ("Bot <token>"), None for webhook calls
    files: list[tuple[str, int]] = field(default_factory=list)  # attachments: (name, bytes)
    at: float = 0.0  # time.perf_counter() once the request was read


@dataclass
class Shard:
    """One gateway connection after IDENTIFY."""

    shard: tuple[int, int] | None  # [id, count] as identified; None for an unsharded client
    socket: web.WebSocketResponse
    send: Callable[[dict[str, Any]], Any]
    sequence: itertools.count = field(default_factory=lambda: itertools.count(1))
    intents: int = 0  # as identified: which events it is sent


# Rate-limit headers as Discord sends them, never close to the limit (discord.py reads them
# on every answer; a bench must not be throttled by a fake limit).
RATE_LIMIT_HEADERS = {"X-RateLimit-Limit": "50", "X-RateLimit-Remaining": "49",
                      "X-RateLimit-Reset-After": "1.0", "X-RateLimit-Bucket": "fake"}


class FakeDiscord:
    """`channels_per_guild` text channels in each server; `record=False` keeps no list of
    calls (long benchmarks), `on_call(call, answer)` sees each answered REST call."""

    def __init__(self, guild_ids: list[int], *, shard_count: int, channels_per_guild: int = 1,
                 record: bool = True,
                 on_call: Callable[[Call, Any], None] | None = None) -> None:
        self.guild_ids = guild_ids
        self.shard_count = shard_count
        self.channels_per_guild = channels_per_guild
        self.record = record
        self.on_call = on_call
        self._channels = {channel_id_of(g, i): g for g in guild_ids
                          for i in range(channels_per_guild)}  # channel id -> its server
        self.calls: list[Call] = []
        self.identifies: list[dict[str, Any]] = []
        self.shards: list[Shard] = []
        self.errors: list[str] = []  # what the fake could not answer (a test should fail)
        self.messages: dict[int, dict[str, Any]] = {}  # every message the bots posted
        self._dms: dict[int, dict[str, Any]] = {}  # DM channel id -> channel
        self._interactions: dict[str, int] = {}  # interaction token -> its channel id
        self._originals: dict[str, int] = {}  # component interaction token -> its message
        # Snowflakes of now: an interaction's id dates it, and discord.py refuses to answer
        # one older than 15 minutes through its webhook (the bot then posts in the channel).
        self._ids = itertools.count(snowflake_now())
        self._runner: web.AppRunner | None = None
        self.url = ""

    # -- running -------------------------------------------------------------------------------

    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        # A burst opens hundreds of connections at once: with aiohttp's default backlog (128)
        # the kernel drops SYNs, and each dropped one costs a 1 s retransmit that Discord
        # would not have caused.
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=4096)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]  # noqa: SLF001
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    async def stop(self) -> None:
        for shard in self.shards:
            await shard.socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def calls_to(self, method: str, path: str) -> list[Call]:
        return [call for call in self.calls if call.method == method and call.path == path]

    def posts(self, channel_id: int) -> list[dict[str, Any]]:
        """The messages in a channel, oldest first (interaction replies included)."""
        return [m for m in self.messages.values() if m["channel_id"] == str(channel_id)]

    def dm_channel(self, user_id: int) -> int | None:
        return next((int(cid) for cid, ch in self._dms.items()
                     if ch["recipients"][0]["id"] == str(user_id)), None)

    def shard(self, shard_id: int) -> Shard:
        for shard in self.shards:
            number = 0 if shard.shard is None else shard.shard[0]  # unsharded: all of shard 0
            if number == shard_id and not shard.socket.closed:
                return shard
        raise LookupError(f"no open gateway connection for shard {shard_id}")

    # -- REST ----------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        files: list[tuple[str, int]] = []
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("application/json"):
            body = from_json(await request.read())
        elif content_type.startswith("multipart/"):
            body, files = read_multipart(content_type, await request.read())
        auth = request.headers.get("Authorization", "")
        token = auth.removeprefix("Bot ") if auth.startswith("Bot ") else None
        call = Call(request.method, path, body, token, files, time.perf_counter())
        if self.record:
            self.calls.append(call)
        answer = self._answer(request.method, path.split("/")[1:], body)
        if answer is None:
            self.errors.append(f"no fake route for {request.method} {path}")
            return self._json({"message": f"fake Discord: no route {request.method} {path}",
                               "code": 0}, status=400)
        if self.on_call is not None:
            self.on_call(call, answer)
        await self._echo(request.method, path, answer)
        return self._json(answer)

    @staticmethod
    def _json(payload: Any, status: int = 200) -> web.Response:
        # Exactly "application/json": with "; charset=utf-8" discord.py reads text.
        return web.Response(body=to_json(payload), status=status,
                            headers={"Content-Type": "application/json", **RATE_LIMIT_HEADERS})

    def _answer(self, method: str, parts: list[str], body: Any) -> Any:
        match method, parts:
            case "GET", ["users", "@me"]:
                return BOT_USER
            case "GET", ["oauth2", "applications", "@me"]:
                return {"id": str(APPLICATION_ID), "name": "Tabletop", "icon": None,
                        "description": "", "summary": "", "bot_public": True,
                        "bot_require_code_grant": False, "verify_key": "0" * 64,
                        "owner": BOT_USER, "flags": 0, "team": None, "bot": BOT_USER}
            case "GET", ["gateway", "bot"]:
                return {"url": self.url.replace("http", "ws", 1) + "/gateway",
                        "shards": self.shard_count,
                        "session_start_limit": {"total": 1000, "remaining": 1000,
                                                "reset_after": 0, "max_concurrency": 1}}
            case "PUT", ["applications", _, "commands"] | \
                    ["applications", _, "guilds", _, "commands"]:
                self._commands = [{**command, "id": str(next(self._ids)), "version": "1",
                                   "application_id": str(APPLICATION_ID)} for command in body]
                return self._commands
            case "GET", ["applications", _, "commands"]:  # a process that does not sync
                return getattr(self, "_commands", [])
            case "POST", ["interactions", interaction_id, token, "callback"]:
                return self._callback(interaction_id, token, body)
            case "POST", ["webhooks", _, token]:
                return self._message(self._interactions.get(token, 0), body)
            case "PATCH", ["webhooks", _, token, "messages", "@original"] \
                    if token in self._originals:
                return self._edit(self._originals[token], body)
            case "PATCH", ["webhooks", _, token, "messages", _]:
                return self._message(self._interactions.get(token, 0), body)
            case "GET", ["guilds", guild_id] if int(guild_id) in self.guild_ids:
                return {key: value for key, value in guild(int(guild_id)).items()
                        if key not in ("channels", "members", "threads", "presences")}
            case "GET", ["channels", channel_id]:
                return self._dms.get(int(channel_id)) or self.channel(int(channel_id))
            case "POST", ["users", "@me", "channels"]:
                dm = {"id": str(next(self._ids)), "type": 1, "last_message_id": None,
                      "recipients": [user(int(body["recipient_id"]), "Ada")]}
                self._dms[int(dm["id"])] = dm
                return dm
            case "GET", ["users", user_id]:
                return user(int(user_id), "Ada")
            case "POST", ["channels", channel_id, "messages"]:
                return self._message(int(channel_id), body)
            case "GET", ["channels", _, "messages", message_id]:
                return self.messages.get(int(message_id))
            case "GET", ["channels", channel_id, "messages"]:  # history: newest first
                return list(reversed(self.posts(int(channel_id))))[:50]
            case "PATCH", ["channels", _, "messages", message_id]:
                return self._edit(int(message_id), body)
        return None

    async def _echo(self, method: str, path: str, answer: Any) -> None:
        """As Discord does, tell the bot over its gateway of each message posted or edited
        where its intents listen (its own boards included); ephemeral ones never."""
        parts = path.split("/")[1:]
        if not isinstance(answer, dict) or "channel_id" not in answer or \
                answer.get("flags", 0) & EPHEMERAL:
            return
        if method == "POST" and (parts[0] == "webhooks" and len(parts) == 3 or
                                 parts[0] == "channels" and parts[2:] == ["messages"]):
            event = "MESSAGE_CREATE"
        elif method == "PATCH" and parts[0] in ("channels", "webhooks") and "messages" in parts:
            event = "MESSAGE_UPDATE"
        else:
            return
        guild_id = self._channels.get(int(answer["channel_id"]))
        intent, data = DIRECT_MESSAGES, answer
        if guild_id is not None:
            intent, data = GUILD_MESSAGES, {**answer, "guild_id": str(guild_id)}
        wanted = 0 if guild_id is None else shard_of(guild_id, self.shard_count)
        for shard in self.shards:
            number = 0 if shard.shard is None else shard.shard[0]
            if number == wanted and shard.intents & intent and not shard.socket.closed:
                await self.dispatch(shard, event, data)

    def channel(self, channel_id: int) -> dict[str, Any] | None:
        """A server's text channel as Discord describes it (None: not a server channel)."""
        guild_id = self._channels.get(channel_id)
        return None if guild_id is None else channel_payload(guild_id, channel_id - guild_id - 1)

    def _edit(self, message_id: int, body: dict[str, Any]) -> dict[str, Any] | None:
        if message_id not in self.messages:
            return None
        body = dict(body)
        if "attachments" in body:  # the files the edit keeps or uploads, as Discord lists them
            body["attachments"] = [self._attachment(message_id, a) for a in body["attachments"]]
        self.messages[message_id].update(body)
        return self.messages[message_id]

    def _attachment(self, message_id: int, sent: dict[str, Any]) -> dict[str, Any]:
        name = str(sent.get("filename") or "file")
        url = f"https://cdn.fake.invalid/attachments/{message_id}/{name}"
        return {"id": str(sent.get("id") if "size" in sent else next(self._ids)),
                "filename": name, "size": int(sent.get("size") or 0), "url": url,
                "proxy_url": url, "description": sent.get("description")}

    def _callback(self, interaction_id: str, token: str, body: dict[str, Any]
                  ) -> dict[str, Any]:
        """An interaction's answer (discord.py asks `with_response`): a message it posts (type
        4) is stored, and returned as the callback's resource, as Discord does."""
        answer: dict[str, Any] = {"interaction": {
            "id": interaction_id, "type": 2, "activity_instance_id": None,
            "response_message_id": str(next(self._ids)),
            "response_message_loading": body.get("type") == 5,
            "response_message_ephemeral": False}}
        if body.get("type") == 4:
            message = self._message(self._interactions.get(token, 0), body.get("data"))
            self._originals.setdefault(token, int(message["id"]))
            answer["interaction"]["response_message_id"] = message["id"]
            answer["resource"] = {"type": 4, "message": message}
        return answer

    def _message(self, channel_id: int, body: dict[str, Any] | None) -> dict[str, Any]:
        body = body or {}
        message = {"id": str(next(self._ids)), "channel_id": str(channel_id),
                "author": BOT_USER, "content": body.get("content") or "",
                "timestamp": TIMESTAMP, "edited_timestamp": None, "tts": False,
                "mention_everyone": False, "mentions": [], "mention_roles": [],
                "attachments": [], "embeds": body.get("embeds") or [],
                "components": body.get("components") or [], "pinned": False, "type": 0,
                "flags": body.get("flags") or 0}
        self.messages[int(message["id"])] = message
        return message

    # -- gateway -------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        compress = request.query.get("compress")
        if compress not in (None, "zlib-stream", "zstd-stream") or \
                compress == "zstd-stream" and zstandard is None:
            self.errors.append(f"gateway compression {compress!r} is not faked")
            return web.Response(status=400)
        socket = web.WebSocketResponse(autoping=True)
        await socket.prepare(request)
        # One stream per connection; each message ends with a flush, so that it decompresses
        # at once: zlib's sync flush, or a zstd block.
        zlib_stream = zlib.compressobj() if compress == "zlib-stream" else None
        zstd_stream = zstandard.ZstdCompressor().compressobj() \
            if compress == "zstd-stream" and zstandard is not None else None

        async def send(payload: dict[str, Any]) -> None:
            data = to_json(payload)
            if zlib_stream is not None:
                await socket.send_bytes(zlib_stream.compress(data) +
                                        zlib_stream.flush(zlib.Z_SYNC_FLUSH))
            elif zstd_stream is not None:
                await socket.send_bytes(zstd_stream.compress(data) +
                                        zstd_stream.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK))
            else:
                await socket.send_str(data.decode())

        await send({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                break
            frame = from_json(message.data)
            if frame["op"] == 1:  # heartbeat
                await send({"op": 11, "d": None, "s": None, "t": None})
            elif frame["op"] == 2:  # identify
                await self._identify(frame["d"], socket, send)
            else:
                self.errors.append(f"gateway op {frame['op']} is not faked")
        return socket

    async def _identify(self, data: dict[str, Any], socket: web.WebSocketResponse,
                        send: Callable[[dict[str, Any]], Any]) -> None:
        self.identifies.append(data)
        shard_data = data.get("shard")
        shard = Shard(tuple(shard_data) if shard_data else None, socket, send,
                      intents=int(data.get("intents") or 0))
        self.shards.append(shard)
        guilds = [guild_id for guild_id in self.guild_ids
                  if shard.shard is None or shard_of(guild_id, shard.shard[1]) == shard.shard[0]]
        index = len(self.shards)
        await self.dispatch(shard, "READY", {
            "v": 10, "user": BOT_USER, "session_id": f"fake-session-{index}",
            "resume_gateway_url": self.url.replace("http", "ws", 1) + "/gateway",
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in guilds],
            "shard": shard_data, "application": {"id": str(APPLICATION_ID), "flags": 0},
        })
        for guild_id in guilds:
            await self.dispatch(shard, "GUILD_CREATE", guild(guild_id, self.channels_per_guild))

    async def dispatch(self, shard: Shard, event: str, data: dict[str, Any]) -> None:
        await shard.send({"op": 0, "t": event, "s": next(shard.sequence), "d": data})

    async def slash_command(self, shard_id: int, guild_id: int, name: str,
                            subcommand: str | None = None) -> str:
        """A player runs `/name [subcommand]` (no options) in the guild's channel, delivered on
        the given shard's connection; returns the interaction's token (its replies' address)."""
        data: dict[str, Any] = {"id": str(next(self._ids)), "name": name, "type": 1}
        if subcommand is not None:
            data["options"] = [{"type": 1, "name": subcommand, "options": []}]
        return await self._interact(shard_id, 2, data, channel_payload(guild_id), guild_id)

    async def command(self, shard_id: int, guild_id: int, name: str,
                      options: list[dict[str, Any]] | None = None, *,
                      channel_id: int | None = None, who: dict[str, Any] = PLAYER,
                      token: str | None = None, autocomplete: bool = False) -> str:
        """A player (`who`) runs `/name` with `options` (`{"type": 3, "name": ..., "value":
        ...}`) in a channel of the guild (default its first); with `autocomplete`, the player
        is still typing it (one option has `"focused": True`) and the bot is asked for
        choices. Returns the interaction's token."""
        data: dict[str, Any] = {"id": str(next(self._ids)), "name": name, "type": 1,
                                "options": options or []}
        channel = (self.channel(channel_id) if channel_id is not None else None) or \
            channel_payload(guild_id)
        return await self._interact(shard_id, 4 if autocomplete else 2, data, channel, guild_id,
                                    who=who, token=token)

    async def click(self, shard_id: int, message: dict[str, Any], custom_id: str,
                    values: list[str] | None = None, guild_id: int | None = None,
                    who: dict[str, Any] = PLAYER, token: str | None = None) -> str:
        """A player (`who`) presses a button (or picks `values` in a select) of a posted
        message: in a guild's channel, or in a direct message when `guild_id` is None.
        `token`: the interaction's token (default: a new one), returned."""
        channel_id = int(message["channel_id"])
        channel = self._dms[channel_id] if guild_id is None else \
            self.channel(channel_id) or channel_payload(guild_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data.update(component_type=3, values=values)
        return await self._interact(shard_id, 3, data, channel, guild_id, message, who, token)

    async def _interact(self, shard_id: int, kind: int, data: dict[str, Any],
                        channel: dict[str, Any], guild_id: int | None,
                        message: dict[str, Any] | None = None,
                        who: dict[str, Any] = PLAYER, token: str | None = None) -> str:
        interaction_id, token = next(self._ids), token or f"token-{next(self._ids)}"
        self._interactions[token] = int(channel["id"])
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(APPLICATION_ID), "type": kind,
            "token": token, "version": 1, "data": data, "channel_id": channel["id"],
            "channel": channel, "locale": "en-US", "app_permissions": BOT_PERMISSIONS,
            "entitlements": [], "authorizing_integration_owners": {},
            "context": 0 if guild_id is not None else 1, "attachment_size_limit": 26214400,
        }
        if guild_id is None:
            payload["user"] = who
        else:
            payload.update(guild_id=str(guild_id), guild_locale="en-US",
                           member={**member(who), "permissions": ALL_PERMISSIONS})
        if message is not None:
            payload["message"] = message
            self._originals[token] = int(message["id"])
        await self.dispatch(self.shard(shard_id), "INTERACTION_CREATE", payload)
        return token


_PART_NAME = re.compile(rb'\bname="([^"]*)"')
_PART_FILENAME = re.compile(rb'\bfilename="([^"]*)"')


def read_multipart(content_type: str, raw: bytes) -> tuple[Any, list[tuple[str, int]]]:
    """The payload_json and the files' (name, size) of a multipart/form-data body as
    discord.py writes it. Read by hand: aiohttp's own reader parses each part's headers with
    the email package, which cost the fake more than the bots' moves it was timing."""
    boundary = content_type.partition("boundary=")[2].strip('"').encode()
    body: Any = None
    files: list[tuple[str, int]] = []
    for part in raw.split(b"--" + boundary)[1:]:
        if part.startswith(b"--"):  # the closing delimiter
            break
        head, _, data = part.partition(b"\r\n\r\n")
        data = data.removesuffix(b"\r\n")
        name = _PART_NAME.search(head)
        if name is not None and name.group(1) == b"payload_json":
            body = from_json(data)
        else:  # a file: only its size is kept
            filename = _PART_FILENAME.search(head)
            files.append((filename.group(1).decode() if filename else "", len(data)))
    return body, files


def member(who: dict[str, Any]) -> dict[str, Any]:
    return {"user": who, "roles": [], "nick": None, "joined_at": TIMESTAMP, "deaf": False,
            "mute": False, "pending": False, "flags": 0, "avatar": None,
            "premium_since": None, "communication_disabled_until": None}


def channel_payload(guild_id: int, index: int = 0) -> dict[str, Any]:
    return {"id": str(channel_id_of(guild_id, index)), "type": 0, "guild_id": str(guild_id),
            "name": f"games-{index}" if index else "games", "position": index,
            "permission_overwrites": [], "parent_id": None,
            "topic": None, "rate_limit_per_user": 0, "last_message_id": None, "nsfw": False}


LOCALES: dict[int, str] = {}  # guild id -> Discord's server locale (default en-US)


def guild(guild_id: int, channels: int = 1) -> dict[str, Any]:
    everyone = {"id": str(guild_id), "name": "@everyone", "permissions": ALL_PERMISSIONS,
                "position": 0, "color": 0, "hoist": False, "managed": False,
                "mentionable": False, "flags": 0, "icon": None, "unicode_emoji": None}
    return {
        "id": str(guild_id), "name": f"Server {guild_id}", "owner_id": str(PLAYER_ID),
        "icon": None, "splash": None, "discovery_splash": None, "banner": None,
        "description": None, "afk_channel_id": None, "afk_timeout": 300,
        "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "mfa_level": 0, "premium_tier": 0,
        "premium_subscription_count": 0, "preferred_locale": LOCALES.get(guild_id, "en-US"),
        "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
        "public_updates_channel_id": None, "vanity_url_code": None, "application_id": None,
        "features": [], "emojis": [], "stickers": [], "roles": [everyone],
        "member_count": 2, "large": False, "unavailable": False, "joined_at": TIMESTAMP,
        "channels": [channel_payload(guild_id, i) for i in range(channels)], "threads": [],
        "members": [member(BOT_USER), member(PLAYER)], "presences": [], "voice_states": [],
        "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        "nsfw_level": 0, "premium_progress_bar_enabled": False,
    }
