"""Executed instructions of a program on a few sample pixels (`psl check --stats`).

The reference VM runs frame 0 of the SPEC §9 reference settings (64 × 64, t = 1.25, the
reference camera and video textures, `self()` reading zeros) for just the sample pixels:
by default the four corner pixels and the centre pixel. The counts are the VM's own
statistics (SPEC §9): executed instructions, taken jumps and whether the pixel stopped at
the jump limit or at the work budget (and at which instruction).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from psl.bytecode import F32
from psl.registry import LIMITS
from psl.vm.inputs import Inputs
from psl.vm.machine import Code, Frame, decode

#: SPEC §9: the reference render settings (frame 0).
REFERENCE_WIDTH = 64
REFERENCE_HEIGHT = 64
REFERENCE_TIME = 1.25
REFERENCE_FPS = 60.0
REFERENCE_BUTTON = (1.0, 0.0, 1.0, 0.0)
REFERENCE_AXIS = (0.25, -0.5, 0.75, 0.0)


def _texture(fn) -> np.ndarray:
    j, i = np.mgrid[0:REFERENCE_HEIGHT, 0:REFERENCE_WIDTH]
    return np.stack(fn(i, j), axis=-1).astype(F32)


def reference_camera() -> np.ndarray:
    """SPEC §9 camera texture, [row j][column i] RGBA."""
    return _texture(lambda i, j: (i / 63, j / 63, ((i + j) % 8) / 7, np.ones(i.shape)))


def reference_video() -> np.ndarray:
    """SPEC §9 video texture, [row j][column i] RGBA."""
    return _texture(lambda i, j: (((3 * i) % 64) / 63, ((5 * j) % 64) / 63,
                                  ((i // 8 + j // 8) % 2).astype(np.float64), np.ones(i.shape)))


def test_audiolink() -> np.ndarray:
    """A test pattern in AudioLink's layout (128 columns, 64 rows, [row][column] RGBA), for
    `psl run` without --audiolink: every texel non-zero and smooth, so an AudioLink program
    shows its shape instead of black."""
    j, i = np.mgrid[0:64, 0:128]
    return np.stack([0.25 + 0.75 * i / 127, 0.25 + 0.75 * j / 63,
                     0.5 + 0.5 * np.sin(0.3 * i + 0.7 * j), np.ones(i.shape)],
                    axis=-1).astype(F32)


def reference_inputs(sliders: Sequence[float] | None = None) -> Inputs:
    """Frame 0 of the SPEC §9 settings; `self()` reads zeros, no AudioLink texture;
    `sliders`: slider(k)'s values (the program's defaults; default zeros)."""
    inputs = Inputs(width=REFERENCE_WIDTH, height=REFERENCE_HEIGHT, time=REFERENCE_TIME,
                    delta_time=1.0 / REFERENCE_FPS, button=REFERENCE_BUTTON,
                    axis=REFERENCE_AXIS, camera=reference_camera(), video=reference_video(),
                    is_avpro=False)
    if sliders is not None:
        inputs.sliders = tuple(float(x) for x in sliders)
    return inputs


def corner_and_centre_pixels(width: int, height: int) -> tuple[tuple[int, int], ...]:
    """(x, y) of the four corner pixels and the centre pixel, without repeats."""
    pixels = [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1),
              (width // 2, height // 2)]
    return tuple(dict.fromkeys(pixels))


@dataclass(frozen=True)
class PixelCount:
    x: int
    y: int
    u: float
    v: float
    instructions: int  # executed instructions
    jumps: int  # taken JUMPs and CONDJUMPs
    hit_jump_limit: bool  # stopped after more than max_jumps jumps
    hit_work_budget: bool = False  # stopped after max_steps executed instructions
    stop_index: int = -1  # the instruction it stopped at (slot index // 2)
    #: dispatched instructions (a fused one once, docs/spec.md §11; -1: not counted)
    dispatched: int = -1
    memory_ops: int = 0  # stack and register memory operations (docs/spec.md §11.4)


@dataclass(frozen=True)
class Sampled:
    pixels: tuple[PixelCount, ...]
    max_stack: int  # deepest stack pointer any sample pixel reached
    max_jumps: int
    width: int
    height: int
    time: float
    max_steps: int = LIMITS.steps


def run_samples(slots: np.ndarray, pixels: Sequence[tuple[int, int]] | None = None,
                inputs: Inputs | None = None, max_jumps: int = LIMITS.jumps,
                code: Code | None = None, max_steps: int = LIMITS.steps) -> Sampled:
    """Run a program (float32 slots) on the pixels (x, y) of a frame (default: the corners
    and the centre of frame 0 of the reference settings) and count what each executed."""
    inputs = inputs or reference_inputs()
    if pixels is None:
        pixels = corner_and_centre_pixels(inputs.width, inputs.height)
    xs = np.array([x for x, _ in pixels], np.float64)
    ys = np.array([y for _, y in pixels], np.float64)
    u = ((xs + 0.5) / inputs.width).astype(F32)  # as Inputs.uv_grid
    v = ((ys + 0.5) / inputs.height).astype(F32)
    frame = Frame(code or decode(slots), inputs, max_jumps, pixels=(u, v), max_steps=max_steps)
    frame.run()
    counts = tuple(
        PixelCount(int(x), int(y), float(u[k]), float(v[k]), int(frame.exec[k]),
                   int(frame.jumps[k]), bool(frame.hit[k]), bool(frame.spent[k]),
                   int(frame.stop_pc[k]) // 2, int(frame.exec[k] - frame.saved[k]),
                   int(frame.memory[k]))
        for k, (x, y) in enumerate(pixels))
    return Sampled(counts, int(frame.deep), max_jumps, inputs.width, inputs.height,
                   inputs.time, max_steps)
