"""Sliders (issue 42, docs/spec.md §8.8) in the language's tools: the numpy VM's builtin 60,
`psl run --slider`, `psl compile --format json`'s table, the lint (W015-W017), the
optimizer (a slider is an input: never folded, hoisted like time()), fmt and the LSP.
The other VMs are compared in tests/test_sliders_vms.py."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

import psl
from psl.api import slider_values
from psl.bytecode import unfuse
from psl.cli.compile import command as compile_command
from psl.cli.run import command as run_command
from psl.compiler import check_source, compile_source
from psl.fmt import format_source
from psl.registry import BUILTIN_BY_NAME, SLIDERS, Op
from psl.syntax.sliders import parse_sliders
from psl.vm import execute
from psl.vm.inputs import Inputs

SLIDER_ID = BUILTIN_BY_NAME["slider"].id
LEVELS = (0, 1, 2)

#: reads every index and some outside them across the screen (floor(x) from -2 to 9)
SWEEP = """//@slider 0 zoom 0.5..4 = 1
//@slider 1 angle -3.14..3.14 = 0.5
//@slider 5 level -1..1 = -0.25
let k = floor(uv().x * 12) - 2;
let p = (uv() - 0.5) * slider(0);
let a = slider(1);
float4(slider(k), p.x * cos(a) - p.y * sin(a), slider(5) + slider(k + 0.75),
       slider(sqrt(uv().y - 2)))
