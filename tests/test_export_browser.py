"""psl export's GLSL and Shadertoy outputs rendered in headless Chromium on SwiftShader,
on the WebGL VM's test page (tests/browser_support), against the Python VM.

The exported GLSL uses the WebGL VM's uniforms and vertex shader, so the page runs it in
place of the VM shader. The Shadertoy pass is wrapped in a prelude that feeds Shadertoy's
inputs from the page's uniforms (iTime from time().y, iResolution, iChannel0-3 = self,
camera, video, AudioLink); Shadertoy has no buttons or axes, so those frames use zeros.
Tolerance as tests/test_glsl_vm.py: 1e-3 per lane, absolute below 1, relative above.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.browser_support.browser import unavailable_reason

_REASON = unavailable_reason()
if _REASON:
    pytest.skip(_REASON, allow_module_level=True)

from psl.compiler import compile_source  # noqa: E402
from psl.export import Options, build_text  # noqa: E402
from psl.gen import glsl  # noqa: E402
from tests.browser_support.browser import BrowserVM  # noqa: E402
from tests.hlsl_support.harness import audiolink_texture, reference_inputs  # noqa: E402
from tests.test_export import NAN_PROGRAMS, REJECTED, vm_frames  # noqa: E402
from tests.test_glsl_vm import TOLERANCE, difference  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "corpus"
MANIFEST = json.loads((CORPUS / "golden" / "manifest.json").read_text())["programs"]
NAMES = [n for n in sorted(MANIFEST) if n not in REJECTED]

TOY_PRELUDE = """#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
uniform vec4 u_time;
uniform vec4 u_deltatime;
uniform vec2 u_resolution;
uniform sampler2D u_self;
uniform sampler2D u_camera;
uniform sampler2D u_video;
uniform sampler2D u_audiolink;
float psl_toy_time() { return u_time.y; }
float psl_toy_delta() { return u_deltatime.x; }
vec3 psl_toy_resolution() { return vec3(u_resolution, 1.0); }
#define iTime psl_toy_time()
#define iTimeDelta psl_toy_delta()
#define iResolution psl_toy_resolution()
#define iChannel0 u_self
#define iChannel1 u_camera
#define iChannel2 u_video
#define iChannel3 u_audiolink
// the pass declares its own u_time, u_deltatime and u_resolution from Shadertoy's inputs
#define u_time psl_pass_time
#define u_deltatime psl_pass_deltatime
#define u_resolution psl_pass_resolution
layout(location = 0) out vec4 psl_toy_color;
"""
TOY_MAIN = "\nvoid main() { mainImage(psl_toy_color, gl_FragCoord.xy); }\n"


@pytest.fixture(scope="module")
def browser():
    vm = BrowserVM()
    yield vm
    vm.close()


def render(browser: BrowserVM, fragment: str, frames: list) -> np.ndarray:
    """The last of `frames` rendered by `fragment` (each frame's output is the next one's
    self()); the page's program texture is left empty, the shader does not read it."""
    vertex = glsl.TARGET.render()["vm.vert"]
    browser.page.evaluate("([f, v]) => window.pslHarness.init(f, v)", [fragment, vertex])
    browser.max_jumps = -2  # load_shader() must compile the VM again
    browser._texture_keys = {}  # init made new textures
    return browser.render_frames(np.zeros((2, 4), np.float32), frames)[-1].image


def corpus(name: str, toy: bool) -> tuple[str, list]:
    source = (CORPUS / MANIFEST[name]["source"]).read_text()
    texture = audiolink_texture() if "audiolink" in source.lower() else None
    frames = [replace(reference_inputs(k), audiolink=texture)
              for k in range(max(1, MANIFEST[name]["frames"]))]
    if toy:
        frames = [replace(f, button=(0.0,) * 4, axis=(0.0,) * 4) for f in frames]
    return source, frames


@pytest.mark.parametrize("name", NAMES)
def test_exported_glsl_renders_as_the_vm(browser, name):
    source, frames = corpus(name, toy=False)
    result = compile_source(source)
    got = render(browser, build_text(result, "glsl"), frames)
    assert difference(got, vm_frames(result.program.slots(), frames)).max() <= TOLERANCE


