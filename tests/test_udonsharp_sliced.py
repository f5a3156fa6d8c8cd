"""The in-world compiler compiles in slices across frames: Compile()/CompileReceived() start a
compile, Update() continues it while `compiling` is true, output.text shows "compiling..." until
the program is compiled, and only a compiled program reaches the material, in one event: with
`optimize` and `superinstructions` on (the defaults) its -O0 code at once, then its -O2 code
(registry.INWORLD_DEFAULT_OPTIMIZE_LEVEL) when the optimizer is done.
A new Compile()/CompileReceived() before that abandons the compile: nothing more of it is
uploaded.

The host's --overlap mode (tests/csharp_support/Host.cs) drives one Compiler through
  (a) A compiled to completion;
  (b) Compile() B, 3 frames, text = C, Compile() again, frames to the end;
  (c) Compile() A, 2 frames, text = D, CompileReceived(), frames to the end;
and records every event. Tests that need the sliced Compiler skip while it has no `compiling`
member (a compiler that finishes inside Compile()).
"""

from __future__ import annotations

import functools
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from psl.compiler import compile_source
from psl.registry import INWORLD_DEFAULT_OPTIMIZE_LEVEL as OPT
from tests.conftest import CORPUS
from tests.csharp_support import build as csbuild
from tests.test_udonsharp_diff import default_result, reference

pytestmark = pytest.mark.skipif(not csbuild.tools_available(),
                                reason="mono-mcs/mono-runtime not installed")

#: (a) the baseline, and in (c) the compile abandoned by received text: big (many frames)
A = CORPUS / "apps_TableTennisPro.psl"
#: (b) the compile abandoned by a second press: the biggest corpus program
B = CORPUS / "scene_pong_by_fuopy.psl"
#: (b) the press during B's compile
C = CORPUS / "scene_spiral.psl"
#: (c) the text received during A's compile
D = CORPUS / "scene_mandelbrot.psl"

UPLOAD_NAMES = ["_ProgramTex"]


@pytest.fixture(scope="session")
def host(tmp_path_factory) -> Path:
    return csbuild.shared_host(tmp_path_factory)


@pytest.fixture(scope="module")
def probe(host) -> dict:
    proc = subprocess.run(["mono", str(host), "--probe"], capture_output=True, text=True,
                          check=True, timeout=120)
    return json.loads(proc.stdout)


@pytest.fixture
def sliced(probe) -> None:
    if not probe["compiling_member"]:
        pytest.skip("Compiler has no `compiling` member: it still compiles inside Compile() "
                    "(the sliced compiler has not landed)")


