"""Python API: `psl.run(...)` renders a PSL program with the reference VM, like `psl run`."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, overload

import numpy as np

from psl.registry import LIMITS
from psl.vm.images import load_texture
from psl.vm.machine import Stats
from psl.vm.render import RenderSettings, render

Texture = np.ndarray | str | Path | None


def program_slots(source_or_program: object) -> np.ndarray:
    """Slots of PSL source text, a compiled `Program`, or slots already (float32 [n][4]).

    Source with errors raises `psl.diagnostics.PslError` carrying the diagnostics.
    """
    if isinstance(source_or_program, str):
        from psl.compiler import compile_source

        return compile_source(source_or_program).unwrap().slots()
    if isinstance(source_or_program, np.ndarray):
        return np.asarray(source_or_program, np.float32).reshape(-1, 4)
    slots = getattr(source_or_program, "slots", None)
    if callable(slots):
        return np.asarray(slots(), np.float32)
    raise TypeError("expected PSL source text, a compiled Program or a slot array")


def _texture(t: Texture, flip: bool = True) -> np.ndarray | None:
    if t is None:
        return None
    if isinstance(t, (str, Path)):
        return load_texture(t, flip=flip)
    arr = np.asarray(t, np.float32)
    if arr.ndim != 3 or arr.shape[2] != 4:
        raise ValueError(f"a texture is float32 [H][W][4], got shape {arr.shape}")
    return arr


@overload
def run(source_or_program: object, *, size: tuple[int, int] = ..., time: float = ...,
        frames: int = ..., fps: float = ..., camera: Texture = ..., video: Texture = ...,
        is_avpro: bool = ..., audiolink: Texture = ...,
        button: tuple[float, float, float, float] = ...,
        axis: tuple[float, float, float, float] = ..., max_jumps: int = ...,
        stats: Literal[False] = ...) -> np.ndarray: ...


@overload
def run(source_or_program: object, *, size: tuple[int, int] = ..., time: float = ...,
        frames: int = ..., fps: float = ..., camera: Texture = ..., video: Texture = ...,
        is_avpro: bool = ..., audiolink: Texture = ...,
        button: tuple[float, float, float, float] = ...,
        axis: tuple[float, float, float, float] = ..., max_jumps: int = ...,
        stats: Literal[True]) -> tuple[np.ndarray, Stats]: ...


def run(source_or_program: object, *, size: tuple[int, int] = (64, 64), time: float = 0.0,
        frames: int = 1, fps: float = 60.0, camera: Texture = None, video: Texture = None,
        is_avpro: bool = False, audiolink: Texture = None,
        button: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
        axis: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
        max_jumps: int = LIMITS.jumps, stats: bool = False):
    """Render `frames` frames of a program at `size` = (width, height) and return the last
    one as float32 [H][W][4] (row 0 = smallest v, NaN lanes already zeroed).

    Frame k runs at `time + k / fps` and reads frame k-1 through `self()`. Textures are
    arrays [H][W][4] (row 0 = smallest v) or image paths (PNG/JPEG, or .npy); the AudioLink
    texture is indexed by AudioLink's (column, row). With `stats=True` returns
    `(image, Stats)` where the statistics are those of the last frame.
    """
    slots = program_slots(source_or_program)
    width, height = size
    settings = RenderSettings(
        width=int(width), height=int(height), time=float(time), frames=int(frames),
        fps=float(fps), button=tuple(float(x) for x in button),  # type: ignore[arg-type]
        axis=tuple(float(x) for x in axis),  # type: ignore[arg-type]
        camera=_texture(camera), video=_texture(video), is_avpro=bool(is_avpro),
        audiolink=_texture(audiolink, flip=False), max_jumps=int(max_jumps))
    if len(settings.button) != 4 or len(settings.axis) != 4:
        raise ValueError("button and axis take four numbers")
    out = render(slots, settings, keep_frames=False)
    if stats:
        return out.last, out.stats[-1]
    return out.last
