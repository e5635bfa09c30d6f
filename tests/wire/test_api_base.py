"""BOT_DISCORD_API: a real `python -m bot` process sends every REST call (login, command
registration, the gateway address, interaction answers and follow-ups) to the configured
base, as to a rate-limit proxy shared by a cluster (nirn-proxy), and never to Discord's own
address. Here the "proxy" is a small forwarder with a path prefix in front of the fake
Discord; the gateway stays the fake's."""

from __future__ import annotations

import importlib.util
import signal
from pathlib import Path

from aiohttp import ClientSession, web

from tests.wire.fake_discord import APPLICATION_ID
from tests.wire.test_shards import (
    GUILD_C,
    START_TIMEOUT,
    STEP_TIMEOUT,
    TROUBLE,
    Cluster,
    cluster,  # noqa: F401  (the fixture)
    exit_codes,
    output,
    start_bot,
    until,
)


class Proxy:
    """Forwards /proxy/api/v10/... to the fake Discord's /api/v10/..., noting each path."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.paths: list[str] = []
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None

    async def start(self) -> str:
        app = web.Application()
        app.router.add_route("*", "/proxy/api/v10/{tail:.*}", self._forward)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._session = ClientSession()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]  # noqa: SLF001
        return f"http://127.0.0.1:{port}/proxy/api/v10"

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._session is not None
        tail = "/" + request.match_info["tail"]
        self.paths.append(f"{request.method} {tail}")
        headers = {key: value for key, value in request.headers.items()
                   if key.lower() not in ("host", "content-length", "transfer-encoding")}
        async with self._session.request(
                request.method, f"{self.target}/api/v10{tail}", params=request.query,
                headers=headers, data=await request.read()) as answer:
            body = await answer.read()
            passed = {key: value for key, value in answer.headers.items()
                      if key.lower() == "content-type" or key.lower().startswith("x-ratelimit")}
            return web.Response(body=body, status=answer.status, headers=passed)


async def test_every_rest_call_goes_through_the_configured_api_base(
    cluster: Cluster, tmp_path: Path  # noqa: F811
) -> None:
    fake, bots = cluster.fake, cluster.bots
    proxy = Proxy(fake.url)
    base = await proxy.start()
    try:
        bots.append(await start_bot(1, fake.url, tmp_path, "--no-sync",
                                    settings={"BOT_DISCORD_API": base}))
        await until(lambda: bots[0].said("1 server(s) on shards 1 of 2"), START_TIMEOUT,
                    "the process ready", cluster)
        token = await fake.slash_command(1, GUILD_C, "leaderboard")
        followup = f"/webhooks/{APPLICATION_ID}/{token}"
        await until(lambda: fake.calls_to("POST", followup), STEP_TIMEOUT,
                    "the /leaderboard answer", cluster)
        bots[0].process.send_signal(signal.SIGTERM)
        assert await exit_codes(cluster, STEP_TIMEOUT) == [0], output(cluster)
    finally:
        await proxy.stop()

    # The operator sees where REST calls go, and which event loop runs.
    assert bots[0].said(f"Discord's REST API through {base}"), output(cluster)
    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    assert bots[0].said(f"event loop: {loop}"), output(cluster)
    # shard 1 of 2: one of two processes dividing the machine's cores between their workers
    assert bots[0].said("bot process(es) sharing them)"), output(cluster)
    [sizes] = [line for line in bots[0].lines if "worker processes:" in line]
    assert "2 bot process(es)" in sizes, sizes
    # Every request the fake Discord answered came through the proxy, in the same order:
    # login, the commands' ids, the answer and its follow-up.
    seen = [f"{call.method} {call.path}" for call in fake.calls]
    assert seen == proxy.paths, output(cluster)
    assert {"GET /users/@me", f"GET /applications/{APPLICATION_ID}/commands",
            f"POST {followup}"} <= set(seen)
    assert any(path.endswith(f"/{token}/callback") for path in seen)
    problems = [line for bot in bots for line in bot.lines if TROUBLE.search(line)]
    assert not problems, output(cluster)
    assert not fake.errors, fake.errors
