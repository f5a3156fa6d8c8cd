"""Which instruction sequences the VM executes most at -O1 (issue 41; not a test): the data
the -O2 superinstructions (docs/spec.md §11, registry.FUSED) were chosen from.

For every program, the reference VM counts how many pixels executed each instruction (the
frame of SPEC §9, 64x64, the last of the manifest's frames, for the corpus; 8x8 sample
pixels of one frame for generated programs). A sequence of k instructions inside one basic
block executes as often as its first instruction, so its *dynamic* frequency is that count;
shares are of all executed instructions. The corpus (unity_package/Examples via
tests/corpus) and 1,000 generated programs (tests/progen, mode "vm") are reported apart.
Then each candidate set of fused instructions is applied (psl/optimize/fuse.py's matcher
with that table) to the same profiles: dispatched instructions and stack+register memory
operations per pixel against -O0, geomean over programs.

    python bench/bench_sequences.py [--count 1000]   # writes bench/results/o2-sequences.md

Profiles are cached in $TMPDIR/psl-o2-profiles.pkl (delete it after changing -O1).
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import sys
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from psl import optimize as opt  # noqa: E402
from psl.bytecode import Program, memory_ops, steps_memory_ops  # noqa: E402
from psl.compiler import compile_source  # noqa: E402
from psl.optimize import fuse  # noqa: E402
from psl.optimize.code import CALL, CONDJUMP, PUSHCONST, PUSHVAR, SETVAR, Code, leaders  # noqa: E402
from psl.registry import BINOP_BY_ID, BUILTIN_BY_ID, LIMITS, UNOP_BY_CODE, Op  # noqa: E402
from psl.vm.inputs import Inputs  # noqa: E402
from psl.vm.machine import Frame, decode  # noqa: E402
from tests.progen import generate  # noqa: E402
from tests.vm_support.reference import CORPUS, MANIFEST, reference_settings  # noqa: E402

OUT = ROOT / "bench" / "results" / "o2-sequences.md"
CACHE = Path(os.environ.get("TMPDIR", tempfile.gettempdir())) / "psl-o2-profiles.pkl"
RAYMARCHERS = ("scene_raymarch", "standalone_test_raymarcher")


def profile(program: Program, settings, pixels: int | None) -> tuple[np.ndarray, int]:
    """Per instruction, how many pixels executed it on the profiled frame; and the pixels."""
    slots = program.slots()
    code = decode(slots)
    previous = None
    counts = np.zeros(LIMITS.slots, np.int64)
    for k in range(settings.frames):
        inputs = Inputs(width=settings.width, height=settings.height,
                        time=settings.time + k / settings.fps, delta_time=1.0 / settings.fps,
                        button=settings.button, axis=settings.axis, self_texture=previous,
                        camera=settings.camera, video=settings.video,
                        is_avpro=settings.is_avpro)
        u, v = inputs.uv_grid()
        if pixels is not None:  # an evenly spread sample
            step = len(u) // pixels
            u, v = u[::step][:pixels], v[::step][:pixels]
        frame = Frame(code, inputs, settings.max_jumps, pixels=(u, v))
        last = k == settings.frames - 1
        if last:
            frame.counts = counts
        frame.run()
        if not last:
            img = np.zeros((settings.height * settings.width, 4), np.float32)
            img[:] = frame.out.T
            previous = img.reshape(settings.height, settings.width, 4)
    return counts[0: 2 * len(program.instructions): 2].copy(), len(u)


def collect(count: int) -> dict:
    if CACHE.exists():
        data = pickle.loads(CACHE.read_bytes())
        if data.get("count") == count:
            return data
    data: dict = {"count": count, "corpus": {}, "generated": {}}
    for name, info in sorted(MANIFEST["programs"].items()):
        source = (CORPUS / info["source"]).read_text(encoding="utf-8")
        settings = reference_settings(max(1, info["frames"]))
        entry = {}
        for level in (0, 1):
            prog = compile_source(source, lint=False, optimize=level).unwrap()
            entry[level] = (prog, *profile(prog, settings, None))
        data["corpus"][name] = entry
        print(name, flush=True)
    settings = reference_settings(1)
    for seed in range(count):
        res = compile_source(generate(seed, True, "vm"), lint=False)
        if res.program is None:
            continue
        entry = {}
        for level in (0, 1):
            prog = res.program if level == 0 else opt.optimize(res.program, 1)[0]
            entry[level] = (prog, *profile(prog, settings, 64))
        data["generated"][seed] = entry
        if seed % 50 == 0:
            print("generated", seed, flush=True)
    CACHE.write_bytes(pickle.dumps(data))
    return data


# ---------------------------------------------------------------------- sequences

def token(code: Code, k: int) -> str:
    """An instruction as the sequence tables name it."""
    op, a = code.ops[k], code.args[k]
    if op == PUSHCONST:
        nan = sum(1 for x in a if x != x)
        return "K" if nan == 3 else "K4"
    if op == PUSHVAR:
        return "V"
    if op == SETVAR:
        return "S" if code.mask(k) == 0 else "S.m"
    if op == Op.BINOP:
        b = BINOP_BY_ID.get(int(a[0]))
        return f"B{b.symbol if b else '?'}"
    if op == Op.UNOP:
        u = UNOP_BY_CODE.get(int(a[0]))
        return f"U{u.symbol if u else '?'}"
    if op == CALL:
        b = BUILTIN_BY_ID.get(int(a[0]))
        return f"C:{b.name if b else '?'}/{b.arity if b else 0}"
    if op == CONDJUMP:
        return "CJ"
    return "J"


def ngrams(prog: Program, counts: np.ndarray, n: int) -> Counter:
    code = opt.to_code(prog)
    if code is None:  # outside what -O1 handles: no fusion either, counted as it is
        return Counter()
    lead = leaders(code)
    toks = [token(code, k) for k in range(len(code))]
    out: Counter = Counter()
    for k in range(len(code) - n + 1):
        if any(lead[k + 1: k + n]) or any(code.ops[j] in (CONDJUMP, Op.JUMP)
                                          for j in range(k, k + n - 1)):
            continue
        if counts[k]:
            out[" ".join(toks[k: k + n])] += int(counts[k])
    return out


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0]  # a program with no executed memory operation at all
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def evaluate(entries: dict, table) -> dict:
    """Per program: (dispatched -O2 / executed -O0, memory ops -O2 / -O0) for a table."""
    out = {}
    for key, entry in entries.items():
        p0, c0, px0 = entry[0]
        p1, c1, px1 = entry[1]
        e0 = c0.sum() / px0
        m0 = sum(int(c) * memory_ops(i) for i, c in zip(p0.instructions, c0, strict=False))
        if e0 == 0 or m0 == 0:
            continue
        code = opt.to_code(p1)
        groups = ([(k, k + 1) for k in range(len(p1.instructions))] if code is None
                  else fuse.plan(code, table))
        ins = p1.instructions
        d2 = sum(int(c1[s]) for s, _ in groups) / px1
        m2 = sum(int(c1[s]) * steps_memory_ops(ins[s:e]) for s, e in groups) / px1
        m0 /= px0
        out[key] = (d2 / e0, m2 / m0, c1.sum() / px1 / e0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=1000)
    args = ap.parse_args()
    data = collect(args.count)
    lines = ["# Executed instruction sequences at -O1 (issue 41)", "",
             "Generated by `python bench/bench_sequences.py`. Dynamic frequencies: a sequence "
             "inside one basic block counts once per pixel that executes it; *share* is its "
             "count over all executed instructions of the set (a sequence of k instructions "
             "covers k times its share). Tokens: V PUSHVAR, K PUSHCONST of a scalar "
             "(x, NaN, NaN, NaN), K4 any other PUSHCONST (swizzle picks, vectors), B<op> "
             "BINOP, U<op> UNOP, C:<builtin>/<arity> CALL, S SETVAR (S.m with a mask), "
             "CJ CONDJUMP, J JUMP.", "",
             f"Corpus: {len(data['corpus'])} programs, every pixel of the SPEC §9 frame. "
             f"Generated: {len(data['generated'])} programs (tests/progen mode \"vm\", seeds "
             f"0-{data['count'] - 1}, the ones that compile), 64 sample pixels each.", ""]
    for label, entries in (("corpus", data["corpus"]), ("generated", data["generated"])):
        total = sum(int(e[1][1].sum()) for e in entries.values())
        for n in (1, 2, 3, 4, 5):
            grams: Counter = Counter()
            for e in entries.values():
                grams.update(ngrams(e[1][0], e[1][1], n))
            lines += [f"## {label}: sequences of {n}", "", "| sequence | share |",
                      "|---|---:|"]
            lines += [f"| `{g}` | {c / total:.2%} |" for g, c in grams.most_common(25)]
            lines.append("")
    lines += ["## Candidate sets", "",
              "Dispatched instructions and memory operations per pixel at -O1 + fusion with "
              "each candidate table, over -O0 (geomean over programs). *-O1* is executed "
              "instructions at -O1 over -O0.", "",
              "| set | corpus -O1 | corpus dispatched | corpus memory | raymarchers dispatched "
              "| generated dispatched | generated memory |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name, table in fuse.candidate_tables().items():
        c = evaluate(data["corpus"], table)
        g = evaluate(data["generated"], table)
        ray = [c[r][0] for r in RAYMARCHERS if r in c]
        lines.append(f"| {name} | {geomean([v[2] for v in c.values()]):.3f} | "
                     f"{geomean([v[0] for v in c.values()]):.3f} | "
                     f"{geomean([v[1] for v in c.values()]):.3f} | {geomean(ray):.3f} | "
                     f"{geomean([v[0] for v in g.values()]):.3f} | "
                     f"{geomean([v[1] for v in g.values()]):.3f} |")
    lines.append("")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
