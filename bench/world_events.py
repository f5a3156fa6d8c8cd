"""Udon externs per event of the world's small behaviours (SyncCode, ExampleButton, TypingLock,
ScreenQuality, ListingView, ReliefQuality, FrameGuard): a static upper bound, plus the compile
they start.

Each event's own cost is bounded by the extern sites (tests/udon_support checker, as
UdonSharp 1.x names them) of every method the event can reach inside its class, each counted
once: these behaviours have no loops except ScreenQuality's and ReliefQuality's, whose
per-element sites are reported per screen and buffer. An event that starts a compile
(Compiler.Compile, CompileReceived or CompileText: the first slice runs inside the caller's
event) adds the Compiler's largest event, measured exactly by the shared udon_cost tool
(bench/udon_cost.py; pass its JSON with --udon-cost, default
bench/results/udon-cost-o2/udon-cost-corpus.json: the Compiler's default level, -O2).

Usage: python bench/world_events.py [--udon-cost FILE] [--budget 2500]
Writes bench/results/world-events.md and prints it. Exit 1 if an event is over the budget.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from psl.gen import udonsharp  # noqa: E402
from tests.udon_support.checker import check_project  # noqa: E402
from tests.udon_support.scripts import generated_scripts  # noqa: E402

BEHAVIOURS = ("SyncCode", "ExampleButton", "TypingLock", "ScreenQuality", "ListingView",
              "ReliefQuality", "FrameGuard")
#: loops an event runs a fixed number of times: (class, event) -> (method, times, and the
#: methods inside it that loop or are called again: name -> times). ListingView's Step reads
#: two texels and converts at most three numbers (Whole) per step.
LOOPS = {("ListingView", "Update"): ("Step", udonsharp.LISTING_PER_FRAME,
                                     {"MaskLetters": 4, "Slot": 2, "Whole": 3})}
#: Unity/Udon events the behaviours implement (besides public methods sent by the UI)
UDON_EVENTS = ("Start", "Update", "OnDeserialization", "Interact", "InputMoveHorizontal",
               "InputMoveVertical")
COMPILE_CALLS = re.compile(r"\bcompiler\.(Compile|CompileReceived|CompileText)\(")
_METHOD = re.compile(r"^    (?:public |private )(?:override )?\w+ (\w+)\(([^)]*)\)\s*$", re.M)


@dataclass
class Method:
    name: str
    first: int  # 1-based lines of the body, inclusive
    last: int
    text: str


def methods(source: str) -> dict[str, Method]:
    lines = source.splitlines()
    found: dict[str, Method] = {}
    for m in _METHOD.finditer(source):
        start = source[:m.start()].count("\n") + 1
        depth, end = 0, start
        for k in range(start, len(lines)):
            depth += lines[k].count("{") - lines[k].count("}")
            if depth == 0 and "}" in lines[k]:
                end = k + 1
                break
        found[m.group(1)] = Method(m.group(1), start, end, "\n".join(lines[start - 1:end]))
    return found


def reachable(start: str, table: dict[str, Method]) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name in seen or name not in table:
            continue
        seen.add(name)
        todo.extend(n for n in table if re.search(rf"(?<![.\w]){n}\(", table[name].text))
    return seen


def compile_event_max(path: Path) -> int | None:
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return max(p["ours"]["max_event_externs"] for p in data["programs"].values()
               if "ours" in p)


def rows(compile_max: int | None) -> list[tuple[str, str, int, bool, int | None]]:
    scripts = generated_scripts()
    sites = check_project(scripts)
    out = []
    for cls in BEHAVIOURS:
        source = scripts[f"{cls}.cs"]
        table = methods(source)
        events = [n for n in table if re.search(rf"public (?:override )?void {n}\(\)", source)
                  or n in UDON_EVENTS]
        for event in events:
            reach = reachable(event, table)

            def cost(names: set[str], _sites=sites[f"{cls}.cs"], _table=table) -> int:
                return sum(1 for s in _sites
                           if any(_table[n].first <= s.line <= _table[n].last for n in names))

            own = cost(reach)
            if (cls, event) in LOOPS:
                body, times, nested = LOOPS[(cls, event)]
                inner = reachable(body, table)
                per = cost(inner) + sum((k - 1) * cost({m}) for m, k in nested.items())
                own = cost(reach - inner) + times * per
            compiles = any(COMPILE_CALLS.search(table[n].text) for n in reach)
            total = own + compile_max if compiles and compile_max is not None else None
            out.append((cls, event, own, compiles, total if compiles else own))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--udon-cost", type=Path,
                    default=ROOT / "bench/results/udon-cost-o2/udon-cost-corpus.json")
    ap.add_argument("--budget", type=int, default=2500)
    args = ap.parse_args()
    compile_max = compile_event_max(args.udon_cost)
    lines = ["# Udon externs per event of the world's behaviours", "",
             "Own: extern sites the event can reach in its class (an upper bound, each site "
             "once; ScreenQuality's figure counts its two loops once: they run once per screen "
             "and render texture, 3 and 4 in the original layout, so at most 7 times it; "
             "ReliefQuality's loop runs once per screen (3 at most); ListingView's "
             "Update runs Step LISTING_PER_FRAME times, MaskLetters 4 times, Slot twice and Whole "
             "3 times each). Compile: the "
             "Compiler's largest event measured by udon_cost "
             f"({compile_max if compile_max is not None else 'not measured'}), added where "
             "the event starts a compile.", "",
             "| behaviour | event | own | starts a compile | total |", "|---|---|---:|---|---:|"]
    over = False
    for cls, event, own, compiles, total in rows(compile_max):
        lines.append(f"| {cls} | {event} | {own} | {'yes' if compiles else ''} | "
                     f"{total if total is not None else '?'} |")
        over |= total is not None and total > args.budget
    text = "\n".join(lines) + "\n"
    out = ROOT / "bench/results/world-events.md"
    out.write_text(text, encoding="utf-8")
    print(text)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
