"""Width inference (psl/infer) against the reference VM, and its checks.

The property: on generated valid programs, at every pixel that ends before the jump limit,
the width of the result the reference VM produces (its non-NaN lanes, before the output
zeroes them) is among the inferred widths, and equals it where the inference says the
width is static (one width). The corpus is held to the same, and the checks' programs in
tests/programs/clean must stay free of diagnostics (the negative cases; the positive ones
are in tests/programs/warnings with the other warnings).
"""

from __future__ import annotations

import random
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psl import registry
from psl.compiler import compile_source
from psl.infer import domain
from psl.vm import values as vmv
from psl.vm.inputs import Inputs
from psl.vm.machine import Frame, decode
from psl.vm.samples import reference_inputs
from tests import progen
from tests.conftest import corpus_programs
from tests.progen.widths import width_program

CLEAN = sorted((Path(__file__).parent / "programs" / "clean").glob("*.psl"))
SIZE = 8


def _inputs() -> Inputs:
    ref = reference_inputs()
    return Inputs(width=SIZE, height=SIZE, time=ref.time, delta_time=ref.delta_time,
                  button=ref.button, axis=ref.axis, camera=ref.camera, video=ref.video,
                  is_avpro=False)


def vm_widths(source: str, inputs: Inputs | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel: the result's width in the VM, and whether the jump limit stopped it."""
    program = compile_source(source, lint=False).unwrap()
    frame = Frame(decode(program.slots()), inputs or _inputs(), registry.LIMITS.jumps)
    frame.run()
    return frame.width, frame.hit


def check_sound(source: str, inputs: Inputs | None = None) -> tuple[frozenset[int], set[int]]:
    result = compile_source(source)
    assert result.inference is not None, [d.message for d in result.errors]
    inferred = result.inference.final
    widths, hit = vm_widths(source, inputs)
    seen = set(np.unique(widths[~hit]).tolist())
    assert seen <= inferred, f"VM widths {sorted(seen)}, inferred {sorted(inferred)}\n{source}"
    return inferred, seen


@pytest.mark.parametrize("path", corpus_programs(), ids=lambda p: p.stem)
def test_corpus_result_widths(path: Path):
    inferred, seen = check_sound(path.read_text(encoding="utf-8"), reference_inputs())
    assert seen == inferred  # the corpus's results are inferred exactly


def test_generated_programs_are_sound():
    static = exact = 0
    for seed in range(250):
        source = width_program(seed)
        result = compile_source(source)
        if not result.ok:
            continue
        inferred, seen = check_sound(source)
        static += len(inferred) == 1
        exact += inferred == seen
    # not a bound on precision, a guard that the test exercises both kinds of result
    assert static > 100 and exact > 150


def test_generated_deep_programs_are_sound():
    """progen's deep mode: loops nested past the contexts' PEEL_DEPTH, long else-if chains,
    loops inlined from functions called twice (tests/test_inference_budget.py: the work)."""
    checked = 0
    for seed in range(30):
        source = progen.generate(seed, mode="deep")
        if compile_source(source).ok:
            check_sound(source)
            checked += 1
    assert checked >= 25


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=1000, max_value=10**9))
def test_generated_programs_are_sound_hypothesis(seed: int):
    source = width_program(seed)
    if compile_source(source).ok:
        check_sound(source)


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.stem)
def test_clean_programs_have_no_diagnostics(path: Path):
    result = compile_source(path.read_text(encoding="utf-8"))
    assert result.diagnostics == []


def test_issue_examples():
    """The three programs of the issue: each now gets its warning."""
    cases = {
        "let c = undefinedThing + 1;\nc": "W006",
        "let i = 0;\nwhile (i < 100000) { i = i + 1; }\nfloat4(i, 0, 0, 1)": "W008",
        "let p = uv().z;\nfloat4(p, 0, 0, 1)": "W010",
        "let p = float2(1, 2) + float3(1, 2, 3);\nfloat4(p.x, p.y, 0, 1)": "W011",
    }
    for source, code in cases.items():
        codes = [d.code for d in compile_source(source).diagnostics]
        assert code in codes, (source, codes)


def test_loop_counts_are_the_vm_s():
    """W008's jump count is a lower bound of what the VM takes (here it is exact)."""
    source = "let s = 0;\nfor (let k = 0; k < 700; k++) { s += k; }\nfloat4(s, 0, 0, 1)"
    result = compile_source(source)
    (w008,) = [d for d in result.diagnostics if d.code == "W008"]
    assert "700 iterations of at least 3 jumps (2101 jumps)" in w008.message
    program = result.unwrap()
    frame = Frame(decode(program.slots()), _inputs(), 10**6)
    frame.run()
    assert int(frame.jumps.min()) == 2101


