"""Benchmark of the WebGL2 VM (not a test): frames per second of corpus programs at 256x256
in headless Chromium on SwiftShader (CPU), against one frame of the Python reference VM.

    PYTHONPATH=. python bench/bench_webgl.py                       # raymarch and pong
    PYTHONPATH=. python bench/bench_webgl.py scene_mandelbrot --frames 20

Columns: `webgl fps` = colour frames per second through render.js (each frame waits for
the previous one: a 1-pixel readback) and `webgl s` its seconds per frame; `python s` = one
frame of psl.vm.execute in process (minimum of --repeat runs, the fairer figure on a busy
machine) and `psl run s` = the whole `psl run` process for one frame (interpreter start
included); `webgl/python` = webgl s / python s (above 1: the browser is slower). Needs
chromium and playwright, as tests/test_glsl_vm.py.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from psl.compiler import compile_source  # noqa: E402
from psl.vm import execute  # noqa: E402
from tests.browser_support.browser import BrowserVM, unavailable_reason  # noqa: E402
from tests.hlsl_support.harness import reference_inputs  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"
DEFAULT = ("scene_raymarch", "scene_pong_by_fuopy")


def python_frame(slots, inputs, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        execute(slots, inputs)
        best = min(best, time.perf_counter() - start)
    return best


def psl_run_frame(path: Path, size: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "psl.cli", "run", str(path), "-o",
                        str(Path(tmp) / "out.npy"), "--size", f"{size}x{size}", "--time",
                        "1.25"], check=True, capture_output=True)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*", default=list(DEFAULT))
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--frames", type=int, default=3, help="WebGL frames timed")
    parser.add_argument("--repeat", type=int, default=3, help="Python VM runs (minimum)")
    args = parser.parse_args()
    reason = unavailable_reason()
    if reason:
        sys.exit(reason)
    start = time.perf_counter()
    vm = BrowserVM()
    print(f"browser: {vm.renderer} (start and shader compile {time.perf_counter() - start:.1f} s)")
    print(f"{'program':28} {'size':>7} {'webgl fps':>10} {'webgl s':>8} {'python s':>9} "
          f"{'psl run s':>10} {'webgl/python':>13}")
    try:
        for name in args.programs:
            path = CORPUS / f"{name}.psl"
            slots = compile_source(path.read_text()).unwrap().slots()
            inputs = replace(reference_inputs(0, args.size, args.size))
            got = vm.benchmark(slots, inputs, args.frames)
            py = python_frame(slots, inputs, args.repeat)
            run = psl_run_frame(path, args.size)
            frame = 1 / got["fps"]
            print(f"{name:28} {args.size:>3}x{args.size:<3} {got['fps']:>10.3f} {frame:>8.2f} "
                  f"{py:>9.3f} {run:>10.2f} {frame / py:>13.0f}", flush=True)
    finally:
        vm.close()


if __name__ == "__main__":
    main()
