"""Animated replays: a whole game rebuilt from its move log, one GIF frame per meaningful step.

    played = PlayedGame("senet", table.options, len(table.seats), table.log)
    data = render_replay(played)   # GIF bytes

The log is replayed through the engine (`apply_events`); each frame is the public picture
(`renderers.render(game, eng.view(state, None), events)`), so a replay never shows more than
the live boards did: no 6 nimmt! hand, only cards already revealed. After the last step comes
the game-over picture (`render_game_over`), held `final_hold_ms`.

Which steps get a frame (`replay_plan`):
- a step whose events are only Senet throws (or that has no events, like Senet's "try") gets no
  frame of its own: its events are carried into the next frame (the throw shown with the move);
- a 6 nimmt! face-down pick (events only "pick") gets no frame and its event is dropped: the
  last pick of a turn reveals every card, and that step's frame shows the reveal and placements;
- every other step (moves, deals and setups, reveals, choices) gets one frame; the last step
  always does, so an unfinished game ends on its current position.

Format, measured (see the report in the module's tests): GIF. Frames share one 255-colour
palette (index 255 is transparent) and each frame after the first stores only the pixels that
changed, cropped to their box, unchanged pixels transparent. For a 367-step Senet game (186
frames, 1100 x 624) that is about 2.5 MB, encoded in about 1.3 s, against 2.5 MB in 5 s for
lossless animated WebP at its fastest useful setting, and GIF animates in every Discord
client. Rendering the frames (about 20 ms each) is the larger cost: call `render_replay` in a
worker thread (`asyncio.to_thread`).

Size: the whole animation is encoded once; if it exceeds `max_bytes` (the encoder stops as
soon as it does and estimates the full size), it is scaled down (to half size at least) and
then intermediate frames are dropped (the first and the last frames are always kept, each kept
frame still shows `frame_ms`), until it fits. At the default 8 MB this only happens for
extreme games: the longest seeded games measured are about 2.4 MB at full size.
"""

from __future__ import annotations

import io
import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops

import renderers
from engines import get_engine
from renderers import theme

TRANSPARENT = 255  # the palette index of unchanged pixels
MIN_SCALE = 0.5  # below this, frames are dropped instead
FILE_EXTENSION = "gif"
MIME_TYPE = "image/gif"
_FILL = 0.92  # aim this far below max_bytes when re-encoding
_MAX_ATTEMPTS = 8

CARRY_ALONE = frozenset({"throw"})  # a step with only these gets no frame; events carried on
DROP_ALONE = frozenset({"pick"})  # a step with only these gets no frame; events dropped


@dataclass(frozen=True)
class PlayedGame:
    """A game to replay, plain data (it crosses to the worker processes): the game, its options,
    the number of players, the move log and, when it differs from the engine's (say after a
    resign), the table's outcome."""

    game: str
    options: dict[str, Any] | None
    players: int
    log: Sequence[Sequence[Any]]
    outcome: dict[str, Any] | None = None


@dataclass(frozen=True)
class Frame:
    """One frame's data: the public view after `ply` log steps and the events shown with it.
    `outcome` is set on the final game-over frame only (its `events` are then one
    `{"type": "game_over", **outcome}`)."""

    view: dict[str, Any]
    events: list[dict[str, Any]]
    ply: int
    outcome: dict[str, Any] | None = None


@dataclass(frozen=True)
class Replay:
    """What `build_replay` made: the GIF bytes and how it was fitted under `max_bytes`."""

    data: bytes
    width: int
    height: int
    kept: list[int]  # indices into replay_plan(...) of the frames in the animation, in order
    total_frames: int  # len(replay_plan(...))
    scale: float  # 1.0, or the factor the frames were shrunk by
    durations: list[int]  # ms per kept frame

    @property
    def frames(self) -> int:
        return len(self.kept)


# --- the frames' data -----------------------------------------------------------------------
def replay_plan(played: PlayedGame) -> list[Frame]:
    """The frames of a replay of `played.log` (module docstring). `played.outcome` overrides
    the engine's; with neither there is no game-over frame. A log that does not replay raises
    the engine's ValueError (IllegalMove)."""
    eng = get_engine(played.game)
    state = eng.new(played.players, played.options)
    log = played.log
    frames: list[Frame] = []
    carried: list[dict[str, Any]] = []
    for ply, (actor, move) in enumerate(log, start=1):
        state, events = eng.apply_events(state, actor, move)
        kinds = {event.get("type") for event in events}
        if ply < len(log) and kinds <= CARRY_ALONE | DROP_ALONE:
            carried += [event for event in events if event.get("type") in CARRY_ALONE]
            continue
        frames.append(Frame(eng.view(state, None), carried + list(events), ply))
        carried = []
    if not frames:  # nothing applied yet: the start position
        frames.append(Frame(eng.view(state, None), [], 0))
    final = played.outcome if played.outcome is not None else eng.outcome(state)
    if final is not None:
        final = dict(final)
        frames.append(Frame(eng.view(state, None), [{"type": "game_over", **final}],
                            len(log), final))
    return frames


