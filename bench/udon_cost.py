"""Exact Udon extern counts of the in-world compiler, on the corpus and on pathological programs.

Runs the shared tool `../shared/tools/udon_cost/measure.py` (see its README.md; this script
only calls it) twice, with `--ours-only`:

  1. corpus:       the programs of ../shared/corpus plus the tool's synthetic ones;
  2. pathological: the programs of tests/csharp_support/pathological.py (written to the
                   work folder by bench/pathological.py), with --no-synth and, by default,
                   --mutations 0.

Each run writes bench/results/udon-cost-{corpus,pathological}.{json,md}. Then this script
prints (and writes to bench/results/udon-cost-summary.{md,json}) one table per run: per
program its outcome, total externs, events, frames played, the largest event, and the frames
a compile needs at the per-frame budget (ceil(externs / budget)); the totals; the largest
single event overall; and every program with an event over the budget (2,500 externs by
default). For the pathological programs it also checks the in-world compiler's outcome
(ok, or the first error's position and message) against bench/pathological_manifest.json.

A run that exits 3 (a charged extern with no Udon node) or 1 (validation failed) still has
its JSON read and summarised; a program that reached the frame cap (NOT-FINISHED), threw or
timed out is flagged on its row.

Usage:
  python bench/udon_cost.py [--budget 2500] [--ours-dir DIR | --optimize 0|1|2] [--frame-cap N]
                            [--only WORD ...] [--out DIR]
                            [--skip-corpus | --skip-pathological] [--strict] [-- TOOL-ARGS]

Exit status: 0 done; 1 a run failed validation, or an in-world outcome differs from the
manifest; 2 a run produced no results (setup problem); 3 Udon exposure failed; 4 (--strict)
some event is over the budget.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

import pathological  # noqa: E402

DEFAULT_TOOL = ROOT.parent / "shared" / "tools" / "udon_cost" / "measure.py"
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
RESULTS = BENCH / "results"
BUDGET = 2500


def fmt(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


def tool_options(tool: Path) -> str:
    r = subprocess.run([sys.executable, str(tool), "--help"], capture_output=True, text=True,
                       cwd=ROOT)
    return r.stdout


def run_tool(label: str, tool: Path, args: list[str], work: Path, out: Path) -> dict:
    """One measure.py run; returns {rc, seconds, json (or None), log}."""
    js, md = out / f"udon-cost-{label}.json", out / f"udon-cost-{label}.md"
    for f in (js, md):
        f.unlink(missing_ok=True)
    log = work / f"{label}.log"
    cmd = [sys.executable, str(tool), "--ours-only", "--json", str(js), "--md", str(md),
           "--work", str(work / label), *args]
    print(f"[{label}] {' '.join(cmd)}", file=sys.stderr)
    t0 = time.time()
    with log.open("w") as fh:
        rc = subprocess.run(cmd, cwd=ROOT, stdout=fh, stderr=subprocess.STDOUT).returncode
    seconds = time.time() - t0
    data = json.loads(js.read_text()) if js.exists() else None
    status = {0: "ok", 1: "VALIDATION FAILED", 2: "SETUP PROBLEM (no results)",
              3: "done, Udon exposure FAILED"}.get(rc, f"exit {rc}")
    print(f"[{label}] exit {rc} ({status}) in {seconds:.1f} s; log {log}", file=sys.stderr)
    if data is None:
        tail = log.read_text().strip().splitlines()[-15:]
        print("\n".join(f"[{label}]   {line}" for line in tail), file=sys.stderr)
    return {"label": label, "rc": rc, "status": status, "seconds": round(seconds, 1),
            "json": data, "json_path": str(js), "md_path": str(md), "log": str(log)}


def inworld_outcome(row: dict) -> tuple[str, str]:
    """('ok' | 'error' | a failure flag, detail) from one program row of the tool's JSON."""
    rc, err = row.get("rc"), row.get("stderr") or ""
    if rc == 0:
        return "ok", ""
    if rc == 1 and err.startswith("COMPILE-ERROR compiled: "):
        # the tool's plain-build host reads the upload only from _Program0.._Program3, so a
        # compile that uploaded a program texture (docs/spec.md §5.5) looks to it like an
        # error whose message is the Compiler's success text
        return "ok", ""
    if rc == 1 and err.startswith("COMPILE-ERROR"):
        return "error", err[len("COMPILE-ERROR "):]
    if rc == "timeout":
        return "TIMEOUT", err
    if err.startswith("NOT-FINISHED"):
        return "FRAME-CAP", err
    if err.startswith("EXCEPTION"):
        return "EXCEPTION", err
    return f"rc {rc}", err


