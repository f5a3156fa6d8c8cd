"""Benchmark of `psl check` on deeply nested loops (issue 21; not a test): whole-process wall
time of the CLI, and in process the width inference's counted work against its budget.

    PYTHONPATH=. python bench/bench_nests.py              # depths 16, 32, 60; 5 runs each
    PYTHONPATH=. python bench/bench_nests.py --runs 9 --depths 8 16 32 60

Programs: a function holding `depth` nested loops, called once (the issue's shape: 62
`while (a)` loops hung every command before the budget), for three kinds: `while (a)`,
`for (let iK = 0; iK < 2; iK++)`, and a mix of while/for/if. Also `psl check` of `uv()`:
the start-up (interpreter, imports, parser tables) in every whole-process figure.

Writes bench/results/nests.md and bench/results/nests.json. Times are medians (and
minimum) of --runs runs; the machine's load moves them, the counted work does not.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT))

from psl.compiler import compile_source  # noqa: E402
from tests.progen.nests import nest  # noqa: E402


def wall(args: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU (user + system) seconds of each run of the CLI."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    times, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "psl.cli", *args], env=env, cwd=ROOT,
                       capture_output=True, check=False, timeout=600)
        times.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return times, cpus


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--depths", type=int, nargs="+", default=[16, 32, 60])
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        trivial = Path(tmp) / "trivial.psl"
        trivial.write_text("uv()\n", encoding="utf-8")
        base, base_cpu = wall(["check", str(trivial)], args.runs)
        for kind in ("while", "for", "mixed"):
            for depth in args.depths:
                source = nest(kind, depth)
                path = Path(tmp) / f"{kind}{depth}.psl"
                path.write_text(source, encoding="utf-8")
                result = compile_source(source)
                inference = result.inference
                assert inference is not None and inference.counting is not None
                flow = inference.flow
                times, cpus = wall(["check", str(path)], args.runs)
                rows.append({
                    "kind": kind, "depth": depth, "chars": len(source),
                    "instructions": len(flow.code), "work": flow.work,
                    "budget": flow.budget, "counting_work": inference.counting.work,
                    "counting_budget": inference.counting.limit,
                    "codes": sorted({d.code for d in result.diagnostics}),
                    "median_s": round(statistics.median(times), 3),
                    "min_s": round(min(times), 3),
                    "cpu_median_s": round(statistics.median(cpus), 3)})
                print(f"{kind:6s} {depth:3d}: {rows[-1]['median_s']:.3f} s "
                      f"(min {rows[-1]['min_s']:.3f}, CPU {rows[-1]['cpu_median_s']:.3f}), "
                      f"work {flow.work} of {flow.budget}")
    doc = {"python": platform.python_version(), "machine": platform.machine(),
           "cpus": os.cpu_count(), "load_1min": os.getloadavg()[0], "runs": args.runs,
           "trivial_median_s": round(statistics.median(base), 3),
           "trivial_min_s": round(min(base), 3),
           "trivial_cpu_median_s": round(statistics.median(base_cpu), 3), "rows": rows}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "nests.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    lines = ["# `psl check` on nested loops (bench/bench_nests.py)", "",
             f"Python {doc['python']}, {doc['cpus']} CPUs, load {doc['load_1min']:.1f} "
             f"(1 min) when run; {args.runs} runs each. Whole process: "
             f"`python -m psl.cli check FILE`, wall clock (median, min) and CPU seconds "
             f"(user + system, median; the load moves it less). `psl check` of `uv()` "
             f"(start-up, imports, the parser's tables): {doc['trivial_median_s']:.3f} s "
             f"(min {doc['trivial_min_s']:.3f}, CPU {doc['trivial_cpu_median_s']:.3f}).", "",
             "| kind | depth | instructions | work (budget) | counting (budget) | diagnostics "
             "| median s | min s | CPU s |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['kind']} | {r['depth']} | {r['instructions']} | {r['work']} "
                     f"({r['budget']}) | {r['counting_work']} ({r['counting_budget']}) | "
                     f"{', '.join(r['codes']) or '-'} | {r['median_s']:.3f} | "
                     f"{r['min_s']:.3f} | {r['cpu_median_s']:.3f} |")
    (RESULTS / "nests.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS / 'nests.md'}")


if __name__ == "__main__":
    main()
