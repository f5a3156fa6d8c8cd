"""A program with sliders renders the same in the numpy VM, the HLSL VM (VM.cginc through
slangpy on the CPU) and the WebGL VM (vm.frag in headless Chromium) at several slider
values: the defaults, values moved (clamped into their ranges), an index no line names, and
a world that never sets the uniform (zeros). Every -O level, so -O1/-O2 keep the reads."""

from __future__ import annotations

import numpy as np
import pytest

from psl.compiler import compile_source
from psl.registry import SLIDERS
from psl.syntax.sliders import parse_sliders
from psl.vm import execute
from psl.vm.inputs import Inputs
from tests.test_sliders import SWEEP

LEVELS = (0, 1, 2)
SIZE = 24
#: a raymarch-like program that reads sliders inside a loop and a function (hoisting)
LIT = """//@slider 0 light_angle -3.14..3.14 = 0.8
//@slider 1 height -1..1 = 0.5
//@slider 2 shine 1..64 = 16
fun shade(n)
{
    let l = normalize(float3(cos(slider(0)), slider(1), sin(slider(0))));
    pow(max(dot(n, l), 0), slider(2))
}
let p = 2.0 * (uv() - 0.5);
let s = 0;
for (let i = 0; i < 4; i++) { s += shade(normalize(float3(p.x, p.y, 1 + i))); }
float4(s, slider(1) * p.x, slider(6), 1)
"""
PROGRAMS = {"sweep": SWEEP, "lit": LIT}


def settings(source: str) -> dict[str, tuple[float, ...]]:
    table = parse_sliders(source)
    # the named ones moved (the last past its range: clamped), two unnamed ones set as a
    # host could (they read what is set)
    named = {s.name: v for s, v in zip(table.sliders, (3.0, -0.75, 1000.0), strict=False)}
    moved = list(table.values(named))
    for index, value in ((6, 2.5), (2, -7.0)):
        if table.by_index(index) is None:
            moved[index] = value
    return {"defaults": table.values(), "moved": tuple(moved),
            "unset": (0.0,) * SLIDERS.count,
            "wild": (-2.5, 0.125, 3.5, -2.0, 1e-3, 40.0, -0.0, -1e6)}


def cases() -> list:
    out = []
    for name, source in PROGRAMS.items():
        for label, values in settings(source).items():
            for level in LEVELS:
                out.append(pytest.param(source, values, level, id=f"{name}-{label}-O{level}"))
    return out


def close(got: np.ndarray, want: np.ndarray, tol: float) -> bool:
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.abs(got.astype(np.float64) - want) / np.maximum(1.0, np.abs(want))
    return bool(((got == want) | (d <= tol)).all())


def reference(source: str, values: tuple[float, ...], level: int):
    slots = compile_source(source, optimize=level).unwrap().slots()
    inputs = Inputs(width=SIZE, height=SIZE, time=1.25, sliders=values)
    image, _ = execute(slots, inputs)
    return slots, inputs, image


def test_the_settings_differ():
    """Each program shows the slider values: the renders of the settings all differ."""
    for source in PROGRAMS.values():
        images = [reference(source, v, 1)[2] for v in settings(source).values()]
        for a in range(len(images)):
            for b in range(a):
                assert not np.array_equal(images[a], images[b])


@pytest.fixture(scope="module")
def slang():
    pytest.importorskip("slangpy")
    from tests.test_hlsl_vm import build

    return build()


@pytest.mark.parametrize(("source", "values", "level"), cases())
def test_hlsl_vm_matches(slang, source, values, level):
    slots, inputs, want = reference(source, values, level)
    got = slang.render(slots, inputs).image
    assert close(got, want, 1e-5), np.abs(got - want).max()


@pytest.fixture(scope="module")
def browser():
    from tests.browser_support.browser import unavailable_reason

    reason = unavailable_reason()
    if reason:
        pytest.skip(reason)
    from tests.browser_support.browser import BrowserVM

    vm = BrowserVM()
    yield vm
    vm.close()


@pytest.mark.parametrize(("source", "values", "level"), cases())
def test_webgl_vm_matches(browser, source, values, level):
    slots, inputs, want = reference(source, values, level)
    got = browser.render(slots, inputs).image
    # the browser's transcendental functions are not the C library's (tests/test_glsl_vm.py)
    assert close(got, want, 1e-3), (
        f"{np.abs(got - want).max()}: render.js must upload Inputs.sliders (frame_inputs' "
        f"'sliders') to the uniform array {SLIDERS.uniform}")
