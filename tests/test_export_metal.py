"""`psl export --target metal` (issue 42): Metal Shading Language without a Metal compiler.

No Metal compiler runs on Linux, so the tests do what can be done here (docs/export.md,
"Metal: what is verified"):
- every corpus program's export, plain and --exact, compiles with g++ as C++14 against a
  stand-in of <metal_stdlib> (tests/metal_support) and, run on the CPU, equals the Python
  VM on every pixel (SPEC §9 frames, 64x64, 8 frames with self); so do generated programs
  (--exact) and the programs made to take the exact path;
- its structure matches spirv-cross's MSL of the GLSL export: the fragment function's
  shape, the uniforms (names, types, layout order), the textures it reads and the program's
  functions with their loops.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from psl.cli import main as cli
from psl.compiler import compile_source
from psl.dialect import METAL
from psl.dialect.glsl.natives import VM_MATH
from psl.export import ExportError, build_text
from psl.export.ir import build
from psl.export.names import check_name
from psl.export.sliders import parameters
from psl.export.text import Options
from psl.syntax import ast
from psl.vm import execute
from tests import progen
from tests.hlsl_support.harness import reference_inputs
from tests.metal_support.harness import MetalRunner, compile_only, host_sliders
from tests.progen.widths import width_program

CORPUS = Path(__file__).resolve().parent / "corpus"
MANIFEST = json.loads((CORPUS / "golden" / "manifest.json").read_text())["programs"]
NAMES = sorted(MANIFEST)
TOLERANCE = 1e-4
GENERATED_SEEDS = 80  # per generator (tests/test_export.py runs 420 on the HLSL export)

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed "
                               "(Debian package g++)")


def _source(name: str) -> str:
    return (CORPUS / MANIFEST[name]["source"]).read_text()


def _frames(source: str, params, width: int = 64, height: int = 64):
    count = 8 if "self(" in source.lower() else 1
    return [host_sliders(reference_inputs(k, width, height), params) for k in range(count)]


def _vm(slots, frames) -> np.ndarray:
    previous, out = None, None
    for inputs in frames:
        out, _ = execute(slots, replace(inputs, self_texture=previous))
        previous = out
    return out


def _bad_pixels(native: np.ndarray, reference: np.ndarray) -> tuple[int, float]:
    with np.errstate(invalid="ignore"):
        diff = np.abs(native - reference)
        ok = (native == reference) | (diff <= TOLERANCE * np.maximum(1.0, np.abs(reference)))
    largest = float(np.nanmax(np.where(native == reference, 0.0, diff), initial=0.0))
    return int((~ok.all(-1)).sum()), largest


@functools.cache
def _runner(rows: tuple[tuple[str, str], ...], exact: bool) -> MetalRunner:
    """(label, source) programs exported with their own names into one C++ build."""
    names, texts, sliders = [], [], []
    for k, (label, source) in enumerate(rows):
        result = compile_source(source)
        names.append(f"mprog{k}")
        texts.append(build_text(result, "metal", Options(name=f"mprog{k}", exact=exact),
                                label))
        sliders.append(parameters(build(result)))
    return MetalRunner(names, texts, sliders)


def _corpus_rows() -> tuple[tuple[str, str], ...]:
    return tuple((name, _source(name)) for name in NAMES)


# --------------------------------------------------------------------------- corpus
@needs_gxx
@pytest.mark.parametrize("exact", [False, True], ids=["plain", "exact"])
@pytest.mark.parametrize("name", NAMES)
def test_corpus_compiles_and_equals_vm(name: str, exact: bool) -> None:
    """Every corpus program's Metal export compiles under the stand-in header and renders
    every pixel of the reference frames as the VM does."""
    rows = _corpus_rows()
    runner = _runner(rows, exact)
    k = NAMES.index(name)
    params = runner.sliders[k]
    frames = _frames(rows[k][1], params)
    out = runner.render(k, frames)
    bad, largest = _bad_pixels(out, _vm(compile_source(rows[k][1]).program.slots(), frames))
    assert bad == 0, f"{name}: {bad} pixels differ (largest {largest})"


@needs_gxx
def test_one_export_compiles_alone(tmp_path) -> None:
    """A file as `psl export` writes it, compiled on its own (the corpus builds hold many),
    with and without the jump limit."""
    result = compile_source(_source("scene_raymarch"))
    compile_only(build_text(result, "metal"), tmp_path)
    compile_only(build_text(result, "metal", Options(max_jumps=None)), tmp_path)


@needs_gxx
def test_dispatch_fallback_equals_vm(monkeypatch: pytest.MonkeyPatch) -> None:
    """A block graph that while/if cannot write (none in the corpus) falls back to the
    block-dispatch loop (psl/export/text.py); forced here, it compiles and equals the VM."""
    from psl.export import metal
    from psl.export.readable import Unstructured

    def unstructured(self: object) -> list[str]:
        raise Unstructured("forced by the test")

    monkeypatch.setattr(metal.MetalReadable, "body", unstructured)
    rows = tuple((n, _source(n)) for n in ("apps_TableTennisPro", "scene_raymarch"))
    runner = _runner.__wrapped__(rows, True)  # not the cached structured build
    assert all("switch (psl_block)" in text for text in runner.texts)
    for k, (name, source) in enumerate(rows):
        frames = _frames(source, runner.sliders[k])
        bad, largest = _bad_pixels(runner.render(k, frames),
                                   _vm(compile_source(source).program.slots(), frames))
        assert bad == 0, f"{name}: {bad} pixels differ (largest {largest})"


# ------------------------------------------------------------------- the exact path
NAN_PROGRAMS = {
    "zero_by_zero": "z = floor(uv().x * 2); a = float3(z, 1, 2) / z; a + 1",
    "sqrt_negative": "v = sqrt(float3(1, uv().x - 0.5, 2)); sin(v) + v.z",
    "normalize_zero": "n = normalize(float2(floor(uv().x * 2), 0)); float3(n.x, n.y, 1) + n",
    "inf_minus_inf": "f = floor(uv().y * 2); d = 1 / f - 2 / f; (float2(1, 2) * d).y + 5",
}


@needs_gxx
def test_nan_programs_take_the_exact_path() -> None:
    """Programs where arithmetic makes a NaN (which the VM takes for a missing lane) equal
    the VM with --exact, and most of them do not without it: the path has teeth."""
    rows = tuple(sorted(NAN_PROGRAMS.items()))
    exact, plain = _runner(rows, True), _runner(rows, False)
    differs_without = 0
    for k, (name, source) in enumerate(rows):
        frames = _frames(source, (), 8, 8)
        reference = _vm(compile_source(source).program.slots(), frames)
        assert _bad_pixels(exact.render(k, frames), reference)[0] == 0, name
        differs_without += _bad_pixels(plain.render(k, frames), reference)[0] > 0
    assert differs_without >= 3, differs_without


@needs_gxx
def test_work_budget_as_the_vm() -> None:
    """Issue 37: programs whose pixels reach the VM's work budget equal the VM with
    --exact (the exact path counts every instruction) and differ without it."""
    from tests import hostile

    rows = tuple((name, hostile.programs()[name])
                 for name in ("per_pixel_counts", "three_functions_in_a_while"))
    exact, plain = _runner(rows, True), _runner(rows, False)
    for k, (name, source) in enumerate(rows):
        frames = _frames(source, (), 8, 8)
        slots = compile_source(source).program.slots()
        assert execute(slots, frames[0])[1].spent.any(), name
        reference = _vm(slots, frames)
        assert _bad_pixels(exact.render(k, frames), reference)[0] == 0, name
        assert _bad_pixels(plain.render(k, frames), reference)[0] > 0, name


def _generated() -> tuple[tuple[str, str], ...]:
    rows = []
    for seed in range(GENERATED_SEEDS):
        for label, source in ((f"vm:{seed}", progen.generate(seed, True, "vm")),
                              (f"widths:{seed}", width_program(seed))):
            result = compile_source(source)
            try:
                if result.ok:
                    build(result)
                    rows.append((label, source))
            except ExportError:
                pass
    return tuple(rows)


@needs_gxx
def test_generated_programs_equal_vm() -> None:
    """Generated programs (every builtin and operator, mixed widths, swizzles of swizzles,
    sliders) exported with --exact equal the VM on every pixel."""
    rows = _generated()
    runner = _runner(rows, True)
    failures = []
    for k, (label, source) in enumerate(rows):
        frames = _frames(source, runner.sliders[k], 8, 8)
        bad, largest = _bad_pixels(runner.render(k, frames),
                                   _vm(compile_source(source).program.slots(), frames))
        if bad:
            failures.append(f"{label}: {bad} pixels (largest {largest})")
    assert len(rows) > GENERATED_SEEDS and not failures, failures


@needs_gxx
def test_generated_programs_compile_without_exact() -> None:
    """Without --exact the export writes more of MSL's own functions (no VM helper where
    the widths allow one): the same generated programs compile that way too. (Their pixels
    may differ from the VM's where arithmetic makes a NaN, docs/export.md.)"""
    _runner(_generated(), False).build()


# ---------------------------------------------------------- spirv-cross cross-check
def _needs_spirv_cross() -> None:
    from tests.metal_support.crosscheck import tools

    if tools() is None:
        pytest.skip("glslangValidator or spirv-cross not installed (Debian packages "
                    "glslang-tools, spirv-cross)")


@pytest.mark.parametrize("name", NAMES)
def test_structure_matches_spirv_cross(name: str) -> None:
    """spirv-cross's MSL of the GLSL export and the Metal export agree on what a host and
    a reader see: one fragment function of the pixel's [[position]] with the uniforms in
    one constant buffer at index 0 (the same members and types, by the WebGL VM's names),
    the same textures read, the program's functions by the same names with the same
    loops, calling the same MSL functions."""
    _needs_spirv_cross()
    from tests.metal_support.crosscheck import (
        UNIFORMS,
        library_calls,
        parse,
        spirv_cross_msl,
        textures_read,
    )

    source = _source(name)
    ours = build_text(compile_source(source), "metal", source_name=name)
    theirs = spirv_cross_msl(build_text(compile_source(source), "glsl", source_name=name))
    mine, cross = parse(ours), parse(theirs)

    # the entry point: a float4 colour from the pixel's position and buffer(0)
    assert mine.entry_returns == "float4"
    assert cross.structs[cross.entry_returns] == {next(iter(
        cross.structs[cross.entry_returns])): "float4"}
    for s in (mine, cross):
        assert "float4" in [p.split()[0] for p in s.parameters if p.endswith("[[position]]")]
        assert 0 in s.buffers
    for s in (mine, cross):
        assert all(p.startswith("texture2d<float> ") for p in s.parameters
                   if "[[texture(" in p)

    # the uniforms: the same members, types and order (the layout a host fills)
    theirs_uniforms = [(UNIFORMS[k], t) for k, t in cross.uniforms.items() if k in UNIFORMS]
    ours_uniforms = [(k, t) for k, t in mine.uniforms.items() if k != "sentinel"]
    # (GLSL's u_is_avpro is a bool, a uint in MSL; the Metal export takes a float)
    assert [(k, "uint" if k == "is_avpro" else t) for k, t in ours_uniforms] == theirs_uniforms
    sliders = {k: t for k, t in cross.uniforms.items() if k not in UNIFORMS}
    assert mine.buffers.get(1, {}) == sliders

    # (the GLSL export also reads AudioLink's texture; the Metal export has no AudioLink)
    assert textures_read(ours, mine) == textures_read(theirs, cross)
    own = {k: v for k, v in mine.functions.items() if not k.startswith("psl_")}
    translated = {k: v for k, v in cross.functions.items()
                  if not k.startswith(("psl_", "spv")) and k not in ("main0", "mod")}
    assert own == translated

    # the same builtins, but for the transcendental ones, which the GLSL export computes
    # with the WebGL VM's own code (VM_MATH, docs/export.md)
    assert library_calls(ours) - VM_MATH == library_calls(theirs) - VM_MATH


def test_sliders_cross_check() -> None:
    """A program's named sliders: buffer(1) of the Metal export, members of the GLSL
    export's uniform block in spirv-cross's translation, the same names in the same
    order."""
    _needs_spirv_cross()
    from tests.metal_support.crosscheck import UNIFORMS, parse, spirv_cross_msl

    source = ("//@slider 0 zoom 1..400 = 1\n//@slider 2 speed -1..1 = 0.5\n"
              "k = floor(uv().x * 4);\nfloat4(slider(0) / 400, slider(k), slider(2), 1)\n")
    mine = parse(build_text(compile_source(source), "metal"))
    cross = parse(spirv_cross_msl(build_text(compile_source(source), "glsl")))
    assert mine.buffers[1] == {k: t for k, t in cross.uniforms.items() if k not in UNIFORMS}
    assert list(mine.buffers[1]) == ["zoom", "speed"]


# ------------------------------------------------------------------------- readable
@pytest.mark.parametrize("name", NAMES)
def test_readable_like_the_other_exports(name: str) -> None:
    """The program's functions are functions (members of its struct), its variables keep
    their names, loops are loops: no block-dispatch loop."""
    result = compile_source(_source(name))
    assert result.ast is not None and result.program is not None
    text = build_text(result, "metal")
    assert "switch (psl_block)" not in text
    called = _called(result.ast)
    for fn in sorted(called):
        assert re.search(rf"^    (void|float[234]?) {fn}_?(_?\d+)?\(", text, re.M), fn
    for var in {v.split(".")[-1] for v in result.program.variables.values()}:
        assert re.search(rf"\b(\w+_)?{re.escape(var)}\d*_?\b", text), var


def _called(tree: ast.Program) -> set[str]:
    """The program's own functions that it calls."""
    defined, called = set(), set()
    work: list[object] = [tree.body]
    while work:
        node = work.pop()
        if isinstance(node, ast.FunDef):
            defined.add(node.name.text)
        elif isinstance(node, ast.Call):
            called.add(node.name.text)
        work.extend(ast.children(node))
    return called & defined


# ----------------------------------------------------------------- names and the CLI
def test_help_lists_metal() -> None:
    out = CliRunner().invoke(cli, ["export", "--help"]).output
    assert "metal" in out


def test_cli_writes_a_metal_file(tmp_path) -> None:
    src = tmp_path / "spiral.psl"
    src.write_text(_source("scene_spiral"))
    out = tmp_path / "spiral.metal"
    run = CliRunner().invoke(cli, ["export", "--target", "metal", str(src), "-o", str(out)])
    assert run.exit_code == 0, run.output
    text = out.read_text()
    assert text.startswith("// spiral.psl as a Metal (MSL) fragment function")
    assert "fragment float4 psl_program_fragment(" in text
    assert "fast math off" in text  # the header says how to compile it to match the VM


def test_names_metal_keeps_are_refused() -> None:
    for word in ("level", "constant", "thread", "fract", "as_type", "psl_x", "_x", "a__b"):
        assert check_name(word, "metal") is not None, word
    assert check_name("my_shader", "metal") is None
    # the template's own names: the inputs struct, its members' holders
    assert check_name("inputs", "metal") is not None


@needs_gxx
def test_a_program_may_use_metal_words(tmp_path) -> None:
    """Variables and functions named like MSL's keywords and functions are renamed (a
    member of the program's struct would hide the function it is named after)."""
    source = ("fun fract(x) { return x * 2; }\nconstant = uv().x; level = 0.5; thread = 1;\n"
              "mix = float3(constant, level, thread); fract(mix)")
    text = build_text(compile_source(source), "metal")
    for word in ("constant", "level", "thread", "mix"):
        assert re.search(rf"\b{word}\b\s*=", text) is None, word
    compile_only(text, tmp_path)
    assert "fract" in METAL.words and "level" in METAL.words
