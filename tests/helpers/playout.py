"""Seeded play through any engine: the loops many tests and bench/arena.py need, written once."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from engines import CHANCE, Engine


def random_move(eng: Engine, state: Any, actor: int, rng: random.Random) -> str:
    """Chance's move drawn by the engine, or a uniformly random legal move of `actor`."""
    if actor == CHANCE:
        return eng.sample_chance(state, rng)
    return rng.choice(eng.legal_moves(state, actor))


def random_steps(
    eng: Engine, state: Any, rng: random.Random, limit: int = 20_000,
    pick_actor: Callable[[list[int], random.Random], int] | None = None,
) -> Iterator[tuple[Any, int, str]]:
    """(state, actor, move) for each move of random play from `state` to the end; the first
    actor of `to_act` moves unless `pick_actor` chooses. AssertionError after `limit` moves."""
    for _ in range(limit):
        actors = eng.to_act(state)
        if not actors:
            return
        actor = pick_actor(actors, rng) if pick_actor else actors[0]
        move = random_move(eng, state, actor, rng)
        yield state, actor, move
        state = eng.apply(state, actor, move)
    raise AssertionError(f"{eng.id}: the game did not end in {limit} moves")


def play_random(
    eng: Engine, state: Any, rng: random.Random,
    stop: Callable[[Any], bool] = lambda s: False, limit: int = 20_000,
) -> Any:
    """Random legal play from `state` until `stop(state)` or the game ends; the last state."""
    for _ in range(limit):
        if not eng.to_act(state) or stop(state):
            return state
        actor = eng.to_act(state)[0]
        state = eng.apply(state, actor, random_move(eng, state, actor, rng))
    raise AssertionError(f"{eng.id}: the game did not end in {limit} moves")


def random_game(
    eng: Engine, players: int, options: dict | None, rng: random.Random
) -> list[tuple[Any, int, str]]:
    """Every (state, actor, move) of one random game from the start."""
    return list(random_steps(eng, eng.new(players, options), rng))


def play_with(
    eng: Engine, state: Any, rng: random.Random, choose: Callable[[Any, int, int], str],
    limit: int = 20_000,
) -> Any:
    """Play `state` to the end: chance drawn by the engine with `rng`, every seat's move from
    `choose(state, actor, ply)` (ply counts the seats' moves from 1), which must be legal.
    Returns the final state."""
    ply = 0
    for _ in range(limit):
        actors = eng.to_act(state)
        if not actors:
            return state
        actor = actors[0]
        if actor == CHANCE:
            move = eng.sample_chance(state, rng)
        else:
            ply += 1
            move = choose(state, actor, ply)
            assert move in eng.legal_moves(state, actor), (eng.view(state, actor), move)
        state = eng.apply(state, actor, move)
    raise AssertionError(f"{eng.id}: the game did not end in {limit} moves")


def play_events_until(
    eng: Engine, state: Any, rng: random.Random,
    stop: Callable[[Any, list[dict]], bool] | None = None, limit: int = 3000,
) -> tuple[Any, list[dict]]:
    """Random legal play from `state`; stops after the first move whose events satisfy
    `stop(state, events)`, or at the end. Returns (state, events of the last move)."""
    events: list[dict] = []
    for _ in range(limit):
        if stop is not None and events and stop(state, events):
            break
        actors = eng.to_act(state)
        if not actors:
            break
        actor = actors[0]
        state, events = eng.apply_events(state, actor, random_move(eng, state, actor, rng))
    return state, events
