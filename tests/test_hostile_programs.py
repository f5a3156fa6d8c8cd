"""The work budget against hostile programs (issue 37; tests/hostile.py): the reference VM
stops every pixel at the budget, `psl check` names the cost with a position, and the
setting reaches every VM command. HLSL and WebGL run the same programs in
tests/test_hlsl_vm.py and tests/test_glsl_vm.py."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from psl.cli.check import command as check_command
from psl.cli.run import command as run_command
from psl.compiler import check_source, compile_source
from psl.registry import FUSED, LIMITS
from psl.vm import Inputs, execute
from tests import hostile
from tests.vm_support.oracle import run_pixel

INPUTS = Inputs(8, 8, time=1.25, button=(1, 0, 1, 0), axis=(0.25, -0.5, 0.75, 0))


@pytest.mark.parametrize("level", [0, 1, 2])
@pytest.mark.parametrize("name", sorted(hostile.programs()))
def test_no_pixel_runs_past_the_budget(name, level):
    slots = compile_source(hostile.programs()[name], optimize=level).unwrap().slots()
    img, stats = execute(slots, INPUTS)
    assert stats.exec_instructions.max() <= LIMITS.steps
    # a pixel the budget stopped executed the budget, at -O2 less at most a fused
    # instruction's weight less one: it stops before one that would pass it (spec §11.4)
    early = max(f.weight for f in FUSED) - 1 if level == 2 else 0
    assert (stats.exec_instructions[stats.spent] >= LIMITS.steps - early).all()
    assert not (stats.spent & stats.hit_jump_limit).any()
    assert np.isfinite(img).all() or name in hostile.VALUES  # zeroNaN: no NaN colours


@pytest.mark.parametrize("name", sorted(hostile.DEEP))
def test_budget_or_jump_limit_stops_every_deep_loop(name):
    slots = compile_source(hostile.DEEP[name], optimize=1).unwrap().slots()
    _, stats = execute(slots, INPUTS)
    assert (stats.spent | stats.hit_jump_limit).any()


def test_pixels_of_one_group_stop_at_their_own_count():
    """per_pixel_counts: columns loop different numbers of times, so some pixels stop at
    the budget while the others finish; the oracle of SPEC §7.2 agrees on a small budget."""
    slots = compile_source(hostile.DEEP["per_pixel_counts"], optimize=1).unwrap().slots()
    _, stats = execute(slots, INPUTS)
    assert stats.spent.any() and not stats.spent.all()
    img, stats = execute(slots, INPUTS, max_steps=300)
    u, v = INPUTS.uv_grid()
    px = {"time": 1.25, "dt": 1 / 60, "width": 8, "height": 8, "button": (1, 0, 1, 0),
          "axis": (0.25, -0.5, 0.75, 0)}
    for p in (0, 3, 5, 7, 60, 63):
        px["u"], px["v"] = u[p], v[p]
        with np.errstate(all="ignore"):
            want = run_pixel(slots, px, max_steps=300)
        np.testing.assert_allclose(img[p // 8, p % 8], want, rtol=1e-6, err_msg=f"pixel {p}")


@pytest.mark.parametrize("name", ["three_functions_in_a_while", "nested_loops_with_inlining",
                                  "per_pixel_counts", "max_size_loop"])
def test_check_names_the_cost_with_a_position(name):
    source = hostile.programs()[name]
    result = check_source(source, optimize=1)
    found = [d for d in result.diagnostics if d.code == "W014"]
    assert len(found) == 1, result.diagnostics
    line = found[0].span.line
    lines = source.splitlines()
    first_loop = 1 + next(k for k, t in enumerate(lines) if "while" in t)
    assert line >= first_loop or "fun" in lines[line - 1], (line, lines[line - 1])


def test_check_is_quiet_for_light_programs():
    for name in ("huge_alpha", "nan_and_inf_flood", "endless_short_loop"):
        codes = {d.code for d in check_source(hostile.programs()[name], optimize=1).diagnostics}
        assert "W014" not in codes


def test_cli_check_and_run_take_the_budget(tmp_path):
    path = tmp_path / "deep.psl"
    path.write_text(hostile.DEEP["three_functions_in_a_while"], encoding="utf-8")
    r = CliRunner().invoke(check_command, [str(path)])
    assert "warning[W014]" in r.output and ":8:1:" in r.output  # the while (leading newline)
    r = CliRunner().invoke(check_command, ["--stats", str(path)])
    assert "work budget (65536 executed instructions) cut off every sample pixel" in r.output
    out = tmp_path / "o.npy"
    r = CliRunner().invoke(run_command, [str(path), "--size", "2x2", "--max-steps", "50",
                                         "--stats", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "executed instructions per pixel: mean 50.000, max 50" in r.output
    assert "pixels that hit the work budget: 4" in r.output
    r = CliRunner().invoke(run_command, [str(path), "--max-steps", "-1", "-o", str(out)])
    assert r.exit_code == 2 and "--max-steps" in r.output
