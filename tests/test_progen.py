"""The program generator (tests/progen): deterministic per mode, and covering what the
differential tests rely on it for, on the very seeds they run."""

from __future__ import annotations

import collections
import functools

import pytest

from psl import registry
from psl.compiler import CompileResult, compile_source
from psl.vm import execute
from psl.vm.inputs import Inputs
from tests import progen

VM_SEEDS = range(160)  # tests/test_hlsl_vm.py: RANDOM_PROGRAMS
COMPILER_SEEDS = range(320)  # tests/test_hlsl_vm.py: SHARED_PROGRAMS (the C# test runs more)
DEEP_SEEDS = range(60)  # tests/test_width_inference.py, tests/test_udonsharp_diff.py


@functools.cache
def compiled(mode: str, valid: bool) -> tuple[tuple[str, CompileResult], ...]:
    seeds = {"vm": VM_SEEDS, "deep": DEEP_SEEDS}.get(mode, COMPILER_SEEDS)
    return tuple((s, compile_source(s)) for s in (progen.generate(k, valid, mode)
                                                  for k in seeds))


def calls_and_operators(results) -> set[object]:
    seen: set[object] = set()
    for _, result in results:
        if result.ok:
            for ins in result.program.instructions:
                if ins.op == registry.Op.CALL:
                    seen.add(registry.BUILTIN_BY_ID[int(ins.operand[0])].name)
                elif ins.op in (registry.Op.BINOP, registry.Op.UNOP):
                    seen.add((int(ins.op), int(ins.operand[0])))
    return seen


@pytest.mark.parametrize("mode", progen.MODES)
@pytest.mark.parametrize("valid", [True, False])
def test_same_seed_same_program(mode, valid):
    first = progen.generate_many(20, valid, mode=mode)
    assert progen.generate_many(20, valid, mode=mode) == first
    assert len(set(first)) == len(first)


def test_modes_and_validity_give_different_programs():
    texts = {progen.generate(3, valid, mode) for mode in progen.MODES for valid in (True, False)}
    assert len(texts) == 2 * len(progen.MODES)


@pytest.mark.parametrize("mode", progen.MODES)
def test_valid_programs_compile(mode):
    results = compiled(mode, True)
    ok = sum(r.ok for _, r in results)
    # test_hlsl_vm needs every vm program and 90% of compiler programs to compile
    if mode == "vm":
        assert ok == len(results)
    else:
        assert ok >= 0.95 * len(results)


@pytest.mark.parametrize("mode", ["compiler", "vm"])  # deep mode is about statements
def test_every_builtin_and_operator(mode):
    seen = calls_and_operators(compiled(mode, True))
    callable_ = {b.name for b in registry.BUILTINS if not b.internal}
    assert callable_ <= seen, sorted(callable_ - seen)
    assert {(int(registry.Op.BINOP), o.id) for o in registry.BINARY_OPERATORS} <= seen
    assert {(int(registry.Op.UNOP), u.code) for u in registry.UNARY_OPERATORS} <= seen


def test_vm_mode_feedback_audiolink_and_jump_limit():
    sources = [s for s, _ in compiled("vm", True)]
    self_name = registry.BUILTIN_BY_NAME["self"].name
    assert sum(f"= {self_name}(" in s for s in sources) >= 10  # the feedback statement
    audiolink = [b.name for b in registry.BUILTINS if b.extension == "audiolink"]
    assert sum(any(n in s.lower() for n in audiolink) for s in sources) >= 50
    endless = [r for s, r in compiled("vm", True) if "while (1)" in s]
    assert len(endless) >= 5
    # a loop that never ends is stopped by the jump limit
    _, stats = execute(endless[0].program.slots(), Inputs(width=2, height=2))
    assert (stats.jumps > registry.LIMITS.jumps).all()


def test_compiler_mode_surface_syntax():
    sources = [s for s, _ in compiled("compiler", True)]
    for needle in ("\r\n", "\t", "// note\n", "let ", "set ", "fun ", "else if", "for (",
                   "while (", "return "):
        assert any(needle in s for s in sources), needle
    assert any(any(b.name.upper() + "(" in s for b in registry.BUILTINS) for s in sources)
    codes = collections.Counter(d.code for _, r in compiled("compiler", True)
                                for d in r.diagnostics)
    assert {"W001", "W002", "W004", "W005"} <= set(codes)


@pytest.mark.parametrize("mode", progen.MODES)
def test_invalid_programs_are_mostly_errors(mode):
    results = compiled(mode, False)
    firsts = collections.Counter(r.diagnostics[0].code for _, r in results if r.diagnostics)
    assert sum(not r.ok for _, r in results) >= 0.85 * len(results)
    assert len([c for c in firsts if c.startswith("E")]) >= 10, firsts


def test_deep_mode_nests_loops_and_else_if_chains():
    """Deep mode reaches what the width inference's budget is tested on: loops nested many
    levels deep, long `else if` chains, and loops inlined from functions called twice."""
    results = compiled("deep", True)
    depths = []
    for _source, result in results:
        if result.inference is None:
            continue
        loops = result.inference.flow.loops
        deepest = 0
        for loop in loops:
            depth, up = 1, loop.parent
            while up is not None:
                depth, up = depth + 1, loops[up].parent
            deepest = max(deepest, depth)
        depths.append(deepest)
    assert max(depths) >= 15 and sum(d >= 5 for d in depths) >= len(depths) // 3, depths
    sources = [s for s, _ in results]
    assert sum(s.count("} else if (") >= 5 for s in sources) >= 10
    assert all(s.count("fun ") >= 1 for s in sources)
