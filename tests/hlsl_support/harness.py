"""Run the generated VM.cginc on the CPU through slangpy (Slang -> C++ -> g++ -O3).

One `SlangVM` compiles the shader once; programs, inputs and textures are passed as buffers
and uniforms, so the one build serves every program of a test session.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from psl import registry
from psl.bytecode import to_texture
from psl.vm.inputs import Inputs

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


#: slider(k)'s values in the VM differential tests (frames_for in test_hlsl_vm.py and
#: test_glsl_vm.py; reference_inputs leaves them 0, as a world without sliders does):
#: distinct, signed, one not a short decimal
SLIDER_VALUES = (0.5, -1.25, 2.0, 0.1, 3.0, -0.75, 10.0, 1e-3)


def reference_inputs(frame: int = 0, width: int = 64, height: int = 64) -> Inputs:
    """The SPEC §9 settings of frame k (t = 1.25 + k/60)."""
    return Inputs(width=width, height=height, time=1.25 + frame / 60, delta_time=1 / 60,
                  button=(1.0, 0.0, 1.0, 0.0), axis=(0.25, -0.5, 0.75, 0.0),
                  camera=reference_camera(), video=reference_video())


@dataclass
class Render:
    image: np.ndarray  # float32 [height][width][4]
    executed: np.ndarray  # uint32 [height][width]: instructions executed per pixel
    jumps: np.ndarray  # uint32 [height][width]: jumps taken per pixel


def optimized_breaks(o0: Render, o1: Render) -> tuple[int, int]:
    """The contract of docs/spec.md §10 between a -O0 and a -O1 render of one frame: how
    many pixels took more jumps at -O1, and how many of those that finished within the jump
    budget at -O0 differ in some lane's bits (both 0 when it holds)."""
    more_jumps = int((o1.jumps > o0.jumps).sum())
    done = o0.jumps <= registry.LIMITS.jumps
    same = (o0.image.view(np.uint32) == o1.image.view(np.uint32)).all(axis=2)
    return more_jumps, int((~same & done).sum())


def audiolink_texture(seed: int = 7) -> np.ndarray:
    """A 128x64 AudioLink-like texture: amplitudes in [0, 1), as AudioLink writes them, and
    integer texels in the rows the uint decoders read (GENERALVU row 22, chronotensity 28).

    Large steps between neighbouring texels would amplify the last-bit differences of
    transcendental functions (atan in scene_audiolink) through AudioLinkLerp."""
    rng = np.random.default_rng(seed)
    tex = rng.random((64, 128, 4), dtype=np.float32)
    for row in (22, 28):
        tex[row] = rng.integers(0, 1024, (128, 4)).astype(np.float32)
    return tex


_ZERO_TEXTURE = np.zeros((1, 1, 4), np.float32)  # an unbound sampler reads zeros
AUDIOLINK_INCLUDE_ROOT = SUPPORT_DIR / "fake_audiolink"
#: the VM's samplers as psl_harness.slang / unity_stub.slang name them, and their Inputs field
SAMPLERS = (("_SelfTexture2D", "self_texture"), ("_Camera", "camera"), ("_Video", "video"),
            ("psl_audiolink", "audiolink"))


def make_buffer(device, spy, data: np.ndarray, struct_size: int, writable: bool = False):
    usage = spy.BufferUsage.unordered_access if writable else spy.BufferUsage.shader_resource
    return device.create_buffer(element_count=max(1, len(data)), struct_size=struct_size,
                                usage=usage, data=data)


def texture_vars(inputs: Inputs, audiolink: bool) -> tuple[dict, np.ndarray]:
    """The sampler descriptors and the one texel array they index (unbound: one zero)."""
    samplers, chunks, offset = {}, [], 0
    for name, field in SAMPLERS if audiolink else SAMPLERS[:-1]:
        tex = getattr(inputs, field)
        tex = _ZERO_TEXTURE if tex is None else np.asarray(tex, np.float32)
        samplers[name] = {"offset": offset, "width": tex.shape[1], "height": tex.shape[0]}
        chunks.append(tex.reshape(-1, 4))
        offset += tex.shape[0] * tex.shape[1]
    return samplers, np.concatenate(chunks)


def input_vars(spy, inputs: Inputs) -> dict:
    """The VM shader's uniforms (Unity's names) for one frame."""
    return {
        "_Time": spy.float4(*inputs.time4().ravel().tolist()),
        "unity_DeltaTime": spy.float4(*inputs.deltatime4().ravel().tolist()),
        "_CustomRenderTextureWidth": float(inputs.width),
        "_CustomRenderTextureHeight": float(inputs.height),
        "_IsAVProInput": 1.0 if inputs.is_avpro else 0.0,
        "_InputButton": spy.float4(*inputs.button4().ravel().tolist()),
        "_InputAxis": spy.float4(*inputs.axis4().ravel().tolist()),
        registry.SLIDERS.uniform: [float(x) for x in inputs.slider_values()],
    }


