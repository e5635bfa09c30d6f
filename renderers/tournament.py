"""Tournament pictures: the standings table and the elimination bracket.

Input is plain data (the bot builds it from the database), so this module knows no game:

    standings: {"game": "Senet", "round": 2, "rounds": 3, "final": False,
                "tiebreaks": True,
                "rows": [{"rank": 1, "name": "aki", "seed": 0, "points": 2.0,
                          "buchholz": 3.0, "sonneborn": 2.0, "games": 2, "dropped": False}]}
    bracket:   {"game": "Senet", "round": 1,
                "rounds": [[{"players": [{"name": "aki", "seed": 0}, ...],
                             "winner": 0 or None}, ...], ...]}

In a bracket a game of one player is a bye; a player None is a place not decided yet.

`seed` is the player's 0-based seed: their colour badge (seat colours of theme.py) shows
seed + 1 in both pictures, so a player is found by colour and number. `game` is the English
game name; every word goes through `theme.tr` (pass `gettext=` for another language).
"""

from __future__ import annotations

from typing import Any

from renderers import theme
from renderers.theme import tr

WIDTH = 1000
ROW = 52
MAX_ROWS = 32  # more players: "and N more" (the channel text lists everyone)


def points_text(points: float) -> str:
    """2 → "2", 1.5 → "1.5", 0.6667 → "0.67"."""
    if float(points).is_integer():
        return str(int(points))
    return f"{points:.2f}".rstrip("0")


def _title(view: dict[str, Any]) -> tuple[str, str]:
    game = tr(view["game"])
    if view.get("final"):
        return tr("{game}: final standings", game=game), ""
    return (tr("{game}: standings", game=game),
            tr("after round {round} of {rounds}", round=view["round"], rounds=view["rounds"]))


@theme.localised
def render_standings(view: dict[str, Any]) -> bytes:
    rows = view["rows"]
    shown = rows[:MAX_ROWS]
    more = len(rows) - len(shown)
    top = 64
    header = 48
    height = top + 24 + header + ROW * len(shown) + (ROW if more else 0) + 24
    img, draw = theme.canvas(WIDTH, height)
    title, subtitle = _title(view)
    theme.title_strip(draw, WIDTH, title, subtitle)
    small = theme.min_text(WIDTH)
    size = small + 2
    tiebreaks = bool(view.get("tiebreaks"))
    # columns: rank | badge + name | points | (Buchholz | S-B)
    x_rank, x_badge, x_name = 40, 150, 190
    # tie-break columns 210 px apart: their names (six kana in Japanese) fit at `small`
    x_points = WIDTH - (445 if tiebreaks else 60)
    x_bh, x_sb = WIDTH - 235, WIDTH - 25
    y = top + 24
    theme.text(draw, (x_rank, y + header / 2), tr("Rank"), small, theme.MUTED, anchor="lm")
    theme.text(draw, (x_name, y + header / 2), tr("Player"), small, theme.MUTED, anchor="lm")
    heads = [(x_points, tr("Points"))]
    if tiebreaks:
        heads += [(x_bh, tr("Buchholz")), (x_sb, tr("S-B"))]
    for x, label in heads:  # right-aligned, each within its own column
        fitted = theme.fit(label, small, 200, smallest=theme.min_text(WIDTH))
        theme.text(draw, (x, y + header / 2), label, fitted, theme.MUTED, anchor="rm")
    y += header
    for index, row in enumerate(shown):
        box = (20, y + 3, WIDTH - 20, y + ROW - 3)
        if index % 2 == 0:
            theme.panel(draw, box, radius=10, outline=None)
        mid = y + ROW / 2
        colour = theme.HIGHLIGHT if row["rank"] == 1 else theme.INK
        ink = theme.MUTED if row.get("dropped") else colour
        theme.text(draw, (x_rank, mid), theme.rank_label(row["rank"]), size, ink,
                   bold=row["rank"] <= 3, anchor="lm")
        theme.seat_badge(draw, (x_badge, mid), row["seed"], 40)
        room = x_points - 90 - x_name  # "10.5" right-aligned at x_points
        name = _label(row["name"], bool(row.get("dropped")), size, small, room)
        name_size = theme.fit(name, size, room, smallest=small)
        theme.text(draw, (x_name, mid), name, name_size, ink, anchor="lm")
        theme.text(draw, (x_points, mid), points_text(row["points"]), size, ink, bold=True,
                   anchor="rm")
        if tiebreaks:
            theme.text(draw, (x_bh, mid), points_text(row["buchholz"]), size, theme.MUTED,
                       anchor="rm")
            theme.text(draw, (x_sb, mid), points_text(row["sonneborn"]), size, theme.MUTED,
                       anchor="rm")
        y += ROW
    if more:
        theme.text(draw, (WIDTH / 2, y + ROW / 2), tr("… and {count} more", count=more),
                   small, theme.MUTED, anchor="mm")
    return theme.to_png(img)


