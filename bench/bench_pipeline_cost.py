"""What each entry of the -O1 pipeline buys and what it costs in the world (not a test).

For the registry's pipeline (registry.OPTIMIZER_PIPELINE) and for each variant that leaves
out one of its entries, this measures both sides of the trade:

  * per pixel: executed instructions at -O1 against -O0 (the geometric mean saving over
    the corpus, and scene_raymarch's and standalone_test_raymarcher's), and pong's static
    size, as bench/bench_optimizer.py measures them (the SPEC §9 reference frame);
  * in the world: the exact Udon extern count of compiling the 13 corpus programs with
    `optimize` on, from the shared udon_cost tool (../shared/tools/udon_cost, its README),
    run on a Compiler.cs generated with that pipeline, and pong's frames.

    python bench/bench_pipeline_cost.py     # writes bench/results/optimizer-pipeline-cost.md

An entry's in-world cost includes what it changes downstream (constprop's constants are
what fold folds; a pass that deletes code makes the later ones cheaper). The issue's
acceptance: geomean saving >= 25 %, >= 25 % on each raymarcher, pong <= 1,300
instructions, corpus <= 2,000,000 externs.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_optimizer import measure  # noqa: E402  (this folder: sys.path[0])

from psl import optimize as opt  # noqa: E402
from psl.compiler import compile_source  # noqa: E402
from psl.registry import OPTIMIZER_PIPELINE  # noqa: E402
from tests.vm_support.reference import CORPUS, MANIFEST  # noqa: E402

OUT = ROOT / "bench" / "results" / "optimizer-pipeline-cost.md"
TOOL = ROOT.parent / "shared" / "tools" / "udon_cost" / "measure.py"
PONG = "scene_pong_by_fuopy"
RAYMARCHERS = ("scene_raymarch", "standalone_test_raymarcher")

# Renders the Compiler with the pipeline given as argv[2] (comma-separated) into argv[1].
_GENERATE = """
import sys
import psl.registry as r
r.OPTIMIZER_PIPELINE = tuple(p for p in sys.argv[2].split(",") if p)
from psl.cli.gen import main
sys.argv = ["psl-gen", "udonsharp", "--out", sys.argv[1]]
main()
"""


def per_pixel(pipeline: tuple[str, ...]) -> dict:
    """Geomean saving, the raymarchers' savings and pong's -O1 size with this pipeline."""
    savings: dict[str, float] = {}
    pong = 0
    for name, info in sorted(MANIFEST["programs"].items()):
        source = (CORPUS / info["source"]).read_text(encoding="utf-8")
        frames = max(1, info["frames"])
        o0 = compile_source(source, lint=False).unwrap()
        code = opt.to_code(o0)
        o1 = o0 if code is None else opt.to_program(opt.optimize_code(code, pipeline=pipeline))
        savings[name] = 1 - measure(o1, frames)[0] / measure(o0, frames)[0]
        if name == PONG:
            pong = len(o1.instructions)
    geo = 1 - math.exp(sum(math.log(1 - s) for s in savings.values()) / len(savings))
    return {"geo": geo, **{r: savings[r] for r in RAYMARCHERS}, "pong": pong}


def in_world(pipeline: tuple[str, ...], work: Path) -> dict:
    """Corpus externs and pong's frames, compiling with `optimize` on."""
    work.mkdir(parents=True, exist_ok=True)
    gen = work / "gen"
    subprocess.run([sys.executable, "-c", _GENERATE, str(gen), ",".join(pipeline)], check=True,
                   cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                   stdout=subprocess.DEVNULL)
    cs = gen / "Compiler.cs"
    text, n = re.subn(r"public bool optimize = (true|false);", "public bool optimize = true;",
                      cs.read_text(encoding="utf-8"))
    if n != 1:
        raise SystemExit("bench_pipeline_cost: no `public bool optimize` in Compiler.cs")
    cs.write_text(text, encoding="utf-8")
    js = work / "cost.json"
    subprocess.run([sys.executable, str(TOOL), "--ours-only", "--ours-dir", str(gen),
                    "--no-synth", "--mutations", "0", "--no-selftest", "--work", str(work / "w"),
                    "--json", str(js), "--md", str(work / "cost.md")],
                   cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not js.exists():
        raise SystemExit(f"bench_pipeline_cost: the udon_cost tool wrote no results ({work})")
    programs = json.loads(js.read_text())["programs"]
    runs = {name: row["ours"]["cost"]["1"] for name, row in programs.items()}
    return {"externs": sum(r["externs"] for r in runs.values()),
            "pong_frames": runs[PONG]["frames"]}


def main() -> None:
    if not TOOL.exists():
        raise SystemExit(f"bench_pipeline_cost: needs the shared udon_cost tool at {TOOL}")
    variants: list[tuple[str, tuple[str, ...]]] = [("(none: the full pipeline)",
                                                    OPTIMIZER_PIPELINE)]
    for i, name in enumerate(OPTIMIZER_PIPELINE):
        variants.append((f"{i + 1}. {name}",
                         OPTIMIZER_PIPELINE[:i] + OPTIMIZER_PIPELINE[i + 1:]))
    rows = []
    with tempfile.TemporaryDirectory(prefix="psl-pipeline-cost-") as tmp:
        for k, (label, pipeline) in enumerate(variants):
            px = per_pixel(pipeline)
            world = in_world(pipeline, Path(tmp) / f"v{k}")
            rows.append((label, px, world))
            print(f"{label}: geomean {px['geo']:.1%}, pong {px['pong']}, "
                  f"{world['externs']:,} externs", flush=True)
    full_px, full_world = rows[0][1], rows[0][2]
    lines = [
        "# What each -O1 pipeline entry buys, and what it costs in the world", "",
        "Generated by `python bench/bench_pipeline_cost.py`. Each row leaves out one entry "
        "of `registry.OPTIMIZER_PIPELINE` (the first row is the whole pipeline). *Per "
        "pixel*: executed instructions at -O1 against -O0 on the SPEC §9 reference frame "
        "(geomean over the 13 corpus programs; the two raymarchers) and pong's -O1 size, as "
        "in `optimizer.md`. *In the world*: exact Udon externs of compiling the 13 corpus "
        "programs with `optimize` on (shared udon_cost tool, run 1; -O0 compile, its upload, "
        "the optimizer and the -O1 upload), and pong's frames. *Externs saved* is what "
        "leaving the entry out saves, including its effect on the later passes. Acceptance "
        "(issue 25): geomean and each raymarcher >= 25 %, pong <= 1,300, corpus <= "
        "2,000,000 externs.", "",
        "| left out | geomean | scene_raymarch | standalone | pong size | corpus externs | "
        "externs saved | pong frames |",
        "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label, px, world in rows:
        saved = full_world["externs"] - world["externs"]
        lines.append(
            f"| {label} | {px['geo']:.1%} | {px[RAYMARCHERS[0]]:.1%} | "
            f"{px[RAYMARCHERS[1]]:.1%} | {px['pong']} | {world['externs']:,} | "
            f"{saved:,} | {world['pong_frames']:,} |")
    passing = [label for label, px, _ in rows[1:] if ok(px)]
    lines += ["", f"The whole pipeline: {full_px['geo']:.1%} geomean, pong {full_px['pong']}, "
              f"{full_world['externs']:,} externs. Variants that still meet every per-pixel "
              f"acceptance figure: {', '.join(passing) if passing else 'none'}."]
    OUT.write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
    print(OUT.read_text())


def ok(px: dict) -> bool:
    return (px["geo"] >= 0.25 and all(px[r] >= 0.25 for r in RAYMARCHERS)
            and px["pong"] <= 1300)


if __name__ == "__main__":
    main()
