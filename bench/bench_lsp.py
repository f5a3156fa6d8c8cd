"""Latency of the language server's features in process (not a test): medians of N runs.

    PYTHONPATH=. python bench/bench_lsp.py [--runs 30] [--program scene_pong_by_fuopy]

Rows:
- `diagnostics after an edit`: what `psl lsp` does once a change's debounce (50 ms) has
  passed: tokens, compile with width inference, LSP diagnostics (a fresh text every run, so
  nothing is cached);
- `hover (variable width)`, `hover (builtin call)`: a hover on the already analysed text
  (the usual case: the document was analysed for its diagnostics);
- `hover after an edit`: analysis plus hover, the worst case (hover before diagnostics);
- `completion`, `inlay hints (whole file)`, `formatting` for comparison.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types

from psl.lsp import completion, editing, hover
from psl.lsp.diagnostics import diagnostics
from psl.lsp.document import analyse

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"


def _position(text: str, needle: str, delta: int = 1) -> types.Position:
    at = text.index(needle) + delta
    return types.Position(text.count("\n", 0, at), at - (text.rfind("\n", 0, at) + 1))


def _median_ms(fn: Callable[[int], object], runs: int) -> tuple[float, float]:
    fn(-1)  # warm up (imports, lexer and parser tables)
    times = []
    for k in range(runs):
        t0 = time.perf_counter()
        fn(k)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--program", default="scene_pong_by_fuopy")
    args = parser.parse_args()
    text = (CORPUS / f"{args.program}.psl").read_text(encoding="utf-8")
    uri = "file:///bench.psl"

    def edited(k: int) -> str:
        return text + f"\n// edit {k}\n"  # a new text each run: no cache can answer

    doc = analyse(uri, text)
    var_pos = _position(text, "dt = deltaTime", 0)
    call_pos = _position(text, "self(float2(wallLeft")
    late_pos = _position(text, "circleStep2")
    end = doc.index.position(len(text))
    rows = {
        "diagnostics after an edit": lambda k: diagnostics(analyse(uri, edited(k))),
        "hover (variable width)": lambda k: hover.hover(doc, var_pos),
        "hover (builtin call)": lambda k: hover.hover(doc, call_pos),
        "hover (line 306)": lambda k: hover.hover(doc, late_pos),
        "hover after an edit": lambda k: hover.hover(analyse(uri, edited(k)), var_pos),
        "completion": lambda k: completion.completion(doc, end),
        "inlay hints (whole file)": lambda k: editing.inlay_hints(
            doc, types.Range(types.Position(0, 0), end)),
        "formatting": lambda k: editing.formatting(doc),
    }
    print(f"{args.program}: {len(text)} characters, {text.count(chr(10))} lines, "
          f"median of {args.runs} runs (min)")
    for name, fn in rows.items():
        med, low = _median_ms(fn, args.runs)
        print(f"  {name:28s} {med:8.2f} ms  ({low:.2f})")


if __name__ == "__main__":
    main()
