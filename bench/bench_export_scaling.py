"""Export time against program size (issue 38: export was quadratic in call sites): a
program of `n` if/else statements each calling a PSL function on both branches, exported to
GLSL (readable, the default), for n up to the instruction limit; wall time of one
build_text, best of --runs. Writes bench/results/export-scaling.md.

    PYTHONPATH=. python bench/bench_export_scaling.py --runs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from psl.compiler import compile_source  # noqa: E402
from psl.export import build_text  # noqa: E402

HEAD = "fun f(a) { if (a > 1) { a = a - 1; } a * 2 + uv().x }\nx = uv().y;\n"
STMT = "if(x>0.5){x=f(x);}else{x=f(x*0.5);}\n"


def program(n: int) -> str:
    return HEAD + STMT * n + "float3(x, 0, 1)\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    rows = []
    for n in (10, 20, 40, 80, 160, 320, 362):
        result = compile_source(program(n))
        assert result.ok and result.program is not None, result.errors[:1]
        size = len(result.program.instructions)
        best = min(_time(result) for _ in range(args.runs))
        rows.append((n, size, best))
        print(n, size, f"{best:.2f} s", flush=True)
    lines = ["# Export time against program size (bench/bench_export_scaling.py)", "",
             "`psl export --target glsl` (in process: build_text) of a program of n if/else "
             "statements, each branch calling a PSL function; best of "
             f"{args.runs} runs on this machine. Linear: the time per 1,000 instructions "
             "stays flat.", "",
             "| n | instructions | seconds | ms per 1,000 instructions |", "|---:|---:|---:|---:|"]
    lines += [f"| {n} | {size:,} | {t:.2f} | {1000 * t / size * 1000:.0f} |"
              for n, size, t in rows]
    (ROOT / "bench" / "results" / "export-scaling.md").write_text("\n".join(lines) + "\n")


def _time(result) -> float:  # noqa: ANN001
    t0 = time.perf_counter()
    build_text(result, "glsl")
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
