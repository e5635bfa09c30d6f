"""Polite sentences for refusals: TableError codes and Discord permission problems."""

from __future__ import annotations

from bot.i18n import N_, t
from bot.i18n.refusals import refusal_text
from bot.tables import TableError
from engines.base import Record

TABLE_ERRORS: dict[str, str] = {
    "not_found": N_("I can't find that table any more."),
    "channel_busy": N_("There is already a table here. Finish or cancel it first, "
                       "or open yours in another channel."),
    "not_host": N_("Only the host of this table can do that."),
    "already_seated": N_("You already have a seat at this table."),
    "not_seated": N_("You don't have a seat at this table."),
    "table_full": N_("Sorry, this table is full."),
    "bad_seat_count": N_("This game needs {min} to {max} players; the table has {seats}."),
    "not_lobby": N_("This table has already started or was closed."),
    "not_running": N_("This table isn't being played right now."),
    "finished": N_("This game is already over. Thanks for playing!"),
    "not_your_turn": N_("It isn't your turn yet. Please wait for the players named on the "
                        "latest board."),
    "stale": N_("That button is from an earlier turn. Please use the latest board "
                "({/board} shows it again)."),
    "illegal": N_("That move isn't allowed: {reason}"),
    "bad_options": N_("Those options don't work together: {reason}"),
    "side_taken": N_("That side is already taken. Try the other one."),
    "not_allowed": N_("Sorry, you aren't allowed to do that here."),
    "bad_side": N_("This game has no such side."),
    "bad_setting": N_("That setting does not work: {reason}"),
    "bad_level": N_("There is no computer level {level}."),
    "no_hints": N_("Hints are off at this table: the host can open a table with hints on."),
    "broken": N_("Sorry, table {table_id} is damaged: its saved moves can't be replayed, so "
                 "it can't go on. The host or a moderator can end it with {/cancel}."),
    "too_long": N_("That's too long: at most {max} characters, please."),
    "lobby_limit": N_("You already have an open lobby in this server (in {place}). Start or "
                      "cancel it first."),
    "server_full": N_("This server already has {max} open tables, the most allowed. Please "
                      "wait until a game ends (moderators can raise the limit in "
                      "{/settings})."),
    "no_takeback": N_("Moves can't be taken back at this table: only in two-player games "
                      "without dice or hidden cards, between two members."),
    "takeback_nothing": N_("There's no move to take back right now: you can ask right after "
                           "your own move, until your opponent moves."),
    "takeback_not_yours": N_("Only the player who just moved can ask to take their move "
                             "back."),
    "takeback_not_asked": N_("This take-back request is for the two players of this table."),
    "takeback_own_request": N_("That's your own request: your opponent decides. You can "
                               "withdraw it with **Decline**."),
    "takeback_lapsed": N_("That take-back request has lapsed: the game has moved on since."),
}

PERMISSION_NAMES: dict[str, str] = {
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "attach_files": N_("Attach Files"),
    "embed_links": N_("Embed Links"),
    "create_public_threads": N_("Create Public Threads"),
    "read_message_history": N_("Read Message History"),
    "view_channel": N_("View Channel"),
}


def table_error_text(error: TableError, locale: object = None) -> str:
    """The sentence a player reads for `error`."""
    template = TABLE_ERRORS.get(error.code)
    params: Record = dict(getattr(error, "params", {}) or {})
    if template is None:
        return str(error)
    if isinstance(params.get("reason_template"), str):  # an engine's refusal: translate it
        params["reason"] = refusal_text(locale, params["reason_template"],
                                        params.get("reason_params"))
    try:
        return t(locale, template, **params)
    except (KeyError, IndexError):
        return str(error)


def missing_permission_text(locale: object, permission: str, place: str) -> str:
    """'I need the Attach Files permission in #games to …' style explanation."""
    name = t(locale, PERMISSION_NAMES.get(permission, permission))
    return t(locale, "I'm missing the **{permission}** permission in {place}. "
             "A server admin can grant it in the channel or role settings.",
             permission=name, place=place)
