"""Run the generated VM.cginc on the CPU through slangpy (Slang -> C++ -> g++ -O3).

One `SlangVM` compiles the shader once; programs, inputs and textures are passed as buffers
and uniforms, so the one build serves every program of a test session.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from psl import registry

SUPPORT_DIR = Path(__file__).resolve().parent
ENTRY_MODULE = "psl_harness.slang"
ENTRY_POINT = "psl_eval"
THREADS_PER_GROUP = 64  # [numthreads] of psl_eval


def _checker(width: int, height: int, fn) -> np.ndarray:
    j, i = np.mgrid[0:height, 0:width]
    return np.stack(fn(i, j), axis=-1).astype(np.float32)


def reference_camera(width: int = 64, height: int = 64) -> np.ndarray:
    """SPEC §9 camera texture, [row j][column i] RGBA."""
    return _checker(width, height, lambda i, j: (
        i / 63, j / 63, ((i + j) % 8) / 7, np.ones_like(i, dtype=np.float64)))


def reference_video(width: int = 64, height: int = 64) -> np.ndarray:
    """SPEC §9 video texture, [row j][column i] RGBA."""
    return _checker(width, height, lambda i, j: (
        ((3 * i) % 64) / 63, ((5 * j) % 64) / 63, ((i // 8 + j // 8) % 2).astype(np.float64),
        np.ones_like(i, dtype=np.float64)))


@dataclass
class Inputs:
    """Everything a frame reads besides the program (SPEC §9 defaults)."""

    width: int = 64
    height: int = 64
    t: float = 1.25
    delta_time: tuple[float, float, float, float] = (1 / 60, 60.0, 1 / 60, 60.0)
    button: tuple[float, float, float, float] = (1.0, 0.0, 1.0, 0.0)
    axis: tuple[float, float, float, float] = (0.25, -0.5, 0.75, 0.0)
    is_avpro: float = 0.0
    camera: np.ndarray = field(default_factory=reference_camera)
    video: np.ndarray = field(default_factory=reference_video)

    def time4(self) -> tuple[float, float, float, float]:
        t = float(self.t)  # computed in float64, rounded to float32 on upload
        return (t / 20, t, 2 * t, 3 * t)

    def at_frame(self, k: int) -> Inputs:
        """The inputs of frame k of the reference settings: t = 1.25 + k/60."""
        return Inputs(self.width, self.height, 1.25 + k / 60, self.delta_time, self.button,
                      self.axis, self.is_avpro, self.camera, self.video)


@dataclass
class Render:
    image: np.ndarray  # float32 [height][width][4]
    executed: np.ndarray  # uint32 [height][width]: instructions executed per pixel
    jumps: np.ndarray  # uint32 [height][width]: jumps taken per pixel


def pad_program(slots: np.ndarray) -> np.ndarray:
    """The program as the 4092 float4 slots the VM reads (unused slots zero)."""
    slots = np.asarray(slots, dtype=np.float32).reshape(-1, 4)
    if len(slots) > registry.LIMITS.slots:
        raise ValueError(f"{len(slots)} slots > {registry.LIMITS.slots}")
    full = np.zeros((registry.LIMITS.slots, 4), dtype=np.float32)
    full[: len(slots)] = slots
    return full


class SlangVM:
    """The generated VM.cginc in `cginc_dir`, built for the CPU once."""

    def __init__(self, cginc_dir: Path, cache_dir: Path | None = None,
                 defines: dict[str, str] | None = None,
                 extra_include_dirs: tuple[Path, ...] = ()) -> None:
        import slangpy as spy

        self._spy = spy
        start = time.perf_counter()
        options = {
            "include_paths": [str(SUPPORT_DIR), str(cginc_dir), *map(str, extra_include_dirs)],
            "optimization": spy.SlangOptimizationLevel.maximal,
            "defines": dict(defines or {}),
        }
        kwargs = {}
        if cache_dir is not None:
            cache_dir.mkdir(parents=True, exist_ok=True)
            kwargs["shader_cache_path"] = str(cache_dir)
        self.device = spy.Device(type=spy.DeviceType.cpu, compiler_options=options,
                                 enable_hot_reload=False, **kwargs)
        program = self.device.load_program(ENTRY_MODULE, [ENTRY_POINT])
        self.kernel = self.device.create_compute_kernel(program)
        # The C++ is compiled lazily: a 1-pixel dispatch makes the build part of setup.
        self.render(np.zeros((2, 4), np.float32), Inputs(width=1, height=1))
        self.build_seconds = time.perf_counter() - start

    def _buffer(self, data: np.ndarray, struct_size: int, writable: bool = False):
        spy = self._spy
        usage = spy.BufferUsage.unordered_access if writable else spy.BufferUsage.shader_resource
        return self.device.create_buffer(element_count=max(1, len(data)),
                                         struct_size=struct_size, usage=usage, data=data)

    def render(self, slots: np.ndarray, inputs: Inputs,
               self_texture: np.ndarray | None = None, sentinel: int = 0) -> Render:
        """Evaluate runVM for every pixel of an inputs.width x inputs.height grid."""
        spy = self._spy
        w, h = inputs.width, inputs.height
        if self_texture is None:
            self_texture = np.zeros((h, w, 4), np.float32)
        textures = [np.asarray(t, np.float32) for t in (self_texture, inputs.camera, inputs.video)]
        samplers, offset = [], 0
        for tex in textures:
            samplers.append({"offset": offset, "width": tex.shape[1], "height": tex.shape[0]})
            offset += tex.shape[0] * tex.shape[1]
        texels = np.concatenate([t.reshape(-1, 4) for t in textures])
        out = np.zeros((w * h, 4), np.float32)
        stats = np.zeros((w * h, 2), np.uint32)
        out_buf = self._buffer(out, 16, writable=True)
        stats_buf = self._buffer(stats, 8, writable=True)
        self.kernel.dispatch(
            [w * h, 1, 1],
            vars={
                "_Program": self._buffer(pad_program(slots), 16),
                "psl_texels": self._buffer(texels, 16),
                "psl_out": out_buf,
                "psl_stats": stats_buf,
                "psl_width": w,
                "psl_height": h,
                "_Time": spy.float4(*inputs.time4()),
                "unity_DeltaTime": spy.float4(*inputs.delta_time),
                "_CustomRenderTextureWidth": float(w),
                "_CustomRenderTextureHeight": float(h),
                "_SelfTexture2D": samplers[0],
                "_Camera": samplers[1],
                "_Video": samplers[2],
                "_IsAVProInput": float(inputs.is_avpro),
                "_InputButton": spy.float4(*inputs.button),
                "_InputAxis": spy.float4(*inputs.axis),
                "_Sentinel": spy.uint4(sentinel, 0, 0, 0),
            },
        )
        image = out_buf.to_numpy().view(np.float32).reshape(h, w, 4).copy()
        st = stats_buf.to_numpy().view(np.uint32).reshape(h, w, 2)
        return Render(image, st[..., 0].copy(), st[..., 1].copy())

    def render_frames(self, slots: np.ndarray, inputs: Inputs, frames: int) -> list[Render]:
        """Frames k = 0..frames-1, each frame's output the next frame's self texture."""
        renders: list[Render] = []
        previous = None
        for k in range(frames):
            r = self.render(slots, inputs.at_frame(k), previous)
            renders.append(r)
            previous = r.image
        return renders
