"""Evaluate Metal exports on the CPU: g++ builds them, with the stand-in <metal_stdlib>, into
one program with a driver that calls each export's fragment function for every pixel,
frame after frame (the previous frame is texture(0), as a Metal host would bind it).

Images cross in Metal's orientation (row 0 at the top); `render` takes and returns the
VM's (row 0 = the smallest v), so its output compares with psl.vm directly.
"""

from __future__ import annotations

import hashlib
import shutil
import struct
import subprocess
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from psl.export.sliders import Parameter
from psl.registry import SLIDERS
from psl.vm.inputs import Inputs
from tests.metal_support import SUPPORT_DIR, include_dir

CACHE_DIR = Path(tempfile.gettempdir()) / "psl-export-metal-cache"
#: how g++ compiles MSL as C++ (-O0: the exports are large, the images small): float32
#: literals (MSL's 0.5 is a float), no contraction of a * b + c into an fma (the VM rounds
#: each), Metal's attributes ignored
CXXFLAGS = ("-std=c++14", "-O0", "-fsingle-precision-constant", "-ffp-contract=off",
            "-fno-strict-aliasing", "-Wno-attributes")

_DRIVER = """
#include <cstdio>
#include <cstdint>
#include <vector>

static bool psl_read_all(FILE* f, void* p, size_t n) { return fread(p, 1, n, f) == n; }

static texture2d<float> psl_image(FILE* f, std::vector<float>& store)
{
    int32_t wh[2];
    psl_read_all(f, wh, sizeof wh);
    store.resize(size_t(wh[0]) * wh[1] * 4);
    psl_read_all(f, store.data(), store.size() * sizeof(float));
    texture2d<float> t;
    if (wh[0] > 0 && wh[1] > 0) { t.texels = store.data(); t.width = wh[0]; t.height = wh[1]; }
    return t;
}

static float4 psl_pixel(int which, float4 pos, const psl_inputs& in, const float* sl,
                        texture2d<float> self_t, texture2d<float> cam, texture2d<float> vid)
{
    switch (which)
    {
%CASES%
    default: return float4(0.0, 0.0, 0.0, 0.0);
    }
}

int main(int argc, char** argv)
{
    if (argc != 3) return 2;
    FILE* in = fopen(argv[1], "rb");
    if (!in) return 3;
    int32_t head[4];  // which, width, height, frames
    psl_read_all(in, head, sizeof head);
    int w = head[1], h = head[2];
    std::vector<float> cam_store, vid_store;
    texture2d<float> cam = psl_image(in, cam_store);
    texture2d<float> vid = psl_image(in, vid_store);
    std::vector<float> prev(size_t(w) * h * 4, 0.0f), next(prev.size());
    for (int frame = 0; frame < head[3]; frame++)
    {
        psl_inputs u;
        float f[17 + %SLIDERS%];
        psl_read_all(in, f, sizeof f);
        u.time = float4(f[0], f[1], f[2], f[3]);
        u.delta_time = float4(f[4], f[5], f[6], f[7]);
        u.button = float4(f[8], f[9], f[10], f[11]);
        u.axis = float4(f[12], f[13], f[14], f[15]);
        u.resolution = float2(float(w), float(h));
        u.is_avpro = f[16];
        u.sentinel = 0u;
        const float* sl = f + 17;  // slider k's value (a program's buffer(1) holds its named ones)
        texture2d<float> self_t;
        if (frame > 0) { self_t.texels = prev.data(); self_t.width = w; self_t.height = h; }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
            {
                float4 c = psl_pixel(head[0], float4(x + 0.5f, y + 0.5f, 0.0f, 1.0f), u, sl,
                                     self_t, cam, vid);
                for (int k = 0; k < 4; k++) next[(size_t(y) * w + x) * 4 + k] = c[k];
            }
        prev.swap(next);
    }
    FILE* out = fopen(argv[2], "wb");
    if (!out) return 4;
    fwrite(prev.data(), sizeof(float), prev.size(), out);
    fclose(out);
    return 0;
}
"""


class BuildError(RuntimeError):
    """g++ refused the exports (its messages in the text)."""