def agrees(expect: dict, outcome: str, detail: str) -> bool:
    """The in-world outcome against psl's (bench/pathological_manifest.json)."""
    if expect.get("expect") == "ok":
        return outcome == "ok"
    if outcome != "error":
        return False
    m = re.match(r"line (\d+), col (\d+): (.*)$", detail, re.S)
    if not m:
        return False
    line, col, msg = m.groups()
    # the tool keeps the first 200 characters of the host's message
    return (f"{line}:{col}" == expect.get("at")
            and (expect.get("message", "").startswith(msg) or msg.startswith(expect["message"])))


def summarise(run: dict, budget: int, manifest: dict | None) -> dict:
    data = run["json"]
    rep = str(data.get("report_run", 1))
    rows, flagged = [], []
    total = {"programs": 0, "externs": 0, "events": 0}
    largest = None
    for prog, comps in data["programs"].items():
        row = comps.get("ours") or {}
        cost = (row.get("cost") or {}).get(rep) or {}
        externs = cost.get("externs")
        outcome, detail = inworld_outcome(row)
        # every run's events count: the largest over all runs (the JSON's max_event_externs)
        # is the longest hitch, so a later run's event over the budget flags the program too
        over = [e for c in (row.get("cost") or {}).values()
                for e in c.get("event_externs", []) if e > budget]
        max_event = row.get("max_event_externs")
        r = {"program": prog, "outcome": outcome, "detail": detail[:200], "externs": externs,
             "events": cost.get("events"), "frames": cost.get("frames"),
             "max_event_externs": max_event, "max_event": cost.get("max_event"),
             "frames_at_budget": None if externs is None else max(1, math.ceil(externs / budget)),
             "events_over_budget": len(over)}
        if manifest is not None:
            want = manifest.get(prog)
            r["expected"] = want.get("expect") if want else None
            r["agrees"] = None if want is None else agrees(want, outcome, detail)
        rows.append(r)
        if over:
            flagged.append(prog)
        if max_event is not None and (largest is None or max_event > largest["externs"]):
            # the run whose event it is: its own max_event says which event
            at = next((c.get("max_event") for c in (row.get("cost") or {}).values()
                       if c.get("max_event_externs") == max_event), cost.get("max_event"))
            largest = {"run": run["label"], "program": prog, "externs": max_event,
                       "event": at}
        if not prog.startswith("synth_") and externs is not None:
            total["programs"] += 1
            total["externs"] += externs
            total["events"] += cost.get("events") or 0
    return {"label": run["label"], "rc": run["rc"], "status": run["status"],
            "seconds": run["seconds"], "json": run["json_path"], "md": run["md_path"],
            "validation_problems": data.get("validation", {}).get("problems", []),
            "udon_exposure": data.get("udon_exposure", {}).get("verdict"),
            "rows": rows, "total": total, "largest_event": largest,
            "over_budget": sorted(flagged, key=lambda p: -max(
                (r["max_event_externs"] or 0) for r in rows if r["program"] == p))}


def table(s: dict, budget: int) -> list[str]:
    has_manifest = any("expected" in r for r in s["rows"])
    head = (f"| program | outcome | externs | events | frames | max/event | frames@{budget:,} "
            f"| events>{budget:,} |" + (" psl | agrees |" if has_manifest else ""))
    out = [head, "|---|---|---:|---:|---:|---:|---:|---:|" + ("---|---|" if has_manifest else "")]
    for r in s["rows"]:
        outcome = r["outcome"]
        if outcome == "error":
            m = re.match(r"line (\d+), col (\d+): (.*)", r["detail"])
            msg = f"{m.group(1)}:{m.group(2)} {m.group(3)}" if m else r["detail"]
            outcome = "error " + (msg if len(msg) <= 48 else msg[:45].rstrip() + "...")
        line = (f"| {r['program']} | {outcome} | {fmt(r['externs'])} | {fmt(r['events'])} | "
                f"{fmt(r['frames'])} | {fmt(r['max_event_externs'])} | "
                f"{fmt(r['frames_at_budget'])} | {fmt(r['events_over_budget'])}"
                + (" **OVER** |" if r["events_over_budget"] else " |"))
        if has_manifest:
            ag = {None: "?", True: "yes", False: "**NO**"}[r.get("agrees")]
            line += f" {r.get('expected') or '?'} | {ag} |"
        out.append(line)
    t = s["total"]
    what = "corpus total (without synth_)" if s["label"] == "corpus" else "total"
    cells = [f"**{what}: {t['programs']} programs**", "", f"**{fmt(t['externs'])}**",
             fmt(t["events"]), "", "", fmt(math.ceil(t["externs"] / budget)), ""]
    cells += ["", ""] if has_manifest else []
    out.append("| " + " | ".join(cells) + " |")
    return out


