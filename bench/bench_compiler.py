"""Benchmark the reference compiler on the corpus's largest program.

    python bench/bench_compiler.py [FILE]

Prints the in-process `psl check` time after warm-up (median of 20) and the whole-process
`psl compile` time (median of 5), plus a cProfile summary of one check.
"""

from __future__ import annotations

import cProfile
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from psl.compiler import check_source, compile_source

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "tests" / "corpus" / "scene_pong_by_fuopy.psl"


def timed(fn, n: int) -> float:
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    source = path.read_text(encoding="utf-8")
    for _ in range(3):
        check_source(source)  # warm-up: grammar build, imports
    check = timed(lambda: check_source(source), 20)
    comp = timed(lambda: compile_source(source), 20)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.bin"
        cmd = [sys.executable, "-m", "psl.cli", "compile", str(path), "--pad", "-o", str(out)]
        whole = timed(lambda: subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL), 5)
    print(f"program: {path.name} ({len(source)} chars)")
    print(f"in-process check, after warm-up (median of 20):   {check * 1000:.1f} ms")
    print(f"in-process compile, after warm-up (median of 20): {comp * 1000:.1f} ms")
    print(f"whole-process `psl compile --pad` (median of 5):  {whole * 1000:.0f} ms")
    prof = cProfile.Profile()
    prof.enable()
    check_source(source)
    prof.disable()
    pstats.Stats(prof).sort_stats("cumulative").print_stats(12)


if __name__ == "__main__":
    main()
