"""-O2 keeps the -O1 contract on generated programs (issue 41; not a test): every program
is compiled at -O0 and -O2 and both run in the reference VM (psl/vm/machine.py) on 64 evenly
spread pixels of frame 0 of the SPEC §9 inputs; a pixel that finishes at -O0 (neither the
jump limit nor the work budget stops it) must have the same bits at -O2 in all four lanes
(NaN included), and no pixel may take more jumps at -O2 (docs/spec.md §10, §11.4), except
one the work budget stops at -O0: -O2 takes it further along the same path.

Programs: tests/progen modes "vm" and "deep" (seeds from 100,000, apart from the seeds the
fused set was chosen on) and tests/shapegen's kinds in turn (the spec's shapes and limits).
With --csharp N, also N of them (shapegen and progen alternating) through the generated
in-world compiler (mono host, tests/csharp_support) at -O0, -O1 and -O2, byte for byte
against psl (tests/test_udonsharp_diff.mismatches).

    python bench/bench_o2_contract.py [--vm 2000 --deep 400 --shapes 800] [--csharp 300]

Writes bench/results/o2-contract.md (and prints the first disagreements, if any).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from psl import optimize as opt  # noqa: E402
from psl.compiler import compile_source  # noqa: E402
from psl.registry import FUSED, FUSED_BY_OP, LIMITS  # noqa: E402
from psl.vm.inputs import Inputs  # noqa: E402
from psl.vm.machine import Frame, decode  # noqa: E402
from tests import shapegen  # noqa: E402
from tests.progen import generate  # noqa: E402
from tests.vm_support.reference import reference_settings  # noqa: E402

OUT = ROOT / "bench" / "results" / "o2-contract.md"
START = 100_000


def programs(vm: int, deep: int, shapes: int) -> list[tuple[str, str]]:
    """(label, source) of every program the run checks."""
    out = [(f"progen vm {START + k}", generate(START + k, True, "vm")) for k in range(vm)]
    out += [(f"progen deep {START + k}", generate(START + k, True, "deep")) for k in range(deep)]
    out += [(f"shapegen {kind} {START + k}", s.text)
            for k, (kind, s) in enumerate(shapegen.generate_many(shapes, start=START))]
    return out


def check(label: str, source: str, inputs: Inputs, u, v, stats: Counter) -> str | None:
    """None when the contract holds (or the program does not compile), else what broke."""
    res = compile_source(source, lint=False)
    if res.program is None:
        stats["rejected"] += 1
        return None
    p0 = res.program
    p2 = opt.optimize(p0, 2)[0]
    frames = []
    for p in (p0, p2):
        f = Frame(decode(p.slots()), inputs, LIMITS.jumps, pixels=(u, v))
        f.run()
        frames.append(f)
    f0, f2 = frames
    ok = ~f0.hit & ~f0.spent
    stats["programs"] += 1
    stats["fused"] += any(int(i.op) in FUSED_BY_OP for i in p2.instructions)
    stats["pixels"] += len(u)
    stats["finishing pixels"] += int(ok.sum())
    stats["stopped at -O0"] += int((~ok).sum())
    if not np.array_equal(f0.out.view(np.uint32)[:, ok], f2.out.view(np.uint32)[:, ok]):
        f1 = Frame(decode(opt.optimize(p0, 1)[0].slots()), inputs, LIMITS.jumps, pixels=(u, v))
        f1.run()
        o1 = np.array_equal(f0.out.view(np.uint32)[:, ok], f1.out.view(np.uint32)[:, ok])
        return (f"{label}: a finishing pixel differs (at -O1 "
                f"{'too: an -O1 fault' if not o1 else 'not: the fuse pass'})")
    # a pixel the work budget stops at -O0 gets further at -O2 (fewer instructions a loop
    # turn) and may take more jumps in all; on its -O0 path it takes no more (§10)
    if not (f2.jumps <= f0.jumps)[~f0.spent].all():
        return f"{label}: a pixel takes more jumps"
    return None


def csharp(count: int) -> tuple[int, list[str], float]:
    """Programs compared, the differences the host shows, seconds."""
    from tests.csharp_support import build as csbuild
    from tests.test_udonsharp_diff import mismatches

    shapes = shapegen.generate_many(count // 2, start=START)
    sources = [s.text for _, s in shapes]
    sources += [generate(START + k, True, "vm") for k in range(count - len(sources))]
    start = time.perf_counter()
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="psl-o2-cs-") as tmp:
        host = csbuild.build(Path(tmp) / "host")
        for k in range(0, len(sources), 100):
            problems += mismatches(host, sources[k: k + 100])
    return len(sources), problems, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vm", type=int, default=2000)
    ap.add_argument("--deep", type=int, default=400)
    ap.add_argument("--shapes", type=int, default=800)
    ap.add_argument("--csharp", type=int, default=0)
    args = ap.parse_args()
    settings = reference_settings(1)
    inputs = Inputs(settings.width, settings.height, time=1.25, button=settings.button,
                    axis=settings.axis, camera=settings.camera, video=settings.video)
    u, v = inputs.uv_grid()
    step = len(u) // 64
    u, v = u[::step][:64], v[::step][:64]
    start = time.perf_counter()
    by_source: dict[str, Counter] = {}
    failures: list[str] = []
    for label, source in programs(args.vm, args.deep, args.shapes):
        group = " ".join(label.split()[:2])
        stats = by_source.setdefault(group, Counter())
        stats["generated"] += 1
        problem = check(label, source, inputs, u, v, stats)
        if problem:
            stats["broken"] += 1
            failures.append(problem)
            print(problem, flush=True)
    seconds = time.perf_counter() - start
    total = sum((s for s in by_source.values()), Counter())
    lines = ["# -O2 keeps the -O1 contract on generated programs (issue 41)", "",
             f"Generated by `python bench/bench_o2_contract.py --vm {args.vm} --deep "
             f"{args.deep} --shapes {args.shapes}"
             + (f" --csharp {args.csharp}" if args.csharp else "") + "` "
             f"({len(FUSED)} fused instructions, registry.FUSED; {seconds:.0f} s): each program "
             "compiled at -O0 and -O2 and run in the reference VM on 64 evenly spread pixels "
             "of frame 0 of the SPEC §9 inputs. A pixel that finishes at -O0 (neither the jump "
             "limit nor the work budget stops it) must have the same bits at -O2 in all four "
             "lanes, NaN included, and no pixel may take more jumps (docs/spec.md §10, §11.4; "
             "a pixel the work budget stops at -O0 gets further at -O2, so its jumps are not "
             "compared). "
             f"Seeds from {START:,} (the fused set was chosen on seeds 0-999 of mode \"vm\").",
             "", "| programs | generated | compiled and run | with a fused instruction | "
             "finishing pixels | pixels stopped at -O0 | broken |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for group, s in [*sorted(by_source.items()), ("all", total)]:
        lines.append(f"| {group} | {s['generated']} | {s['programs']} | {s['fused']} | "
                     f"{s['finishing pixels']} | {s['stopped at -O0']} | {s['broken']} |")
    lines += ["", f"**{total['programs']} programs run, {total['broken']} broken.**"]
    lines += [f"- {f}" for f in failures[:20]]
    if args.csharp:
        n, problems, secs = csharp(args.csharp)
        lines += ["", "## The in-world compiler at -O2", "",
                  f"{n} of these programs ({n // 2} shapegen, {n - n // 2} progen \"vm\") "
                  "through the generated C# compiler (mono host, the sliced Update() path) "
                  f"at -O0, -O1 and -O2, byte for byte against psl ({secs:.0f} s): "
                  f"**{len(problems)} differences**."]
        lines += [f"- {p[:300]}" for p in problems[:10]]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