def report(summaries: list[dict], budget: int, measured: str) -> str:
    L = ["# Udon extern cost of the in-world compiler (bench/udon_cost.py)", "",
         f"Compiler measured: {measured}.", "",
         "Exact Udon extern counts from ../shared/tools/udon_cost (one `Compile()` run, plus the "
         "Update()/delayed events of a sliced compile). *events*: top-level entries into the "
         "behaviour; *frames*: frames played after Compile()'s; *max/event*: the largest event "
         "of every run (the longest hitch); *frames@budget*: frames a compile needs at the "
         f"budget, ceil(externs / {budget:,}); *events>budget*: events over {budget:,} externs "
         "in every run (the first compile after the world loads and the later ones).", ""]
    for s in summaries:
        L.append(f"## {s['label']}: exit {s['rc']} ({s['status']}), {s['seconds']} s")
        L.append("")
        L.extend(table(s, budget))
        L.append("")
        if s["udon_exposure"]:
            L.append(f"- {s['udon_exposure']}")
        for p in s["validation_problems"][:10]:
            L.append(f"- validation problem: {p}")
        bad = [r["program"] for r in s["rows"] if r.get("agrees") is False]
        if bad:
            L.append(f"- in-world outcome differs from psl's (manifest): {', '.join(bad)}")
        odd = [f"{r['program']} ({r['outcome']})" for r in s["rows"]
               if r["outcome"] not in ("ok", "error")]
        if odd:
            L.append(f"- did not finish: {', '.join(odd)}")
        L.append("")
    largest = max((s["largest_event"] for s in summaries if s["largest_event"]),
                  key=lambda e: e["externs"], default=None)
    if largest:
        ev = largest["event"] or {}
        L.append(f"**Largest single event:** {fmt(largest['externs'])} externs, "
                 f"{largest['run']}/{largest['program']} (event {ev.get('index', '?')}, "
                 f"{ev.get('name', '?')}, frame {ev.get('frame', '?')}).")
    n_over = sum(len(s["over_budget"]) for s in summaries)
    n_all = sum(len(s["rows"]) for s in summaries)
    if n_over:
        def some(names: list[str]) -> str:
            more = f", ... and {len(names) - 8} more" if len(names) > 8 else ""
            return ", ".join(names[:8]) + more
        L.append(f"**Over budget:** {n_over} of {n_all} programs have an event over "
                 f"{budget:,} externs (largest first): " + "; ".join(
                     f"{s['label']} {len(s['over_budget'])}/{len(s['rows'])}: "
                     + some(s["over_budget"]) for s in summaries if s["over_budget"]) + ".")
    else:
        L.append(f"**Over budget:** no event over {budget:,} externs in {n_all} programs.")
    return "\n".join(L) + "\n"


