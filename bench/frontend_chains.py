"""Front-end cost of long chains at the source limit (LIMITS.source_chars): unary prefixes,
binary operators, swizzles, else-if, nested parentheses and statement lists.

Usage (from the checkout's root):
  python3 bench/frontend_chains.py               in process (psl.check_source), best of 3
  python3 bench/frontend_chains.py --cli         also `python3 -m psl.cli check FILE`
  python3 bench/frontend_chains.py --write DIR   write DIR/NAME.psl and exit
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from psl.registry import LIMITS  # noqa: E402


def _fill(head: str, unit: str, tail: str, limit: int = LIMITS.source_chars) -> str:
    n = (limit - len(head) - len(tail)) // len(unit)
    return head + unit * n + tail


def programs(limit: int = LIMITS.source_chars) -> dict[str, str]:
    """Name -> program of at most `limit` characters."""
    nest = LIMITS.nesting
    return {
        "unary_bang": _fill("", "!", "1", limit),
        "unary_alternating": "".join("-+!"[i % 3] for i in range(limit - 1)) + "1",
        "unary_spaced": _fill("", "- ", "1", limit),
        "sum_chain": "1" + _fill("", "+1", "", limit - 1),
        "mixed_chain": "1" + _fill("", "*1+1<1", "", limit - 1),
        "swizzle_chain": _fill("x", ".x", "", limit),
        "else_if_chain": _fill("let a = 1;\nif (a) { 1 }", " else if (a) { 1 }",
                               " else { 2 }", limit),
        "nested_parens": _fill("", "(" * nest + "1" + ")" * nest + "+", "1", limit),
        "statements": _fill("", "a=1;", "a", limit),
    }


def in_process(text: str, repeat: int = 3) -> float:
    from psl import check_source

    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        check_source(text)
        best = min(best, time.perf_counter() - t0)
    return best


def cli(path: Path, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "psl.cli", "check", str(path)], cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", action="store_true", help="also time `python3 -m psl.cli check`")
    ap.add_argument("--write", metavar="DIR", help="write the programs as DIR/NAME.psl")
    ap.add_argument("--only", nargs="*", help="names to run")
    args = ap.parse_args()
    progs = programs()
    if args.only:
        progs = {k: v for k, v in progs.items() if k in args.only}
    if args.write:
        out = Path(args.write)
        out.mkdir(parents=True, exist_ok=True)
        for name, text in progs.items():
            (out / f"{name}.psl").write_text(text, encoding="utf-8", newline="")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'program':20} {'chars':>6} {'in-process s':>13}" + ("  cli s" if args.cli else ""))
        for name, text in progs.items():
            assert len(text) <= LIMITS.source_chars, name
            line = f"{name:20} {len(text):6} {in_process(text):13.3f}"
            if args.cli:
                path = Path(tmp) / f"{name}.psl"
                path.write_text(text, encoding="utf-8", newline="")
                line += f"  {cli(path):5.3f}"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
