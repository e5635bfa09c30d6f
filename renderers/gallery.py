"""Write a sample of every picture of every game whose renderer exists.

    python -m renderers.gallery OUTDIR

Positions come from playing the real engines with seeded random moves (chance included), so
the pictures show what the bot will show; a hand-written position stands in only while an
engine is missing. File names say game, option set, moment and picture.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import Any

import renderers
from engines import CHANCE, get_engine

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


def _module(game_id: str):
    try:
        return import_module(f"renderers.{game_id}")
    except ImportError:
        return None


def _game_over(game_id: str, players: int, options: dict | None, seed: int
               ) -> Iterator[Case]:
    eng, state, _ = play(game_id, players, options, seed)
    outcome = eng.outcome(state)
    if outcome is not None:
        view = eng.view(state, None)
        yield "over", partial(renderers.render_game_over, game_id, view, outcome)


# --- per game ------------------------------------------------------------------------------
def six_nimmt() -> Iterator[Case]:
    mod = import_module("renderers.six_nimmt")
    configs = [
        ("standard5", 5, {}),
        ("pro4", 4, {"professional": True}),
        ("logical3", 3, {"cards": "logical"}),
        ("standard10", 10, {}),
    ]
    for name, n, opts in configs:
        seed = 7 + n

        def took(state: Any, view: dict, events: list[dict]) -> bool:
            return has(events, "take") and view["phase"] == "pick" and view["round"] >= 1

        eng, state, events = play("six_nimmt", n, opts, seed, took)
        view = eng.view(state, None)
        yield f"{name}_table_after_take", partial(mod.render_table, view, events)
        yield f"{name}_reveal", partial(mod.render_reveal, view, events)

        def picking(state: Any, view: dict, events: list[dict]) -> bool:
            return view["phase"] == "pick" and sum(p is not None for p in view["picked"]) >= 2

        eng, state, events = play("six_nimmt", n, opts, seed + 1, picking)
        yield f"{name}_table_picking", partial(mod.render_table, eng.view(state, None), events)
        yield f"{name}_hand_seat1", partial(mod.render_hand, eng.view(state, 0), 0)

        def choosing(state: Any, view: dict, events: list[dict]) -> bool:
            return view["phase"] in ("take", "side")

        eng, state, events = play("six_nimmt", n, opts, seed + 2, choosing)
        if eng.view(state, None)["phase"] in ("take", "side"):
            view = eng.view(state, None)
            yield f"{name}_table_choose", partial(mod.render_table, view, events)
        if opts.get("cards") == "logical":

            def drafting(state: Any, view: dict, events: list[dict]) -> bool:
                return view["phase"] == "draft" and len(view["pool"]) < 20

            eng, state, events = play("six_nimmt", n, opts, seed, drafting)
            yield f"{name}_table_draft", partial(mod.render_table, eng.view(state, None), events)
        for label, draw in _game_over("six_nimmt", n, opts, seed):
            yield f"{name}_{label}", draw


def senet() -> Iterator[Case]:
    mod = import_module("renderers.senet")
    moments: list[tuple[str, Stop]] = [
        ("start_throw", lambda s, v, e: has(e, "throw")),
        ("move", lambda s, v, e: has(e, "move") and not has(e, "swap")),
        ("swap", lambda s, v, e: has(e, "swap") and not has(e, "drown")),
        ("backward", lambda s, v, e: any(x.get("backward") for x in e)),
        ("drown", lambda s, v, e: has(e, "drown")),
        ("bear_off", lambda s, v, e: has(e, "bear_off")),
        ("water", lambda s, v, e: v["phase"] == "water"),
        ("water_return", lambda s, v, e: has(e, "water_return")),
        ("pass", lambda s, v, e: has(e, "pass")),
    ]
    for name, stop in moments:
        for seed in range(1, 60):
            eng, state, events = play("senet", 2, None, seed, stop)
            view = eng.view(state, None)
            if events and stop(state, view, events):
                yield name, partial(mod.render_board, view, events)
                break
    yield from _game_over("senet", 2, None, 3)


def varanasi() -> Iterator[Case]:
    for n in (2, 4):
        eng, state, events = _after_moves("varanasi", n, None, 11 + n, 9)
        yield f"p{n}_mid", partial(renderers.render, "varanasi", eng.view(state, None), events)
        for label, draw in _game_over("varanasi", n, None, 11 + n):
            yield f"p{n}_{label}", draw


def cows_leopards() -> Iterator[Case]:
    for board in ("A", "B"):
        opts = {"board": board}
        for k in (10, 40):
            eng, state, events = _after_moves("cows_leopards", 2, opts, 5, k)
            view = eng.view(state, None)
            yield f"board{board}_move{k}", partial(renderers.render, "cows_leopards", view, events)
        for label, draw in _game_over("cows_leopards", 2, opts, 5):
            yield f"board{board}_{label}", draw


def _after_moves(game_id: str, players: int, options: dict | None, seed: int, k: int
                 ) -> tuple[Any, Any, list[dict]]:
    count = [0]

    def stop(state: Any, view: dict, events: list[dict]) -> bool:
        count[0] += 1
        return count[0] > k

    return play(game_id, players, options, seed, stop)


GAMES: dict[str, Callable[[], Iterator[Case]]] = {
    "six_nimmt": six_nimmt,
    "senet": senet,
    "varanasi": varanasi,
    "cows_leopards": cows_leopards,
}


# The review pictures: a seeded random game (random moves make mistakes to show), cut short
# where a game runs long, reviewed by engines/ai/review.py.
REVIEWED: dict[str, tuple[int, dict[str, Any] | None, int]] = {
    "six_nimmt": (4, {"rounds": 1}, 200), "senet": (2, None, 160),
    "varanasi": (2, {"sets": 1}, 200), "cows_leopards": (2, None, 40),
}


def review_cases(game_id: str) -> Iterator[Case]:
    from engines.ai.review import review
    from renderers import review as pictures

    players, options, moves = REVIEWED[game_id]
    eng = get_engine(game_id)
    rng = random.Random(5)
    state = eng.new(players, options)
    log: list[tuple[int, str]] = []
    while eng.outcome(state) is None and len(log) < moves:
        actor = eng.to_act(state)[0]
        move = (eng.sample_chance(state, rng) if actor == CHANCE
                else rng.choice(eng.legal_moves(state, actor)))
        state = eng.apply(state, actor, move)
        log.append((actor, move))
    result = review(game_id, options or {}, players, log)
    yield "review_evaluation", partial(pictures.render_evaluation, result)
    worst = max(((m["drop"], s["seat"], m) for s in result["seats"] for m in s["mistakes"]),
                key=lambda e: e[:2], default=None)
    if worst is not None:
        yield "review_mistake", partial(pictures.render_mistake, game_id, options or {},
                                        players, log, worst[2], worst[1])


def cases(games: list[str] | None = None) -> Iterator[Case]:
    """(file stem, function drawing the PNG) for every sample picture of every game whose
    renderer module imports (all games, or those in `games`)."""
    for game_id, make in GAMES.items():
        if games is not None and game_id not in games:
            continue
        if _module(game_id) is None:
            continue
        for name, draw in make():
            yield f"{game_id}_{name}", draw
        for name, draw in review_cases(game_id):
            yield f"{game_id}_{name}", draw


def samples(games: list[str] | None = None) -> Iterator[tuple[str, bytes]]:
    """(file stem, PNG bytes) for every sample picture."""
    for stem, draw in cases(games):
        yield stem, draw()


def write(outdir: str | Path, games: list[str] | None = None) -> list[Path]:
    """Write every sample into `outdir` (created); returns the paths written."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, data in samples(games):
        path = out / f"{stem}.png"
        path.write_bytes(data)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m renderers.gallery OUTDIR [GAME ...]", file=sys.stderr)
        return 2
    paths = write(args[0], args[1:] or None)
    for p in paths:
        print(f"{p}  {p.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
