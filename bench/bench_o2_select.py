"""How the fused instructions appended after the first 48 were chosen (issue 41; not a
test): a greedy search over the -O1 profiles of bench/bench_sequences.py (its cache), which
adds, one at a time, the pattern that lowers the corpus geomean of stack+register memory
operations per pixel (docs/spec.md §11.4) the most, with the fuse pass's own longest-match
plan (psl/optimize/fuse.py) deciding what each table fuses.

    python bench/bench_o2_select.py [--rounds 12] [--candidates 400]

Candidates: every run of 2 to FUSED_MAX_STEPS step tokens inside one basic block that the
corpus executes at -O1 (a jump only last), the most executed first. Prints each round's pick
and the figures (corpus memory, corpus dispatched, generated memory and dispatched).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from psl import optimize as opt  # noqa: E402
from psl.optimize import fuse  # noqa: E402
from psl.optimize.code import leaders  # noqa: E402
from psl.registry import FUSED_BY_TOKENS, FUSED_MAX_STEPS, Fused  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from bench_sequences import collect, evaluate, geomean  # noqa: E402


def candidates(entries: dict) -> Counter:
    """Token runs the corpus executes at -O1, weighted by executions times length."""
    out: Counter = Counter()
    for entry in entries.values():
        prog, counts, _ = entry[1]
        code = opt.to_code(prog)
        if code is None:
            continue
        lead = leaders(code)
        toks: list[tuple[int, str]] = []
        k = 0
        while k < len(code):
            t, size = fuse.token(code, k, lead)
            toks.append((k, t))
            k += size
        for i, (k, _) in enumerate(toks):
            text = ""
            for j in range(i, min(i + FUSED_MAX_STEPS, len(toks))):
                kj, t = toks[j]
                if not t or (j > i and lead[kj]):
                    break
                text += t
                if len(text) >= 2:
                    out[text] += int(counts[k]) * len(text)
                if t in "JG":
                    break
    return out


def figures(data: dict, table: dict) -> tuple[float, float, float, float]:
    c = evaluate(data["corpus"], table)
    g = evaluate(data["generated"], table)
    return (geomean([v[1] for v in c.values()]), geomean([v[0] for v in c.values()]),
            geomean([v[1] for v in g.values()]), geomean([v[0] for v in g.values()]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--candidates", type=int, default=400)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--longest", type=int, default=FUSED_MAX_STEPS,
                    help="the longest pattern tried (shorter ones fit more programs)")
    ap.add_argument("--joint", action="store_true",
                    help="candidates from the corpus and the generated programs, scored by "
                         "the sum of both memory geomeans (less fitted to the corpus)")
    args = ap.parse_args()
    data = collect(args.count)
    table: dict[str, Fused] = dict(FUSED_BY_TOKENS)
    weights = candidates(data["corpus"])
    if args.joint:  # each set's weights as shares, so that neither set's size decides
        gen = candidates(data["generated"])
        ct, gt = sum(weights.values()), sum(gen.values())
        weights = Counter({t: weights[t] / ct + gen[t] / gt for t in set(weights) | set(gen)})
    pool = [t for t, _ in weights.most_common() if t not in table and len(t) <= args.longest]
    pool = pool[: args.candidates]
    print("registry:", " ".join(f"{x:.4f}" for x in figures(data, table)), flush=True)
    for r in range(args.rounds):
        best = None
        for text in pool:
            if text in table:
                continue
            trial = dict(table)
            trial[text] = Fused(0, text)
            c = evaluate(data["corpus"], trial)
            m = geomean([v[1] for v in c.values()])
            if args.joint:
                g = evaluate(data["generated"], trial)
                m += geomean([v[1] for v in g.values()])
            if best is None or m < best[0]:
                best = (m, text)
        assert best is not None
        table[best[1]] = Fused(0, best[1])
        print(f"round {r}: +{best[1]}", " ".join(f"{x:.4f}" for x in figures(data, table)),
              flush=True)


if __name__ == "__main__":
    main()
