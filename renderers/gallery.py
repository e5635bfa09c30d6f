"""Write a sample of every picture of every game whose renderer exists.

    python -m renderers.gallery OUTDIR [GAME ...]
    python -m renderers.gallery --palette    (remake renderers/palette.png)

Writes OUTDIR/<picture>.png (English), OUTDIR/ja/<picture>.png (Japanese) and the same scaled
to 320 px wide, the width of a picture on a phone, in OUTDIR/phone/en/ and OUTDIR/phone/ja/:
look at those to check that every word and number still reads.

Positions come from playing the real engines with seeded random moves (chance included), so
the pictures show what the bot will show; a hand-written position stands in only while an
engine is missing. File names say game, option set, moment and picture.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from PIL import Image

import renderers
from engines import CHANCE, get_engine
from engines.ai.puzzles import has_puzzles, mine, starter
from engines.ai.review import review, reviewable
from engines.registry import part
from renderers import puzzle as puzzle_pictures
from renderers import review as review_pictures
from renderers import theme

# The bot's catalogues hold the words of the pictures too; the gallery (a dev tool) reads the
# Japanese one as a data file, since renderers never import bot/.
CATALOGUES = Path(__file__).resolve().parents[1] / "bot" / "i18n" / "locales"
LANGUAGES = ("en", "ja")
PHONE_WIDTH = 320  # about the width Discord shows a picture at on a phone

Stop = Callable[[Any, dict, list[dict]], bool]
Case = tuple[str, Callable[[], bytes]]  # (name, draw the picture)


def play(
    game_id: str,
    players: int,
    options: dict[str, Any] | None,
    seed: int,
    stop: Stop | None = None,
    max_moves: int = 5000,
) -> tuple[Any, Any, list[dict]]:
    """Play a seeded random game of `game_id` until `stop(state, public_view, events)` holds
    (or the game ends). Returns (engine, state, events of the last move)."""
    eng = get_engine(game_id)
    rng = random.Random(seed)
    state = eng.new(players, options)
    events: list[dict] = []
    for _ in range(max_moves):
        if stop is not None and events and stop(state, eng.view(state, None), events):
            break
        if eng.outcome(state) is not None:
            break
        actors = eng.to_act(state)
        actor = actors[0]
        if actor == CHANCE:
            move = eng.sample_chance(state, rng)
        else:
            move = rng.choice(eng.legal_moves(state, actor))
        state, events = eng.apply_events(state, actor, move)
    return eng, state, events


def has(events: list[dict], *kinds: str) -> bool:
    return any(e.get("type") in kinds for e in events)


def game_over(game_id: str, players: int, options: dict | None, seed: int) -> Iterator[Case]:
    """The final picture of a seeded random game ("over")."""
    eng, state, _ = play(game_id, players, options, seed)
    outcome = eng.outcome(state)
    if outcome is not None:
        view = eng.view(state, None)
        yield "over", partial(renderers.render_game_over, game_id, view, outcome)


def after_moves(game_id: str, players: int, options: dict | None, seed: int, k: int
                ) -> tuple[Any, Any, list[dict]]:
    """A seeded random game stopped after `k` moves (chance included)."""
    count = [0]

    def stop(state: Any, view: dict, events: list[dict]) -> bool:
        count[0] += 1
        return count[0] > k

    return play(game_id, players, options, seed, stop)


def standard_samples(game_id: str, players: int, options: dict | None = None, seed: int = 5,
                     moves: tuple[int, ...] = (9,), prefix: str = "") -> Iterator[Case]:
    """A board after each count of `moves` and the final picture: what a renderer without
    its own `gallery_samples` shows."""
    for k in moves:
        eng, state, events = after_moves(game_id, players, options, seed, k)
        yield f"{prefix}move{k}", partial(renderers.render, game_id, eng.view(state, None),
                                          events)
    for label, draw in game_over(game_id, players, options, seed):
        yield f"{prefix}{label}", draw


def game_samples(game_id: str) -> Iterator[Case]:
    """The game's own samples (its spec's `samples`), else the standard ones and a review."""
    make = part(game_id, "samples")
    if make is not None:
        yield from make()
        return
    eng = get_engine(game_id)
    yield from standard_samples(game_id, eng.min_players)
    yield from review_cases(game_id, eng.min_players)
    yield from puzzle_cases(game_id, eng.min_players)


def tournament() -> Iterator[Case]:
    from renderers import tournament as pictures

    yield "standings", partial(pictures.render_standings, pictures.sample_standings())
    yield "final", partial(pictures.render_standings, pictures.sample_standings(final=True))
    yield "bracket", partial(pictures.render_bracket, pictures.sample_bracket())


EXTRAS: dict[str, Callable[[], Iterator[Case]]] = {"tournament": tournament}


def random_log(game_id: str, players: int, options: dict[str, Any] | None = None,
               moves: int = 200, seed: int = 5) -> list[tuple[int, str]]:
    """The log of a seeded game of random moves (and chance), cut after `moves` moves."""
    eng = get_engine(game_id)
    rng = random.Random(seed)
    state = eng.new(players, options)
    log: list[tuple[int, str]] = []
    while eng.outcome(state) is None and len(log) < moves:
        actor = eng.to_act(state)[0]
        move = (eng.sample_chance(state, rng) if actor == CHANCE
                else rng.choice(eng.legal_moves(state, actor)))
        state = eng.apply(state, actor, move)
        log.append((actor, move))
    return log


def review_cases(game_id: str, players: int, options: dict[str, Any] | None = None,
                 moves: int = 200) -> Iterator[Case]:
    """The review pictures of a seeded random game (random moves make mistakes to show), cut
    after `moves` moves where a game runs long, reviewed by engines/ai/review.py; none for a
    game without a review."""
    if not reviewable(game_id):
        return
    log = random_log(game_id, players, options, moves)
    result = review(game_id, options or {}, players, log)
    yield "review_evaluation", partial(review_pictures.render_evaluation, result)
    worst = max(((m["drop"], s["seat"], m) for s in result["seats"] for m in s["mistakes"]),
                key=lambda e: e[:2], default=None)
    if worst is not None:
        yield "review_mistake", partial(review_pictures.render_mistake, game_id, options or {},
                                        players, log, worst[2], worst[1])


def puzzle_cases(game_id: str, players: int, options: dict[str, Any] | None = None,
                 moves: int = 200) -> Iterator[Case]:
    """A puzzle of the game (the first of its starter set, else one mined from a seeded
    game of random moves) and its answers, wrong and right; none for a game without
    puzzles."""
    if not has_puzzles(game_id):
        return
    puzzles = starter(game_id) or mine(game_id, options or {}, players,
                                       random_log(game_id, players, options, moves))
    if not puzzles:
        return
    puzzle = puzzles[0]
    yield "puzzle", partial(puzzle_pictures.render_puzzle, puzzle)
    yield "puzzle_wrong", partial(puzzle_pictures.render_answer, puzzle, puzzle["played"])
    yield "puzzle_right", partial(puzzle_pictures.render_answer, puzzle, puzzle["best"])


def cases(games: list[str] | None = None) -> Iterator[Case]:
    """(file stem, function drawing the PNG) for every sample picture of every game whose
    renderer module imports (all games, or those in `games`), and of the pictures that
    belong to no game (EXTRAS: tournaments)."""
    for name, make in EXTRAS.items():
        if games is None or name in games:
            for stem, draw in make():
                yield f"{name}_{stem}", draw
    for game_id in renderers.available():
        if games is not None and game_id not in games:
            continue
        for name, draw in game_samples(game_id):
            yield f"{game_id}_{name}", draw


def catalogue_gettext(language: str) -> theme.Gettext | None:
    """msgid -> translation from the bot's .po catalogue of `language` (None for English)."""
    if language == "en":
        return None
    from babel.messages.pofile import read_po

    path = CATALOGUES / language / "LC_MESSAGES" / "bot.po"
    with path.open("rb") as fp:
        catalog = read_po(fp, locale=language)
    table = {m.id: m.string for m in catalog if m.id and isinstance(m.id, str)
             and isinstance(m.string, str) and m.string and not m.fuzzy and not m.context}
    return lambda msgid: table.get(msgid) or msgid


