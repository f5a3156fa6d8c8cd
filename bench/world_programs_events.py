"""Udon externs per event of ProgramLoader and ProgramSaves (issue 26), a 16,000-character
download included.

Own cost: an upper bound from the exposure checker's extern sites over each event's call tree
(tests/udon_support/event_cost.py: the behaviours have no loops, so every site runs at most
once per call). ProgramLoader.Update starts the compile of a loaded program (Compiler.
CompileLocal runs its first slice inside that event), so it adds the Compiler's largest
event measured exactly by the shared udon_cost tool on programs of the source limit: two
16,000-character programs written here (pong padded with a comment, and 16,000 characters
of statements), run with `measure.py --ours-only --no-synth --corpus DIR`. No event of the
loader touches the downloaded text in a loop, so its own cost does not grow with the text.

Usage: python bench/world_programs_events.py [--skip-measure] [--budget 2500]
Writes bench/results/udon-cost-16k.{json,md} (unless --skip-measure) and
bench/results/world-programs-events.md, and prints the latter. Exit 1 if an event is over.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from psl import registry  # noqa: E402
from tests.udon_support.event_cost import event_bounds  # noqa: E402
from tests.udon_support.inventory import build as inventory_build  # noqa: E402
from tests.udon_support.scripts import generated_scripts  # noqa: E402

TOOL = ROOT.parent / "shared" / "tools" / "udon_cost" / "measure.py"
RESULTS = ROOT / "bench" / "results"
#: events whose call reaches into the Compiler (the first compile slice runs inside them)
STARTS_COMPILE = {("ProgramLoader.cs", "Update")}
#: events that run another behaviour's method in the same event: (script, event) -> (script,
#: method) added to the bound
CALLS_OTHER = {("ProgramSaves.cs", f"LoadSlot{n}"): ("ProgramLoader.cs", "OfferText")
               for n in range(1, 9)} | {("ProgramSaves.cs", "LoadLast"):
                                        ("ProgramLoader.cs", "OfferText")}
UDON_EVENTS = ("Start", "Update", "OnStringLoadSuccess", "OnStringLoadError",
               "OnPlayerRestored", "OnPlayerDataStorageExceeded", "OnPlayerDataStorageWarning")


def long_programs(folder: Path) -> None:
    limit = registry.LIMITS.source_chars
    pong = (ROOT / "unity_package" / "Examples" / "scene_pong_by_fuopy.psl").read_text()
    padded = pong + "\n// " + "x" * (limit - len(pong) - 5) + "\n"
    (folder / "pong_16000.psl").write_text(padded[:limit], encoding="utf-8")
    line = "let a = 1.0 + 2.0 * 3.0;\n"
    body = (line * (limit // len(line)))[: limit - 2]
    body = body[: body.rfind("\n") + 1] + "a\n"
    (folder / "lets_16000.psl").write_text(body + " " * (limit - len(body)), encoding="utf-8")


def measure() -> None:
    with tempfile.TemporaryDirectory(prefix="psl-16k-") as tmp:
        long_programs(Path(tmp))
        subprocess.run([sys.executable, str(TOOL), "--ours-only", "--no-synth",
                        "--mutations", "0", "--corpus", tmp,
                        "--json", str(RESULTS / "udon-cost-16k.json"),
                        "--md", str(RESULTS / "udon-cost-16k.md")], cwd=ROOT, check=False)


def compile_max() -> int:
    best = 0
    for name in ("udon-cost-corpus.json", "udon-cost-pathological.json", "udon-cost-16k.json"):
        path = RESULTS / name
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            best = max([best, *(p["ours"]["max_event_externs"]
                                for p in data["programs"].values() if "ours" in p)])
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--skip-measure", action="store_true")
    ap.add_argument("--budget", type=int, default=2500)
    args = ap.parse_args()
    if not args.skip_measure:
        measure()
    slice_max = compile_max()
    scripts = generated_scripts()
    inventory = inventory_build(scripts)
    bounds = {name: event_bounds(name, scripts[name], inventory.sites[name])
              for name in ("ProgramLoader.cs", "ProgramSaves.cs")}
    lines = ["# Udon externs per event of ProgramLoader and ProgramSaves", "",
             "Own: an upper bound over the event's loop-free call tree (each extern site once "
             "per call). Compile: the Compiler's largest event measured by udon_cost on the "
             f"corpus, the pathological programs and two 16,000-character programs ({slice_max}),"
             " added where the event starts a compile.", "",
             "| behaviour | event | own | total |", "|---|---|---:|---:|"]
    over = False
    for name, table in bounds.items():
        source = scripts[name]
        for method, b in table.items():
            if f"public void {method}()" not in source and method not in UDON_EVENTS:
                continue
            own = b.externs
            other = CALLS_OTHER.get((name, method))
            if other is not None:
                own += bounds[other[0]][other[1]].externs
            total = own + (slice_max if (name, method) in STARTS_COMPILE else 0)
            over |= total > args.budget
            lines.append(f"| {name[:-3]} | {method} | {own} | {total} |")
    text = "\n".join(lines) + "\n"
    (RESULTS / "world-programs-events.md").write_text(text, encoding="utf-8")
    print(text)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
