"""Benchmark of the reference VM (not a test): median of 5 runs per case.

    python bench/bench_vm.py            # the timings
    python bench/bench_vm.py --profile  # plus a cProfile summary per case

Goals (issue 3, 2-core machine): the raymarcher at 256x256, one frame, <= 1.0 s; pong at
256x256 x 8 frames <= 2.0 s.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import time
from pathlib import Path

from psl.compiler import compile_source
from psl.vm.render import RenderSettings, render

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"
CASES = [  # (program, frames, goal in seconds or None)
    ("standalone_test_raymarcher", 1, 1.0),
    ("scene_pong_by_fuopy", 8, 2.0),
    ("scene_mandelbrot", 1, None),
    ("scene_raymarch", 1, None),
    ("apps_TableTennisPro", 8, None),
]


def case(name: str, frames: int, size: int):
    slots = compile_source((CORPUS / f"{name}.psl").read_text()).unwrap().slots()
    settings = RenderSettings(width=size, height=size, time=1.25, frames=frames,
                              button=(1, 0, 1, 0), axis=(0.25, -0.5, 0.75, 0))
    return lambda: render(slots, settings, keep_frames=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    for name, frames, goal in CASES:
        fn = case(name, frames, args.size)
        fn()  # warm up (imports, caches)
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        med = statistics.median(times)
        verdict = ""
        if goal is not None:
            verdict = f" (goal {goal:.1f} s: {'met' if med <= goal else 'MISSED'})"
        print(f"{name:28s} {args.size}x{args.size} x{frames}: median {med:.3f} s "
              f"(min {min(times):.3f}, max {max(times):.3f}){verdict}")
        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(fn)
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(12)
            print(out.getvalue())


if __name__ == "__main__":
    main()
