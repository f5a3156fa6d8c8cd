"""No Udon event of a sliced compile goes over 2,500 externs (issue 37, "compile stays
hitch-free to the limit"), on two programs that once did, counted exactly by the shared
udon_cost tool (../shared/tools/udon_cost, see its README): a call of 120+ arguments at the
stack limit (tests/shapegen `limit`, seed 30012: stack_limit_7 of
bench/results/udon-cost-limits.md, 3,287 externs in one event before the liveness scans
charged the register reads) and hoist's classes of long trees that differ only at their end
(each candidate compared with every class in one step: about 120,000 externs in one event
before the class scan went in parts). The full figures are bench/udon_cost.py's.

Skipped without mono, the shared tool or the tool's venv (`measure.py` creates it on its
first run; this test does not download anything)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from psl.gen import udonsharp
from tests import shapegen
from tests.udon_support.scripts import without_namespace

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT.parent / "shared" / "tools" / "udon_cost" / "measure.py"
VENV = Path(os.environ.get("UDON_COST_VENV", str(Path(tempfile.gettempdir()) / "udon-cost-venv")))
BUDGET = 2500


def hoist_classes(calls: int = 40) -> str:
    terms = " + ".join(f"sin(uv().x * {k}.5)" for k in range(1, 21))
    body = "".join(f"z = z + f({i}.25);\n" for i in range(calls))
    return f"fun f(k) {{ {terms} + k }}\nz = 0;\n{body}z\n"


@pytest.mark.skipif(not TOOL.is_file(), reason="no shared udon_cost tool")
@pytest.mark.skipif(not (shutil.which("mono") and shutil.which("mcs")), reason="needs mono, mcs")
@pytest.mark.skipif(not (VENV / ".udon_cost_ok").exists(),
                    reason="the udon_cost venv is not set up (run measure.py once)")
def test_no_event_over_budget_at_the_limits(tmp_path):
    ours = tmp_path / "ours"
    ours.mkdir()
    (ours / "Compiler.cs").write_text(without_namespace(udonsharp.TARGET.render()["Compiler.cs"]),
                                      encoding="utf-8")
    progs = tmp_path / "progs"
    progs.mkdir()
    stack = shapegen.generate(30012, "limit")
    assert "stack_limit" in stack.tags
    (progs / "stack_limit.psl").write_text(stack.text, encoding="utf-8")
    (progs / "hoist_classes.psl").write_text(hoist_classes(), encoding="utf-8")
    out = tmp_path / "cost.json"
    r = subprocess.run([sys.executable, str(TOOL), "--ours-only", "--ours-dir", str(ours),
                        "--corpus", str(progs), "--no-synth", "--mutations", "0",
                        "--no-selftest", "--json", str(out), "--md", str(tmp_path / "cost.md"),
                        "--work", str(tmp_path / "work")],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    got = {name: p["ours"]["max_event_externs"] for name, p in data["programs"].items()}
    assert set(got) == {"stack_limit", "hoist_classes"}
    assert all(p["ours"]["rc"] == 0 for p in data["programs"].values()), data["programs"]
    assert max(got.values()) <= BUDGET, got
