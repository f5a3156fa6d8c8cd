"""Frame time of the generated HLSL VM (VM.cginc through slangpy) at -O0 and -O1 (or -O2:
--level 2), per corpus program (docs/spec.md §10, §11; not a test). One frame of the
reference inputs of SPEC §9 at the chosen size (a self() program reads zeros), uploaded once
and dispatched again and again: the figure is the median over several dispatches of the time
from the dispatch to an idle queue, and, where the device has timestamp queries, the GPU's
own time for the dispatch.

    python bench/bench_vm_gpu.py                          # cpu, 512x512 (slow: minutes)
    python bench/bench_vm_gpu.py --device cuda --size 512 # on a GPU, when there is one
    python bench/bench_vm_gpu.py --level 2 --size 256 --only scene_raymarch scene_fbm

Writes bench/results/vm-gpu-<device>-<size>.md (-O2: vm-gpu-<device>-<size>-O2.md). The CPU
device runs the shader as C++ on the host, one thread per pixel group: far slower than a
GPU, but the ratio -O1 / -O0 is what the optimizer changes.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from psl.bytecode import to_texture  # noqa: E402
from psl.compiler import compile_source  # noqa: E402
from psl.gen import hlsl  # noqa: E402
from tests.hlsl_support.harness import (  # noqa: E402
    SlangVM,
    audiolink_texture,
    optimized_breaks,
    reference_inputs,
)

CORPUS = ROOT / "tests" / "corpus"
MANIFEST = json.loads((CORPUS / "golden" / "manifest.json").read_text(encoding="utf-8"))


def time_dispatch(vm: SlangVM, bound: dict, pool) -> tuple[float, float | None, float]:
    """Milliseconds from dispatch to idle queue, the GPU's timestamps' difference, and the
    CPU time this process spent meanwhile (on the CPU device: the frame's own work, which
    other jobs on a shared host do not lengthen as they do the wall time)."""
    kwargs = {} if pool is None else {"query_pool": pool, "query_index_before": 0,
                                      "query_index_after": 1}
    start = time.perf_counter()
    cpu = time.process_time()
    vm.dispatch(bound, **kwargs)
    vm.device.wait_for_idle()
    wall = (time.perf_counter() - start) * 1000
    cpu = (time.process_time() - cpu) * 1000
    if pool is None:
        return wall, None, cpu
    t0, t1 = pool.get_timestamp_results(0, 2)
    pool.reset()
    return wall, (t1 - t0) * 1000, cpu


def timestamp_pool(vm: SlangVM):
    """A two-query timestamp pool, or None where the device has none that work."""
    import slangpy as spy

    try:
        pool = vm.device.create_query_pool(type=spy.QueryType.timestamp, count=2)
        bound = vm.bind(np.zeros((2, 4), np.float32), reference_inputs(0, 1, 1))
        vm.dispatch(bound, query_pool=pool, query_index_before=0, query_index_after=1)
        vm.device.wait_for_idle()
        t0, t1 = pool.get_timestamp_results(0, 2)
        pool.reset()
    except Exception:  # noqa: BLE001 - a device without timestamps: wall time alone
        return None
    return pool if t1 >= t0 else None


def golden_lines(vms: dict[bool, SlangVM]) -> list[str]:
    """The corpus at -O0 against the original VM's renders, on this device: the share of
    lanes within 1e-4 (the golden test's bound, tests/test_hlsl_vm.py; NaN where both are
    NaN), the largest difference, and whether executed instructions and jumps per pixel
    are the original's."""
    lines = ["", "## The original's goldens on this device", "",
             "Each rendered corpus program at -O0, every frame of the SPEC §9 settings "
             "(64x64), the last frame against the original VM's render.", "",
             "| program | lanes within 1e-4 | largest difference | executed and jumps "
             "as the original's |", "|---|---:|---:|---|"]
    for name, info in sorted(MANIFEST["programs"].items()):
        if info["status"] != "rendered":
            continue
        source = (CORPUS / info["source"]).read_text(encoding="utf-8")
        slots = compile_source(source, lint=False, optimize=0).unwrap().slots()
        vm = vms["audiolink" in source.lower()]
        last = vm.render_frames(slots, [reference_inputs(k) for k in range(info["frames"])])[-1]
        golden = np.load(CORPUS / info["golden"])
        image = last.image.astype(np.float64)
        diff = np.abs(image - golden)
        both_nan = np.isnan(image) & np.isnan(golden)
        counts = (math.isclose(last.executed.mean(), info["exec_instructions_per_pixel_mean"])
                  and int(last.executed.max()) == info["exec_instructions_per_pixel_max"]
                  and math.isclose(last.jumps.mean(), info["jumps_per_pixel_mean"])
                  and int(last.jumps.max()) == info["jumps_per_pixel_max"])
        within = (diff <= 1e-4) | both_nan
        largest = float(np.where(both_nan, 0.0, diff).max())  # a lone NaN: nan
        lines.append(f"| {name} | {within.mean():.2%} | {largest:.2g} | "
                     f"{'yes' if counts else 'no'} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu", help="slangpy device type (cpu, cuda, vulkan…)")
    ap.add_argument("--size", type=int, default=512, help="frame width and height")
    ap.add_argument("--runs", type=int, default=5, help="dispatches per case (median)")
    ap.add_argument("--level", type=int, default=1, choices=(1, 2),
                    help="the optimization level timed against -O0")
    ap.add_argument("--only", nargs="*", help="program names (default: the whole corpus)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results",
                    help="folder for the results")
    ap.add_argument("--goldens", action="store_true",
                    help="also render the corpus at the goldens' size (SPEC §9) on the device "
                         "and compare with the original VM's renders")
    ap.add_argument("--cginc", type=Path,
                    help="a folder with a VM.cginc to time instead of the generated one "
                         "(another version's, to compare)")
    args = ap.parse_args()
    levels = (0, args.level)
    on = f"-O{args.level}"
    out_dir = args.cginc
    if out_dir is None:
        out_dir = Path(tempfile.mkdtemp(prefix="psl-bench-hlsl-"))
        hlsl.TARGET.write(out_dir)
    build_start = time.perf_counter()
    vms = {al: SlangVM(out_dir, audiolink=al, device=args.device) for al in (False, True)}
    build = time.perf_counter() - build_start
    pools = {al: timestamp_pool(vm) for al, vm in vms.items()}
    adapter = vms[False].device.info.adapter_name
    rows = []
    cpu_rows: list[tuple[float, ...]] = []
    for name in sorted(args.only or MANIFEST["programs"]):
        source = (CORPUS / MANIFEST["programs"][name]["source"]).read_text(encoding="utf-8")
        al = "audiolink" in source.lower()
        vm, pool = vms[al], pools[al]
        inputs = replace(reference_inputs(0, args.size, args.size),
                         audiolink=audiolink_texture() if al else None)
        bound = [vm.bind(to_texture(compile_source(source, lint=False, optimize=level)
                                    .unwrap().slots()), inputs)
                 for level in levels]
        walls: list[list[float]] = [[], []]
        gpus: list[list[float]] = [[], []]
        cpus: list[list[float]] = [[], []]
        for k in (0, 1):
            time_dispatch(vm, bound[k], pool)  # warm-up
        for _ in range(args.runs):  # alternating, so that a busy host slows both alike
            for k in (0, 1):
                wall, gpu, cpu = time_dispatch(vm, bound[k], pool)
                walls[k].append(wall)
                cpus[k].append(cpu)
                if gpu is not None:
                    gpus[k].append(gpu)
        r0, r1 = (vm.read(b) for b in bound)
        same = optimized_breaks(r0, r1) == (0, 0)
        executed = (float(r0.executed.mean()), float(r1.executed.mean()))
        row = (name, *(statistics.median(w) for w in walls),
               *(statistics.median(g) if g else None for g in gpus), same, *executed)
        rows.append(row)
        cpu_rows.append(tuple(statistics.median(c) for c in cpus))
        print(f"{name}: {row[1]:.2f} ms -> {row[2]:.2f} ms", flush=True)
    have_gpu = all(r[3] is not None for r in rows)
    clock = "GPU" if args.device != "cpu" else "timestamp"
    flags = "" if args.level == 1 else f" --level {args.level}"
    if args.only:
        flags += " --only " + " ".join(args.only)
    lines = [f"# HLSL VM frame time, -O0 and {on} ({args.device}: {adapter})", "",
             f"Generated by `python bench/bench_vm_gpu.py --device {args.device} --size "
             f"{args.size} --runs {args.runs}{flags}`: the "
             + ("generated VM.cginc" if args.cginc is None else f"VM.cginc of {args.cginc}")
             + " through slangpy "
             f"(built in {build:.0f} s), one {args.size}x{args.size} frame of the SPEC §9 "
             "inputs (time 1.25), uploaded once, then dispatched: one warm-up, then "
             f"{args.runs} dispatches of each level, -O0 and {on} alternating. *wall* is the "
             "median time from the dispatch to an idle queue"
             + (f", *{clock}* the median difference of the device's timestamps around the "
                "dispatch" if have_gpu else "")
             + ". *executed* is the VM's own count of instructions per pixel, the mean "
             f"over the frame, -O0 → {on} (a fused instruction counting as the instructions it "
             f"replaces, §11.4). *same*: the {on} frame has the -O0 frame's bits (all "
             "four lanes) on every pixel that finished within the jump budget at -O0, and no "
             "pixel took more jumps (the contract of docs/spec.md §10, §11.4).", ""]
    if have_gpu:
        lines += [f"| program | -O0 {clock} ms | {on} {clock} ms | {on} / -O0 | -O0 wall ms | "
                  f"{on} wall ms | executed | same |", "|---|---:|---:|---:|---:|---:|---:|---|"]
        for name, w0, w1, g0, g1, same, e0, e1 in rows:
            lines.append(f"| {name} | {g0:.3f} | {g1:.3f} | {g1 / g0:.2f} | {w0:.3f} | "
                         f"{w1:.3f} | {e0:.0f} → {e1:.0f} | {'yes' if same else 'no'} |")
    else:
        lines += [f"| program | -O0 wall ms | {on} wall ms | {on} / -O0 | executed | same |",
                  "|---|---:|---:|---:|---:|---|"]
        for name, w0, w1, _, _, same, e0, e1 in rows:
            lines.append(f"| {name} | {w0:.2f} | {w1:.2f} | {w1 / w0:.2f} | "
                         f"{e0:.0f} → {e1:.0f} | {'yes' if same else 'no'} |")
    col = (3, 4) if have_gpu else (1, 2)
    geo = math.exp(sum(math.log(r[col[1]] / r[col[0]]) for r in rows) / len(rows))
    lines += ["", f"Geometric mean {on} / -O0: **{geo:.2f}**."]
    if args.device == "cpu":
        cgeo = math.exp(sum(math.log(c1 / c0) for c0, c1 in cpu_rows) / len(cpu_rows))
        lines += ["", "The CPU time of this process during each dispatch (median; the CPU "
                  "device runs the shader on the host, so this is the frame's own work, "
                  "which other jobs on a shared host lengthen less than the wall time):", "",
                  f"| program | -O0 CPU ms | {on} CPU ms | {on} / -O0 |", "|---|---:|---:|---:|"]
        lines += [f"| {r[0]} | {c0:.1f} | {c1:.1f} | {c1 / c0:.2f} |"
                  for r, (c0, c1) in zip(rows, cpu_rows, strict=True)]
        lines += ["", f"Geometric mean {on} / -O0 of the CPU time: **{cgeo:.2f}**."]
    if args.goldens:
        lines += golden_lines(vms)
    args.out.mkdir(parents=True, exist_ok=True)
    suffix = "" if args.level == 1 else f"-O{args.level}"
    out = args.out / f"vm-gpu-{args.device}-{args.size}{suffix}.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out.read_text())


if __name__ == "__main__":
    main()
