"""The fake Discord reads an upload exactly as discord.py writes it: the bench's picture
sizes and the shard tests' boards come from this reading."""

from __future__ import annotations

import io

import aiohttp
import discord
import pytest
from discord.http import handle_message_parameters

from tests.wire.fake_discord import read_multipart


class _Sink:
    def __init__(self) -> None:
        self.data = bytearray()

    async def write(self, chunk: bytes) -> None:
        self.data += chunk


@pytest.mark.asyncio
async def test_a_board_upload_is_read_as_its_payload_and_its_file() -> None:
    picture = bytes(range(256)) * 40 + b"\r\n--not-a-boundary\r\n"  # bytes a PNG may hold
    params = handle_message_parameters(
        content="Senet · move 12", file=discord.File(io.BytesIO(picture), "board-7-12.png"))
    form = aiohttp.FormData(quote_fields=False)  # as discord.py builds it
    for part in params.multipart or []:
        form.add_field(**part)
    writer = form()
    sink = _Sink()
    await writer.write(sink)  # type: ignore[arg-type]

    body, files = read_multipart(writer.content_type, bytes(sink.data))

    assert body["content"] == "Senet · move 12"
    assert body["attachments"][0]["filename"] == "board-7-12.png"
    assert files == [("board-7-12.png", len(picture))]