def _label(name: str, dropped: bool, size: int, smallest: int, room: float) -> str:
    """The name as it fits in `room` (shortened with …), keeping "(dropped)" whole."""
    whole = tr("{name} (dropped)", name=name) if dropped else name
    if theme.text_width(whole, theme.fit(whole, size, room, smallest=smallest)) <= room:
        return whole
    while len(name) > 1 and theme.text_width(
            tr("{name} (dropped)", name=name + "…") if dropped else name + "…", smallest) > room:
        name = name[:-1]
    return tr("{name} (dropped)", name=name + "…") if dropped else name + "…"


@theme.localised
def render_bracket(view: dict[str, Any]) -> bytes:
    """Columns of games, one per round, lines joining each game to the next; winners bold,
    losers muted, games still to play plain."""
    rounds = view["rounds"]
    first = len(rounds[0]) if rounds else 1
    columns = max(len(rounds), 1)
    box_h, gap = 104, 24
    top = 64 + 32
    height = top + first * (box_h + gap) + 24
    img, draw = theme.canvas(WIDTH, max(height, 320))
    theme.title_strip(draw, WIDTH, tr("{game}: bracket", game=tr(view["game"])),
                      tr("round {round} of {rounds}", round=view["round"], rounds=columns))
    col_w = (WIDTH - 40) / columns
    box_w = min(col_w - 40, 420)
    small = theme.min_text(WIDTH)
    centres: list[list[float]] = []
    for r, games in enumerate(rounds):
        x0 = 20 + r * col_w
        span = (first * (box_h + gap)) / max(len(games), 1)
        mids = []
        for g, game in enumerate(games):
            mid = top + span * g + span / 2
            mids.append(mid)
            _game_box(draw, (x0, mid - box_h / 2, x0 + box_w, mid + box_h / 2), game, small)
            if r > 0:
                a, b = centres[r - 1][2 * g], centres[r - 1][min(2 * g + 1,
                                                                  len(centres[r - 1]) - 1)]
                px = x0 - (col_w - box_w)
                joint = px + (col_w - box_w) / 2
                for y in (a, b):
                    draw.line((px, y, joint, y), fill=theme.PANEL_EDGE, width=3)
                draw.line((joint, a, joint, b), fill=theme.PANEL_EDGE, width=3)
                draw.line((joint, mid, x0, mid), fill=theme.PANEL_EDGE, width=3)
        centres.append(mids)
    return theme.to_png(img)


def _game_box(draw: Any, box: tuple[float, float, float, float], game: dict[str, Any],
              small: int) -> None:
    theme.panel(draw, box, radius=12)
    x0, y0, x1, y1 = box
    players = game["players"]
    half = (y1 - y0) / 2
    if len(players) == 1:
        players = [*players, None]  # a bye
    for i, player in enumerate(players[:2]):
        mid = y0 + half * i + half / 2
        if player is None:  # a bye (one player), or a place not decided yet
            label = tr("bye") if len(game["players"]) == 1 else "—"
            theme.text(draw, (x0 + 58, mid), label, small, theme.MUTED, anchor="lm")
            continue
        won = game.get("winner") == i
        lost = game.get("winner") is not None and not won
        theme.seat_badge(draw, (x0 + 30, mid), player["seed"], 42)
        name = player["name"]
        room = x1 - x0 - 70
        size = theme.fit(name, small + 2, room, smallest=small)
        while len(name) > 1 and theme.text_width(name, size) > room:
            name = name[:-2] + "…"
        theme.text(draw, (x0 + 58, mid), name, size,
                   theme.MUTED if lost else (theme.HIGHLIGHT if won else theme.INK),
                   bold=won, anchor="lm")
    draw.line((x0 + 10, y0 + half, x1 - 10, y0 + half), fill=theme.PANEL_EDGE, width=2)