def replay_frames(played: PlayedGame) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """`(view, events)` of every frame of the replay, in order (see `replay_plan`)."""
    return [(f.view, f.events) for f in replay_plan(played)]


def render_frame(game: str, frame: Frame, gettext: Callable[[str], str] | None = None) -> bytes:
    """The PNG of one frame: the board after its events, or the game-over picture, with its
    words through `gettext` (English without one)."""
    if frame.outcome is not None:
        return renderers.render_game_over(game, frame.view, frame.outcome, gettext=gettext)
    return renderers.render(game, frame.view, frame.events, gettext=gettext)


def alt_text(played: PlayedGame, gettext: Callable[[str], str] | None = None,
             names: theme.Names = None) -> str:
    """The replay in words for a screen reader (at most 1024 characters): how many moves and
    pictures, then the last picture described (the result, or the position it stops at)."""
    plan = replay_plan(played)
    last = plan[-1]
    if last.outcome is not None:
        final = renderers.alt_text_game_over(played.game, last.view, last.outcome,
                                             gettext=gettext, names=names)
    else:
        final = renderers.alt_text(played.game, last.view, last.events, gettext=gettext,
                                   names=names)
    with theme.translating(gettext):
        head = theme.tr("Replay: {moves} moves in {frames} pictures.",
                        moves=len(played.log), frames=len(plan))
    return theme.alt(head, final)


def frame_offset(size: tuple[int, int], canvas: tuple[int, int]) -> tuple[int, int]:
    """Where a picture of `size` sits on the animation's canvas (before any scaling): centred
    across, at the top. Pictures of one game may differ in size (6 nimmt!)."""
    return (canvas[0] - size[0]) // 2, 0


# --- the animation --------------------------------------------------------------------------
def render_replay(played: PlayedGame, **settings: Any) -> bytes:
    """An animated GIF of the whole game (module docstring), at most `max_bytes`; `settings`
    are `build_replay`'s keywords. Blocking (about 25 ms a frame): run it in a worker."""
    return build_replay(played, **settings).data


def build_replay(
    played: PlayedGame,
    *,
    frame_ms: int = 900,
    final_hold_ms: int = 3000,
    max_bytes: int = 8_000_000,
    gettext: Callable[[str], str] | None = None,
) -> Replay:
    """`render_replay` with the details of what was made (size, scale, frames kept); the
    pictures' words go through `gettext`."""
    if frame_ms < 20 or final_hold_ms < 20:
        raise ValueError("frame times must be at least 20 ms")
    plan = replay_plan(played)
    pngs = [render_frame(played.game, frame, gettext) for frame in plan]
    sizes = [_png_size(png) for png in pngs]
    canvas = (max(w for w, _ in sizes), max(h for _, h in sizes))
    palette = _palette(pngs, canvas)
    background = _nearest(Image.new("RGB", (1, 1), theme.BACKGROUND), palette)[0]
    n = len(pngs)
    kept = list(range(n))
    scale = 1.0
    for _ in range(_MAX_ATTEMPTS):
        durations = [final_hold_ms if i == n - 1 else frame_ms for i in kept]
        data, estimate = _encode([pngs[i] for i in kept], durations, canvas, scale, palette,
                                 background, max_bytes)
        if data is not None:
            width, height = _scaled(canvas, scale)
            return Replay(data, width, height, kept, n, scale, durations)
        scale, kept = _shrink(scale, kept, n, max_bytes * _FILL / estimate)
    raise ValueError(f"a replay of this game does not fit in {max_bytes} bytes")


def _shrink(scale: float, kept: list[int], n: int, ratio: float) -> tuple[float, list[int]]:
    """A smaller scale, then fewer frames, to shrink the file by `ratio`. Measured: the bytes
    of a scaled-down GIF fall about linearly with the scale (resampled edges compress worse),
    and about linearly with the frames kept."""
    wanted = scale * ratio
    if wanted >= MIN_SCALE:
        return math.floor(wanted * 100) / 100, kept
    if len(kept) <= 2:
        raise ValueError("a replay of this game does not fit even as two frames")
    frames = len(kept) * ratio * scale / MIN_SCALE
    count = max(2, min(len(kept) - 1, math.floor(frames)))
    return MIN_SCALE, _spread(n, count)


def _spread(n: int, count: int) -> list[int]:
    """`count` frame indices out of `n`, evenly spread, always with the first and the last."""
    if count >= n:
        return list(range(n))
    if count <= 2:
        return [0, n - 1] if n > 1 else [0]
    step = (n - 1) / (count - 1)
    return sorted({round(i * step) for i in range(count)} | {0, n - 1})


def _png_size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as im:  # reads the header only
        return im.size


def _scaled(canvas: tuple[int, int], scale: float) -> tuple[int, int]:
    if scale >= 1:
        return canvas
    return max(1, round(canvas[0] * scale)), max(1, round(canvas[1] * scale))


