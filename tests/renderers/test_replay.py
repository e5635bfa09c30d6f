"""Animated replays: decoded frame by frame against the move log; hidden cards stay hidden;
the size limit is kept by scaling down and then dropping frames."""

from __future__ import annotations

import io
import random
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

from engines import CHANCE, get_engine
from renderers import replay as R
from tests.helpers.playout import random_steps


@cache
def random_log(game: str, players: int, seed: int, options: tuple = ()) -> tuple:
    """A whole seeded game of random legal moves (chance drawn by the engine)."""
    eng = get_engine(game)
    steps = random_steps(eng, eng.new(players, dict(options) or None), random.Random(seed),
                         pick_actor=lambda actors, rng: rng.choice(actors))
    return tuple((actor, move) for _state, actor, move in steps)


@cache
def built(game: str, players: int, seed: int, max_bytes: int = 8_000_000) -> R.Replay:
    played = R.PlayedGame(game, None, players, list(random_log(game, players, seed)))
    return R.build_replay(played, frame_ms=700, final_hold_ms=2500, max_bytes=max_bytes)


def decode(data: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame as shown (composited, RGB) with its duration in ms."""
    with Image.open(io.BytesIO(data)) as im:
        assert im.format == "GIF" and im.is_animated
        return [(frame.convert("RGB"), frame.info["duration"])
                for frame in ImageSequence.Iterator(im)]


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def expected_picture(game: str, frame: R.Frame, canvas: tuple[int, int]) -> Image.Image:
    """The frame rendered on its own, placed on the animation's canvas."""
    picture = Image.open(io.BytesIO(R.render_frame(game, frame))).convert("RGB")
    out = Image.new("RGB", canvas, R.theme.BACKGROUND)
    out.paste(picture, R.frame_offset(picture.size, canvas))
    return out


# -- the frames' data follows the log --------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "seed"), [
    ("senet", 2, 1), ("six_nimmt", 3, 2), ("varanasi", 3, 3), ("cows_leopards", 2, 4),
])
def test_plan_follows_the_log(game: str, players: int, seed: int) -> None:
    log = list(random_log(game, players, seed))
    played = R.PlayedGame(game, None, players, log)
    plan = R.replay_plan(played)
    assert [(f.view, f.events) for f in plan] == R.replay_frames(played)
    eng = get_engine(game)
    state = eng.new(players)
    views, events_of = {}, {}
    for ply, (actor, move) in enumerate(log, start=1):
        state, events = eng.apply_events(state, actor, move)
        views[ply], events_of[ply] = eng.view(state, None), events
    *steps, over = plan
    assert over.outcome == eng.outcome(state) and over.ply == len(log)
    assert over.events == [{"type": "game_over", **over.outcome}]
    assert [f.ply for f in steps] == sorted({f.ply for f in steps}) and steps[-1].ply == len(log)
    previous = 0
    for frame in steps:
        assert frame.view == views[frame.ply]
        # The steps between two frames are bare throws, face-down picks or event-less steps;
        # their throws are shown with the next frame, then that step's own events.
        skipped = range(previous + 1, frame.ply)
        for ply in skipped:
            assert {e["type"] for e in events_of[ply]} <= {"throw", "pick"}
        carried = [e for ply in skipped for e in events_of[ply] if e["type"] == "throw"]
        assert frame.events == carried + events_of[frame.ply]
        previous = frame.ply
    if game == "senet":  # a throw never has a frame of its own
        assert all(log[f.ply - 1][0] != CHANCE or f.ply == len(log) or
                   {e["type"] for e in f.events} != {"throw"} for f in steps)
        assert len(steps) < len(log) * 0.6


def test_six_nimmt_frames_never_show_an_unplayed_hand_card() -> None:
    log = list(random_log("six_nimmt", 4, 5))
    eng = get_engine("six_nimmt")
    n = 4
    plan = R.replay_plan(R.PlayedGame("six_nimmt", None, n, log))
    hands: set[int] = set()  # dealt into hands this round (the rest start the rows, face up)
    played: set[int] = set()
    state = eng.new(n)
    ply = 0
    for frame in plan:
        while ply < frame.ply:  # replay the log up to this frame
            actor, move = log[ply]
            state = eng.apply(state, actor, move)
            if actor == CHANCE:
                hands, played = {int(c) for c in move.split()[1:][: 10 * n]}, set()
            elif move.startswith("play "):
                played.add(int(move.split()[1]))
            ply += 1
        view = frame.view
        assert view["hands"] == [None] * n
        assert all(p in (None, True) for p in view["picked"])
        shown = {c for row in view["rows"] for c in row}
        shown |= {c for c, _seat in view["queue"]}
        if view["pending"]:
            shown.add(view["pending"]["card"])
        for event in frame.events:
            shown |= {c for c, _seat in event.get("cards", [])} if event["type"] == "reveal" \
                else set(event.get("cards", []))
            if "card" in event:
                shown.add(event["card"])
        leaked = (shown & hands) - played
        assert not leaked, (frame.ply, leaked)
    assert not any(f.events and {e["type"] for e in f.events} == {"pick"} for f in plan[:-1])