def compile_only(text: str, work: Path) -> None:
    """g++ -fsyntax-only of one export; BuildError with g++'s messages when it fails."""
    path = work / "export.metal"
    path.write_text(text)
    cpp = work / "check.cpp"
    cpp.write_text(f'#include "{path}"\n')
    _gxx([*CXXFLAGS, "-fsyntax-only", str(cpp)], work)


def _gxx(args: list[str], work: Path) -> None:
    gxx = shutil.which("g++")
    if gxx is None:
        raise BuildError("g++ is not installed")
    inc = include_dir(work / "include")
    proc = subprocess.run([gxx, f"-I{SUPPORT_DIR}", f"-I{inc}", *args], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        raise BuildError(proc.stderr[-6000:])


@dataclass
class MetalRunner:
    """Exports (each with its own --name, `names`) built into one executable."""

    names: list[str]
    texts: list[str]
    #: per export, the indices of its named sliders, in its sliders struct's order
    sliders: list[tuple[Parameter, ...]]
    exe: Path | None = None

    def build(self) -> Path:
        if self.exe is not None:
            return self.exe
        lines = []
        for k, (n, params) in enumerate(zip(self.names, self.sliders, strict=True)):
            if not params:
                lines.append(f"    case {k}: return {n}_fragment(pos, in, self_t, cam, vid);")
                continue
            fill = " ".join(f"s.{p.name} = sl[{p.index}];" for p in params)
            lines.append(f"    case {k}: {{ {n}_sliders s; {fill} "
                         f"return {n}_fragment(pos, in, s, self_t, cam, vid); }}")
        driver = _DRIVER.replace("%CASES%", "\n".join(lines))
        driver = driver.replace("%SLIDERS%", str(SLIDERS.count))
        source = "\n".join(["#include <metal_stdlib>", "using namespace metal;", *self.texts,
                            driver])
        key = hashlib.sha256((source + " ".join(CXXFLAGS)).encode()).hexdigest()[:20]
        work = CACHE_DIR / key
        exe = work / "run"
        if not exe.exists():
            work.mkdir(parents=True, exist_ok=True)
            (work / "all.cpp").write_text(source)
            _gxx([*CXXFLAGS, "-o", str(work / "run.tmp"), str(work / "all.cpp")], work)
            (work / "run.tmp").replace(exe)
        self.exe = exe
        return exe

    def render(self, which: int, frames: list[Inputs]) -> np.ndarray:
        """The last frame's colours, float32 [height][width][4], row 0 = the smallest v."""
        exe = self.build()
        first = frames[0]
        w, h = first.width, first.height
        with tempfile.TemporaryDirectory() as tmp:
            src, dst = Path(tmp) / "in.bin", Path(tmp) / "out.bin"
            parts = [struct.pack("<4i", which, w, h, len(frames))]
            for image in (first.camera, first.video):
                parts.append(_image(image))
            for f in frames:
                values = [*f.time4()[:, 0], *f.deltatime4()[:, 0], *f.button4()[:, 0],
                          *f.axis4()[:, 0], 1.0 if f.is_avpro else 0.0, *f.slider_values()]
                parts.append(np.asarray(values, np.float32).tobytes())
            src.write_bytes(b"".join(parts))
            proc = subprocess.run([str(exe), str(src), str(dst)], capture_output=True,
                                  timeout=600)
            if proc.returncode != 0:
                raise RuntimeError(f"the Metal driver failed ({proc.returncode})")
            out = np.frombuffer(dst.read_bytes(), np.float32).reshape(h, w, 4)
        return out[::-1].copy()  # Metal's rows (top first) as the VM's


def host_sliders(inputs: Inputs, params: tuple[Parameter, ...]) -> Inputs:
    """`inputs` as a host running this program sets its sliders: the named ones keep
    their values, every other reads 0 (docs/spec.md §8.8; the exports read no other)."""
    named = {p.index for p in params}
    values = tuple(v if k in named else 0.0 for k, v in enumerate(inputs.sliders))
    return replace(inputs, sliders=values)


def _image(tex: np.ndarray | None) -> bytes:
    """An image for the driver: its size, then its texels in Metal's row order."""
    if tex is None:
        return struct.pack("<2i", 0, 0)
    h, w = tex.shape[0], tex.shape[1]
    flipped = np.ascontiguousarray(np.asarray(tex, np.float32)[::-1])
    return struct.pack("<2i", w, h) + flipped.tobytes()
