"""Random programs: the vectorised VM against the literal one-pixel oracle
(tests/vm_support/oracle.py), on a few pixels so that control flow diverges."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psl.registry import BUILTIN_BY_ID, BUILTINS, LIMITS, Op
from psl.vm import Inputs, execute, values
from tests.vm_support.oracle import run_pixel
from tests.vm_support.programs import assemble

W, H = 3, 2
NAN = math.nan
#: builtins the oracle knows (no textures, no AudioLink) plus an unassigned id
IDS = [b.id for b in BUILTINS if b.id not in (41, 45, 47) and not b.extension] + [
    next(i for i in range(1, 128) if i not in BUILTIN_BY_ID)]
#: slider(k)'s values (docs/spec.md §8.8): the NUMBERS' 1, 0.5, 2.5, -3 pick them
SLIDERS = (0.5, -1.25, 2.0, 0.1, 3.0, -0.75, 10.0, 1e-3)
NUMBERS = [0.0, 1.0, -1.0, 0.5, 2.5, -3.0, 0.25, 7.0, 1e30, -1e-30]
MASKS = [NAN, NAN, NAN, 1, 2, 12, 21, 43, 123, 1223, 4321, 102, 5, 0, 10012]

number = st.sampled_from(NUMBERS)


@st.composite
def constant(draw):
    d = draw(st.integers(0, 4))
    lanes = [draw(number) for _ in range(d)] + [NAN] * (4 - d)
    if draw(st.integers(0, 9)) == 0:  # occasionally a NaN inside the used lanes
        lanes[draw(st.integers(0, 3))] = NAN
    return lanes


@st.composite
def program(draw):
    n = draw(st.integers(1, 40))
    ins = []
    for k in range(n):
        kind = draw(st.sampled_from(
            ["const", "const", "uv", "var", "set", "bin", "bin", "un", "call", "call",
             "cj", "j"]))
        if kind == "const":
            ins.append((Op.PUSHCONST, tuple(draw(constant()))))
        elif kind == "uv":
            ins.append((Op.CALL, (30,)))
        elif kind == "var":
            ins.append((Op.PUSHVAR, (draw(st.sampled_from([0, 1, 2, 257])),)))
        elif kind == "set":
            ins.append((Op.SETVAR, (draw(st.sampled_from([0, 1, 2, 258])),
                                    draw(st.sampled_from(MASKS)))))
        elif kind == "bin":
            ins.append((Op.BINOP, (draw(st.integers(1, 13)),)))
        elif kind == "un":
            ins.append((Op.UNOP, (draw(st.sampled_from([45, 33, 43, 50])),)))
        elif kind == "call":
            ins.append((Op.CALL, (draw(st.sampled_from(IDS)),)))
        else:
            target = 2 * draw(st.integers(0, n))
            ins.append((Op.CONDJUMP if kind == "cj" else Op.JUMP, (target,)))
        del k
    return ins


def _compare(ins, max_jumps: int, max_steps: int = LIMITS.steps) -> None:
    slots = assemble(*ins)
    inputs = Inputs(W, H, time=1.25, button=(1, 0, 1, 0), axis=(0.25, -0.5, 0.75, 0),
                    sliders=SLIDERS)
    img, stats = execute(slots, inputs, max_jumps=max_jumps, max_steps=max_steps)
    u, v = inputs.uv_grid()
    px = {"time": 1.25, "dt": 1 / 60, "width": W, "height": H, "button": (1, 0, 1, 0),
          "axis": (0.25, -0.5, 0.75, 0), "sliders": SLIDERS}
    for p in range(W * H):
        px["u"], px["v"] = u[p], v[p]
        with np.errstate(all="ignore"):
            want = run_pixel(slots, px, max_jumps, max_steps)
        got = img[p // W, p % W]
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=0, err_msg=f"pixel {p}")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program(), st.sampled_from([0, 3, 25, 60]))
def test_vm_matches_oracle(ins, max_jumps):
    _compare(ins, max_jumps)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program(), st.sampled_from([3, 60]), st.sampled_from([0, 1, 5, 17, 64]))
def test_work_budget_matches_oracle(ins, max_jumps, max_steps):
    """The work budget (SPEC §7.2) stops each pixel before its (max_steps + 1)th executed
    instruction, pixels of one group at different counts included."""
    _compare(ins, max_jumps, max_steps)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program(), st.sampled_from([3, 40]))
def test_vm_literal_path_matches_oracle(ins, max_jumps):
    old = values.FORCE_SLOW
    values.FORCE_SLOW = True
    try:
        _compare(ins, max_jumps)
    finally:
        values.FORCE_SLOW = old
