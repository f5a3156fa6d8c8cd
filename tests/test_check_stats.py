"""`psl check --stats` and `psl.api.program_stats`: static numbers against the VM's limits
(the stack depth by dataflow over the bytecode) and executed instructions on sample pixels."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from psl.api import program_stats
from psl.bytecode import instruction, parse_listing
from psl.cli.check import command as check_command
from psl.cli.compile import command as compile_command
from psl.compiler import compile_source
from psl.compiler.stats import jump_target, max_stack_depth, stack_effect
from psl.registry import LIMITS, Op
from psl.vm.machine import execute
from psl.vm.samples import corner_and_centre_pixels, reference_inputs, run_samples
from tests.conftest import CORPUS
from tests.progen import generate

STRAIGHT = "x = uv().x;\nfloat3(x, 0, 1)\n"
IF_ELSE = "if (uv().x < 0.5) { c = 1; } else { c = 2; } c\n"
WHILE_3 = "i = 0; while (i < 3) { i += 1; } i\n"
FOR_4 = "s = 0; for (i = 0; i < 4; i++) { s += i; } s\n"
FOREVER = "i = 0; while (1) { i += 1; } i\n"
BY_UV = "i = 0; while (i < uv().x * 10) { i += 1; } i\n"
LEAKY_LOOP = "i = 0; while (i < 3) { i += 1; 5 } i\n"  # leaves a 5 per iteration
NESTED = "float4(1, 2, 3, " * 45 + "4" + ")" * 45  # 3 * 45 + 1 values deep
PONG = CORPUS / "scene_pong_by_fuopy.psl"
SAMPLES = ((0, 0), (63, 0), (0, 63), (63, 63), (32, 32))


def counts(stats) -> list[tuple[int, int, bool]]:
    return [(p.instructions, p.jumps, p.hit_jump_limit) for p in stats.sampled.pixels]


def check(*args: str):
    """`psl check` at -O0 (the numbers below are the compiler's code; the -O1 line has its
    own test)."""
    return CliRunner().invoke(check_command, ["-O0", *args])


# ---------------------------------------------------------------------- known numbers

def test_sample_pixels_are_the_corners_and_the_centre():
    assert corner_and_centre_pixels(64, 64) == SAMPLES
    assert corner_and_centre_pixels(1, 1) == ((0, 0),)
    s = program_stats(STRAIGHT, optimize=0)
    assert [(p.x, p.y) for p in s.sampled.pixels] == list(SAMPLES)
    assert (s.sampled.width, s.sampled.height, s.sampled.time) == (64, 64, 1.25)
    assert s.sampled.pixels[0].u == 0.5 / 64 and s.sampled.pixels[4].v == 32.5 / 64


def test_straight_line_code():
    # uv, PUSHCONST pick, CALL swizzle, SETVAR x, PUSHVAR x, PUSHCONST 0, PUSHCONST 1, CALL
    s = program_stats(STRAIGHT, optimize=0)
    assert (s.instructions, s.registers, s.max_stack) == (8, 1, 3)
    assert counts(s) == [(8, 0, False)] * 5
    assert s.uniform and s.executed == (8, 8) and s.jumps == (0, 0) and not s.cut_off


def test_if_else_takes_one_branch_per_pixel():
    # the then-branch runs its JUMP to the end (10 instructions), the else-branch does not (9)
    s = program_stats(IF_ELSE, optimize=0)
    assert (s.instructions, s.registers, s.max_stack) == (12, 1, 2)
    assert counts(s) == [(10, 1, False), (9, 1, False), (10, 1, False), (9, 1, False),
                         (9, 1, False)]  # u < 0.5 only at x = 0
    assert not s.uniform and s.executed == (9, 10) and s.jumps == (1, 1)


def test_constant_bounded_loops():
    # while: 2 + 3 * (4 + 4 + 1) + 4 + 1; jumps: 3 JUMPs and the CONDJUMP out
    s = program_stats(WHILE_3, optimize=0)
    assert (s.instructions, s.registers, s.max_stack) == (12, 1, 2)
    assert counts(s) == [(34, 4, False)] * 5 and s.uniform
    # for: 4 + 4 * (4 + 1 + 4 + 1 + 4 + 1) + 4 + 1; three jumps per iteration and the exit
    s = program_stats(FOR_4, optimize=0)
    assert (s.instructions, s.registers, s.max_stack) == (20, 2, 2)
    assert counts(s) == [(69, 13, False)] * 5 and s.uniform


def test_jump_budget_cuts_pixels_off():
    # 2 + 7 per iteration; a pixel stops after its (limit + 1)th jump (SPEC §7.2)
    s = program_stats(FOREVER, optimize=0)
    n = LIMITS.jumps + 1
    assert counts(s) == [(2 + 7 * n, n, True)] * 5
    assert s.uniform and len(s.cut_off) == 5
    s = program_stats(FOREVER, max_jumps=10, optimize=0)
    assert counts(s) == [(79, 11, True)] * 5 and s.sampled.max_jumps == 10


def test_loop_count_depending_on_uv():
    # ceil(10 u) iterations of 13 instructions, plus 11: u = 1/128 -> 1, 127/128 -> 10,
    # 65/128 -> 6
    s = program_stats(BY_UV, optimize=0)
    assert (s.instructions, s.registers, s.max_stack) == (16, 1, 3)
    assert counts(s) == [(24, 2, False), (141, 11, False), (24, 2, False), (141, 11, False),
                         (89, 7, False)]
    assert not s.uniform and s.executed == (24, 141) and s.jumps == (2, 11)


def test_some_pixels_hit_the_jump_budget():
    s = program_stats("i = 0; while (i < uv().x * 4000) { i += 1; } i", optimize=0)
    assert [(p.x, p.y) for p in s.cut_off] == [(63, 0), (63, 63), (32, 32)]
    assert s.jumps == (33, LIMITS.jumps + 1)


def test_unbounded_and_too_deep_stacks():
    s = program_stats(LEAKY_LOOP, optimize=0)
    # three 5s left behind, then the two operands of the last loop test
    assert s.max_stack is None and s.sampled.max_stack == 5
    s = program_stats(NESTED, optimize=0)
    assert s.max_stack == 3 * 45 + 1 > LIMITS.stack and s.sampled.max_stack == s.max_stack


# ---------------------------------------------------------------------- the dataflow pass

def test_stack_effects():
    swizzle = instruction(Op.CALL, 29)
    assert [stack_effect(i) for i in parse_listing(
        "PUSHCONST (1, NaN, NaN, NaN)\nPUSHVAR 0\nBINOP +\nUNOP -\nSETVAR 0\nJUMP 0\n"
        "CONDJUMP 0\nCALL float4\nCALL uv\nCALL sin\n")] == [1, 1, -1, 0, -1, 0, -1, -3, 1, 0]
    assert stack_effect(swizzle) == -1  # its pick is the second argument
    assert stack_effect(instruction(Op.CALL, 63)) == 1  # unknown id: no arguments
    assert stack_effect(instruction(Op(0), 0)) == 0
    n = 5
    assert jump_target(instruction(Op.JUMP, 4), n) == 2
    assert jump_target(instruction(Op.JUMP, 10), n) == n  # the end
    assert jump_target(instruction(Op.JUMP, 3), n) == n  # odd: not an instruction


def test_dataflow_on_listings():
    def depth(text: str) -> int | None:
        return max_stack_depth(parse_listing(text))

    assert depth("") == 0
    one = "PUSHCONST (1, NaN, NaN, NaN)\n"
    # a branch that leaves a value: the deeper side counts at the join (1, then 2)
    assert depth(one + "CONDJUMP 8\n" + one + "JUMP 8\n" + one) == 2
    # unreachable code after a jump to the end is not counted
    assert depth("JUMP 8\n" + one * 3) == 0
    # a balanced loop: PUSHVAR, CONDJUMP out, JUMP back
    assert depth("PUSHVAR 0\nCONDJUMP 6\nJUMP 0\n" + one) == 1
    # a loop that pushes once per turn is unbounded, even if it never runs long
    assert depth("PUSHVAR 0\nCONDJUMP 8\n" + one + "JUMP 0\n") is None
    # a self-loop that pushes
    assert depth(one + "JUMP 0\n") is None


def _naive_depth(instructions) -> int | None:
    """Instruction-level longest path, giving up past len + 1 (only a loop gets there)."""
    n = len(instructions)
    if n == 0:
        return 0
    eff = [stack_effect(i) for i in instructions]
    succ = []
    for k, ins in enumerate(instructions):
        targets = [k + 1]
        if ins.op == Op.JUMP:
            targets = [jump_target(ins, n)]
        elif ins.op == Op.CONDJUMP:
            targets = [k + 1, jump_target(ins, n)]
        succ.append([t for t in targets if t < n])
    depth: list[int | None] = [None] * n
    depth[0] = 0
    work, deepest = [0], 0
    while work:
        v = work.pop()
        d = depth[v]
        assert d is not None
        if d > n + 1:
            return None
        deepest = max(deepest, d, d + eff[v])
        for t in succ[v]:
            got = depth[t]
            if got is None or got < d + eff[v]:
                depth[t] = d + eff[v]
                work.append(t)
    return deepest


@pytest.mark.parametrize("mode", ["vm", "compiler"])
def test_dataflow_agrees_with_a_naive_search_and_the_vm(mode):
    seen = set()
    for seed in range(30):
        program = compile_source(generate(seed, True, mode)).program
        if program is None:
            continue
        depth = max_stack_depth(program.instructions)
        assert depth == _naive_depth(program.instructions), seed
        seen.add(depth is None)
        if depth is not None and mode == "compiler":  # "vm" loops run to the jump limit
            assert run_samples(program.slots()).max_stack <= depth, seed
    assert seen == {False, True}  # both kinds occurred


def test_corpus_stack_depth_is_reached():
    for path in sorted(CORPUS.glob("*.psl")):
        s = program_stats(path.read_text(encoding="utf-8"))
        assert s.max_stack is not None and s.max_stack == s.sampled.max_stack, path.name


# ---------------------------------------------------------------------- pong

def test_pong_numbers_match_psl_compile(tmp_path):
    r = CliRunner().invoke(compile_command, [str(PONG), "--format", "json", "-O0"])
    assert r.exit_code == 0, r.output
    compiled = json.loads(r.stdout)  # the warnings go to stderr
    s = program_stats(PONG.read_text(encoding="utf-8"), optimize=0)
    assert s.instructions == compiled["instruction_count"] == len(compiled["instructions"])
    assert s.registers == compiled["registers"]
    assert (s.instructions, s.registers, s.max_stack) == (1624, 49, 7)
    assert counts(s) == [(179, 2, False), (394, 11, False), (268, 10, False),
                         (300, 11, False), (405, 11, False)]


def test_samples_are_the_full_frames_counts():
    """Running only the sample pixels gives what a whole frame 0 gives at those pixels."""
    for name in ("scene_pong_by_fuopy", "scene_mandelbrot"):
        program = compile_source((CORPUS / f"{name}.psl").read_text()).unwrap()
        sampled = run_samples(program.slots())
        _, full = execute(program.slots(), reference_inputs())
        for p in sampled.pixels:
            assert (p.instructions, p.jumps, p.hit_jump_limit) == (
                full.exec_instructions[p.y, p.x], full.jumps[p.y, p.x],
                full.hit_jump_limit[p.y, p.x]), (name, p)
        assert sampled.max_stack <= full.max_stack
    cam = reference_inputs().camera
    assert cam is not None and np.array_equal(cam, np.load(CORPUS / "golden" / "camera.npy"))
    video = reference_inputs().video
    assert video is not None and np.array_equal(video, np.load(CORPUS / "golden" / "video.npy"))


# ---------------------------------------------------------------------- the command line

def test_text_output(prog):
    # (--no-warnings: these scalar results would get N001 notes before the statistics)
    r = check("--stats", "--no-warnings", prog(BY_UV, "uv.psl"), prog(WHILE_3, "w.psl"))
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].endswith("uv.psl: note: program statistics")
    assert f"  = instructions: 16 of {LIMITS.instructions} (0%)" in lines
    assert "  = registers: 1 of 256 (0%)" in lines
    assert "  = deepest stack: 3 of 128 (2%)" in lines
    assert ("  = executed: 24-141 instructions per pixel over 5 sample pixels "
            "(2-11 jumps, budget 2000)") in lines
    assert "  = executed: 34 instructions per pixel (4 jumps, budget 2000)" in lines
    assert sum("SPEC §9" in line for line in lines) == 2
    assert "warning" not in r.output


def test_text_output_after_diagnostics_and_for_limits(prog):
    r = check("--stats", prog("y = 1;\n" + FOREVER))
    assert r.exit_code == 0
    out = r.output
    assert out.index("warning[W002]") < out.index("note: program statistics")
    assert ("  = warning: the jump budget cut off every sample pixel: they stop before the "
            "program's end") in out
    r = check("--stats", prog("i = 0; while (i < uv().x * 4000) { i += 1; } i"))
    assert "cut off 3 of 5 sample pixels, (63, 0), (63, 63), (32, 32)" in r.output
    r = check("--stats", prog(LEAKY_LOOP))
    assert "  = deepest stack: unbounded, a loop leaves values on the stack" in r.output
    r = check("--stats", prog(NESTED))
    assert "  = deepest stack: 136, more than the ring's 128 entries" in r.output


def test_no_stats_without_the_flag_or_for_errors(prog):
    r = check("--no-warnings", prog(STRAIGHT))
    assert r.exit_code == 0 and r.output == ""
    r = check("--stats", prog("x + \n", "bad.psl"), prog(STRAIGHT, "good.psl"))
    assert r.exit_code == 1
    assert r.output.count("note: program statistics") == 1
    assert "good.psl: note: program statistics" in r.output


def test_json_output(prog):
    bad, good = prog("x + \n", "bad.psl"), prog(BY_UV, "good.psl")
    r = check("--format", "json", bad, good)
    assert isinstance(json.loads(r.output), list)  # unchanged without --stats
    r = check("--format", "json", "--stats", "--no-warnings", bad, good)
    assert r.exit_code == 1
    doc = json.loads(r.output)
    assert [d["code"] for d in doc["diagnostics"]] == ["E006"]
    [s] = doc["stats"]
    assert s["path"] == good
    assert s["instructions"] == {"count": 16, "limit": LIMITS.instructions}
    assert s["registers"] == {"count": 1, "limit": LIMITS.registers}
    assert s["stack"] == {"deepest": 3, "unbounded": False, "limit": LIMITS.stack,
                          "deepest_sampled": 3}
    e = s["executed"]
    assert (e["instructions_min"], e["instructions_max"], e["jumps_min"], e["jumps_max"]) == (
        24, 141, 2, 11)
    assert e["uniform"] is False and e["jump_limit"] == LIMITS.jumps
    assert e["pixels_hit_jump_limit"] == 0
    assert e["frame"] == {"width": 64, "height": 64, "time": 1.25}
    assert [(p["x"], p["y"], p["instructions"], p["jumps"]) for p in e["samples"]] == [
        (0, 0, 24, 2), (63, 0, 141, 11), (0, 63, 24, 2), (63, 63, 141, 11), (32, 32, 89, 7)]
    r = check("--format", "json", "--stats", prog(LEAKY_LOOP, "leaky.psl"))
    assert json.loads(r.output)["stats"][0]["stack"]["deepest"] is None


def test_optimized_stats_show_what_o0_would_execute(prog):
    r = CliRunner().invoke(check_command, ["--stats", "--no-warnings", prog(BY_UV, "uv.psl")])
    assert r.exit_code == 0, r.output
    # -O2, the default (registry.DEFAULT_OPTIMIZE_LEVEL)
    assert "  = optimized (-O2): at -O0 it would be 16 instructions, executing 24-141 per " \
           "pixel (2-11 jumps)" in r.output.splitlines()
    s = program_stats(PONG.read_text(encoding="utf-8"))
    assert s.unoptimized is not None and s.unoptimized.instructions == 1624
    assert s.instructions <= 1300
    assert s.as_dict()["unoptimized"]["instructions"]["count"] == 1624
