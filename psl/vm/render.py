"""Several frames of a program: frame k at time T + k/fps, each output feeding `self`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from psl.registry import LIMITS, SLIDERS
from psl.vm.inputs import Inputs
from psl.vm.machine import Stats, decode, execute


@dataclass
class RenderSettings:
    width: int = 64
    height: int = 64
    time: float = 0.0
    frames: int = 1
    fps: float = 60.0
    button: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    axis: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    camera: np.ndarray | None = None
    video: np.ndarray | None = None
    is_avpro: bool = False
    audiolink: np.ndarray | None = None
    sliders: tuple[float, ...] = (0.0,) * SLIDERS.count  # slider(k)'s values (§8.8)
    max_jumps: int = LIMITS.jumps
    max_steps: int = LIMITS.steps  # the work budget (docs/spec.md §5.4)

    def validate(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError("size must be at least 1x1")
        if self.frames < 1:
            raise ValueError("frames must be at least 1")
        if not self.fps > 0:
            raise ValueError("fps must be positive")
        if self.max_jumps < 0:
            raise ValueError("max_jumps must not be negative")
        if self.max_steps < 0:
            raise ValueError("max_steps must not be negative")
        if len(self.sliders) != SLIDERS.count:
            raise ValueError(f"sliders takes {SLIDERS.count} numbers")


@dataclass
class Rendered:
    frames: list[np.ndarray] = field(default_factory=list)  # float32 [H][W][4] each
    stats: list[Stats] = field(default_factory=list)

    @property
    def last(self) -> np.ndarray:
        return self.frames[-1]


def frames(slots: np.ndarray, settings: RenderSettings,
           on_tile: Callable[[int], None] | None = None, tile: int | None = None,
           ) -> Iterator[tuple[np.ndarray, Stats]]:
    """The frames one at a time (only the previous one is held, for `self`)."""
    settings.validate()
    code = decode(slots)
    previous: np.ndarray | None = None
    for k in range(settings.frames):
        inputs = Inputs(
            width=settings.width, height=settings.height,
            time=settings.time + k / settings.fps, delta_time=1.0 / settings.fps,
            button=settings.button, axis=settings.axis, self_texture=previous,
            camera=settings.camera, video=settings.video, is_avpro=settings.is_avpro,
            audiolink=settings.audiolink, sliders=settings.sliders)
        img, stats = execute(slots, inputs, settings.max_jumps, code=code, on_tile=on_tile,
                             tile=tile, max_steps=settings.max_steps)
        previous = img
        yield img, stats


def render(slots: np.ndarray, settings: RenderSettings,
           on_frame: Callable[[int], None] | None = None, keep_frames: bool = True) -> Rendered:
    out = Rendered()
    last = settings.frames - 1
    for k, (img, stats) in enumerate(frames(slots, settings)):
        if keep_frames or k == last:
            out.frames.append(img)
        out.stats.append(stats)
        if on_frame is not None:
            on_frame(k)
    return out
