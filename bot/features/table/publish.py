"""Posting boards: picture (drawn in a worker process), narration, mentions, components.

The service has committed every move before anything here runs, and hands over the Table as
it is after the move: nothing is read again to post it. A board goes out through the
interaction that caused the move when there is one in the table's place (a follow-up does
not count against the bot's global rate limit), else with `channel.send`. One lock per
table keeps boards in order; a board whose table has moved on meanwhile is skipped for the
newest one. Across processes, only the one holding the table's posting claim posts
(`claim_posting`: taken by the commit of the move, no round trip more): another that moved
the table meanwhile leaves its board to the holder, which posts the newer board after its
own (`mark_posted` tells it); a holder that died blocks the table only until its lease runs
out. A board that could not be posted (Discord failed, the process died) is posted
later by the sweeper (`sweep`), since the table's `posted_ply` stays behind its ply; with
several processes, by the one that serves the table's guild. Posting is idempotent per table
and ply: a post whose record (`mark_posted`) the database missed is remembered here and
stored later, and a board whose outcome is unknown (after a restart) is first looked for in
the channel (posted.py), so each move is narrated once.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import TypedDict

import discord
from discord import ui

from bot import metrics
from bot.features.common.badges import seat_label, seat_names, shown_name
from bot.features.common.components import Item, view_of
from bot.features.common.drawing import draw
from bot.features.common.errors import missing_permission_text
from bot.features.common.faults import defer
from bot.features.common.places import Place, Places
from bot.features.common.replies import answer_settled, settle_answer, take_answer
from bot.features.common.services import Services
from bot.features.table import hands
from bot.features.table.board import board_text, game_over_text, is_private_pick, players_line
from bot.features.table.components import PickButton
from bot.features.table.controls import board_items
from bot.features.table.labels import labels_of
from bot.features.table.layout import Shown, accent_of, board_view, is_layout, shown_of
from bot.features.table.pictures import render_board
from bot.features.table.posted import last_posted, picture_name
from bot.health import discord_failing
from bot.i18n import t, tn
from bot.storage import Unavailable
from bot.tables import MoveResult, Table, TableError, takeback
from bot.tables.computers import is_computer
from engines.base import Event

log = logging.getLogger(__name__)

# Backoff per table while Discord refuses its board: 15 s, 30 s, 1 min ... at most 10 min.
RETRY_FIRST = timedelta(seconds=15)
RETRY_MAX = timedelta(minutes=10)
BUSY_POSTS = 8  # publish calls going on from which boards count as queuing (`busy`)
# A board that comes this late (Discord refused it for so long) says why.
OUTAGE_NOTICE = timedelta(minutes=1)

MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()
RETIRED = "retired"  # interaction.extras key: the pressed board, its controls taken off
# interaction.extras key: the board may be the interaction's first answer (a typed move,
# answered publicly by its board: one request fewer than a private answer and a follow-up)
BOARD_ANSWER = "board_answer"


def replay_events(table: Table, after_ply: int) -> list[Event]:
    """Events of the log entries after `after_ply`, asked from the engine by replaying."""
    return takeback.replay_events(table.engine, len(table.seats), table.options, table.log,
                                  after_ply)  # a log with take-backs too


async def _answer_with(interaction: discord.Interaction, channel: Place,
                       post: BoardPost) -> discord.Message:
    """Post the board as the interaction's answer (its answer claimed by the caller). An
    interaction Discord no longer knows (answered too late) leaves the board to the channel;
    another failure gives the answer back, for the caller's fallback to use."""
    try:
        answered = await interaction.response.send_message(**post)
    except discord.NotFound:  # nobody can answer it any more
        settle_answer(interaction)
        log.info("a typed move's board came too late for its answer: posted in the channel")
        file = post.get("file")
        if file is not None:
            file.reset()  # read once already
        return await channel.send(**post)
    except BaseException:
        settle_answer(interaction, sent=False)
        raise
    settle_answer(interaction)
    message = answered.resource
    if isinstance(message, discord.InteractionMessage):
        return message
    return await interaction.original_response()  # Discord returned no message: ask for it


