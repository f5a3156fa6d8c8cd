"""Peak memory of `psl run` (not a test): a 200-variable program at growing sizes, each in
its own process (VmHWM of that process), with the wall time.

    PYTHONPATH=. python bench/bench_run_memory.py              # 512², 1024², 2048²
    PYTHONPATH=. python bench/bench_run_memory.py --sizes 4096

Writes bench/results/run-memory.md. Goal (issue 22): 2048² under 1 GB; before tiles, a
frame held every register of every pixel (1024²: 3.4 GB, 2048²: MemoryError).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "run-memory.md"
CHILD = """
import sys
from psl.cli import main
try:
    main(sys.argv[1:])
except SystemExit as e:
    if e.code:
        raise
for line in open('/proc/self/status'):
    if line.startswith('VmHWM:'):
        print(int(line.split()[1]))
"""


def program(variables: int = 200) -> str:
    lines = [f"v{i} = uv().xyxy * {i}.5;" for i in range(variables)]
    total = " + ".join(f"v{i}" for i in range(variables))
    return "\n".join(lines) + f"\nreturn ({total}) / 20000;\n"


def measure(size: int, folder: Path) -> tuple[float, float]:
    src = folder / "vars.psl"
    src.write_text(program())
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, "run", str(src), "-o",
                          str(folder / "o.png"), "--size", f"{size}x{size}"],
                         capture_output=True, text=True, env=env, check=True)
    return int(out.stdout.split()[-1]) / 1024, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[512, 1024, 2048])
    args = ap.parse_args()
    rows = ["| size | peak RSS (MB) | wall (s) |", "|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            mb, s = measure(size, Path(tmp))
            rows.append(f"| {size}x{size} | {mb:.0f} | {s:.1f} |")
            print(rows[-1], flush=True)
    RESULTS.write_text("# `psl run`: peak memory of a 200-variable program\n\n"
                       "bench/bench_run_memory.py; one process per size.\n\n"
                       + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