def generate(folder: Path, optimize: int) -> Path:
    """`psl-gen udonsharp` of this checkout into `folder`, the Compiler's `optimize` field set
    (and `superinstructions` for -O2)."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-c", "import sys; from psl.cli.gen import main; "
                    "sys.argv[0] = 'psl-gen'; sys.exit(main())", "udonsharp", "--out", str(folder)],
                   check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                   stdout=subprocess.DEVNULL)
    cs = folder / "Compiler.cs"
    text, n = re.subn(r"public bool optimize = (true|false);",
                      f"public bool optimize = {'true' if optimize else 'false'};",
                      cs.read_text(encoding="utf-8"))
    if n != 1:
        raise SystemExit("udon_cost: no `public bool optimize` field in the generated Compiler.cs")
    # -O2: `superinstructions` on as well (psl/optimize/fuse.cs.j2)
    text, n = re.subn(r"public bool superinstructions = (true|false);",
                      f"public bool superinstructions = {'true' if optimize >= 2 else 'false'};",
                      text)
    if n != 1:
        raise SystemExit("udon_cost: no `public bool superinstructions` field in the generated "
                         "Compiler.cs")
    sys.path.insert(0, str(ROOT))
    from tests.udon_support.scripts import without_namespace  # the tool looks at top level

    cs.write_text(without_namespace(text), encoding="utf-8")
    # the tool builds every .cs of the folder with its stubs, which hold the Compiler's
    # Udon API only: the world's other behaviours (VRC SDK3 types) stay out
    for other in folder.glob("*.cs"):
        if other.name != "Compiler.cs":
            other.unlink()
    return folder


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Arguments after -- go to measure.py on both runs.")
    ap.add_argument("--budget", type=int, default=BUDGET,
                    help="externs allowed in one event/frame (default %(default)s)")
    ap.add_argument("--tool", type=Path, default=Path(os.environ.get("UDON_COST_TOOL",
                                                                     DEFAULT_TOOL)),
                    help="measure.py (default ../shared/tools/udon_cost/measure.py or "
                         "$UDON_COST_TOOL)")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                    help="folder of the real programs (default ../shared/corpus)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="results folder (default "
                                                               "bench/results)")
    ap.add_argument("--work", type=Path,
                    default=Path(tempfile.gettempdir()) / "psl-bench-udon-cost",
                    help="build/run folder and the generated programs (default %(default)s)")
    ap.add_argument("--ours-dir", help="measure this folder's generated Compiler.cs instead of "
                                       "running psl-gen udonsharp on this checkout")
    ap.add_argument("--optimize", type=int, choices=(0, 1, 2),
                    help="the Compiler's `optimize` field (2: and `superinstructions`, -O2): "
                         "generate Compiler.cs with it set "
                         "(default: the template's defaults, registry."
                         "INWORLD_DEFAULT_OPTIMIZE_LEVEL) and measure that; with --out, "
                         "keeps -O1 results apart from the committed ones")
    ap.add_argument("--frame-cap", type=int,
                    help="most frames after Compile() (passed on when measure.py takes it)")
    ap.add_argument("--only", nargs="*", help="only programs whose names contain these words")
    ap.add_argument("--mutations", type=int, default=0,
                    help="seeded mutations checked on the pathological run (default 0; the "
                         "corpus run keeps the tool's default)")
    ap.add_argument("--skip-corpus", action="store_true")
    ap.add_argument("--skip-pathological", action="store_true")
    ap.add_argument("--strict", action="store_true",
                    help="exit 4 when some event is over the budget")
    ap.add_argument("extra", nargs="*", help="arguments for measure.py (after --)")
    args = ap.parse_args()

    if not args.tool.is_file():
        print(f"udon_cost: no {args.tool} (shared/ beside the checkout, or --tool / "
              "$UDON_COST_TOOL)", file=sys.stderr)
        return 2
    args.work.mkdir(parents=True, exist_ok=True)
    args.out.mkdir(parents=True, exist_ok=True)
    common = list(args.extra)
    if args.optimize is not None and not args.ours_dir:
        args.ours_dir = str(generate(args.work / f"ours-o{args.optimize}", args.optimize))
    if args.ours_dir:
        common += ["--ours-dir", str(Path(args.ours_dir).resolve())]
    if args.only:
        common += ["--only", *args.only]
    if args.frame_cap is not None:
        if "--frame-cap" in tool_options(args.tool):
            common += ["--frame-cap", str(args.frame_cap)]
        else:
            print(f"udon_cost: {args.tool.name} has no --frame-cap; the hosts' default applies "
                  "(2,000,000 frames)", file=sys.stderr)

    runs = []
    if not args.skip_corpus:
        runs.append(run_tool("corpus", args.tool, ["--corpus", str(args.corpus), *common],
                             args.work, args.out))
    manifest = None
    if not args.skip_pathological:
        folder = args.work / "pathological-programs"
        pathological.write(folder)
        manifest = pathological.load_manifest()
        runs.append(run_tool("pathological", args.tool,
                             ["--corpus", str(folder), "--no-synth", "--mutations",
                              str(args.mutations), *common], args.work, args.out))

    summaries = [summarise(r, args.budget, manifest if r["label"] == "pathological" else None)
                 for r in runs if r["json"] is not None]
    measured = (f"the Compiler.cs in {Path(args.ours_dir).resolve()} (--ours-dir)" if args.ours_dir
                else f"`psl-gen udonsharp` of {ROOT}")
    text = report(summaries, args.budget, measured)
    print(text)
    (args.out / "udon-cost-summary.md").write_text(text)
    runs_out = [{k: v for k, v in r.items() if k != "json"} for r in runs]
    (args.out / "udon-cost-summary.json").write_text(json.dumps(
        {"budget": args.budget, "measured": measured, "runs": runs_out, "summaries": summaries},
        indent=1) + "\n")
    print(f"wrote {args.out}/udon-cost-{{corpus,pathological,summary}}.{{json,md}}",
          file=sys.stderr)

    if any(r["json"] is None for r in runs):
        return 2
    if any(r["rc"] == 1 for r in runs) or any(
            r.get("agrees") is False for s in summaries for r in s["rows"]):
        return 1
    if any(r["rc"] == 3 for r in runs):
        return 3
    if args.strict and any(s["over_budget"] for s in summaries):
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
