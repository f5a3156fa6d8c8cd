"""`psl check` start-up on pong (issue 38): whole-process wall time with Lark's grammar
analysis cached in the user's cache folder (psl.syntax.parser._cache_file) against without
it (XDG_CACHE_HOME pointing where no folder can be made), median of --runs runs each,
alternating. Writes bench/results/startup.md.

    PYTHONPATH=. python bench/bench_startup.py --runs 15
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PONG = ROOT.parent / "shared" / "corpus" / "scene_pong_by_fuopy.psl"


def once(cache_home: str) -> float:
    env = {**os.environ, "XDG_CACHE_HOME": cache_home, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "psl.cli", "check", str(PONG)], env=env,
                   capture_output=True, check=False)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as home:
        once(home)  # fills the cache
        cached, uncached = [], []
        for _ in range(args.runs):
            cached.append(once(home))
            uncached.append(once("/proc/no-cache-here"))
    c, u = statistics.median(cached), statistics.median(uncached)
    text = (f"# `psl check` start-up on pong (bench/bench_startup.py)\n\n"
            f"Whole process, median of {args.runs} alternating runs on this machine: "
            f"**{c:.3f} s** with the grammar analysis cached, **{u:.3f} s** building it "
            f"(before this change, every run): {c / u:.2f}x.\n")
    (ROOT / "bench" / "results" / "startup.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
