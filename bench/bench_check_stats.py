"""Benchmark of `psl check --stats` in process (not a test): median of N runs per program.

    PYTHONPATH=. python bench/bench_check_stats.py            # pong
    PYTHONPATH=. python bench/bench_check_stats.py --all      # every corpus program
    PYTHONPATH=. python bench/bench_check_stats.py --profile  # plus a cProfile summary

Columns: `check` = psl.compiler.check_source (what `psl check` does anyway), `stats` =
psl.api.program_stats on the compiled program (the static pass and the sample pixels run
by the reference VM), `total` = both, as `psl check --stats` runs them; medians, and the
minimum (the better figure on a busy machine).
Goal (issue): pong's `psl check --stats` well under 100 ms in process.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import time
from pathlib import Path

from psl.api import program_stats
from psl.compiler import check_source

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"
PONG = "scene_pong_by_fuopy"


def measure(source: str, runs: int) -> tuple[list[float], list[float], list[float]]:
    program_stats(check_source(source).unwrap())  # warm up (imports, caches)
    checks, stats, totals = [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        result = check_source(source)
        t1 = time.perf_counter()
        program_stats(result.unwrap())
        t2 = time.perf_counter()
        checks.append(t1 - t0)
        stats.append(t2 - t1)
        totals.append(t2 - t0)
    return checks, stats, totals


def _ms(times: list[float]) -> str:
    return f"{1e3 * statistics.median(times):6.1f} ms (min {1e3 * min(times):5.1f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--all", action="store_true", help="every corpus program, not only pong")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    names = sorted(p.stem for p in CORPUS.glob("*.psl")) if args.all else [PONG]
    for name in names:
        source = (CORPUS / f"{name}.psl").read_text(encoding="utf-8")
        check, stats, total = measure(source, args.runs)
        print(f"{name:28s} check {_ms(check)}  stats {_ms(stats)}  total {_ms(total)}")
        if args.profile:
            program = check_source(source).unwrap()
            prof = cProfile.Profile()
            prof.enable()
            program_stats(program)
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(12)
            print(out.getvalue())


if __name__ == "__main__":
    main()
