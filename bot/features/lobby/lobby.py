"""The lobby message: game, options, seats taken, and Join / Leave / Start / Cancel buttons."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.features.common.badges import (
    COLOUR,
    clean_name,
    computer_label,
    game_title,
    seat_names,
)
from bot.features.common.components import Item
from bot.features.guide.rules import value_label
from bot.features.lobby.components import LobbyButton
from bot.features.lobby.computers import computer_items
from bot.features.settings.settings import rules_line
from bot.games import presentation
from bot.i18n import t, t_plain
from bot.i18n.grammar import option_label
from bot.storage.lobbies import InvitationRow
from bot.tables import Table
from bot.tables.computers import computer_level


def has_sides(game: str) -> bool:
    """Whether players choose a side (the engine's info.sides) in the lobby."""
    return presentation(game).lobby_sides



def options_summary(table: Table, locale: object) -> str:
    """The options that differ from the defaults, as `name value` pairs."""
    eng = table.engine
    if table.status == "lobby" or table.state is None:  # never started (maybe cancelled)
        shown = dict(table.chosen_options)
    else:
        defaults = eng.default_options(len(table.seats))
        shown = {k: v for k, v in table.options.items()
                 if k != "players" and defaults.get(k) != v}
    if not shown:
        return t(locale, "standard rules (defaults)")
    spec = {o.name: o for o in eng.option_spec}
    parts = []
    for name, value in shown.items():
        label = value_label(locale, spec[name], value) if name in spec else str(value)
        parts.append(f"{option_label(locale, name)} {label}")
    return " · ".join(parts)


def seats_text(table: Table, locale: object, held: Sequence[InvitationRow] = ()) -> str:
    """The seats in join order, then the seats held for invited members (⏳)."""
    lines = []
    for index, seat in enumerate(table.seats):
        name = clean_name(seat.name)
        level = computer_level(seat.user_id)
        if level is not None:
            name = "🤖 " + computer_label(locale, level)
        elif seat.user_id == table.host_id:
            name = t(locale, "{name} (host)", name=name)
        if has_sides(table.game) and seat.side is not None:
            shown = presentation(table.game)
            name = f"{shown.side_mark(seat.side)} {name} · " + shown.side_name(
                locale, seat.side)
        lines.append(f"{index + 1}. {name}")
    for index, row in enumerate(held, start=len(lines)):
        name = t(locale, "⏳ waiting for {name}", name=clean_name(row.name))
        if has_sides(table.game) and row.side is not None:
            shown = presentation(table.game)
            name = f"{shown.side_mark(row.side)} {name} · " + shown.side_name(locale, row.side)
        lines.append(f"{index + 1}. {name}")
    return "\n".join(lines) or "—"


def winner_text(table: Table, locale: object) -> str:
    """'This game is over: Aki won.' (or a draw, or the winners who share the first place)."""
    ranks = (table.outcome or {}).get("ranks") or []
    names = seat_names(table, locale)
    winners = [clean_name(names[seat]) for seat, rank in enumerate(ranks)
               if rank == 1 and seat < len(names)]
    if not winners:
        return t(locale, "This game is over.")
    if len(winners) == len(names) and len(names) > 1:
        return t(locale, "This game is over: a draw.")
    if len(winners) == 1:
        return t(locale, "This game is over: **{name}** won.", name=winners[0])
    return t(locale, "This game is over: **{names}** share the win.", names=", ".join(winners))


def status_text(table: Table, locale: object, where: str | None,
                held: Sequence[InvitationRow] = ()) -> str:
    eng = table.engine
    if table.status == "lobby":
        text = t(locale, "Waiting for players: {seated} seated, {low}–{high} can play. "
                 "The host presses **Start** when everyone is in.", seated=len(table.seats),
                 low=eng.min_players, high=eng.max_players)
        if eng.min_players == eng.max_players:
            text = t(locale, "Waiting for players: {seated} of {high} seated. The host presses "
                     "**Start** when everyone is in.", seated=len(table.seats),
                     high=eng.max_players)
        if held:
            text += "\n" + t(locale, "Seats held for invited players until they press "
                             "**Accept** or **Decline**: {names}.",
                             names=", ".join(clean_name(row.name) for row in held))
    elif table.status == "running":
        text = t(locale, "The game has started.")
    elif table.status == "finished":
        text = winner_text(table, locale)
    else:
        text = t(locale, "This table was cancelled.")
    if where and table.status in ("lobby", "running"):
        text += "\n" + t(locale, "The game is played in {place}.", place=where)
    return text


def lobby_embed(
    table: Table, locale: object, *, shuffle: bool = True, where: str | None = None,
    note: str | None = None, held: Sequence[InvitationRow] = (),
) -> discord.Embed:
    """The lobby message's embed; `held`: the seats held for invited members."""
    title = t(locale, "{game} · table {table}", game=game_title(locale, table.game),
              table=table.id)
    held = held if table.status == "lobby" else ()
    embed = discord.Embed(title=title, description=status_text(table, locale, where, held),
                          colour=COLOUR)
    embed.add_field(name=t(locale, "Seats"), value=seats_text(table, locale, held), inline=True)
    embed.add_field(name=t(locale, "Options"), value=options_summary(table, locale), inline=True)
    if has_sides(table.game):
        order = t(locale, "players choose their side; otherwise decided at start")
    elif shuffle:
        order = t(locale, "shuffled at start")
    else:
        order = t(locale, "fixed: the order in which players joined")
    embed.add_field(name=t(locale, "Turn order"), value=order, inline=False)
    if table.status in ("lobby", "running"):
        embed.add_field(name=t(locale, "Time per move"), inline=False, value=rules_line(
            locale, table.deadline_seconds, table.absence_rule, table.max_misses))
    if table.hints:
        embed.add_field(name=t(locale, "Hints"), value=t(
            locale, "{/hint} is on at this table, so its results don't change ratings."),
            inline=False)
    if note:
        embed.add_field(name=t(locale, "Note"), value=note[:1024], inline=False)
    embed.set_footer(text=t_plain(locale, "Rules: {/rules}"))
    return embed


def lobby_items(table: Table, locale: object, *, shuffle: bool = True,
                held: Sequence[InvitationRow] = ()) -> list[Item]:
    """The lobby buttons; none once the table has left the lobby. While seats are held:
    Accept and Decline (for the invited) and Withdraw invitations (for the host) first."""
    if table.status != "lobby":
        return []
    eng = table.engine
    items: list[Item] = []
    if held:
        items.append(LobbyButton(table.id, "accept", label=t(locale, "Accept"), emoji="✅",
                                 style=discord.ButtonStyle.success))
        items.append(LobbyButton(table.id, "decline", label=t(locale, "Decline")))
        items.append(LobbyButton(table.id, "uninvite", label=t(locale, "Withdraw invitations")))
    if has_sides(table.game):
        shown = presentation(table.game)
        for side in range(len(eng.info.sides)):
            items.append(LobbyButton(
                table.id, f"join{side}", style=discord.ButtonStyle.success,
                emoji=shown.side_mark(side) or None,
                label=t(locale, "Join as {side}", side=shown.side_name(locale, side))))
    else:
        items.append(LobbyButton(table.id, "join", label=t(locale, "Join"),
                                 style=discord.ButtonStyle.success))
    items.append(LobbyButton(table.id, "leave", label=t(locale, "Leave")))
    # with seats held, Start is pressable: it says whom the table waits for
    ready = eng.min_players <= len(table.seats) + len(held) and len(table.seats) <= eng.max_players
    items.append(LobbyButton(table.id, "start" if shuffle else "startfixed",
                             label=t(locale, "Start"), style=discord.ButtonStyle.primary,
                             disabled=not ready))
    items.append(LobbyButton(table.id, "cancel", label=t(locale, "Cancel"),
                             style=discord.ButtonStyle.danger))
    items.extend(computer_items(table, locale, held=len(held)))
    return items


def shuffle_from_message(message: discord.Message | None) -> bool:
    """The host's shuffle choice, read back from the lobby's Start button custom id."""
    if message is None:
        return True
    for row in message.components:
        for child in getattr(row, "children", []):
            if str(getattr(child, "custom_id", "") or "").endswith(":startfixed"):
                return False
    return True