def test_lint_can_be_skipped():
    result = compile_source("uv()", lint=False)
    assert result.inference is None and result.diagnostics == []


_F32 = struct.Struct("<f")
floats = st.floats(width=32, allow_nan=False, allow_infinity=False)


@given(floats, floats, st.sampled_from(["+", "-", "*", "<", ">", "==", "<=", ">=", "!="]))
@settings(max_examples=300, deadline=None)
def test_scalar_folding_equals_the_vm(x: float, y: float, op: str):
    """domain's numpy-free path for float op float gives the VM's float32 result."""
    op_id = registry.BINOP_BY_SYMBOL[op].id
    left, right = domain.of_lanes((x, np.nan, np.nan, np.nan)), \
        domain.of_lanes((y, np.nan, np.nan, np.nan))
    got = domain.binop(op_id, left, right)
    want_v = vmv.binop(op_id, vmv.canon(np.array([[x], [np.nan], [np.nan], [np.nan]],
                                                 np.float32)),
                       vmv.canon(np.array([[y], [np.nan], [np.nan], [np.nan]], np.float32)))
    with np.errstate(all="ignore"):
        want = domain.of_lanes(vmv.full(want_v)[:, 0])
    assert got[0] == want[0]
    assert got[1] is not None and want[1] is not None
    assert got[1][:4] == want[1][:4] or (_F32.unpack(got[1][:4])[0] == 0.0
                                          and _F32.unpack(want[1][:4])[0] == 0.0)


def test_widths_reach_every_variable():
    result = compile_source("a = uv();\nb = float3(a.x, a.y, 1);\nfloat4(b.x, b.y, b.z, 1)")
    assert result.inference is not None
    widths = sorted((s.line, s.column, sorted(w)) for s, w in
                    result.inference.variables.items())
    assert widths[:2] == [(1, 1, [2]), (2, 1, [3])]


def test_random_seeds_are_reproducible():
    assert width_program(7) == width_program(7)
    assert isinstance(random.Random(1).random(), float)


def test_check_widths_cli(tmp_path):
    from click.testing import CliRunner

    from psl.cli.check import command

    path = tmp_path / "w.psl"
    path.write_text("if (uv().x > 0.5) { v = uv(); } else { v = 1; }\nfloat4(v.x, 0, 0, 1)\n")
    r = CliRunner().invoke(command, ["--widths", str(path)])
    assert r.exit_code == 0, r.output
    assert "  = result: a float4" in r.output
    assert "  = 1:21 v: a float2" in r.output
    assert "  = 2:8 v: a float or a float2  (dynamic: depends on the path)" in r.output
    r = CliRunner().invoke(command, ["--widths", "--format", "json", str(path)])
    doc = __import__("json").loads(r.output)
    [entry] = doc["stats"]
    assert entry["widths"]["result"] == [4]
    assert {"line": 2, "column": 8, "widths": [1, 2]} in entry["widths"]["variables"]


def test_widths_list_a_calls_parameters_by_name(tmp_path):
    """A call binds each parameter: listed as f(a), f(b), not merged under the name f
    (which made a float and a float2 argument look like one dynamic variable)."""
    from click.testing import CliRunner

    from psl.cli.check import command

    path = tmp_path / "f.psl"
    path.write_text("fun f(a, b)\n{\n  a * b\n}\nx = f(uv(), 2);\nfloat4(x, 0, 1, 1)\n")
    r = CliRunner().invoke(command, ["--widths", str(path)])
    assert r.exit_code == 0, r.output
    assert "  = 5:5 f(a): a float2\n  = 5:5 f(b): a float\n" in r.output
    assert "dynamic" not in r.output
    r = CliRunner().invoke(command, ["--widths", "--format", "json", str(path)])
    [entry] = __import__("json").loads(r.output)["stats"]
    assert entry["widths"]["parameters"] == [
        {"line": 5, "column": 5, "function": "f", "parameter": "a", "widths": [2]},
        {"line": 5, "column": 5, "function": "f", "parameter": "b", "widths": [1]}]


def test_an_inference_bug_does_not_stop_a_compile(monkeypatch):
    import psl.compiler as compiler

    def broken(*args, **kwargs):
        raise ZeroDivisionError

    monkeypatch.setattr(compiler, "infer", broken)
    result = compile_source("float4(uv().x, 0, 0, 1)")
    assert result.ok and result.inference is None
    assert [d.code for d in result.diagnostics] == ["N002"]
    assert "ZeroDivisionError" in result.diagnostics[0].message
