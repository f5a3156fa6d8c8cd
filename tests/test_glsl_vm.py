"""The generated WebGL2 VM (psl-gen glsl, psl/web/static/render.js) in headless Chromium on
SwiftShader, against the goldens of the original VM and the Python reference VM
(psl.vm.execute): images, and the cost overlay's per-pixel counts.

One browser and one page for the whole session (tests/browser_support/browser.py); the
shader is compiled once and programs are textures. Tolerance: 1e-3 per lane, absolute below
1 and relative above (the browser's transcendental functions are not the C library's);
equal infinities match. Counts must be equal.
"""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.browser_support.browser import unavailable_reason

_REASON = unavailable_reason()
if _REASON:
    pytest.skip(_REASON, allow_module_level=True)

from psl import registry  # noqa: E402
from psl.compiler import compile_source  # noqa: E402
from psl.vm import execute, execute_texture  # noqa: E402
from tests import hostile  # noqa: E402
from tests.browser_support.browser import BrowserVM  # noqa: E402
from tests.hlsl_support import programs as hand  # noqa: E402
from tests.hlsl_support.harness import (  # noqa: E402
    SLIDER_VALUES,
    audiolink_texture,
    reference_inputs,
)
from tests.vm_support import big  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "corpus"
MANIFEST = json.loads((CORPUS / "golden" / "manifest.json").read_text())
TOLERANCE = 1e-3
#: the builtins that came after the original VM (SPEC §8.2)
NEW_BUILTIN_IDS = range(50, 60)


@pytest.fixture(scope="module")  # closed before other modules' browsers and event loops
def browser():
    vm = BrowserVM()
    yield vm
    vm.close()


