"""Sliders in exports (issue 42, docs/export.md "Sliders"): every target declares each named
slider the program reads, with its default and range (glslang compiles them); the exported
HLSL renders as the numpy VM does at the defaults and at other values, on the typed and on
the exact path; the Unity shader's Properties block holds a `Range` property per slider.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from psl.compiler import compile_source
from psl.export import build_text
from psl.export.ir import build
from psl.export.sliders import parameters
from psl.export.text import Options
from psl.syntax.sliders import parse_sliders
from tests.test_export import (
    GLSLANG,
    SHADERTOY_MAIN,
    SHADERTOY_PRELUDE,
    _glslang,
    _unity_compiles,
    compare,
    vm_frames,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "unity_package" / "Examples"
SLIDER_EXAMPLES = sorted(EXAMPLES.glob("sliders_*.psl"))
#: a read with an index computed per pixel (psl_slider), an unnamed slider (0), and a sqrt
#: of a negative number on some pixels: the typed code hands those to the exact path
MIXED = """//@slider 0 bright 0..2 = 0.5
//@slider 2 tint -1..1 = -0.25
let k = floor(uv().x * 4.0);
let s = sqrt(slider(2) + uv().y);
float4(slider(k), slider(0) * uv().y, slider(1) + s, slider(2))
"""


def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


def test_the_examples_exist():
    assert len(SLIDER_EXAMPLES) >= 2


@pytest.mark.skipif(GLSLANG is None, reason="glslang-tools not installed")
@pytest.mark.parametrize("path", SLIDER_EXAMPLES, ids=_ids(SLIDER_EXAMPLES))
def test_every_target_compiles(tmp_path, path):
    result = compile_source(_source(path))
    for exact in (False, True):
        options = Options(exact=exact)
        glsl = tmp_path / "p.frag"
        glsl.write_text(build_text(result, "glsl", options))
        _glslang(glsl, "-S", "frag")
        toy = tmp_path / "toy.frag"
        toy.write_text(SHADERTOY_PRELUDE + build_text(result, "shadertoy", options)
                       + SHADERTOY_MAIN)
        _glslang(toy, "-S", "frag")
        _unity_compiles(tmp_path, build_text(result, "unity", options,
                                             source_name=path.name))


@pytest.mark.parametrize("path", SLIDER_EXAMPLES, ids=_ids(SLIDER_EXAMPLES))
def test_each_target_declares_default_and_range(path):
    """GLSL: a uniform (ES allows no initializer) with default and range in its comment;
    Shadertoy: a constant at the default; HLSL: a global with the default; all name the
    range."""
    source = _source(path)
    result = compile_source(source)
    table = parse_sliders(source).sliders
    params = parameters(build(result))
    assert [p.index for p in params] == [s.index for s in table]
    texts = {t: build_text(result, t) for t in ("glsl", "shadertoy", "hlsl")}
    for p in params:
        comment = re.escape(p.describe())
        assert re.search(rf"^uniform float {p.name}; // {comment}$", texts["glsl"], re.M)
        assert re.search(rf"^const float {p.name} = {re.escape(p.literal)}; // {comment}$",
                         texts["shadertoy"], re.M)
        assert re.search(rf"^float {p.name} = {re.escape(p.literal)}; // {comment}$",
                         texts["hlsl"], re.M)
        assert float(p.literal) == np.float32(p.default)
    # the GLSL header names the uniforms to set
    assert ", ".join(p.name for p in params) in texts["glsl"].split("precision")[0]


_PROPERTY = re.compile(r'^\s*(\w+) \("([^"]*)", Range\(([-\d.]+), ([-\d.]+)\)\) = ([-\d.]+)\s*$')


def unity_properties(shader: str) -> dict[str, tuple[str, float, float, float]]:
    """The Range properties of a Unity shader's Properties block: name -> (label, low,
    high, default)."""
    block = shader.split("Properties", 1)[1].split("SubShader", 1)[0]
    out = {}
    for line in block.splitlines():
        m = _PROPERTY.match(line)
        if m:
            out[m.group(1)] = (m.group(2), float(m.group(3)), float(m.group(4)),
                               float(m.group(5)))
    return out


@pytest.mark.parametrize("path", SLIDER_EXAMPLES, ids=_ids(SLIDER_EXAMPLES))
def test_unity_properties_hold_each_slider(path):
    source = _source(path)
    shader = build_text(compile_source(source), "unity", source_name=path.name)
    props = unity_properties(shader)
    table = parse_sliders(source).sliders
    assert len(props) == len(table)
    program = shader.split("CGPROGRAM", 1)[1]
    for s, (name, (label, low, high, default)) in zip(table, props.items(), strict=True):
        assert label == s.name
        assert (np.float32(low), np.float32(high), np.float32(default)) == (
            np.float32(s.low), np.float32(s.high), np.float32(s.default))
        # the material sets the uniform of the same name: no initializer beside it
        assert re.search(rf"^float {name}; //", program, re.M)


def test_names_follow_the_targets_rules():
    """A slider named like a keyword, a template's identifier or a generated local gets
    another name, and no variable of the program takes it."""
    source = ("//@slider 0 float 0..1 = 0.5\n//@slider 1 frag 0..1\n//@slider 2 t1 0..1\n"
              "let float_ = 2; float4(slider(0), slider(1), slider(2) * float_, 1)")
    result = compile_source(source)
    names = [p.name for p in parameters(build(result))]
    assert names[0] != "float" and "frag" not in names and "t1" not in names
    for target in ("glsl", "hlsl", "unity", "shadertoy"):
        text = build_text(result, target)
        for name in names:
            assert len(re.findall(rf"\bfloat {name}\b", text)) == 1, (target, name)


def test_a_program_without_slider_reads_declares_none():
    source = "//@slider 0 unused 0..1 = 0.5\nlet p = uv(); float4(p.x, p.y, 0, 1)"
    text = build_text(compile_source(source), "glsl")
    assert "unused" not in text.split("//@")[0] and "psl_slider" not in text


# ------------------------------------------------------------------ equal to the VM
def _values(table, overrides: dict[int, float]) -> tuple[float, ...]:
    """The 8 slider values a host sets: the defaults, 0 for unnamed, then `overrides`."""
    values = [0.0] * 8
    for s in table:
        values[s.index] = s.default
    for k, v in overrides.items():
        values[k] = v
    return tuple(values)


def _uniforms(params, values: tuple[float, ...]) -> dict[str, float]:
    return {p.name: float(np.float32(values[p.index])) for p in params}


def _cases() -> list[tuple[str, str, dict[int, float]]]:
    out = []
    for path in SLIDER_EXAMPLES:
        source = _source(path)
        table = parse_sliders(source).sliders
        out.append((path.stem, source, {}))
        # every slider at a quarter of its range from the top: not the default
        out.append((f"{path.stem}-moved", source,
                    {s.index: s.high - (s.high - s.low) / 4 for s in table}))
    out.append(("mixed", MIXED, {}))
    out.append(("mixed-moved", MIXED, {0: 1.75, 1: 0.5, 2: 0.9}))  # 1: unnamed, set anyway
    return out


@pytest.mark.parametrize("exact", [False, True], ids=["typed", "exact"])
def test_hlsl_renders_as_the_vm(exact):
    """At the defaults and at other values the exported HLSL (slangpy, CPU) equals the
    numpy VM on every pixel; with --exact, pixels handed to the exact path too (it reads
    the same parameters through psl_slider)."""
    pytest.importorskip("slangpy")
    from tests.export_support.harness import ExportRunner
    from tests.hlsl_support.harness import reference_inputs

    cases = _cases()
    sources = list(dict.fromkeys(source for _, source, _ in cases))
    programs = [build(compile_source(s)) for s in sources]
    runner = ExportRunner(programs, Options(exact=exact))
    exact_pixels = 0
    for what, source, overrides in cases:
        i = sources.index(source)
        result = compile_source(source)
        values = _values(result.sliders.sliders, overrides)
        # a host clamps into the range; unnamed sliders the export does not have read 0
        named = {s.index for s in result.sliders.sliders}
        vm_values = tuple(v if k in named else 0.0 for k, v in enumerate(values))
        frames = [replace(reference_inputs(0, 16, 16), sliders=vm_values)]
        out = runner.render_frames(i, frames, _uniforms(parameters(programs[i]), values))[-1]
        reference = vm_frames(result.program.slots(), frames)
        if not exact:  # the default export equals the VM where no arithmetic NaN arises
            keep = ~np.isnan(out.image).any(-1)
            out.image[~keep] = reference[~keep]
            assert keep.sum() > keep.size // 2
        largest, bad = compare(out.image, reference)
        assert bad == 0, f"{what}: {bad} pixels differ (largest {largest})"
        exact_pixels += int(out.exact.sum())
    if exact:
        assert exact_pixels > 0  # MIXED's sqrt of a negative took the exact path


def test_constant_reads_name_the_parameter():
    """slider(k) with a constant k reads the parameter; an unnamed k reads 0.0."""
    source = "//@slider 3 gain 0..4 = 2\nfloat4(slider(3), slider(5), slider(3.7), 1)"
    text = build_text(compile_source(source), "hlsl")
    body = text.split("float4 psl_program(float2 uv)", 1)[1]
    assert "return float4(gain, 0.0, gain, 1.0);" in body