# Another feature's controls for a board: (table, locale, the board's own items) -> more items.
MoreControls = Callable[[Table, object, list[Item]], list[Item]]
# A private hand offered (table feature, hands.py): the decision's first ply, where it is
# shown (a DM, or the interaction whose ephemeral reply shows it) and its language.
OpenHand = tuple[int, hands.HandPlace, object]


class BoardPost(TypedDict, total=False):
    """A board message as `_send` posts it."""

    view: ui.LayoutView
    allowed_mentions: discord.AllowedMentions
    file: discord.File


class BoardEdit(TypedDict, total=False):
    """An edit of the pick board (`_update_picks`)."""

    view: ui.LayoutView
    allowed_mentions: discord.AllowedMentions
    attachments: list[discord.File]


class Publisher:
    def __init__(self, services: Services, places: Places) -> None:
        self.client = services.client
        self.service = services.tables
        self.owns_guild = services.owns_guild
        self.discord_health = services.outages.discord
        self.places = places
        self._posted_listeners: list[Callable[[Table], None]] = []
        self._more_controls: list[MoreControls] = []
        self._finished_listeners: list[Callable[[Table, int], Awaitable[None]]] = []
        self._final_items: list[Callable[[Table, object], list[Item]]] = []
        self._locks: dict[int, asyncio.Lock] = {}
        self._events: dict[int, list[tuple[int, list[Event]]]] = {}
        self._dm_closed: dict[int, set[int]] = {}
        self._latest: dict[int, Table] = {}  # the newest committed Table seen, per table
        self._shown: dict[int, Shown] = {}  # table -> what its newest board message shows
        # table -> seat -> the private hand offered for the decision starting at a ply:
        # (that ply, a DM message, or the interaction whose ephemeral reply shows it)
        self._hands: dict[int, dict[int, list[OpenHand]]] = {}
        self._picks: dict[tuple[int, int], str] = {}  # (table, seat) -> its last pick
        self._recalled: set[tuple[int, int]] = set()  # (table, seat): its DMs read back
        self._failures: dict[int, int] = {}  # boards that failed to post, in a row
        self._failing_since: dict[int, datetime] = {}  # the first failure of that row
        self._retry_at: dict[int, datetime] = {}  # no retry by the sweeper before this
        self._unmarked: dict[int, tuple[int, int | None]] = {}  # posted; mark_posted failed
        self._moved_elsewhere: set[int] = set()  # another process moved them while we posted
        self._publishing = 0  # publish calls going on

    def add_controls(self, controls: MoreControls) -> None:
        """Add `controls(table, locale, items)` to each running board: another feature's
        buttons after the board's own `items` (the take-back button)."""
        self._more_controls.append(controls)

    def on_posted(self, listener: Callable[[Table], None]) -> None:
        """Call `listener(table)` after each board of a running table is posted (the
        computer players move next)."""
        self._posted_listeners.append(listener)

    def on_finished(self, listener: Callable[[Table, int], Awaitable[None]],
                    items: Callable[[Table, object], list[Item]] | None = None) -> None:
        """Await `listener(table, board message id)` once the final board of a finished
        table is posted; `items(table, locale)`: components for that final board."""
        self._finished_listeners.append(listener)
        if items is not None:
            self._final_items.append(items)

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    # -- Discord failing ---------------------------------------------------------------------

    def _failed(self, table_id: int, cause: BaseException | None = None) -> None:
        """A board could not be posted: retry later, each time waiting twice as long."""
        now = self.service.now()
        count = self._failures[table_id] = self._failures.get(table_id, 0) + 1
        if cause is not None and discord_failing(cause):
            self.discord_health.failed(cause)
        self._failing_since.setdefault(table_id, now)
        self._retry_at[table_id] = now + min(RETRY_FIRST * 2 ** (count - 1), RETRY_MAX)
        metrics.error("board")

    def waiting(self, table_id: int) -> bool:
        """Whether the table's board is in its backoff (the sweeper leaves it for now)."""
        retry_at = self._retry_at.get(table_id)
        return retry_at is not None and self.service.now() < retry_at

    def _outage_note(self, table_id: int, locale: object) -> str | None:
        """Said on a board that comes late because Discord refused it for a while."""
        since = self._failing_since.get(table_id)
        if since is None or self.service.now() - since < OUTAGE_NOTICE:
            return None
        minutes = max(1, round((self.service.now() - since).total_seconds() / 60))
        return tn(locale, "Sorry for the wait: Discord didn't accept my messages for about "
                  "{minutes} minute, so this board comes late. Nothing was lost.",
                  "Sorry for the wait: Discord didn't accept my messages for about "
                  "{minutes} minutes, so this board comes late. Nothing was lost.",
                  minutes, minutes=minutes)

    def _recovered(self, table_id: int) -> None:
        self.discord_health.ok()
        self._failures.pop(table_id, None)
        self._failing_since.pop(table_id, None)
        self._retry_at.pop(table_id, None)

    # -- events ------------------------------------------------------------------------------

    def remember(self, result: MoveResult) -> None:
        """Keep the events of `result` until its board is posted (narration)."""
        first = result.table.ply - len(result.steps)
        buffer = self._events.setdefault(result.table.id, [])
        for index, step in enumerate(result.steps):
            buffer.append((first + index + 1, step.events))

    def _events_since(self, table: Table) -> list[Event]:
        """Events of plies posted_ply+1 .. ply: from memory, or replayed after a restart."""
        start = max(table.posted_ply, 0)
        buffer = [(ply, ev) for ply, ev in self._events.pop(table.id, []) if ply > start]
        plies = {ply for ply, _ in buffer}
        if plies == set(range(start + 1, table.ply + 1)):
            return [event for _, events in sorted(buffer, key=lambda x: x[0]) for event in events]
        try:
            return replay_events(table, start)
        except Exception:
            log.exception("table %s: could not replay events for narration", table.id)
            return []

    # -- places ------------------------------------------------------------------------------

    def place_text(self, table: Table) -> str:
        return f"<#{table.place_id}>"

    # -- posting -----------------------------------------------------------------------------

    async def publish(
        self, result_or_id: MoveResult | int, *, force: bool = False, notes: Sequence[str] = (),
        interaction: discord.Interaction | None = None,
    ) -> bool:
        """Post what changed on the table (a new board, or who has picked); False if the
        place refuses our messages. `force` reposts the current board (/board); `notes` are
        extra lines for this board (a deadline that passed); `interaction`: the one that
        caused the move, to post through when it is in the table's place."""
        self._publishing += 1
        try:
            return await self._publish(result_or_id, force, notes, interaction)
        finally:
            self._publishing -= 1

    @property
    def busy(self) -> bool:
        """Boards are queuing (a burst, or more moves than the machine posts): a new one
        would come late."""
        return self._publishing >= BUSY_POSTS

    async def _publish(self, result_or_id: MoveResult | int, force: bool,
                       notes: Sequence[str], interaction: discord.Interaction | None) -> bool:
        fresh = 0  # plies this call brings (their boards were never tried)
        if isinstance(result_or_id, MoveResult):
            metrics.move(sum(1 for step in result_or_id.steps if step.actor >= 0))
            self.remember(result_or_id)
            table: Table | None = self._newest(result_or_id.table)
            table_id = result_or_id.table.id
            fresh = len(result_or_id.steps)
            self._picked(table_id, result_or_id, interaction)
        else:
            table, table_id = None, result_or_id
        async with self._lock(table_id):
            if table is None:
                try:
                    table = self._newest(await self.service.get(table_id))
                except TableError:
                    return False
            else:
                table = self._latest.get(table_id, table)  # a newer move came meanwhile
            if table.status not in ("running", "finished"):
                return True
            await self._mark_known(table)
            if table.needs_post and not await self.service.claim_posting(table_id):
                self._events.pop(table_id, None)  # replayed if it ever comes to us
                return True  # another process is posting it (or its sweeper, if that died)
            if table.needs_post and table.ply - fresh > table.posted_ply:
                table = await self._found_in_channel(table)  # a post whose outcome is unknown
            if not force and not table.needs_post:
                return True
            if not force and self._same_decision(table):
                ok = await self._update_picks(table, notes)
            else:
                events = self._events_since(table) if table.posted_ply < table.ply else []
                ok = await self._post_board(table, events, send_hands=not force, extra=notes,
                                            interaction=interaction)
        if ok and table.status == "running":
            for listener in self._posted_listeners:
                listener(table)
        if table_id in self._moved_elsewhere:  # its board is ours to post: we hold the claim
            self._moved_elsewhere.discard(table_id)
            return await self._publish(table_id, False, (), None) and ok
        return ok

    def _picked(self, table_id: int, result: MoveResult,
                interaction: discord.Interaction | None) -> None:
        """Remember what the seats whose hands are open picked (their hands say it when
        closed); a hand message the press came from was answered by that press."""
        offered = self._hands.get(table_id)
        if not offered:
            return
        for step in result.steps:
            if step.actor in offered:
                self._picks[(table_id, step.actor)] = str(step.move.parts[-1])
        pressed = getattr(getattr(interaction, "message", None), "id", None)
        if pressed is not None:
            for seat, shown in list(offered.items()):
                offered[seat] = [entry for entry in shown
                                 if getattr(entry[1], "id", None) != pressed]
                if not offered[seat]:
                    del offered[seat]

    async def _mark_known(self, table: Table) -> None:
        """Store a post that this process knows of but the database missed (mark_posted
        failed: the database was down)."""
        stored = self._unmarked.get(table.id)
        if stored is None or table.posted_ply < stored[0]:
            return
        await self._mark(table.id, *stored)

    async def _mark(self, table_id: int, ply: int, message_id: int | None) -> None:
        """`mark_posted`; when the database is unavailable the board is posted all the same,
        and the record is kept in memory (its Health warned once) to be stored later."""
        try:
            newer = await self.service.mark_posted(table_id, ply, message_id)
        except Unavailable as err:
            log.debug("table %s: ply %s posted, not yet recorded (%s)", table_id, ply, err)
            known = self._unmarked.get(table_id)
            if known is None or known[0] <= ply:
                self._unmarked[table_id] = (ply, message_id)
        else:
            known = self._unmarked.get(table_id)
            if known is not None and known[0] <= ply:
                del self._unmarked[table_id]
            latest = self._latest.get(table_id)
            if newer is not None and (latest is None or latest.ply < newer):
                self._moved_elsewhere.add(table_id)  # no move of ours will post it

    async def _found_in_channel(self, table: Table) -> Table:
        """`table`, with the newest of its boards the channel already shows recorded as
        posted (see posted.py); unchanged when the channel shows none newer."""
        channel = await self.places.channel(table.place_id)
        me = getattr(self.client.user, "id", None)
        found = await last_posted(channel, me, table.id)
        if found is None or found[0] <= table.posted_ply:
            return table
        ply, message_id = min(found[0], table.ply), found[1]
        log.info("table %s: the board of ply %s was posted already; not posted again",
                 table.id, ply)
        await self._mark(table.id, ply, message_id)
        return self._posted(table, ply, message_id)

    def _newest(self, table: Table) -> Table:
        """`table`, unless a newer state of it was seen (a later ply, or its end)."""
        stored = self._unmarked.get(table.id)
        if stored is not None and stored[0] > table.posted_ply:  # posted, not yet recorded
            table = table.marked(posted_ply=stored[0], message_id=stored[1] or table.message_id,
                                 posted_final=table.posted_final or (
                                     table.status == "finished" and stored[0] >= table.ply))
        known = self._latest.get(table.id)
        if known is not None and (known.ply, known.status != "running") > (
                table.ply, table.status != "running"):
            return known
        if known is not None and known.posted_ply > table.posted_ply:  # posted since its load
            table = table.marked(posted_ply=known.posted_ply, message_id=known.message_id)
        self._latest[table.id] = table
        return table

    def _posted(self, table: Table, ply: int, message_id: int | None) -> Table:
        """Remember in memory what `mark_posted` stored."""
        final = table.status == "finished" and ply >= table.ply
        posted = table.marked(posted_ply=max(table.posted_ply, ply),
                         message_id=message_id or table.message_id,
                         posted_final=table.posted_final or final)
        if self._latest.get(table.id) is table:
            self._latest[table.id] = posted
        if table.status != "running":
            self._latest.pop(table.id, None)
        return posted

    @staticmethod
    def _same_decision(table: Table) -> bool:
        """A posted board still asks the same open question (6 nimmt! picks in progress)."""
        if table.message_id is None or table.posted_ply < 0 or not table.since:
            return False
        if not is_private_pick(table):
            return False
        return min(table.since.values()) <= table.posted_ply

    async def _post_board(
        self, table: Table, events: list[Event], *, send_hands: bool,
        extra: Sequence[str] = (), interaction: discord.Interaction | None = None,
    ) -> bool:
        try:
            channel = await self.places.fetch(table.place_id)
        except (discord.NotFound, discord.Forbidden):  # deleted: nothing to post, ever
            log.warning("table %s: place %s is gone", table.id, table.place_id)
            await self.service.mark_posted(table.id, table.ply, None)
            return False
        except discord.HTTPException as err:
            log.info("table %s: place %s could not be fetched (%s)", table.id,
                     table.place_id, err)
            self._failed(table.id, err)
            return True  # saved; the sweeper posts it once Discord answers again
        started = time.monotonic()
        locale = self.places.locale_of(channel)
        notes: list[str] = list(extra)
        late = self._outage_note(table.id, locale)
        if late:
            notes.insert(0, late)
        drawing = None
        if self.places.can(channel, "attach_files"):  # drawn while the hands go out
            drawing = asyncio.ensure_future(self._render(table, events, locale))
        try:
            if send_hands and is_private_pick(table):
                await self.send_hands(table, locale)
        except BaseException:
            if drawing is not None:
                drawing.cancel()
            raise
        notes.extend(self._dm_notes(table, locale))
        file = None
        if drawing is None:
            notes.append(missing_permission_text(locale, "attach_files", channel.mention) + " " +
                         t(locale, "Until then the board is only described in words."))
        else:
            file = await drawing
            if file is None:
                notes.append(t(locale, "(The picture could not be drawn this time.)"))
        if table.status == "finished":
            content = game_over_text(table, events, locale, notes)
            items = [item for made in self._final_items for item in made(table, locale)]
        else:
            content = board_text(table, events, locale, notes)
            items = self.items(table, locale)
        picture = file.filename if file is not None else None
        alt = file.description if file is not None else None
        accent = accent_of(table)
        post: BoardPost = {"view": board_view(content, picture, alt, items, accent),
                           "allowed_mentions": MENTIONS}
        if file is not None:
            post["file"] = file
        previous = self._shown.get(table.id)
        previous_id = table.message_id
        try:
            message = await self._send(channel, interaction, table, post)
        except discord.Forbidden:
            log.warning("table %s: cannot post in %s", table.id, table.place_id)
            return False
        except discord.HTTPException as err:  # 5xx, or 429 after discord.py's own retries
            self._failed(table.id, err)  # Discord's Health warns once per outage
            log.info("table %s: the board could not be posted (%s); retrying in %s",
                     table.id, err, self._retry_at[table.id] - self.service.now())
            return True  # saved, and the sweeper posts it: not the player's fault
        self._recovered(table.id)
        metrics.board_posted(time.monotonic() - started)
        if table.posted_ply < 0:  # its first board: every hand of it is sent from here
            self._recalled.update((table.id, s) for s in range(len(table.seats)))
        posted = self._posted(table, table.ply, message.id)  # known here before it is stored
        await self._mark(table.id, table.ply, message.id)
        table = posted
        self._shown[table.id] = Shown(message.id, content, picture, alt, accent)
        if previous_id is not None and previous_id != message.id:
            await self._retire(channel, previous_id, previous, interaction)
        await self.close_hands(table)
        if table.status == "finished":
            self._dm_closed.pop(table.id, None)
            self._locks.pop(table.id, None)
            self._shown.pop(table.id, None)
            self._hands.pop(table.id, None)
            self._recalled.difference_update((table.id, s) for s in range(len(table.seats)))
            for listener in self._finished_listeners:
                try:
                    await listener(table, message.id)
                except Exception:  # the game is over and saved: only its news is missing
                    log.exception("table %s: an end listener failed", table.id)
        return True

    async def answer_press(self, interaction: discord.Interaction, table: Table) -> None:
        """Answer a move pressed on a board, once it is saved. On the table's newest board
        known here, the answer itself takes that board's controls off (they were for the
        turn just played): one request, where a deferral and a later edit took two. Any
        other board is deferred, and retired once the new one is posted. A failed answer
        is logged: the board is posted all the same."""
        pressed = getattr(interaction.message, "id", None)
        shown = self._shown.get(table.id)
        try:
            if shown is not None and pressed is not None and shown.message_id == pressed:
                await interaction.response.edit_message(view=shown.without_controls(),
                                                        allowed_mentions=NO_MENTIONS)
                interaction.extras[RETIRED] = pressed
            else:
                await defer(interaction)
        except discord.HTTPException as err:
            log.info("table %s: could not answer a move's press (%s)", table.id, err)

    async def _retire(self, channel: Place, message_id: int, shown: Shown | None,
                      interaction: discord.Interaction | None = None) -> None:
        """One live board per table: the board before the newest keeps its text and picture
        (the move history stays readable) and loses its controls. Pressed on that board, the
        press's own answer edits it: no request against the channel's limits."""
        pressed = getattr(getattr(interaction, "message", None), "id", None)
        if getattr(interaction, "extras", {}).get(RETIRED) == message_id:
            return  # its answer took them off (answer_press)
        try:
            if shown is not None and shown.message_id == message_id:
                if interaction is not None and pressed == message_id and \
                        interaction.type == discord.InteractionType.component and \
                        not interaction.is_expired():
                    await interaction.edit_original_response(view=shown.without_controls(),
                                                             allowed_mentions=NO_MENTIONS)
                else:
                    await channel.get_partial_message(message_id).edit(
                        view=shown.without_controls(), allowed_mentions=NO_MENTIONS)
                return
            message = await channel.fetch_message(message_id)  # after a restart
            if not message.components:
                return
            if is_layout(message):
                await message.edit(view=shown_of(message).without_controls(),
                                   allowed_mentions=NO_MENTIONS)
            else:  # a board posted before boards were Components V2
                await message.edit(view=None, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as err:
            log.info("could not remove the controls of board %s (%s)", message_id, err)

    async def _shown_board(self, channel: Place, table: Table
                           ) -> tuple[discord.Message | discord.PartialMessage, Shown]:
        """The table's newest board message (a partial one when known here) and what it
        shows; read back from Discord after a restart."""
        assert table.message_id is not None
        known = self._shown.get(table.id)
        if known is not None and known.message_id == table.message_id and \
                hasattr(channel, "get_partial_message"):
            return channel.get_partial_message(table.message_id), known
        message = await channel.fetch_message(table.message_id)
        return message, shown_of(message)

    async def show_controls(self, interaction: discord.Interaction, table: Table,
                            items: Sequence[Item]) -> bool:
        """Show `items` as the controls of the table's newest board, which `interaction`
        (deferred) was used on: a second control on the same message (a group's
        destinations). False when the board cannot be shown so."""
        message = interaction.message
        if message is None or message.id != table.message_id:
            return False
        known = self._shown.get(table.id)
        if known is not None and known.message_id == message.id:
            shown = known
        elif is_layout(message):
            shown = shown_of(message)
        else:  # a board posted before boards were Components V2
            await interaction.edit_original_response(view=view_of(items))
            return True
        view = board_view(shown.text, shown.picture, shown.alt, items, shown.accent)
        await interaction.edit_original_response(view=view, allowed_mentions=NO_MENTIONS)
        return True

    @staticmethod
    async def _send(channel: Place, interaction: discord.Interaction | None, table: Table,
                    post: BoardPost) -> discord.Message:
        """As the answer of an interaction that offers it (a typed move, `BOARD_ANSWER`) and
        is not answered yet; else through the interaction's follow-up when it was used in
        the table's place (and is fresh); else as a channel message."""
        if interaction is None or interaction.channel_id != table.place_id or \
                interaction.is_expired():
            return await channel.send(**post)
        view = post.get("view")
        may_answer = bool(interaction.extras.get(BOARD_ANSWER))
        if may_answer:
            await answer_settled(interaction)  # a private answer being sent goes first
        if may_answer and take_answer(interaction):
            message = await _answer_with(interaction, channel, post)
        else:
            message = await interaction.followup.send(wait=True, **post)
        if view is not None:
            view.stop()  # dynamic items: nothing needs the View object
        return message

    async def _render(self, table: Table, events: list[Event], locale: object = None
                      ) -> discord.File | None:
        outcome = table.outcome if table.status == "finished" else None
        try:
            png, alt = await draw(render_board, table.game, table.view(None), outcome, events,
                                  locale, seat_names(table, locale))
        except Exception:
            log.exception("table %s: the board could not be drawn", table.id)
            return None
        return discord.File(io.BytesIO(png), filename=picture_name(table.id, table.ply),
                            description=alt)

    def items(self, table: Table, locale: object) -> list[Item]:
        """The components of the current decision (who acts is checked on use)."""
        seats = table.to_act()
        if not seats:
            return []
        if is_private_pick(table):
            return [PickButton(table.id, table.ply, label=t(locale, "Pick privately"))]
        seat = seats[0]
        items = board_items(table.game, table.id, table.ply, table.legal_moves(seat),
                            labels_of(table, seat, locale), locale)
        for more in self._more_controls:  # other features' buttons (take-back)
            items = items + more(table, locale, items)
        return items

    # -- 6 nimmt! picks ------------------------------------------------------------------------

    def _dm_notes(self, table: Table, locale: object) -> list[str]:
        closed = self._dm_closed.get(table.id, set())
        acting = {table.seats[s].user_id for s in table.to_act()}
        return [
            t(locale, "I couldn't send {player} their hand by DM (their direct messages are "
              "closed): {player}, press **Pick privately** to see your hand here, privately.",
              player=seat_label(i, shown_name(locale, seat.user_id, seat.name), table.game))
            for i, seat in enumerate(table.seats)
            if seat.user_id in closed and seat.user_id in acting
        ]

    async def send_hands(self, table: Table, locale: object) -> None:
        """DM every seat that must pick its hand (picture + select), concurrently."""
        await asyncio.gather(*(self._send_hand(table, s, locale) for s in table.to_act()))

    async def _send_hand(self, table: Table, seat: int, locale: object) -> None:
        user_id = table.seats[seat].user_id
        moves = self.service.legal_moves_for(table, user_id)
        try:
            hand = await hands.hand_message(table, seat, moves, locale, self.place_text(table))
            message = await self.places.send_direct(user_id, allowed_mentions=NO_MENTIONS,
                                                    **hand)
        except discord.HTTPException as err:
            log.info("table %s: no DM to %s (%s)", table.id, user_id, err)
            self._dm_closed.setdefault(table.id, set()).add(user_id)
        else:
            self._dm_closed.get(table.id, set()).discard(user_id)
            self.hand_opened(table, seat, message, locale)

    def hand_opened(self, table: Table, seat: int, where: hands.HandPlace,
                    locale: object) -> None:
        """A private hand was offered to `seat` (a DM `discord.Message`, or the interaction
        of "Pick privately" whose ephemeral reply shows it): closed once the seat has
        picked, by whichever route (`close_hands`)."""
        since = table.since.get(seat, table.ply)
        self._hands.setdefault(table.id, {}).setdefault(seat, []).append(
            (since, where, locale))

    async def close_hands(self, table: Table) -> None:
        """Close the private hands whose decision is over (the seat picked, by DM, by "Pick
        privately" or /move; the turn moved on; the game ended): their menu is removed and
        they say what was picked."""
        await self._recall_hands(table)
        offered = self._hands.get(table.id)
        if not offered:
            return
        running = table.status == "running"
        acting = set(table.to_act()) if running else set()
        jobs = []
        for seat, shown in list(offered.items()):
            current = [entry for entry in shown
                       if running and seat in acting and table.since.get(seat) == entry[0]]
            done = [entry for entry in shown if entry not in current]
            if current:
                offered[seat] = current
            else:
                del offered[seat]
            card = hands.own_pick(table, seat) if running else None
            picked = self._picks.pop((table.id, seat), None) if done else None
            for _since, where, locale in done:
                jobs.append(self._close_hand(table, where, locale, card or picked))
        if jobs:
            await asyncio.gather(*jobs)

    async def _recall_hands(self, table: Table) -> None:
        """The hands DMed before a restart are in no list of this process: read them back
        from each player's DMs, once per table and seat, so that they close like the others."""
        if not any(decision.private for decision in table.engine.info.decisions):
            return
        seats = [s for s, seat in enumerate(table.seats)
                 if not is_computer(seat.user_id) and (table.id, s) not in self._recalled]
        if not seats:
            return
        self._recalled.update((table.id, s) for s in seats)
        found = await asyncio.gather(*(hands.dm_hands(self.client, self.places,
                                                      table.seats[s].user_id, table.id)
                                       for s in seats))
        if not any(found):
            return
        locale = self.places.locale_of(await self.places.channel(table.place_id))
        offered = self._hands.setdefault(table.id, {})
        for seat, messages in zip(seats, found, strict=True):
            known = {getattr(entry[1], "id", None) for entry in offered.get(seat, [])}
            since = table.since.get(seat)
            for ply, message in messages:
                if message.id not in known:  # of the current decision, or of an older one
                    began = since if since is not None and ply >= since else ply
                    offered.setdefault(seat, []).append((began, message, locale))

    async def _close_hand(self, table: Table, where: hands.HandPlace, locale: object,
                          card: int | str | None) -> None:
        if card is not None:
            text = t(locale, "You picked {card}. It stays face down until everyone has picked.",
                     card=card)
        elif table.status != "running":
            text = t(locale, "The game is over: this hand is closed.")
        else:
            text = t(locale, "This pick is over: the board in {place} shows what happened.",
                     place=self.place_text(table))
        try:
            if isinstance(where, discord.Interaction):
                if where.is_expired():
                    return
                await where.edit_original_response(content=text, view=None)
            else:
                await where.edit(content=text, view=None)
        except discord.HTTPException as err:
            log.info("table %s: could not close a private hand (%s)", table.id, err)

    async def _update_picks(self, table: Table, extra: Sequence[str] = ()) -> bool:
        """Edit the posted pick board: who has picked (never what), and who is awaited; the
        picture is drawn again (a picked seat shows a face-down card)."""
        channel = await self.places.channel(table.place_id)
        if channel is None or table.message_id is None:
            return False
        locale = self.places.locale_of(channel)
        fresh = board_text(table, [], locale, [*extra, *self._dm_notes(table, locale)])
        marker = players_line(table, locale)
        drawing = None
        if self.places.can(channel, "attach_files"):
            drawing = asyncio.ensure_future(self._render(table, [], locale))
        try:
            # The text above the players line never changes once posted: known since then
            # (whoever edits below it), else read back from Discord.
            message, shown = await self._shown_board(channel, table)
            before, found, _ = shown.text.partition("\n" + marker)
            after = fresh.partition("\n" + marker)
            content = (before + found + after[2] if found and after[1] else fresh)[:4000]
            file = await drawing if drawing is not None else None
            picture, alt = shown.picture, shown.alt
            edit: BoardEdit = {"allowed_mentions": NO_MENTIONS}
            if file is not None:
                picture, alt = file.filename, file.description
                edit["attachments"] = [file]
            shown = Shown(table.message_id, content, picture, alt, accent_of(table))
            items = self.items(table, locale)
            edit["view"] = board_view(content, picture, alt, items, shown.accent)
            await message.edit(**edit)
        except discord.HTTPException as err:
            if drawing is not None:
                drawing.cancel()
            log.info("table %s: could not update the pick board (%s)", table.id, err)
            return await self._post_board(table, [], send_hands=False)
        self._shown[table.id] = shown
        self._posted(table, table.ply, table.message_id)
        await self._mark(table.id, table.ply, table.message_id)
        await self.close_hands(table)
        return True

    # -- boards left unposted ----------------------------------------------------------------

    async def recover(self, quiet_for: timedelta | None = None, backoff: bool = False) -> int:
        """Post every board that a crash, a restart or a Discord failure left unposted
        (running tables, and games that finished shortly before, final board included), for
        the guilds this process serves; returns how many. `quiet_for`: only tables that did
        not change for that long (others are being posted by whoever moved them); `backoff`:
        skip tables whose last failure asks to wait longer."""
        posted = 0
        tables = await self.service.unposted_tables(guilds=self.owns_guild,
                                                    quiet_for=quiet_for)
        for table in tables:
            if backoff and self.waiting(table.id):
                continue
            if table.needs_post:
                try:
                    if await self.publish(table.id):
                        posted += 1
                except Exception:
                    log.exception("table %s: recovery failed", table.id)
        return posted