@pytest.mark.parametrize("name", NAMES)
def test_exported_shadertoy_renders_as_the_vm(browser, name):
    source, frames = corpus(name, toy=True)
    result = compile_source(source)
    got = render(browser, TOY_PRELUDE + build_text(result, "shadertoy") + TOY_MAIN, frames)
    assert difference(got, vm_frames(result.program.slots(), frames)).max() <= TOLERANCE


@pytest.mark.parametrize("name", sorted(NAN_PROGRAMS))
def test_exported_glsl_exact_path_renders_as_the_vm(browser, name):
    """Pixels where arithmetic makes a NaN run the GLSL exact path, equal to the VM."""
    result = compile_source(NAN_PROGRAMS[name])
    frames = [reference_inputs(0, 8, 8)]
    got = render(browser, build_text(result, "glsl", Options(exact=True)), frames)
    assert difference(got, vm_frames(result.program.slots(), frames)).max() <= TOLERANCE


@pytest.mark.parametrize("name", ["per_pixel_counts", "three_functions_in_a_while"])
def test_exported_glsl_stops_at_the_work_budget_as_the_vm(browser, name):
    """Issue 37: with --exact, pixels that reach the VM's work budget run the GLSL exact
    path (the WebGL VM's interpreter), which stops them where the VM does."""
    from tests import hostile

    result = compile_source(hostile.programs()[name])
    frames = [reference_inputs(0, 8, 8)]
    reference = vm_frames(result.program.slots(), frames)
    got = render(browser, build_text(result, "glsl", Options(exact=True)), frames)
    assert difference(got, reference).max() <= TOLERANCE


# ------------------------------------------------------------------------- sliders
def _with_values(glsl: str, result, values: tuple[float, ...]) -> str:
    """The GLSL export with each slider uniform set to values[index]: the page sets the
    VM's inputs only, so the test writes the uniforms as constants of those values."""
    from psl.export.ir import build
    from psl.export.sliders import parameters

    for p in parameters(build(result)):
        line = f"uniform float {p.name};"
        assert line in glsl
        glsl = glsl.replace(line, f"const float {p.name} = {float(values[p.index])!r};")
    return glsl


def _slider_cases() -> list[tuple[str, str, dict[int, float]]]:
    from tests.test_export_sliders import _cases

    return _cases()


@pytest.mark.parametrize("case", range(len(_slider_cases())))
@pytest.mark.parametrize("exact", [False, True], ids=["typed", "exact"])
def test_exported_glsl_sliders_render_as_the_vm(browser, case, exact):
    """The GLSL export of a program with sliders, at the defaults and at other values,
    equals the Python VM (the exact path's copy of the VM reads the same sliders)."""
    from tests.test_export_sliders import _values

    what, source, overrides = _slider_cases()[case]
    result = compile_source(source)
    values = _values(result.sliders.sliders, overrides)
    named = {s.index for s in result.sliders.sliders}
    frames = [replace(reference_inputs(0, 16, 16),
                      sliders=tuple(v if k in named else 0.0 for k, v in enumerate(values)))]
    text = _with_values(build_text(result, "glsl", Options(exact=exact)), result, values)
    got = render(browser, text, frames)
    want = vm_frames(result.program.slots(), frames)
    if not exact:  # the default export equals the VM where no arithmetic NaN arises
        keep = ~np.isnan(got).any(-1)
        got[~keep] = want[~keep]
    assert difference(got, want).max() <= TOLERANCE, what


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parent.parent
                                         / "unity_package" / "Examples").glob("sliders_*.psl")),
                         ids=lambda p: p.stem)
def test_exported_shadertoy_sliders_render_as_the_vm(browser, path):
    """Shadertoy: the sliders are constants at their defaults."""
    from tests.test_export_sliders import _values

    source = path.read_text(encoding="utf-8")
    result = compile_source(source)
    frames = [replace(reference_inputs(0, 16, 16), button=(0.0,) * 4, axis=(0.0,) * 4,
                      sliders=_values(result.sliders.sliders, {}))]
    got = render(browser, TOY_PRELUDE + build_text(result, "shadertoy") + TOY_MAIN, frames)
    assert difference(got, vm_frames(result.program.slots(), frames)).max() <= TOLERANCE