@pytest.fixture(scope="module")
def overlap(host) -> dict:
    proc = subprocess.run(["mono", str(host), "--overlap", str(A), str(B), str(C), str(D)],
                          capture_output=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    result = json.loads(proc.stdout.decode("utf-8"))
    assert result["exc"] is None, result["exc"]
    return result


@functools.cache
def psl(path: Path, level: int = OPT) -> tuple[np.ndarray | None, str]:
    """(program texture bits or None, output.text) as the reference compiler has them at
    -O`level`; the text is the one the in-world Compiler ends with at that level (the
    --overlap Compiler keeps the default, OPT; the list mode of the host drives every level
    through Update(), tests/test_udonsharp_diff.py)."""
    src = path.read_text(encoding="utf-8")
    slots, error = reference(src, level)
    if slots is None:
        return None, error
    return slots, default_result(src, optimize=level >= 1, level=level)[0]


def same(hexslots: str | None, slots: np.ndarray | None) -> bool:
    if hexslots is None or slots is None:
        return hexslots is None and slots is None
    return np.array_equal(csbuild.decode_slots(hexslots), slots)


def which(hexslots: str) -> str:
    """The program an upload holds: "A0" for A at -O0, "A2" at -O2 (OPT), ... ("?" for
    none)."""
    for name, path in (("A", A), ("B", B), ("C", C), ("D", D)):
        for level in (0, OPT):
            if same(hexslots, psl(path, level)[0]):
                return f"{name}{level}"
    return "?"


def uploads(overlap: dict, step: str) -> list[dict]:
    return [e for e in overlap["events"] if e["step"] == step and e["uploads"]]


def test_programs_are_distinct_and_compile():
    programs = [psl(p, level)[0] for p in (A, B, C, D) for level in (0, OPT)]
    assert all(p is not None for p in programs)
    for i in range(4):
        for j in range(i):
            assert not np.array_equal(programs[i], programs[j])


def test_probe(probe):
    assert probe["update_method"]
    assert probe["frame_cap"] >= 1_000_000


def test_overlap_ends_with_the_last_program(overlap):
    """Holds for any compiler: after (a) A is on the material, after (b) C, after (c) D, with
    psl's texts; every upload binds the program texture once, within one event, and holds
    a whole program."""
    for step, path in (("a", A), ("b", C), ("c", D)):
        slots, text = psl(path)
        got = overlap["steps"][step]
        assert got["out"] == text, step
        assert same(got["slots"], slots), f"after ({step}) the material holds {which(got['slots'])}"
        last = [e for e in overlap["events"] if e["step"] == step][-1]
        assert not last["compiling"] and last["out"] == text, (step, last)
    for e in overlap["events"]:
        if e["uploads"]:
            assert sorted(e["upload_names"]) == UPLOAD_NAMES, e["upload_names"]
            assert e["upload_slots"] is not None
            assert which(e["upload_slots"]) != "?", (e["step"], e["call"])


def test_overlap_interrupts_a_running_compile(overlap, sliced):
    """The second press (b) and the received text (c) arrive while a compile runs."""
    assert overlap["steps"]["b"]["compiling_at_interrupt"], (
        f"{B.name} finished within 3 frames: (b) needs a program that takes longer")
    assert overlap["steps"]["c"]["compiling_at_interrupt"], (
        f"{A.name} finished within 2 frames: (c) needs a program that takes longer")
    assert overlap["steps"]["a"]["frames"] >= 2


def test_overlap_abandoned_compiles_never_upload(overlap, sliced):
    """Each step uploads its program at -O0 as soon as it is compiled and at -O2 at its end:
    A in (a), C in (b), D in (c) -- never B, never the A abandoned in (c)."""
    for step, want in (("a", "A"), ("b", "C"), ("c", "D")):
        got = [which(e["upload_slots"]) for e in uploads(overlap, step)]
        assert got == [want + "0", want + str(OPT)], f"({step}) uploaded {got}"
        events = [e for e in overlap["events"] if e["step"] == step]
        assert events[-1]["uploads"] == 1, f"({step}) did not upload in its last event"


def test_overlap_progress_text(overlap, sliced):
    """While compiling, output.text starts with "compiling", or once the -O0 program is up
    it is that program's result and "; optimizing"; an event that leaves the compiler idle
    shows the final text. Uploads happen in such an event or in the one that starts the
    optimizer."""
    finals = {psl(p)[1] for p in (A, B, C, D)}
    running = {psl(p, 0)[1] + "; optimizing" for p in (A, B, C, D)}
    for e in overlap["events"]:
        if e["compiling"]:
            assert e["out"].startswith("compiling") or e["out"] in running, e
            assert e["uploads"] == 0 or e["out"] in running, e
        else:
            assert e["out"] in finals, e
    for step in "abc":
        events = [e for e in overlap["events"] if e["step"] == step]
        assert [e["compiling"] for e in events[:-1]] == [True] * (len(events) - 1), step
        frames = sum(e["count"] for e in events if e["call"] == "Update")
        assert frames == overlap["steps"][step]["frames"]


def test_list_mode_counts_frames(host, sliced):
    """The differential list mode drives frames to the end: pong takes several, and its
    program arrives in one event."""
    sources = [B.read_text(encoding="utf-8"), "x = 1; x"]
    pong0, small = csbuild.run_batch(host, sources)
    # both settings of `optimize` go through Update(): off (-O0) and on (-O1, more frames)
    pong = pong0.optimized
    assert pong is not None and small.optimized is not None
    assert pong0.exception is None and pong.exception is None and small.exception is None
    assert 1 <= pong0.frames < pong.frames
    assert pong0.ok and pong0.upload_events == 1 and pong0.uploads == 1
    assert np.array_equal(pong0.slots, reference(B.read_text(encoding="utf-8"))[0])
    assert pong.ok and pong.upload_events == 2 and pong.uploads == 2  # -O0, then -O1
    assert pong.first_slots is not None and np.array_equal(pong.first_slots, pong0.slots)
    slots, text = psl(B, 1)
    assert pong.out == text and pong.slots is not None and np.array_equal(pong.slots, slots)
    assert small.ok and small.upload_events == 1 and small.optimized.ok
    assert small.optimized.upload_events == 2


def test_repeat_finishes_each_compile(host, sliced):
    out = csbuild.time_repeat(host, B, 2)
    assert out["out"] == psl(B)[1] and out["frames"] >= 1


def test_big_programs_through_the_sliced_path(host, sliced):
    """A program of 15,000 instructions compiles over many frames into the program texture
    that `psl compile --format texture` writes, bound to the material in one event; one
    instruction over the limit is the same E030 in both compilers."""
    from psl.registry import LIMITS
    from tests.vm_support import big

    sources = [big.source(15000), big.source(LIMITS.instructions + 1)]
    got, over = csbuild.run_batch(host, sources)
    assert got.exception is None and over.exception is None
    slots, error = reference(sources[0])
    assert slots is not None and got.ok, got.out
    program = compile_source(sources[0], lint=False).unwrap()
    assert got.out == f"compiled: 15000 instructions, {program.registers} registers"
    assert got.upload_events == 1 and got.uploads == 1 and got.frames > 1
    assert got.slots is not None and np.array_equal(got.slots, slots)
    assert not np.isnan(got.slots.view(np.float32)).any()
    # the Compiler's `optimize` on: the -O0 program, then the -O1 one, each in one event,
    # equal to psl's
    opt = got.optimized
    assert opt is not None and opt.exception is None and opt.ok, got.out
    assert opt.upload_events == 2 and opt.uploads == 2
    assert opt.first_slots is not None and np.array_equal(opt.first_slots, slots)
    assert np.array_equal(opt.slots, reference(sources[0], 1)[0])
    _, error = reference(sources[1])
    assert not over.ok and over.uploads == 0 and over.out == error
    assert over.optimized is not None and over.optimized.out == error
    assert error == (f"line 1, col 1: program too large: {LIMITS.instructions + 1} "
                     f"instructions after inlining (limit {LIMITS.instructions})")