# --- alt text -------------------------------------------------------------------------------
@theme.localised
def alt_text_standings(view: dict[str, Any]) -> str:
    """The standings in words: the title, then rank, name and points of every row."""
    title, subtitle = _title(view)
    rows = [tr("{rank}: {name}, points: {points}", rank=theme.rank_label(row["rank"]),
               name=tr("{name} (dropped)", name=row["name"]) if row.get("dropped")
               else row["name"], points=points_text(row["points"])) for row in view["rows"]]
    return theme.alt(theme.alt_title(title, subtitle), tr("{ranking}.",
                                                          ranking=tr("; ").join(rows)))


@theme.localised
def alt_text_bracket(view: dict[str, Any]) -> str:
    """The bracket in words: each round's games, their players and winners."""
    parts = [theme.alt_title(tr("{game}: bracket", game=tr(view["game"])),
                             tr("round {round} of {rounds}", round=view["round"],
                                rounds=max(len(view["rounds"]), 1)))]
    for r, games in enumerate(view["rounds"]):
        described = []
        for game in games:
            players = [p["name"] if p else "—" for p in game["players"]]
            if len(players) == 1:
                described.append(tr("{name}: bye", name=players[0]))
                continue
            text = tr("{first} against {second}", first=players[0], second=players[1])
            if game.get("winner") is not None:
                text = tr("{game}, won by {name}", game=text,
                          name=players[game["winner"]])
            described.append(text)
        parts.append(tr("Round {round}: {games}.", round=r + 1, games=tr("; ").join(described)))
    return theme.alt(*parts)


def sample_standings(final: bool = False) -> dict[str, Any]:
    """A sample for the gallery: eight players after two rounds of Swiss Senet."""
    # names as members type them (katakana: the Japanese sample holds no English word)
    names = ["アキ", "ボー", "チヨ", "ダラ", "ウンジ", "ファルフ",
             "グウェンドリン・フェザーストンホー・スミス", "ミサキ"]
    points = [2, 2, 1.5, 1, 1, 0.5, 0, 0]
    return {
        "game": "Senet", "round": 2, "rounds": 3, "final": final, "tiebreaks": True,
        "rows": [{"rank": i + 1 if i != 4 else 4, "name": n, "seed": (i * 3) % 8,
                  "points": p, "buchholz": 3 - i * 0.25, "sonneborn": max(0, 2 - i * 0.5),
                  "games": 2, "dropped": i == 6} for i, (n, p) in enumerate(zip(names, points,
                                                                                  strict=True))],
    }


def sample_bracket() -> dict[str, Any]:
    """A sample for the gallery: six players (two byes), round 2 under way."""
    def p(name: str, seed: int) -> dict[str, Any]:
        return {"name": name, "seed": seed}

    return {
        "game": "Cows and Leopards", "round": 2,
        "rounds": [
            [{"players": [p("アキ", 0)], "winner": 0},
             {"players": [p("ダラ", 3), p("ウンジ", 4)], "winner": 1},
             {"players": [p("ボー", 1)], "winner": 0},
             {"players": [p("チヨ", 2), p("ファルフ", 5)], "winner": 0}],
            [{"players": [p("アキ", 0), p("ウンジ", 4)], "winner": None},
             {"players": [p("ボー", 1), p("チヨ", 2)], "winner": 0}],
            [{"players": [p("ボー", 1), None], "winner": None}],
        ],
    }