def samples(games: list[str] | None = None, language: str = "en"
            ) -> Iterator[tuple[str, bytes]]:
    """(file stem, PNG bytes) for every sample picture, with its words in `language`."""
    gettext = catalogue_gettext(language)
    for stem, draw in cases(games):
        with theme.translating(gettext):
            yield stem, draw()


def phone_copy(data: bytes, path: Path) -> None:
    """`data` scaled to PHONE_WIDTH px wide (what a phone shows), written to `path`."""
    with Image.open(io.BytesIO(data)) as im:
        height = round(im.height * PHONE_WIDTH / im.width)
        small = im.convert("RGB").resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)
    path.parent.mkdir(parents=True, exist_ok=True)
    small.save(path)


def write(outdir: str | Path, games: list[str] | None = None,
          languages: tuple[str, ...] = ("en",), phone: bool = False) -> list[Path]:
    """Write every sample into `outdir` (created): English at the top, other languages in
    `outdir/<language>/`, and with `phone` the 320 px copies in `outdir/phone/<language>/`.
    Returns the full-size paths written."""
    out = Path(outdir)
    paths = []
    for language in languages:
        folder = out if language == "en" else out / language
        folder.mkdir(parents=True, exist_ok=True)
        for stem, data in samples(games, language):
            path = folder / f"{stem}.png"
            path.write_bytes(data)
            paths.append(path)
            if phone:
                phone_copy(data, out / "phone" / language / f"{stem}.png")
    return paths


def make_palette() -> Image.Image:
    """The shared palette (theme.PALETTE_FILE): from every sample picture of every game in
    both languages, drawn as they are now (the seeded games give the same file each time)."""
    with theme.collecting() as pictures:
        for language in LANGUAGES:
            for _ in samples(None, language):
                pass
    return theme.palette_of(pictures)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--palette"]:
        make_palette().save(theme.PALETTE_FILE, format="PNG")
        print(f"{theme.PALETTE_FILE}: the shared palette, from every sample picture")
        return 0
    if not args:
        print("usage: python -m renderers.gallery OUTDIR [GAME ...] | --palette",
              file=sys.stderr)
        return 2
    paths = write(args[0], args[1:] or None, LANGUAGES, phone=True)
    for p in paths:
        print(f"{p}  {p.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