"""


def render(source: str, sliders=None, level: int = 1, size: int = 16) -> np.ndarray:
    return psl.run(source, size=(size, size), sliders=sliders, optimize=level)


def test_the_registry_gives_builtin_60_its_facts():
    b = BUILTIN_BY_NAME["slider"]
    assert (b.id, b.arity, b.dim, b.varying, b.foldable) == (60, 1, 1, True, False)
    assert (SLIDERS.count, SLIDERS.uniform) == (8, "_Sliders")


# ---------------------------------------------------------------------- the numpy VM

def test_slider_reads_floor_of_x_and_zero_outside():
    values = (0.5, -1.0, 2.0, 3.25, -4.5, 5.0, 6.75, 100.0)
    slots = compile_source(SWEEP).unwrap().slots()
    img, _ = execute(slots, Inputs(width=12, height=1, sliders=values))
    for x in range(12):
        k = x - 2
        want = values[k] if 0 <= k < SLIDERS.count else 0.0
        assert img[0, x, 0] == np.float32(want), x
        # floor(k + 0.75) is k again
        assert img[0, x, 2] == np.float32(values[5] + want), x
    # sqrt of a negative is NaN, which the VM masks to 0 before the call: slider 0
    assert (img[..., 3] == np.float32(values[0])).all()


def test_a_world_that_never_sets_the_sliders_reads_zeros():
    slots = compile_source("float4(slider(0), slider(3), slider(7), 1)").unwrap().slots()
    img, _ = execute(slots, Inputs(width=2, height=2))
    assert (img[..., :3] == 0).all()


def test_slider_result_is_one_lane_wide():
    # float4(slider(0)) takes lanes from slider's result: one lane, the rest absent
    src = "//@slider 0 a = 0.5\nlet s = slider(0);\nfloat4(s.x, s.y, 0, 1)"
    r = compile_source(src)
    assert any(d.code == "W010" for d in r.diagnostics)  # .y past a float's width


def test_defaults_and_overrides_in_psl_run():
    table = parse_sliders(SWEEP)
    assert slider_values(SWEEP) == table.values()
    assert slider_values(SWEEP)[:2] == (1.0, float(np.float32(0.5)))
    got = slider_values(SWEEP, {"zoom": 99, "1": -1, 7: 3})
    assert got[0] == 4.0  # clamped into 0.5..4 as the world's slider would be
    assert got[1] == -1.0
    assert got[7] == 3.0  # no line names 7: as given
    assert slider_values(SWEEP, [1.0] * 8) == (1.0,) * 8
    with pytest.raises(ValueError, match="'speed' is no slider of the program; its sliders "
                                         "are: 0 zoom, 1 angle, 5 level"):
        slider_values(SWEEP, {"speed": 1})
    with pytest.raises(ValueError, match="no slider 8"):
        slider_values(SWEEP, {"8": 1})


def test_psl_run_slider_option(tmp_path):
    src = tmp_path / "p.psl"
    src.write_text("//@slider 0 zoom 0.5..4 = 1\n//@slider 2 hue\n"
                   "float4(slider(0) / 4, slider(2), slider(3), 1)\n")
    runner = CliRunner()

    def pixel(*args: str) -> np.ndarray:
        out = tmp_path / "o.npy"
        r = runner.invoke(run_command, [str(src), "-o", str(out), "--size", "2x2", *args])
        assert r.exit_code == 0, r.output
        return np.load(out)[0, 0]

    assert pixel()[:3].tolist() == [0.25, 0.0, 0.0]
    assert pixel("--slider", "zoom=2", "--slider", "2=0.5", "--slider", "3=7")[:3].tolist() \
        == [0.5, 0.5, 7.0]
    assert pixel("--slider", "zoom=100")[0] == 1.0  # clamped to 4
    r = runner.invoke(run_command, [str(src), "-o", str(tmp_path / "o.png"),
                                    "--slider", "speed=1"])
    assert r.exit_code == 2
    assert "'speed' is no slider of the program; its sliders are: 0 zoom, 2 hue" in r.output
    r = runner.invoke(run_command, [str(src), "-o", str(tmp_path / "o.png"),
                                    "--slider", "zoom"])
    assert r.exit_code == 2 and "is not NAME=VALUE" in r.output
    assert "Traceback" not in r.output


def test_compile_json_carries_the_table(tmp_path):
    src = tmp_path / "p.psl"
    src.write_text("//@slider 3 speed -2..2.5 = 1\n//@slider 0 zoom\n"
                   f"let x = 1{'0' * 45};\nfloat4(slider(0), slider(3), x, 1)\n")
    r = CliRunner().invoke(compile_command, [str(src), "--format", "json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["sliders"] == [
        {"index": 0, "name": "zoom", "low": 0.0, "high": 1.0, "default": 0.0},
        {"index": 3, "name": "speed", "low": -2.0, "high": 2.5, "default": 1.0}]
    # the program's infinite operand (written 1e999) survives the splice
    assert any(math.isinf(x or 0) for ins in doc["instructions"] for x in ins["operand"])
    result = compile_source(src.read_text())
    assert [s.name for s in result.sliders.sliders] == ["zoom", "speed"]
    plain = tmp_path / "q.psl"
    plain.write_text("float4(1, 1, 1, 1)")
    r = CliRunner().invoke(compile_command, [str(plain), "--format", "json"])
    assert json.loads(r.stdout)["sliders"] == []


# ---------------------------------------------------------------------- lint

def codes(source: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.column) for d in check_source(source).diagnostics]


def test_w017_for_constant_indices_no_line_names():
    src = ("//@slider 0 zoom 0.5..4 = 1\nlet k = 2;\n"
           "let a = slider(0) + slider(k) + slider(7.9) + slider(-0.5) + slider(1000000000);\n"
           "float4(a, slider(floor(uv().x * 8)), 0, 1)")
    diags = [d for d in check_source(src).diagnostics if d.code == "W017"]
    assert [(d.span.line, d.span.column) for d in diags] == [(3, 21), (3, 33), (3, 47), (3, 62)]
    assert [d.message for d in diags] == [
        "slider(2) is named by no `//@slider` line, so it reads 0",
        "slider(7) is named by no `//@slider` line, so it reads 0",
        "slider(-0.5) is outside the 8 sliders (0-7), so it reads 0",
        "slider(1e+09) is outside the 8 sliders (0-7), so it reads 0"]


def test_w015_w016_come_with_the_other_diagnostics_in_order():
    src = "let a = slider(0);\n//@slider 0 zoom 0.5..4 = 9\n//@slider 0 zoom\nfloat4(a, a, a, 1)"
    assert codes(src) == [("W016", 2, 1), ("W015", 3, 1)]
    # a program that does not compile still gets its slider lines checked
    assert ("W015", 1, 1) in codes("//@slider x\nlet = ;")


def test_the_examples_check_clean():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "unity_package" / "Examples"
    for name in ("sliders_mandelbrot_zoom.psl", "sliders_raymarch_light.psl"):
        result = check_source((root / name).read_text(encoding="utf-8"))
        assert result.ok and result.diagnostics == [], (name, result.diagnostics)
        assert len(result.sliders.sliders) == 4


# ---------------------------------------------------------------------- optimizer

ONLY_SLIDER = "//@slider 0 level -10..10 = 1\nlet s = slider(0) * 2 + 1;\nfloat4(s, s * s, 0, 1)"


@pytest.mark.parametrize("level", LEVELS)
def test_no_level_folds_a_slider(level):
    program = unfuse(compile_source(ONLY_SLIDER, optimize=level).unwrap())  # -O2: fused
    calls = [ins for ins in program.instructions if ins.op == Op.CALL
             and int(ins.operand[0]) == SLIDER_ID]
    assert calls, "the slider call was folded away"
    seen = set()
    for value in (-3.0, 0.0, 1.0, 2.5):
        img = render(ONLY_SLIDER, {"level": value}, level, size=2)
        assert img[0, 0, 0] == np.float32(value * 2 + 1)
        seen.add(float(img[0, 0, 1]))
    assert len(seen) == 4
    # and the same as the -O0 code at each value
    for value in (-3.0, 7.5):
        assert np.array_equal(render(ONLY_SLIDER, {"level": value}, 0, size=2),
                              render(ONLY_SLIDER, {"level": value}, level, size=2))


def test_a_slider_read_in_a_loop_is_hoisted_like_time():
    src = ("//@slider 0 speed\nlet s = 0;\nlet i = 0;\n"
           "while (i < floor(uv().x * 40)) { s += slider(0) * 2 + time().y; i++; }\n"
           "float4(s, 0, 0, 1)")
    o0 = compile_source(src).unwrap().instructions
    o1 = compile_source(src, optimize=1).unwrap().instructions

    def first_jump(code) -> int:
        return next(k for k, ins in enumerate(code) if ins.op in (Op.JUMP, Op.CONDJUMP))

    def slider_calls(code) -> list[int]:
        return [k for k, ins in enumerate(code)
                if ins.op == Op.CALL and int(ins.operand[0]) == SLIDER_ID]

    assert slider_calls(o0)[0] > first_jump(o0)  # -O0: inside the loop
    assert len(slider_calls(o1)) == 1 and slider_calls(o1)[0] < first_jump(o1)
    for value in (0.25, 3.0):
        assert np.array_equal(render(src, {"speed": value}, 0), render(src, {"speed": value}, 1))


def test_sweep_is_the_same_at_every_level():
    for sliders in (None, {"zoom": 3.5, "angle": -2, "2": 123.5}):
        want = render(SWEEP, sliders, 0)
        for level in LEVELS[1:]:
            assert np.array_equal(render(SWEEP, sliders, level), want), level


# ---------------------------------------------------------------------- fmt

def test_fmt_keeps_slider_lines():
    src = ("//@slider 0 zoom 0.5..4 = 1\n  //\t@slider 1 speed   -2 .. 2 = 0.5   \n"
           "let a=slider(0)+slider( 1 ); // @slider 2 trailing\nfloat4(a,a,a,1)\n")
    out = format_source(src)
    assert out.splitlines()[0] == "//@slider 0 zoom 0.5..4 = 1"
    assert "//\t@slider 1 speed   -2 .. 2 = 0.5" in out
    assert "// @slider 2 trailing" in out
    before, after = parse_sliders(src), parse_sliders(out)
    assert [(s.index, s.name, s.low, s.high, s.default) for s in before.sliders] == \
        [(s.index, s.name, s.low, s.high, s.default) for s in after.sliders]
    assert len(after.sliders) == 3


def test_check_stats_run_the_defaults():
    """psl check --stats (and W014's sample pixels) run with the sliders at the program's
    defaults, the values a player sees first."""
    from psl.api import program_stats

    src = ("//@slider 0 n 0..5000 = 3000\nlet s = 0;\n"
           "for (let i = 0; i < slider(0); i++) { s += 1; }\nfloat4(s, 0, 0, 1)")
    at_defaults = program_stats(src).sampled.pixels[0]
    at_zero = program_stats(src, sliders=(0.0,) * SLIDERS.count).sampled.pixels[0]
    assert at_defaults.hit_jump_limit and at_zero.jumps <= 2


def test_words_are_space_separated():
    """Spec §8.8: `0zoom` and `y-1..2` break the rule (W015, nothing named); '=' may touch
    the name, as spaces are optional around it."""
    table = parse_sliders("//@slider 0zoom\n//@slider 1 y-1..2\n//@slider 2 z=0.5\n"
                          "//@slider 3 w 0..2=1\n")
    assert [(d.code, d.span.line) for d in table.diagnostics] == [("W015", 1), ("W015", 2)]
    assert "'0zoom' where the slider's index" in table.diagnostics[0].message
    assert "'y-1..2' where the slider's name" in table.diagnostics[1].message
    assert [(s.index, s.name, s.default) for s in table.sliders] == [(2, "z", 0.5),
                                                                     (3, "w", 1.0)]
