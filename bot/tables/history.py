"""History, replays and exports for the Discord layer: one call per command, no Discord here.

    games = await recent_games(service, guild_id, user_id=None, limit=10)   # /history [member]
    file = await replay_file(service, table_id, guild_id)                    # /replay <table>
    file = await export_file(service, table_id, guild_id, names)             # /export <table>
    # file.data (bytes) and file.filename go into discord.File(io.BytesIO(data), filename)

`replay_file` renders in the background lane of the worker processes (bot/workers.py):
defer the interaction first, a long game takes a few seconds. Refusals are TableError:
`not_found` (no such table, or one of another guild), `not_running` (a lobby, or a table
cancelled before it started: no game to show), `not_allowed` (export of a table still
being played: its log holds the deals).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot import workers
from bot.i18n import picture_words
from bot.storage import FinishedTable, HistoryPlayer, HistoryRepository
from bot.tables.errors import TableError
from bot.tables.export import export_table, exportable, to_json_bytes
from bot.tables.models import Table
from bot.tables.service import TableService
from bot.tables.takeback import played
from renderers import replay

DISCORD_UPLOAD_LIMIT = 10 * 1024 * 1024  # bots, most servers
REPLAY_MAX_BYTES = 8_000_000  # a margin under it
ALT_TEXT_LIMIT = 1024  # Discord's limit on an attachment's description


@dataclass(frozen=True)
class ExportFile:
    """A file to attach: its bytes and a name (with the extension Discord shows it by)."""

    data: bytes
    filename: str
    frames: int = 0  # replays: frames in the animation
    description: str = ""  # replays: the animation in words, for a screen reader


def _history(source: TableService | HistoryRepository) -> HistoryRepository:
    return source._history if isinstance(source, TableService) else source


async def recent_games(
    source: TableService | HistoryRepository, guild_id: int, user_id: int | None = None,
    limit: int = 10,
) -> list[FinishedTable]:
    """The guild's most recently finished tables (those `user_id` played, if given), newest
    first: table id, game, dates and each seat's name, user id, rank and score."""
    return await _history(source).finished_tables(guild_id, user_id, limit)


async def shown_table(service: TableService, table_id: int, guild_id: int | None) -> Table:
    """A table with a game to show (replay, export, review): of `guild_id` (any guild when
    None) and started. TableError `not_found` or `not_running` otherwise."""
    table = await service.get(table_id)
    if guild_id is not None and table.guild_id != guild_id:
        raise TableError("not_found", table_id=table_id)
    if table.state is None:
        raise TableError("not_running")
    return table


def played_game(table: Table) -> replay.PlayedGame:
    """What a replay of the table is drawn from (its outcome too: a resign ends it); moves
    taken back are left out."""
    return replay.PlayedGame(table.game, table.options, len(table.seats), played(table.log),
                             table.outcome)


def _drawn_replay(locale: str | None, played: replay.PlayedGame, names: list[str] | None,
                  **options: int) -> tuple[replay.Replay, str]:
    """`build_replay` with the pictures' words in `locale`'s language, and its alt text naming
    the seats by `names` (in a worker: both replay the whole game)."""
    words = picture_words(locale)
    return (replay.build_replay(played, gettext=words, **options),
            replay.alt_text(played, gettext=words, names=names))


async def replay_file(
    service: TableService, table_id: int, guild_id: int | None = None,
    locale: str | None = None, names: Sequence[str] | None = None, **options: int,
) -> ExportFile:
    """The animated replay of a started table (running ones too: only public views are
    drawn), its words in `locale`'s language, with its alt text (seats called by `names`,
    as the caller shows them; "Player 1".. without). `options` go to
    `renderers.replay.build_replay` (frame_ms, final_hold_ms, max_bytes)."""
    table = await shown_table(service, table_id, guild_id)
    options.setdefault("max_bytes", REPLAY_MAX_BYTES)
    made, alt = await workers.run("background", _drawn_replay, locale, played_game(table),
                                  list(names) if names is not None else None, **options)
    return ExportFile(made.data, f"table-{table.id}-{table.game}.{replay.FILE_EXTENSION}",
                      made.frames, alt[:ALT_TEXT_LIMIT])


async def exported_table(
    service: TableService, table_id: int, guild_id: int | None = None
) -> Table:
    """A table that may be exported now: finished, or cancelled after starting (TableError
    `not_found`, `not_running` or `not_allowed` otherwise)."""
    table = await shown_table(service, table_id, guild_id)
    if not exportable(table):
        raise TableError("not_allowed")
    return table


def export_of(table: Table, names: Sequence[str] | None = None) -> ExportFile:
    """The JSON export of `exported_table`'s table, the seats named by `names` (as the reader
    sees them; the stored names without)."""
    return ExportFile(to_json_bytes(export_table(table, names)),
                      f"table-{table.id}-{table.game}.json")


async def export_file(
    service: TableService, table_id: int, guild_id: int | None = None,
    names: Sequence[str] | None = None,
) -> ExportFile:
    """The JSON export of a finished (or cancelled after starting) table."""
    return export_of(await exported_table(service, table_id, guild_id), names)


__all__ = [
    "DISCORD_UPLOAD_LIMIT", "REPLAY_MAX_BYTES", "ExportFile", "FinishedTable", "HistoryPlayer",
    "export_file", "export_of", "exported_table", "played_game", "recent_games", "replay_file",
    "shown_table",
]