class SlangVM:
    """The generated VM.cginc in `cginc_dir`, built for the CPU once.

    With `audiolink=True` the build defines AUDIOLINK and resolves AudioLink's include to
    the software stand-in under fake_audiolink/, which reads `Inputs.audiolink`.

    The program reaches the VM as the program texture (`render` takes slots and uploads
    `bytecode.to_texture` of them, `render_texture` takes the texels), which the VM reads
    with `_ProgramTex.Load` (a buffer stands in for the texture: see psl_harness.slang).
    """

    def __init__(self, cginc_dir: Path, cache_dir: Path | None = None,
                 audiolink: bool = False, device: str = "cpu") -> None:
        import slangpy as spy

        self._spy = spy
        self.audiolink = audiolink
        start = time.perf_counter()
        include_paths = [str(SUPPORT_DIR), str(cginc_dir)]
        defines = {}
        if audiolink:
            include_paths.append(str(AUDIOLINK_INCLUDE_ROOT))
            defines["AUDIOLINK"] = "1"
        options = {
            "include_paths": include_paths,
            "optimization": spy.SlangOptimizationLevel.maximal,
            "defines": defines,
        }
        kwargs = {}
        if cache_dir is not None:
            cache_dir.mkdir(parents=True, exist_ok=True)
            kwargs["shader_cache_path"] = str(cache_dir)
        # `device`: a slangpy DeviceType name (bench/bench_vm_gpu.py: cuda, vulkan, …)
        self.device = spy.Device(type=getattr(spy.DeviceType, device), compiler_options=options,
                                 enable_hot_reload=False, **kwargs)
        program = self.device.load_program(ENTRY_MODULE, [ENTRY_POINT])
        self.kernel = self.device.create_compute_kernel(program)
        # The C++ is compiled lazily: a 1-pixel dispatch makes the build part of setup.
        self.render(np.zeros((2, 4), np.float32), Inputs(width=1, height=1))
        self.build_seconds = time.perf_counter() - start

    def _buffer(self, data: np.ndarray, struct_size: int, writable: bool = False):
        return make_buffer(self.device, self._spy, data, struct_size, writable)

    def render(self, slots: np.ndarray, inputs: Inputs, sentinel: int = 0) -> Render:
        """Evaluate runVM for every pixel of an inputs.width x inputs.height grid."""
        return self.render_texture(to_texture(slots), inputs, sentinel)

    def render_texture(self, program: np.ndarray, inputs: Inputs, sentinel: int = 0) -> Render:
        """runVM for every pixel, the program given as the texture's texels [h][w][4]."""
        bound = self.bind(program, inputs, sentinel)
        self.dispatch(bound)
        return self.read(bound)

    def bind(self, program: np.ndarray, inputs: Inputs, sentinel: int = 0) -> dict:
        """The buffers and uniforms of one frame, uploaded once (bench/bench_vm_gpu.py
        dispatches them again and again)."""
        spy = self._spy
        w, h = inputs.width, inputs.height
        samplers, texels = texture_vars(inputs, self.audiolink)
        program = np.asarray(program, np.float32)
        samplers["_ProgramTex"] = {"offset": len(texels), "width": program.shape[1],
                                   "height": program.shape[0]}
        texels = np.concatenate([texels, program.reshape(-1, 4)])
        return {
            "psl_texels": self._buffer(texels, 16),
            "psl_out": self._buffer(np.zeros((w * h, 4), np.float32), 16, writable=True),
            "psl_stats": self._buffer(np.zeros((w * h, 2), np.uint32), 8, writable=True),
            "psl_width": w,
            "psl_height": h,
            **input_vars(spy, inputs),
            "_Sentinel": spy.uint4(sentinel, 0, 0, 0),
            **samplers,
        }

    def dispatch(self, bound: dict, **kwargs) -> None:
        """runVM on every pixel of a bound frame (kwargs: slangpy's, e.g. a query pool)."""
        self.kernel.dispatch([bound["psl_width"] * bound["psl_height"], 1, 1], vars=bound,
                             **kwargs)

    def read(self, bound: dict) -> Render:
        """The image and the per-pixel counters a dispatch of `bound` wrote."""
        w, h = bound["psl_width"], bound["psl_height"]
        image = bound["psl_out"].to_numpy().view(np.float32).reshape(h, w, 4).copy()
        st = bound["psl_stats"].to_numpy().view(np.uint32).reshape(h, w, 2)
        return Render(image, st[..., 0].copy(), st[..., 1].copy())

    def render_frames(self, slots: np.ndarray, frames: list[Inputs]) -> list[Render]:
        """Several frames, each frame's output the next frame's self texture."""
        renders: list[Render] = []
        previous = frames[0].self_texture
        for inputs in frames:
            r = self.render(slots, replace(inputs, self_texture=previous))
            renders.append(r)
            previous = r.image
        return renders