# -- the animation ---------------------------------------------------------------------------


def test_animation_decodes_to_the_frames_in_order() -> None:
    game, players, seed = "varanasi", 2, 6
    made = built(game, players, seed)
    plan = R.replay_plan(R.PlayedGame(game, None, players, list(random_log(game, players, seed))))
    assert made.kept == list(range(len(plan))) and made.scale == 1.0
    decoded = decode(made.data)
    assert len(decoded) == len(plan) == made.frames
    canvas = (made.width, made.height)
    pictures = [expected_picture(game, frame, canvas) for frame in plan]
    for i, (image, _ms) in enumerate(decoded):
        assert image.size == canvas
        own = mean_difference(image, pictures[i])
        assert own < 1.5, (i, own)  # the same picture, up to the shared palette
        if i and mean_difference(pictures[i], pictures[i - 1]) > 0.5:
            assert own < mean_difference(image, pictures[i - 1])
    durations = [ms for _image, ms in decoded]
    assert durations == [700] * (len(plan) - 1) + [2500]
    assert len(made.data) <= 8_000_000


def test_six_nimmt_animation_with_pictures_of_different_sizes() -> None:
    made = built("six_nimmt", 5, 7)
    decoded = decode(made.data)
    assert len(decoded) == made.frames == made.total_frames
    assert decoded[-1][1] == 2500 and {ms for _i, ms in decoded[:-1]} == {700}
    plan = R.replay_plan(R.PlayedGame("six_nimmt", None, 5, list(random_log("six_nimmt", 5, 7))))
    canvas = (made.width, made.height)
    for i in (0, len(plan) // 2, len(plan) - 2, len(plan) - 1):
        assert mean_difference(decoded[i][0], expected_picture("six_nimmt", plan[i], canvas)) < 1.5


def test_a_long_game_is_scaled_down_then_thinned_to_fit() -> None:
    full = built("varanasi", 2, 6)
    smaller = built("varanasi", 2, 6, max_bytes=int(len(full.data) * 0.75))
    assert len(smaller.data) <= len(full.data) * 0.75
    assert R.MIN_SCALE <= smaller.scale < 1 and smaller.kept == full.kept
    assert smaller.width < full.width and smaller.height < full.height
    assert len(decode(smaller.data)) == full.frames

    tiny = built("varanasi", 2, 6, max_bytes=int(len(full.data) * 0.12))
    assert len(tiny.data) <= len(full.data) * 0.12
    assert tiny.scale == R.MIN_SCALE and 2 <= tiny.frames < full.frames
    assert tiny.kept[0] == 0 and tiny.kept[-1] == full.total_frames - 1
    decoded = decode(tiny.data)
    assert len(decoded) == tiny.frames
    assert decoded[0][0].size == (tiny.width, tiny.height) == (
        round(full.width * R.MIN_SCALE), round(full.height * R.MIN_SCALE))
    assert decoded[-1][1] == 2500
    # The last frame is still the game-over picture, shrunk.
    plan = R.replay_plan(R.PlayedGame("varanasi", None, 2, list(random_log("varanasi", 2, 6))))
    final = expected_picture("varanasi", plan[-1], (full.width, full.height))
    final = final.resize(decoded[-1][0].size, Image.Resampling.LANCZOS)
    assert mean_difference(decoded[-1][0], final) < 4


def test_unfinished_and_resigned_games() -> None:
    log = list(random_log("cows_leopards", 2, 8))[:9]
    plan = R.replay_plan(R.PlayedGame("cows_leopards", None, 2, log))
    assert plan[-1].outcome is None and plan[-1].ply == 9  # ends on the current position
    resigned = {"scores": [None, None], "ranks": [1, 2], "resigned": [1]}
    plan = R.replay_plan(R.PlayedGame("cows_leopards", None, 2, log, outcome=resigned))
    assert plan[-1].outcome == resigned and plan[-2].ply == 9
    start = R.replay_plan(R.PlayedGame("cows_leopards", None, 2, []))
    assert start[0].ply == 0  # the start position
    data = R.render_replay(R.PlayedGame("cows_leopards", None, 2, log[:3]), frame_ms=500,
                           final_hold_ms=2000)
    assert [ms for _i, ms in decode(data)] == [500, 500, 2000]


def test_a_log_that_does_not_replay_is_refused() -> None:
    log = list(random_log("senet", 2, 1))[:6]
    log[3] = (log[3][0], "move 99")
    with pytest.raises(ValueError):
        R.replay_frames(R.PlayedGame("senet", None, 2, log))