def _on_canvas(png: bytes, canvas: tuple[int, int], scale: float) -> Image.Image:
    """The RGB frame: the picture placed on the canvas, then scaled."""
    with Image.open(io.BytesIO(png)) as im:
        picture = im.convert("RGB")
    if picture.size == canvas:
        frame = picture
    else:
        frame = Image.new("RGB", canvas, theme.BACKGROUND)
        frame.paste(picture, frame_offset(picture.size, canvas))
    if scale < 1:
        frame = frame.resize(_scaled(canvas, scale), Image.Resampling.LANCZOS,
                             reducing_gap=2.0)
    return frame


def _nearest(colours: Image.Image, palette: Image.Image) -> bytes:
    """The palette index nearest to each pixel of a small RGB image."""
    return colours.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()


def _indexed(png: bytes, canvas: tuple[int, int], scale: float, palette: Image.Image,
             background: int) -> Image.Image:
    """The frame in the shared palette. A full-size palette picture (what theme.to_png makes)
    is mapped through its own palette (256 look-ups, not one per pixel)."""
    with Image.open(io.BytesIO(png)) as im:
        im.load()
        local = im.getpalette("RGB") if im.mode == "P" else None
        if scale < 1 or local is None:
            return _on_canvas(png, canvas, scale).quantize(palette=palette,
                                                           dither=Image.Dither.NONE)
        count = len(local) // 3
        colours = Image.frombytes("RGB", (count, 1), bytes(local[: 3 * count]))
        lut = list(_nearest(colours, palette)) + [0] * (256 - count)
        mapped = im.point(lut)
    if mapped.size != canvas:
        frame = Image.new("P", canvas, background)
        frame.paste(mapped, frame_offset(mapped.size, canvas))
        mapped = frame
    mapped.putpalette(palette.getpalette("RGB") or [])
    return mapped


def _palette(pngs: list[bytes], canvas: tuple[int, int]) -> Image.Image:
    """One 255-colour palette for every frame, from a sample of up to 24 frames and the
    theme's key colours (as theme.to_png does for one picture)."""
    step = max(1, math.ceil(len(pngs) / 24))
    chosen = pngs[::step]
    if pngs[-1] is not chosen[-1]:
        chosen.append(pngs[-1])
    w, h = max(1, canvas[0] // 3), max(1, canvas[1] // 3)
    keys = theme._key_strip()
    sample = Image.new("RGB", (max(w, keys.width), h * len(chosen) + keys.height),
                       theme.BACKGROUND)
    for i, png in enumerate(chosen):
        frame = _on_canvas(png, canvas, 1.0)
        sample.paste(frame.resize((w, h), Image.Resampling.NEAREST), (0, i * h))
    sample.paste(keys, (0, h * len(chosen)))
    return sample.quantize(colors=TRANSPARENT, method=Image.Quantize.FASTOCTREE,
                           dither=Image.Dither.NONE)


def _gif_header(size: tuple[int, int], palette: Image.Image) -> bytes:
    colours = bytes(palette.getpalette("RGB") or [])[: 3 * 256]
    colours += bytes(3 * 256 - len(colours))
    return (
        b"GIF89a"
        + struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0)  # 256-colour global table
        + colours
        + b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # loop forever
    )


_UNCHANGED = [255] + [0] * 255  # a zero delta (same palette index) -> mask on


def _encode(
    pngs: list[bytes],
    durations: list[int],
    canvas: tuple[int, int],
    scale: float,
    palette: Image.Image,
    background: int,
    max_bytes: int,
) -> tuple[bytes | None, float]:
    """The GIF, or (None, estimated size) as soon as it is sure to exceed `max_bytes`.
    Only two frames are in memory at a time."""
    out = bytearray(_gif_header(_scaled(canvas, scale), palette))
    previous: Image.Image | None = None
    first = 0
    for index, (png, duration) in enumerate(zip(pngs, durations, strict=True)):
        frame = _indexed(png, canvas, scale, palette, background)
        if previous is None:
            chunks = GifImagePlugin.getdata(frame, (0, 0), duration=duration, disposal=1)
        else:
            delta = ImageChops.subtract_modulo(frame, previous)
            box = delta.getbbox()
            if box is None:  # the same picture again: one transparent pixel
                box = (0, 0, 1, 1)
                part = Image.new("P", (1, 1), TRANSPARENT)
                part.putpalette(palette.getpalette("RGB") or [])
            else:
                part = frame.crop(box)
                unchanged = delta.crop(box).point(_UNCHANGED, "1")
                part.paste(TRANSPARENT, mask=unchanged)
            chunks = GifImagePlugin.getdata(part, box[:2], duration=duration, disposal=1,
                                            transparency=TRANSPARENT)
        for chunk in chunks:
            out += chunk
        previous = frame
        if index == 0:
            first = len(out)  # the header and the one full frame
        if len(out) + 1 > max_bytes:
            later = (len(out) - first) / index if index else first / 2
            return None, first + later * (len(pngs) - 1) + 1
    out += b";"
    return bytes(out), float(len(out))


__all__ = [
    "FILE_EXTENSION", "MIME_TYPE", "Frame", "PlayedGame", "Replay", "build_replay", "frame_offset",
    "render_frame", "render_replay", "replay_frames", "replay_plan",
]
