"""Every interaction gets an answer, whatever fails behind it.

A command, button or select that raises (the database is unavailable, Discord failed, a bug)
is answered privately in the user's language, and the error is logged once with its cause:

- `bot.storage.Unavailable` (locked, disk full, read-only, gone): "I couldn't save that —
  nothing changed, please try again in a minute" (the unit of work rolled back whole); a
  command that only reads (`READ_ONLY_COMMANDS`: /board, /history ...) says "I can't read
  the table right now" instead; every database connection in use for too long (a burst on
  PostgreSQL, `Saturated`): "I'm very busy right now … try again in a few seconds", logged
  at INFO, not an outage;
- a cooldown: how long to wait; a table's refusal (TableError): its polite sentence;
- anything else: a short apology ("This interaction failed" is never left).

An outage (the database or Discord unavailable) is logged once, by its `Health` (bot/health.py):
one warning when it starts, one line when it ends; each refused interaction is only counted.

A public "thinking…" deferral (/play, /history, /replay) is deleted first, so it is never left
thinking and the answer stays private. Slash commands reach here through `tree.on_error`;
components through the `guarded` decorator on their callbacks.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands

from bot import metrics
from bot.features.common.components import handler_if_any
from bot.features.common.errors import table_error_text
from bot.health import Health, Outages, discord_failing
from bot.i18n import N_, Nn_, t, tn
from bot.storage import Unavailable
from bot.storage.driver import Saturated, note_player_answered, player_answered
from bot.tables import TableError

log = logging.getLogger(__name__)

UNAVAILABLE = N_("I couldn't save that — nothing changed, please try again in a minute.")
UNREADABLE = N_("I can't read the table right now — please try again in a minute.")
BUSY = N_("I'm very busy right now — nothing changed, please try again in a few seconds.")
FAILED = N_("Sorry, something went wrong on my side. Please try again in a moment.")
COOLDOWN = Nn_("Please wait {seconds} second before using this again.",
              "Please wait {seconds} seconds before using this again.")
# Commands that only read: refused during a database outage with UNREADABLE.
READ_ONLY_COMMANDS = frozenset({
    "board", "rules", "help", "leaderboard", "stats", "hint", "history", "replay", "export",
    "review", "tournament standings", "tournament list",
})
PUBLIC_DEFER = "public_defer"  # interaction.extras key: deferred with a public "thinking…"
# Seconds a move's save may take for the first answer to carry its outcome (see `saved_then`).
QUICK_ANSWER = 0.15
QUICK_AT_ONCE = 4  # saves going on beyond which a move is deferred at once (a burst)
_saving = 0  # saves going on in `saved_then`

S = TypeVar("S")  # the component a callback belongs to
P = ParamSpec("P")
T = TypeVar("T")


def mark_public_defer(interaction: discord.Interaction) -> None:
    """Remember that this interaction shows a public "thinking…" (see `answer_failure`)."""
    interaction.extras[PUBLIC_DEFER] = True


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False,
                thinking: bool = False) -> None:
    """Acknowledge the interaction (Discord's 3 seconds are met); after that the database
    work of this interaction queues for a busy PostgreSQL pool rather than being refused."""
    await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    note_player_answered()


async def saved_then(interaction: discord.Interaction, work: Callable[[], Awaitable[T]], *,
                     ephemeral: bool = False, thinking: bool = False) -> T:
    """The result of `work()` (a move's save). When it ends within QUICK_ANSWER the
    interaction is left unanswered, so that one answer carries the outcome: a request fewer
    than a deferral and its follow-up. Otherwise the interaction is deferred at that moment,
    so Discord's 3 seconds are met whatever the work waits for (a busy database is queued
    for, not refused), and the work is waited for; a deferral that fails then does not stop
    it. In a burst (QUICK_AT_ONCE saves already going on) the interaction is deferred before
    the work starts, as every one was before: no answer waits behind the others' work."""
    global _saving
    busy = _saving >= QUICK_AT_ONCE
    if busy:
        await defer(interaction, ephemeral=ephemeral, thinking=thinking)
    _saving += 1
    try:
        with player_answered():  # answered in time: now, or by the deadline below
            task = asyncio.ensure_future(work())
        try:
            if not busy:
                await asyncio.wait({task}, timeout=QUICK_ANSWER)
            if not task.done() and not interaction.response.is_done():
                try:
                    await defer(interaction, ephemeral=ephemeral, thinking=thinking)
                except discord.HTTPException as err:
                    log.info("could not defer an interaction (%s); its move goes on", err)
            return await task
        except asyncio.CancelledError:
            task.cancel()
            raise
    finally:
        _saving -= 1


async def defer_publicly(interaction: discord.Interaction) -> None:
    """`defer(thinking=True)` visible to everyone, remembered for `answer_failure`."""
    await defer(interaction, thinking=True)
    mark_public_defer(interaction)


def now() -> float:
    """The cooldowns' clock: monotonic (immune to clock changes), never 0 (discord.py's
    Cooldown reads 0 as "use time.time()")."""
    return time.monotonic() + 1.0


def cooldown(rate: int, per: float) -> Callable[[discord.Interaction], bool]:
    """An app-command check: `rate` uses per `per` seconds per member and server, with
    discord.py's Cooldown buckets (one set per call, so per bot); over the limit it raises
    CommandOnCooldown, which `on_tree_error` answers with the time to wait."""
    buckets: dict[tuple[int | None, int], app_commands.Cooldown] = {}

    def check(interaction: discord.Interaction) -> bool:
        key = (interaction.guild_id, interaction.user.id)
        if key not in buckets and len(buckets) >= 10_000:
            buckets.clear()  # old buckets have long cooled down
        bucket = buckets.setdefault(key, app_commands.Cooldown(rate, per))
        retry = bucket.update_rate_limit(now())
        if retry:
            raise app_commands.CommandOnCooldown(bucket, retry)
        return True

    return check


def unwrap(error: BaseException) -> BaseException:
    """The exception a command raised, out of discord.py's CommandInvokeError."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.__cause__ or getattr(error, "original", None) or error
        if not isinstance(error, app_commands.AppCommandError):
            break
    return error


def command_name(interaction: discord.Interaction) -> str | None:
    """The slash command's full name ("tournament list"), None for components."""
    return getattr(interaction.command, "qualified_name", None)


def failure_text(error: BaseException, locale: object, reads_only: bool = False) -> str:
    """What the user reads; `reads_only`: the interaction could only have read (see
    READ_ONLY_COMMANDS), so an outage is told as "can't read", not "couldn't save"."""
    if isinstance(error, TableError):  # a refusal that surfaced outside its usual place
        return table_error_text(error, locale)
    if isinstance(error, app_commands.CommandOnCooldown):
        seconds = max(1, round(error.retry_after))
        return tn(locale, *COOLDOWN, seconds, seconds=seconds)
    if isinstance(error, Saturated):  # a burst: over in seconds, unlike an outage
        return t(locale, BUSY)
    if isinstance(error, Unavailable):
        return t(locale, UNREADABLE if reads_only else UNAVAILABLE)
    return t(locale, FAILED)


def kind_of(error: BaseException) -> str:
    """A short name for metrics and logs."""
    if isinstance(error, app_commands.CommandOnCooldown):
        return "cooldown"
    if isinstance(error, TableError):
        return "refusal"
    if isinstance(error, Saturated):
        return "busy"  # every database connection in use (a burst): not an outage
    if isinstance(error, Unavailable):
        return "database"
    if isinstance(error, discord.HTTPException):
        return "discord"
    return "bug"


def health_of(interaction: discord.Interaction, kind: str) -> Health | None:
    """The bot's Health for "database" or "discord" (routed when the bot was assembled)."""
    outages = handler_if_any(interaction, Outages)
    return None if outages is None else outages.of(kind)


def log_failure(interaction: discord.Interaction, error: BaseException) -> None:
    """An outage is counted by its Health (which warns once when it starts); a bug is logged
    with its traceback, once per failure."""
    what = command_name(interaction) or (
        (interaction.data or {}).get("custom_id") if isinstance(interaction.data, dict) else None)
    kind = kind_of(error)
    metrics.error(kind)
    if kind in ("cooldown", "refusal"):
        return
    if kind == "busy":
        log.info("%s by %s refused: the database is busy (%s)", what, interaction.user.id, error)
        return
    if kind in ("database", "discord"):
        cause = error.__cause__ or error
        health = health_of(interaction, kind) if kind == "database" or \
            discord_failing(error) else None
        if health is not None:
            health.refused(cause)
        else:
            log.warning("%s by %s failed: %s (%r)", what, interaction.user.id, kind, cause)
        log.debug("%s by %s refused: %s (%r)", what, interaction.user.id, kind, cause)
    else:
        log.error("%s by %s failed", what, interaction.user.id, exc_info=error)


async def answer_failure(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer privately, whatever state the interaction is in; never raises."""
    error = unwrap(error)
    log_failure(interaction, error)
    text = failure_text(error, interaction.locale,
                        reads_only=command_name(interaction) in READ_ONLY_COMMANDS)
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
            return
        if interaction.extras.get(PUBLIC_DEFER):
            # the first follow-up would fill the public "thinking…" message: remove it
            interaction.extras.pop(PUBLIC_DEFER, None)
            try:
                await interaction.delete_original_response()
            except discord.HTTPException as err:
                log.info("could not remove a public deferral: %s", err)
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException as err:  # Discord itself is failing: nothing more to do
        log.info("could not answer a failed interaction: %s", err)


AUTOCOMPLETE_BUDGET = 2.0  # seconds: Discord drops autocomplete answers after 3


async def choices_in_time(work: Awaitable[list[T]],
                          fallback: Callable[[], list[T]] = list) -> list[T]:
    """An autocomplete's choices, or `fallback()`'s (by default none) when the database
    cannot answer in time (Discord would drop a late answer anyway, and an error shows the
    user nothing better)."""
    try:
        return await asyncio.wait_for(work, AUTOCOMPLETE_BUDGET)
    except (Unavailable, TableError, TimeoutError) as err:
        log.info("autocomplete from what is known here: %r", err)
        return fallback()


def guarded(
    callback: Callable[Concatenate[S, discord.Interaction, P], Awaitable[None]],
) -> Callable[Concatenate[S, discord.Interaction, P], Coroutine[object, object, None]]:
    """A component callback that answers (privately) whatever it raises."""

    @functools.wraps(callback)
    async def run(self: S, interaction: discord.Interaction, /,
                  *args: P.args, **kwargs: P.kwargs) -> None:
        try:
            await callback(self, interaction, *args, **kwargs)
        except Exception as err:
            await answer_failure(interaction, err)

    return run


async def on_tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError
                        ) -> None:
    """`tree.on_error`: slash commands and their checks (cooldowns included)."""
    await answer_failure(interaction, error)
