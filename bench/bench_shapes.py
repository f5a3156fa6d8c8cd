"""The long differential campaign of the in-world compiler against psl (issue 36; not a
test): programs from the spec's shapes and limits (tests/shapegen), each compiled by the
generated C# compiler (mono host, the sliced Update() path) at -O0, -O1 and -O2 and compared
byte for byte with psl; any exception counts.

    PYTHONPATH=. python bench/bench_shapes.py                  # 20,000 programs, 2 jobs
    PYTHONPATH=. python bench/bench_shapes.py --count 2000 --jobs 1 --host OLD/Host.exe

Writes bench/results/shapes-campaign.md and .json: programs per kind, the shapes the
generator made (joins before calls, loops at the unroll budget before/after hoist, programs
at each limit), differences and exceptions per level, and the first differing programs.
`--host` takes a Host.exe built elsewhere (e.g. from an older template, to show what the
campaign finds there); the summary is written only for the templates' own host.
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT))

from psl.registry import INWORLD_OPTIMIZE_LEVELS  # noqa: E402
from tests import shapegen  # noqa: E402
from tests.csharp_support import build as csbuild  # noqa: E402
from tests.test_udonsharp_diff import _mismatch, reference  # noqa: E402

BATCH = 200


def run_batch(job: tuple[str, int, int]) -> dict:
    """Programs start .. start+count, compared; a summary of the batch."""
    host, start, count = job
    shapes = shapegen.generate_many(count, start=start)
    sources = [s.text for _, s in shapes]
    results = csbuild.run_batch(Path(host), sources)
    out: dict = {"kinds": collections.Counter(), "tags": collections.Counter(),
                 "diff": collections.Counter(), "exceptions": collections.Counter(),
                 "compiled": collections.Counter(), "examples": []}
    for k, ((kind, shape), got) in enumerate(zip(shapes, results, strict=True)):
        out["kinds"][kind] += 1
        out["tags"].update(shape.tags)
        refs = tuple(reference(shape.text, level) for level in INWORLD_OPTIMIZE_LEVELS)
        if refs[0][0] is not None:
            out["compiled"][kind] += 1
        for level, res in zip(INWORLD_OPTIMIZE_LEVELS, (got, got.optimized, got.fused),
                              strict=True):
            problems = _mismatch(f"#{start + k} -O{level} {kind}", res, level, refs)
            if res.exception:
                out["exceptions"][f"O{level}"] += 1
            if problems:
                out["diff"][f"O{level}"] += 1
                if len(out["examples"]) < 5:
                    out["examples"].append({"seed": start + k, "kind": kind, "level": level,
                                            "problem": problems[0][:300],
                                            "source": shape.text[:400]})
    return out


LIMIT_START = 30_000  # the first seed of results/udon-cost-limits.md's limit programs


def write_limit_programs(out: Path, count: int = 10, start: int = LIMIT_START) -> None:
    """The `limit` programs of results/udon-cost-limits.md: near the instruction limit or at
    the stack or register limit, as NAME_K.psl (NAME_START_K.psl from another start: the
    held-out set)."""
    from psl.compiler import compile_source

    out.mkdir(parents=True, exist_ok=True)
    tag = "" if start == LIMIT_START else f"_{start}"
    k = 0
    for _kind, shape in shapegen.generate_many(40, start=start, kinds=["limit"]):
        result = compile_source(shape.text)
        if not result.ok or result.program is None:
            continue
        deep = {"stack_limit", "register_limit"} & set(shape.tags)
        if len(result.program.instructions) < 10_000 and not deep:
            continue
        (out / f"{shape.tags[0]}{tag}_{k}.psl").write_text(shape.text, encoding="utf-8")
        k += 1
        if k >= count:
            break


VARS = "abcdefghijklmnopqrstuvwxyz"


def constructed_programs() -> dict[str, str]:
    """results/udon-cost-limits.md's constructed programs: each stresses one of the in-world
    optimizer's estimates, at 16,000 characters or the instruction limit."""
    from tests.test_udonsharp_event_budget import hoist_classes

    def fill(statement, head: str, limit: int = 15_900) -> str:
        parts, k = [head], 0
        while sum(map(len, parts)) < limit:
            parts.append(statement(k))
            k += 1
        return "".join(parts)

    init = "".join(f"{c} = uv().x * {i + 1}.5;\n" for i, c in enumerate(VARS))
    tail = "float4(a, b, c, 1.0)\n"
    terms = " + ".join(f"sin(uv().y * {k}.25)" for k in range(1, 101))

    def store(k: int) -> str:
        return f"{VARS[k % 26]} = {VARS[(k * 7 + 3) % 26]} * {VARS[(k * 11 + 5) % 26]};\n"

    return {
        "hoist_classes": hoist_classes(110),
        "hoist_long": f"fun g() {{ {terms} }}\nz = 0;\n" + "z = z + g();\n" * 22 + "z\n",
        "var_dense": init + "i = 0;\nwhile (i < 3) {\n" + fill(store, "", 15_300)
        + "i = i + 1;\n}\n" + tail,
        "var_dense_flat": fill(store, init) + tail,
        "calls_dense": fill(lambda k: f"{VARS[k % 26]} = lerp({VARS[(k * 7 + 3) % 26]}, "
                            f"{VARS[(k * 11 + 5) % 26]}, {VARS[(k * 13 + 1) % 26]});\n", init)
        + tail,
        "tiny_blocks": fill(lambda k: f"if ({VARS[k % 26]} < 0.5) "
                            f"{{ {VARS[(k * 7 + 3) % 26]} = {VARS[k % 26]}; }}\n", init) + tail,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=20_000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--host", type=Path, help="a Host.exe to test instead of the templates'")
    ap.add_argument("--write-limit-programs", type=Path, metavar="DIR",
                    help="write the first 10 large or deep `limit` programs from seed 30000 "
                         "to DIR (for udon_cost: results/udon-cost-limits.md), the 12 "
                         "held-out ones from seed 41000 and the constructed ones, and stop")
    args = ap.parse_args()
    if args.write_limit_programs:
        out = args.write_limit_programs
        write_limit_programs(out / "limit")
        write_limit_programs(out / "held_out", count=12, start=41_000)
        (out / "constructed").mkdir(parents=True, exist_ok=True)
        for name, text in constructed_programs().items():
            (out / "constructed" / f"{name}.psl").write_text(text, encoding="utf-8")
        return
    # the templates the host is built from: the commit now (the campaign runs for long)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "templates", "psl"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="psl-shapes-") as tmp:
        host = args.host or csbuild.build(Path(tmp) / "host")
        jobs = [(str(host), s, min(BATCH, args.start + args.count - s))
                for s in range(args.start, args.start + args.count, BATCH)]
        total: dict = {"kinds": collections.Counter(), "tags": collections.Counter(),
                       "diff": collections.Counter(), "exceptions": collections.Counter(),
                       "compiled": collections.Counter(), "examples": []}
        t0 = time.perf_counter()
        with multiprocessing.Pool(args.jobs) as pool:
            for done, part in enumerate(pool.imap_unordered(run_batch, jobs), 1):
                for key in ("kinds", "tags", "diff", "exceptions", "compiled"):
                    total[key].update(part[key])
                total["examples"] += part["examples"][: max(0, 10 - len(total["examples"]))]
                print(f"{done}/{len(jobs)} batches, {sum(total['kinds'].values())} programs, "
                      f"diff {dict(total['diff'])}, exceptions {dict(total['exceptions'])}, "
                      f"{time.perf_counter() - t0:.0f} s", flush=True)
        seconds = time.perf_counter() - t0
    summary = {"programs": sum(total["kinds"].values()), "start": args.start,
               "templates": commit + (" (with uncommitted changes)" if dirty else ""),
               "seconds": round(seconds), "kinds": dict(sorted(total["kinds"].items())),
               "psl_compiles": dict(sorted(total["compiled"].items())),
               "shapes": dict(sorted(total["tags"].items())),
               "differences": {f"O{lv}": total["diff"][f"O{lv}"]
                               for lv in INWORLD_OPTIMIZE_LEVELS},
               "exceptions": {f"O{lv}": total["exceptions"][f"O{lv}"]
                              for lv in INWORLD_OPTIMIZE_LEVELS},
               "examples": total["examples"]}
    print(json.dumps({k: v for k, v in summary.items() if k != "examples"}, indent=1))
    if args.host:
        return
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "shapes-campaign.json").write_text(json.dumps(summary, indent=1) + "\n")
    lines = ["# Shape campaign: the in-world compiler against psl (bench/bench_shapes.py)", "",
             f"{summary['programs']:,} programs from tests/shapegen (seeds {args.start} to "
             f"{args.start + summary['programs'] - 1}), each compiled by the generated C# "
             f"compiler of commit {summary['templates']} "
             "under mono at -O0, -O1 and -O2 and compared with psl byte for byte "
             f"(or the same first error); {summary['seconds']:,} s on {args.jobs} jobs.", "",
             "| level | programs | differences | exceptions |", "|---|---|---|---|"]
    for lv in INWORLD_OPTIMIZE_LEVELS:
        lines.append(f"| -O{lv} | {summary['programs']:,} | "
                     f"{summary['differences'][f'O{lv}']} | {summary['exceptions'][f'O{lv}']} |")
    lines += ["", "| kind | programs | psl compiles |", "|---|---|---|"]
    lines += [f"| {k} | {v:,} | {summary['psl_compiles'].get(k, 0):,} |"
              for k, v in summary["kinds"].items()]
    lines += ["", "Shapes the generator made (a program may hold several):", "",
              "| shape | count |", "|---|---|"]
    lines += [f"| {k} | {v:,} |" for k, v in summary["shapes"].items()]
    if summary["examples"]:
        lines += ["", "First differences:", ""]
        lines += [f"- seed {e['seed']} ({e['kind']}, -O{e['level']}): {e['problem']}"
                  for e in summary["examples"]]
    (RESULTS / "shapes-campaign.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
