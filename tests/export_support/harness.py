"""Run exported HLSL on the CPU through slangpy, many programs per build.

Each program is exported as its own function (psl_p0, psl_p1, ...) into one Slang module
with a `switch` on `psl_which`, so one C++ build serves a whole batch. Texture sampling
and Unity's inputs come from tests/hlsl_support (unity_stub.slang, fake AudioLink), the
same stand-ins the VM shader is tested with.

With trace=True every computed value goes through psl_trace, which flags the pixel when a
lane is NaN (NaN made by arithmetic, where the VM may change a value's width at run time),
and psl_trace_exact flags the pixels the typed code handed to the exact path
(psl/export/exact.py, docs/export.md).
"""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from psl.export import hlsl
from psl.export.ir import Program
from psl.export.text import Options
from psl.vm.inputs import Inputs
from tests.hlsl_support.harness import (
    AUDIOLINK_INCLUDE_ROOT,
    SUPPORT_DIR,
    input_vars,
    make_buffer,
    texture_vars,
)

CACHE_DIR = Path(tempfile.gettempdir()) / "psl-export-slang-cache"

_HEAD = """// Test module: exported PSL programs behind one entry point.
#define AUDIOLINK 1
#include "unity_stub.slang"
static bool psl_nan_seen;
static bool psl_exact_taken;
void psl_trace(float4 v)
{
    uint4 bits = asuint(v) & 0x7FFFFFFFu;
    if (any(bits > 0x7F800000u)) psl_nan_seen = true;
}
void psl_trace_exact()
{
    psl_exact_taken = true;
}
"""

_TAIL = """
RWStructuredBuffer<float4> psl_out;
RWStructuredBuffer<uint> psl_flags;
uniform uint psl_width;
uniform uint psl_height;
uniform uint psl_which;

[shader("compute")]
[numthreads(64, 1, 1)]
void psl_eval(uint3 tid: SV_DispatchThreadID)
{
    uint index = tid.x;
    if (index >= psl_width * psl_height) return;
    uint x = index % psl_width;
    uint y = index / psl_width;
    float2 uv = float2(((float)x + 0.5) / (float)psl_width, ((float)y + 0.5) / (float)psl_height);
    psl_nan_seen = false;
    psl_exact_taken = false;
    float4 c = float4(0.0, 0.0, 0.0, 0.0);
    switch (psl_which)
    {
%CASES%
    default: break;
    }
    psl_out[index] = c;
    psl_flags[index] = (psl_nan_seen ? 1u : 0u) | (psl_exact_taken ? 2u : 0u);
}
"""


@dataclass
class Output:
    image: np.ndarray  # float32 [h][w][4]
    nan: np.ndarray  # bool [h][w]: a computed value held NaN (trace builds only)
    exact: np.ndarray  # bool [h][w]: the pixel ran on the exact path (trace builds only)


class ExportRunner:
    """Several exported programs built into one Slang CPU kernel."""

    def __init__(self, programs: list[Program], options: Options | None = None,
                 trace: bool = True, optimize: str = "maximal") -> None:
        import slangpy as spy

        self._spy = spy
        base = options or Options(exact=True)  # the tests check every pixel
        parts = [_HEAD]
        cases = []
        for i, p in enumerate(programs):
            opts = replace(base, name=f"psl_p{i}", trace=trace)
            parts.append(hlsl.export(p, opts, f"program {i}"))
            cases.append(f"    case {i}u: c = psl_p{i}(uv); break;")
        text = "\n".join(parts) + _TAIL.replace("%CASES%", "\n".join(cases))
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        out = Path(tempfile.gettempdir()) / "psl-export-modules"
        out.mkdir(parents=True, exist_ok=True)
        module = out / f"export_{digest}.slang"
        module.write_text(text)
        self.source = text
        options_ = {
            "include_paths": [str(SUPPORT_DIR), str(AUDIOLINK_INCLUDE_ROOT), str(out)],
            "optimization": getattr(spy.SlangOptimizationLevel, optimize),
        }
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        self.device = spy.Device(type=spy.DeviceType.cpu, compiler_options=options_,
                                 enable_hot_reload=False, shader_cache_path=str(CACHE_DIR))
        program = self.device.load_program(module.name, ["psl_eval"])
        self.kernel = self.device.create_compute_kernel(program)

    def _buffer(self, data: np.ndarray, struct_size: int, writable: bool = False):
        return make_buffer(self.device, self._spy, data, struct_size, writable)

    def render(self, which: int, inputs: Inputs, uniforms: dict[str, float] | None = None
               ) -> Output:
        """`uniforms`: values of the exports' own globals (their sliders, by name)."""
        w, h = inputs.width, inputs.height
        samplers, texels = texture_vars(inputs, audiolink=True)
        out_buf = self._buffer(np.zeros((w * h, 4), np.float32), 16, writable=True)
        flags = self._buffer(np.zeros(w * h, np.uint32), 4, writable=True)
        self.kernel.dispatch([w * h, 1, 1], vars={
            "psl_texels": self._buffer(texels, 16),
            "psl_out": out_buf,
            "psl_flags": flags,
            "psl_width": w,
            "psl_height": h,
            "psl_which": which,
            **input_vars(self._spy, inputs),
            **samplers,
            **(uniforms or {}),
        })
        image = out_buf.to_numpy().view(np.float32).reshape(h, w, 4).copy()
        bits = flags.to_numpy().view(np.uint32).reshape(h, w)
        return Output(image, (bits & 1) != 0, (bits & 2) != 0)

    def render_frames(self, which: int, frames: list[Inputs],
                      uniforms: dict[str, float] | None = None) -> list[Output]:
        """Each frame's output is the next one's self texture, as in the VM tests."""
        outs: list[Output] = []
        previous = frames[0].self_texture
        for inputs in frames:
            o = self.render(which, replace(inputs, self_texture=previous), uniforms)
            outs.append(o)
            previous = o.image
        return outs
