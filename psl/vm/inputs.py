"""What a frame of a PSL program can read besides its own code (SPEC §8, §9)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from psl.bytecode import F32
from psl.registry import SLIDERS


@dataclass
class Inputs:
    """Uniforms and textures of one frame. Textures are float32 [rows][columns][4] with
    row 0 the smallest v (Unity's bottom row); the AudioLink texture is indexed by
    AudioLink's own (column, row) coordinates."""

    width: int = 64
    height: int = 64
    time: float = 0.0  # seconds; time() = (t/20, t, 2t, 3t)
    delta_time: float = 1.0 / 60.0  # deltatime() = (dt, 1/dt, dt, 1/dt)
    button: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    axis: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    self_texture: np.ndarray | None = None  # previous frame; None reads zeros
    camera: np.ndarray | None = None
    video: np.ndarray | None = None
    is_avpro: bool = False  # AVPro video is upside down: sample at (u, 1 - v)
    audiolink: np.ndarray | None = None
    # slider(k) reads sliders[k] (docs/spec.md §8.8); a world that never sets them reads 0
    sliders: tuple[float, ...] = (0.0,) * SLIDERS.count

    def time4(self) -> np.ndarray:
        # computed in float64, then rounded to float32 (golden/manifest.json settings)
        t = float(self.time)
        return np.array([[t / 20.0], [t], [2.0 * t], [3.0 * t]], np.float64).astype(F32)

    def deltatime4(self) -> np.ndarray:
        dt = float(self.delta_time)
        inv = 1.0 / dt if dt != 0 else float("inf")
        return np.array([[dt], [inv], [dt], [inv]], np.float64).astype(F32)

    def button4(self) -> np.ndarray:
        return np.asarray(self.button, np.float64).astype(F32).reshape(4, 1)

    def axis4(self) -> np.ndarray:
        return np.asarray(self.axis, np.float64).astype(F32).reshape(4, 1)

    def slider_values(self) -> np.ndarray:
        """The SLIDERS.count values as float32 (missing ones 0, extra ones ignored)."""
        out = np.zeros(SLIDERS.count, F32)
        given = np.asarray(self.sliders, np.float64).astype(F32)[: SLIDERS.count]
        out[: given.shape[0]] = given
        return out

    def uv_grid(self) -> tuple[np.ndarray, np.ndarray]:
        """u and v of every pixel, row-major from the bottom row: float32 [H*W] each."""
        xs = (np.arange(self.width, dtype=np.float64) + 0.5) / self.width
        ys = (np.arange(self.height, dtype=np.float64) + 0.5) / self.height
        u = np.tile(xs, self.height).astype(F32)
        v = np.repeat(ys, self.width).astype(F32)
        return u, v
