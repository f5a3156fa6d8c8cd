"""-O2's acceptance figures (issue 41; not a test): dispatched instructions and stack+register
memory operations per pixel at -O2 against -O0, measured by running both in the reference
VM: the corpus on every pixel of the SPEC §9 frame (the last of the manifest's frames),
1,000 generated programs (tests/progen mode "vm") on 64 sample pixels of one frame. Also
checks the -O1 contract on every run (finishing pixels bit-identical, no more jumps).

    python bench/bench_o2.py [--count 1000]     # writes bench/results/o2.md

Targets: dispatched <= 0.35x -O0 (corpus geomean), <= 0.4x (generated), <= 0.3x on the
raymarchers; memory operations <= 0.3x (corpus geomean).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from psl import optimize as opt  # noqa: E402
from psl.compiler import compile_source  # noqa: E402
from psl.registry import FUSED, LIMITS  # noqa: E402
from psl.vm.inputs import Inputs  # noqa: E402
from psl.vm.machine import Frame, decode  # noqa: E402
from psl.vm.render import render  # noqa: E402
from tests.progen import generate  # noqa: E402
from tests.vm_support.reference import CORPUS, MANIFEST, reference_settings  # noqa: E402

OUT = ROOT / "bench" / "results" / "o2.md"
RAYMARCHERS = ("scene_raymarch", "standalone_test_raymarcher")


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def corpus_rows() -> list[tuple]:
    rows = []
    for name, info in sorted(MANIFEST["programs"].items()):
        source = (CORPUS / info["source"]).read_text(encoding="utf-8")
        settings = reference_settings(max(1, info["frames"]))
        p0 = compile_source(source, lint=False).unwrap()
        got = {}
        for level in (0, 1, 2):
            prog = p0 if level == 0 else opt.optimize(p0, level)[0]
            r = render(prog.slots(), settings, keep_frames=False)
            got[level] = (prog, r.last, r.stats[-1])
        s0, s2 = got[0][2], got[2][2]
        ok = ~s0.hit_jump_limit & ~s0.spent
        same = np.array_equal(got[0][1].view(np.uint32)[ok], got[2][1].view(np.uint32)[ok])
        # a pixel the work budget stops at -O0 gets further at -O2: its jumps may be more
        assert same and (s2.jumps <= s0.jumps)[~s0.spent].all(), name
        rows.append((name, len(p0.instructions), len(got[1][0].instructions),
                     len(got[2][0].instructions), float(s0.exec_instructions.mean()),
                     float(got[1][2].exec_instructions.mean()), float(s2.dispatched.mean()),
                     float(s0.memory_ops.mean()), float(got[1][2].memory_ops.mean()),
                     float(s2.memory_ops.mean())))
        print(name, flush=True)
    return rows


def sample(prog, inputs: Inputs, u, v) -> Frame:
    frame = Frame(decode(prog.slots()), inputs, LIMITS.jumps, pixels=(u, v))
    frame.run()
    return frame


def generated_rows(count: int) -> list[tuple]:
    settings = reference_settings(1)
    inputs = Inputs(settings.width, settings.height, time=1.25, button=settings.button,
                    axis=settings.axis, camera=settings.camera, video=settings.video)
    u, v = inputs.uv_grid()
    step = len(u) // 64
    u, v = u[::step][:64], v[::step][:64]
    rows = []
    for seed in range(count):
        res = compile_source(generate(seed, True, "vm"), lint=False)
        if res.program is None:
            continue
        p0 = res.program
        f0, f1, f2 = (sample(p, inputs, u, v) for p in
                      (p0, opt.optimize(p0, 1)[0], opt.optimize(p0, 2)[0]))
        ok = ~f0.hit & ~f0.spent
        assert np.array_equal(f0.out.view(np.uint32)[:, ok], f2.out.view(np.uint32)[:, ok])
        assert (f2.jumps <= f0.jumps)[~f0.spent].all(), seed
        e0, m0 = f0.exec.mean(), f0.memory.mean()
        if e0 == 0 or m0 == 0:
            continue
        rows.append((seed, e0, f1.exec.mean(), (f2.exec - f2.saved).mean(), m0,
                     f1.memory.mean(), f2.memory.mean()))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=1000)
    args = ap.parse_args()
    corpus = corpus_rows()
    gen = generated_rows(args.count)
    c_disp = geomean([r[6] / r[4] for r in corpus])
    c_o1 = geomean([r[5] / r[4] for r in corpus])
    c_mem = geomean([r[9] / r[7] for r in corpus])
    c_mem1 = geomean([r[8] / r[7] for r in corpus])
    ray = {r[0]: r[6] / r[4] for r in corpus if r[0] in RAYMARCHERS}
    o1 = {r[0]: r[5] / r[4] for r in corpus}
    g_disp = geomean([max(r[3], 1e-9) / r[1] for r in gen])
    g_o1 = geomean([max(r[2], 1e-9) / r[1] for r in gen])
    g_mem = geomean([max(r[6], 1e-9) / r[4] for r in gen])

    def mark(x: float, target: float) -> str:
        return f"**{x:.3f}** ({'meets' if x <= target else 'misses'} ≤ {target})"

    lines = [
        "# -O2: superinstructions (issue 41)", "",
        f"Generated by `python bench/bench_o2.py` (docs/spec.md §11): {len(FUSED)} fused "
        "instructions (registry.FUSED). The reference VM runs each program at -O0, -O1 and "
        "-O2; *dispatched* counts a fused instruction once, *memory* is stack+register "
        "memory operations (§11.4); at -O0 and -O1 dispatched = executed. Every run also "
        "checked the -O1 contract (finishing pixels bit-identical to -O0, no pixel with more "
        "jumps but one the work budget stops at -O0, which -O2 takes further).", "",
        "## Acceptance", "",
        "| figure | -O1 / -O0 | -O2 / -O0 |", "|---|---:|---:|",
        f"| dispatched, corpus geomean ({len(corpus)} programs) | {c_o1:.3f} | "
        f"{mark(c_disp, 0.35)} |",
        f"| dispatched, generated geomean ({len(gen)} programs) | {g_o1:.3f} | "
        f"{mark(g_disp, 0.4)} |",
        *(f"| dispatched, {name} | {o1[name]:.3f} | {mark(x, 0.3)} |" for name, x in ray.items()),
        f"| memory operations, corpus geomean | {c_mem1:.3f} | {mark(c_mem, 0.3)} |",
        f"| memory operations, generated geomean | — | {g_mem:.3f} |", "",
        "## Corpus (means per pixel of the SPEC §9 frame)", "",
        "| program | static -O0 | -O1 | -O2 | executed -O0 | executed -O1 | dispatched -O2 | "
        "ratio | memory -O0 | memory -O1 | memory -O2 | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in corpus:
        lines.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]:.1f} | {r[5]:.1f} | "
                     f"{r[6]:.1f} | {r[6] / r[4]:.3f} | {r[7]:.1f} | {r[8]:.1f} | {r[9]:.1f} | "
                     f"{r[9] / r[7]:.3f} |")
    lines += ["", "Generated programs: seeds 0-" + str(args.count - 1) + " of tests/progen "
              "mode \"vm\" that compile and execute something, 64 evenly spread pixels of "
              "frame 0 each; a program -O1 leaves unchanged (§10.1) is not fused either.", ""]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[:16]))


if __name__ == "__main__":
    main()