def difference(got: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Per lane: |got - expected|, relative where |expected| > 1; 0 where equal (inf)."""
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.abs(got.astype(np.float64) - expected) / np.maximum(1.0, np.abs(expected))
    return np.where(got == expected, 0.0, np.nan_to_num(d, nan=np.inf))


def assert_close(got: np.ndarray, expected: np.ndarray, what: str,
                 tol: float = TOLERANCE) -> float:
    d = difference(got, expected)
    if not (d <= tol).all():
        where = tuple(np.argwhere(~(d <= tol))[0])
        raise AssertionError(f"{what}: {(~(d <= tol)).sum()} of {d.size} lanes differ; first "
                             f"at [y, x, lane] = {where}: webgl {got[where]!r} expected "
                             f"{expected[where]!r}")
    return float(d.max())


def compiled(source: str) -> np.ndarray:
    result = compile_source(source)
    assert result.ok, (source, result.diagnostics)
    return result.program.slots()


def python_frames(slots: np.ndarray, frames: list, max_jumps: int = registry.LIMITS.jumps):
    """The reference VM on the same frames, each output feeding the next as self()."""
    previous = None
    out = []
    for inputs in frames:
        img, stats = execute(slots, replace(inputs, self_texture=previous), max_jumps=max_jumps)
        out.append((img, stats))
        previous = img
    return out


def check_against_python(browser: BrowserVM, slots: np.ndarray, frames: list, what: str,
                         tol: float = TOLERANCE) -> float:
    """Images within tol and cost counts equal, every frame; returns the largest difference."""
    got = browser.render_frames(slots, frames, mode="cost")
    worst = 0.0
    for k, (web, (img, stats)) in enumerate(zip(got, python_frames(slots, frames), strict=True)):
        worst = max(worst, assert_close(web.image, img, f"{what} frame {k}", tol))
        np.testing.assert_array_equal(web.executed, stats.exec_instructions,
                                      err_msg=f"{what} frame {k}: executed instructions")
        np.testing.assert_array_equal(web.jumps, stats.jumps, err_msg=f"{what} frame {k}: jumps")
        np.testing.assert_array_equal(web.hit, stats.hit_jump_limit,
                                      err_msg=f"{what} frame {k}: jump limit")
    return worst


def frames_for(source: str, n: int = 3, width: int = 16, height: int = 16, **kw) -> list:
    count = n if "self(" in source.lower() else 1
    kw.setdefault("sliders", SLIDER_VALUES)  # slider(k) reads values, not zeros
    return [replace(reference_inputs(k, width, height), **kw) for k in range(count)]


# ---- the program texture ---------------------------------------------------------------

def test_program_texture_shape_is_the_registry_s():
    """render.js spells out the texture's shape; it is the registry's."""
    js = (Path(registry.__file__).parent / "web" / "static" / "render.js").read_text()
    assert f"const PROGRAM_TEXTURE_WIDTH = {registry.LIMITS.texture_width};" in js
    assert f"const PROGRAM_TEXTURE_HEIGHT = {registry.LIMITS.texture_height};" in js


def test_big_program_from_the_texture(browser):
    """A program of 15,000 instructions, given to render.js as the texels Udon uploads
    (`psl compile --format texture`), renders as the Python VM renders the same texels."""
    program = compile_source(big.source(15000), lint=False).unwrap()
    texels = program.texture()
    inputs = reference_inputs(0, 8, 8)
    web = browser.render_frames(program.slots(), [inputs], mode="cost")[0]
    img, stats = execute_texture(texels, inputs)
    assert_close(web.image, img, "big program")
    np.testing.assert_array_equal(web.executed, stats.exec_instructions)
    assert (web.executed == 15000).all()


# ---- corpus --------------------------------------------------------------------------

def corpus_frames(name: str) -> list:
    info = MANIFEST["programs"][name]
    source = (CORPUS / info["source"]).read_text()
    texture = audiolink_texture() if "audiolink" in source.lower() else None
    return [replace(reference_inputs(k), audiolink=texture)
            for k in range(max(1, info["frames"]))]


@functools.cache
def corpus_slots(name: str) -> np.ndarray:
    return compiled((CORPUS / MANIFEST["programs"][name]["source"]).read_text())


_renders: dict[str, list] = {}


def corpus_render(browser: BrowserVM, name: str) -> list:
    """Every frame of a corpus program in cost mode (colour and counts), rendered once."""
    if name not in _renders:
        _renders[name] = browser.render_frames(corpus_slots(name), corpus_frames(name),
                                               mode="cost")
    return _renders[name]


RENDERED = [name for name, info in MANIFEST["programs"].items() if info["status"] == "rendered"]


@pytest.mark.parametrize("name", RENDERED)
def test_corpus_matches_golden(browser, name):
    info = MANIFEST["programs"][name]
    last = corpus_render(browser, name)[-1]
    golden = np.load(CORPUS / info["golden"])
    assert_close(last.image, golden, f"{name} vs golden")
    assert last.executed.mean() == pytest.approx(info["exec_instructions_per_pixel_mean"])
    assert last.executed.max() == info["exec_instructions_per_pixel_max"]
    assert last.jumps.max() == info["jumps_per_pixel_max"]
    assert last.hit.any() == info["hit_jump_limit"]


@pytest.mark.parametrize("name", list(MANIFEST["programs"]))
def test_corpus_matches_reference_vm(browser, name):
    """Every frame's image, and the cost overlay's counts, against the Python VM."""
    got = corpus_render(browser, name)
    expected = python_frames(corpus_slots(name), corpus_frames(name))
    for k, (web, (img, stats)) in enumerate(zip(got, expected, strict=True)):
        assert_close(web.image, img, f"{name} frame {k}")
        np.testing.assert_array_equal(web.executed, stats.exec_instructions)
        np.testing.assert_array_equal(web.jumps, stats.jumps)
        np.testing.assert_array_equal(web.hit, stats.hit_jump_limit)


#: corpus programs the WebGL VM runs at -O2 (docs/spec.md §11): loops, swizzles, self(),
#: textures (a browser's corpus run is slow on SwiftShader; the HLSL VM runs all of them)
O2_CORPUS = ["scene_raymarch", "scene_mandelbrot", "scene_fbm", "apps_TableTennisPro",
             "scene_blur_by_moon"]


@pytest.mark.parametrize("name", O2_CORPUS)
def test_corpus_o2_matches_reference_vm(browser, name):
    """-O2: the fused instructions run as in the Python VM: every frame's image, and the
    cost overlay's counts (a fused instruction counting as the instructions it replaces)."""
    result = compile_source((CORPUS / MANIFEST["programs"][name]["source"]).read_text(),
                            lint=False, optimize=2)
    assert result.ok, result.diagnostics
    slots = result.program.slots()
    ops = np.round(slots[0::2, 0].astype(np.float64))
    assert np.isin(ops, list(registry.FUSED_BY_OP)).any(), f"{name}: nothing fused"
    check_against_python(browser, slots, corpus_frames(name), f"{name} -O2")


def test_every_fused_instruction_runs(browser):
    """Each fused opcode of the registry in a hand-made program that fills its fields
    (tests/hlsl_support/programs.py), against the Python VM."""
    programs = hand.fused_programs()
    assert len(programs) == len(registry.FUSED)
    for name, slots in programs.items():
        check_against_python(browser, slots, [reference_inputs(0, 4, 4)], name)


# ---- hand-written programs -------------------------------------------------------------

BUILTIN_SOURCES = hand.builtin_sources()
OPERATOR_SOURCES = hand.operator_sources()
CONTROL_SOURCES = hand.control_sources()


def _calls(source: str) -> set[int]:
    return {int(i.operand[0]) for i in compile_source(source).unwrap().instructions
            if i.op == registry.Op.CALL}


def test_builtin_programs_cover_registry_and_new_builtins():
    called = set().union(*(_calls(s) for s in BUILTIN_SOURCES.values()))
    assert {b.id for b in registry.BUILTINS} <= called
    assert set(NEW_BUILTIN_IDS) <= called


@pytest.mark.parametrize("group", ["new", "core", "audiolink"])
def test_builtin_programs(browser, group):
    """Every builtin with arguments of dimensions 1-4 (tests/hlsl_support/programs.py),
    the ids 50-59 at their corners (signed zeros, infinities), AudioLink with a texture."""
    texture = audiolink_texture()
    checked = 0
    for name, source in sorted(BUILTIN_SOURCES.items()):
        ids = _calls(source)
        kind = ("audiolink" if any(registry.BUILTIN_BY_ID[i].extension for i in ids)
                else "new" if ids & set(NEW_BUILTIN_IDS) else "core")
        if kind != group:
            continue
        for avpro in (False, True) if name.startswith("video") else (False,):
            frames = frames_for(source, is_avpro=avpro, audiolink=texture)
            check_against_python(browser, compiled(source), frames,
                                 f"{name} avpro={avpro}: {source}")
            checked += 1
    assert checked > 0


def test_operator_programs(browser):
    for name, source in sorted(OPERATOR_SOURCES.items()):
        check_against_python(browser, compiled(source), frames_for(source), f"{name}: {source}")


def test_control_programs(browser):
    """Loops, functions, and programs that end at the jump limit (cost overlay flags)."""
    for name, source in sorted(CONTROL_SOURCES.items()):
        check_against_python(browser, compiled(source), frames_for(source, width=9, height=7),
                             f"{name}: {source}")
    web = browser.render(compiled(CONTROL_SOURCES["infinite_loop"]), reference_inputs(0, 4, 4),
                         mode="cost")
    assert web.hit.all() and (web.jumps == registry.LIMITS.jumps + 1).all()


#: Programs whose result differs by design: SwiftShader, like GPUs, flushes float32
#: denormals to zero (GLSL ES allows it), so inf * -1e-45 is inf * -0 = NaN, output as 0.
DENORMALS_FLUSHED = {"huge_constants": [0.0, 0.0, 0.0, 0.0]}


def test_bytecode_corners(browser):
    """Slots the compiler never emits: NaN lanes in the program texture (the sentinel must
    survive the upload), odd jumps, stack wrap, unknown ids, SETVAR masks."""
    for name, slots in sorted(hand.bytecode_programs().items()):
        if name in DENORMALS_FLUSHED:
            got = browser.render(slots, reference_inputs(0, 8, 8)).image
            assert (got == DENORMALS_FLUSHED[name]).all(), name
            continue
        check_against_python(browser, slots, [reference_inputs(0, 8, 8)], name, tol=0.0)


def test_state_is_reset_for_every_pixel(browser):
    # If registers or the stack survived from the previous pixel, v would count up.
    web = browser.render(compiled("v += 1; w = w + v; w"), reference_inputs(0, 8, 8))
    assert (web.image[..., 0] == 1).all()


def test_nan_sentinel_survives(browser):
    """The dimension of a value lives in its NaN lanes: a float3 (x, y, z, NaN) plus a
    float2 would be a float3 again, and any() of a float2 must not see its NaN lanes."""
    source = ("a = float3(1, 2, 3) + float2(10, 20);\n"
              "float4(a.z, any(float2(0, 0)), length(float2(3, 4)), all(float3(1, 1, 1)))")
    web = browser.render(compiled(source), reference_inputs(0, 2, 2))
    expected, _ = execute(compiled(source), reference_inputs(0, 2, 2))
    np.testing.assert_array_equal(web.image, expected)
    assert (web.image[0, 0] == [0.0, 0.0, 5.0, 1.0]).all()


def test_jump_limit_is_a_template_parameter(browser):
    try:
        browser.load_shader(max_jumps=5)
        for key in ("infinite_loop", "while", "loop_until_limit_then_value"):
            source = CONTROL_SOURCES[key]
            slots = compiled(source)
            got = browser.render(slots, reference_inputs(0, 8, 8), mode="cost")
            img, stats = execute(slots, reference_inputs(0, 8, 8), max_jumps=5)
            assert_close(got.image, img, source)
            np.testing.assert_array_equal(got.executed, stats.exec_instructions)
            np.testing.assert_array_equal(got.hit, stats.hit_jump_limit)
    finally:
        browser.load_shader()


def test_present_draws_colour_and_cost_overlay(browser):
    """render.js's present(): colours clamped to [0, 1] with alpha 1; in cost mode a heat
    map where pixels at the jump limit are magenta."""
    browser.render(compiled("float3(2, 0.5, uv().x - 5)"), reference_inputs(0, 8, 8))
    canvas, error = browser.present()
    assert error == 0
    assert (np.abs(canvas[..., :3].astype(int) - [255, 128, 0]) <= 1).all()
    assert (canvas[..., 3] == 255).all()
    browser.render(compiled(CONTROL_SOURCES["infinite_loop"]), reference_inputs(0, 8, 8),
                   mode="cost")
    canvas, error = browser.present()
    assert error == 0
    assert (canvas[..., :3] == [255, 0, 255]).all()


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("name", sorted(hostile.programs()))
def test_hostile_programs_stop_at_the_same_budget(browser, name, level):
    """The work budget (docs/spec.md §7.2; at -O2 a fused instruction counts as the
    instructions it replaces, §11.4): every pixel stops where the reference VM stops it,
    with the same colour, counts and flags (tests/hostile.py)."""
    result = compile_source(hostile.programs()[name], optimize=level)
    assert result.ok, result.diagnostics
    slots = result.program.slots()
    got = browser.render(slots, reference_inputs(0, 8, 8), mode="cost")
    img, stats = execute(slots, reference_inputs(0, 8, 8))
    assert_close(got.image, img, f"{name} -O{level}")
    np.testing.assert_array_equal(got.executed, stats.exec_instructions)
    np.testing.assert_array_equal(got.hit, stats.hit_jump_limit)
    np.testing.assert_array_equal(got.spent, stats.spent)


def test_work_budget_is_a_template_parameter(browser):
    try:
        browser.load_shader(max_steps=100)
        slots = compiled(hostile.DEEP["per_pixel_counts"])
        got = browser.render(slots, reference_inputs(0, 8, 8), mode="cost")
        img, stats = execute(slots, reference_inputs(0, 8, 8), max_steps=100)
        assert_close(got.image, img, "max_steps=100")
        np.testing.assert_array_equal(got.executed, stats.exec_instructions)
        assert got.spent.all() == stats.spent.all()
    finally:
        browser.load_shader()
