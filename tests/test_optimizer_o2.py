"""-O2 (docs/spec.md §11): the superinstruction pass keeps the -O1 contract, and the reference
VM runs fused instructions exactly as the oracle (tests/vm_support/oracle.py) does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psl import registry
from psl.bytecode import decode, parse_line, plain, to_texture, unfuse
from psl.compiler import compile_source
from psl.optimize import LEVELS, optimize
from psl.registry import FUSED, FUSED_BY_OP, LIMITS, OPTIMIZE_LEVELS
from psl.vm import Inputs, execute
from psl.vm.machine import Frame
from psl.vm.machine import decode as vm_decode
from psl.vm.render import render
from tests import shapegen
from tests.progen import generate
from tests.test_vm_differential import IDS, _compare, number, program
from tests.vm_support.reference import CORPUS, MANIFEST, reference_settings

SAMPLE = 16  # pixels of the reference frame per generated program


def _finishing_equal(img0, st0, img2, st2) -> None:
    ok = ~st0.hit_jump_limit & ~st0.spent
    a = img0.view(np.uint32)[ok]
    b = img2.view(np.uint32)[ok]
    assert np.array_equal(a, b)
    assert (st2.jumps <= st0.jumps).all()


@pytest.mark.parametrize("name", sorted(MANIFEST["programs"]))
def test_corpus_o2_keeps_the_o1_contract(name):
    info = MANIFEST["programs"][name]
    source = (CORPUS / info["source"]).read_text(encoding="utf-8")
    p0 = compile_source(source, lint=False).unwrap()
    p1 = optimize(p0, 1)[0]
    p2 = optimize(p0, 2)[0]
    assert any(int(i.op) in FUSED_BY_OP for i in p2.instructions)
    assert unfuse(p2).instructions == p1.instructions or \
        [str(i) for i in unfuse(p2).instructions] == [str(i) for i in p1.instructions]
    settings_ = reference_settings(max(1, info["frames"]))
    r0 = render(p0.slots(), settings_, keep_frames=False)
    r1 = render(p1.slots(), settings_, keep_frames=False)
    r2 = render(p2.slots(), settings_, keep_frames=False)
    _finishing_equal(r0.last, r0.stats[-1], r2.last, r2.stats[-1])
    s1, s2 = r1.stats[-1], r2.stats[-1]
    # a fused instruction counts as what it replaces: executed counts and jumps as -O1's
    assert np.array_equal(s1.exec_instructions, s2.exec_instructions)
    assert np.array_equal(s1.jumps, s2.jumps)
    assert (s2.dispatched < s1.dispatched).any() and (s2.dispatched <= s1.dispatched).all()
    assert (s2.memory_ops <= s1.memory_ops).all()
    assert np.array_equal(s1.dispatched, s1.exec_instructions)


def _sample_run(prog, max_steps=LIMITS.steps):
    settings_ = reference_settings(1)
    inputs = Inputs(settings_.width, settings_.height, time=1.25,
                    button=settings_.button, axis=settings_.axis, camera=settings_.camera,
                    video=settings_.video)
    u, v = inputs.uv_grid()
    step = len(u) // SAMPLE
    frame = Frame(vm_decode(prog.slots()), inputs, LIMITS.jumps, pixels=(u[::step], v[::step]),
                  max_steps=max_steps)
    frame.run()
    return frame


def test_generated_o2_keeps_the_o1_contract():
    """≥ 300 generated programs (tests/progen mode "vm"): finishing pixels bit-identical to
    -O0, no pixel with more jumps; executed counts and jumps exactly -O1's but where the
    work budget stops a pixel."""
    checked = fused = 0
    for seed in range(320):
        res = compile_source(generate(seed, True, "vm"), lint=False)
        if res.program is None:
            continue
        p0 = res.program
        p1, p2 = optimize(p0, 1)[0], optimize(p0, 2)[0]
        f0, f1, f2 = _sample_run(p0), _sample_run(p1), _sample_run(p2)
        ok = ~f0.hit & ~f0.spent
        assert np.array_equal(f0.out.view(np.uint32)[:, ok], f2.out.view(np.uint32)[:, ok]), seed
        # a pixel the work budget stops at -O0 gets further at -O1 and -O2 (§10)
        assert (f2.jumps <= f0.jumps)[~f0.spent].all(), seed
        # one the budget stops at -O1 may stop at the start of a fused instruction where
        # -O1 stops inside its run (§11.4): fewer executed instructions, by less than its
        # weight; every other pixel is exactly -O1's
        run = ~f1.spent
        assert np.array_equal(f1.spent, f2.spent), seed
        assert np.array_equal(f1.exec[run], f2.exec[run]), seed
        assert np.array_equal(f1.jumps[run], f2.jumps[run]), seed
        assert np.array_equal(f1.out.view(np.uint32)[:, run], f2.out.view(np.uint32)[:, run]), seed
        short = f1.exec[~run] - f2.exec[~run]
        assert ((short >= 0) & (short < max(f.weight for f in FUSED))).all(), seed
        checked += 1
        fused += any(int(i.op) in FUSED_BY_OP for i in p2.instructions)
    assert checked >= 300 and fused >= 200  # the others are outside what -O1 handles


def test_shape_programs_keep_the_contract():
    """tests/shapegen's spec-shaped programs (bench/bench_o2_contract.py runs thousands):
    finishing pixels bit-identical to -O0 at -O1 and -O2. #100009 (join_call) once broke
    it: forward took a tree whose SETVAR pops it after other code for one that stays, and
    sent the loop's exit into the moved tree, past that code."""
    checked = 0
    for kind, shape in shapegen.generate_many(40, start=100_000):
        res = compile_source(shape.text, lint=False)
        if res.program is None:
            continue
        p0 = res.program
        f0 = _sample_run(p0)
        ok = ~f0.hit & ~f0.spent
        for level in (1, 2):
            f = _sample_run(optimize(p0, level)[0])
            label = f"{kind} -O{level}: {shape.text[:80]!r}"
            assert np.array_equal(f0.out.view(np.uint32)[:, ok],
                                  f.out.view(np.uint32)[:, ok]), label
            assert (f.jumps <= f0.jumps)[~f0.spent].all(), label
        checked += 1
    assert checked >= 36


def test_work_budget_stops_a_fused_instruction_where_o1_stops():
    """Same pixels hit the budget at -O1 and -O2; the ones that finish are identical."""
    src = "s = 0; for (i = 0; i < 100; i++) { s += i * 0.5; } float3(s, s * 2, 1)"
    p0 = compile_source(src, lint=False).unwrap()
    p1, p2 = optimize(p0, 1)[0], optimize(p0, 2)[0]
    for steps in (5, 50, 333, 334, 335, 1000, 10**5):
        f1, f2 = _sample_run(p1, steps), _sample_run(p2, steps)
        assert np.array_equal(f1.spent, f2.spent), steps
        done = ~f1.spent
        assert np.array_equal(f1.out[:, done], f2.out[:, done]), steps
        assert (f2.exec <= steps).all()


def test_fused_encoding_has_no_nan_and_round_trips():
    src = (CORPUS / MANIFEST["programs"]["scene_raymarch"]["source"]).read_text(encoding="utf-8")
    p2 = optimize(compile_source(src, lint=False).unwrap(), 2)[0]
    slots = p2.slots()
    for k, ins in enumerate(p2.instructions):
        if int(ins.op) in FUSED_BY_OP:
            assert not np.isnan(slots[2 * k: 2 * k + 2]).any()
            assert parse_line(str(ins)) == ins
    assert [str(i) for i in decode(slots).instructions] == [str(i) for i in p2.instructions]
    tex = to_texture(slots).reshape(-1, 4)[: len(slots)]
    assert not np.isnan(tex).any()
    inputs = Inputs(8, 8, time=1.25)
    a, _ = execute(slots, inputs)
    from psl.vm.machine import execute_texture
    b, _ = execute_texture(to_texture(slots), inputs)
    assert np.array_equal(a.view(np.uint32), b.view(np.uint32))


def test_levels_and_the_default():
    """Every command that compiles takes -O0/-O1/-O2 and defaults to -O2, and so does the
    in-world Compiler (registry.INWORLD_DEFAULT_OPTIMIZE_LEVEL)."""
    assert OPTIMIZE_LEVELS == (0, 1, 2) == registry.INWORLD_OPTIMIZE_LEVELS
    assert LEVELS == registry.PYTHON_OPTIMIZE_LEVELS == OPTIMIZE_LEVELS
    assert registry.DEFAULT_OPTIMIZE_LEVEL == 2
    assert registry.INWORLD_DEFAULT_OPTIMIZE_LEVEL == registry.DEFAULT_OPTIMIZE_LEVEL
    assert all(f.op > max(registry.Op) for f in FUSED)
    assert not set(registry.Op) & set(registry.FusedOp)


# ---------------------------------------------------------------------- numpy VM = oracle

FIELD = st.one_of(st.sampled_from([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 29.0, 30.0, 33.0, 45.0, 257.0,
                                   1200.0, 4321.0, 1111.0, 3400.0, 12.0, 6.0]),
                  number, st.integers(0, 60).map(float))


@st.composite
def fused_program(draw):
    ins = list(draw(program()))
    n_fused = draw(st.integers(1, 6))
    for _ in range(n_fused):
        f = draw(st.sampled_from(FUSED))
        fields = []
        for t in f.tokens:
            if t in "JG":
                fields.append(float(2 * draw(st.integers(0, len(ins) + n_fused))))
            elif t == "C":
                fields.append(float(draw(st.sampled_from(IDS))))
            elif t == "W":
                fields.append(float(draw(st.sampled_from([1000, 1200, 4321, 3300, 2, 9999]))))
            else:
                fields.append(draw(FIELD))
        ins.insert(draw(st.integers(0, len(ins))), (f.op, tuple(fields)))
    return ins


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fused_program(), st.sampled_from([0, 1, 3, 2000]), st.sampled_from([3, 17, 60, 4096]))
def test_vm_matches_oracle_on_fused_instructions(ins, max_jumps, max_steps):
    _compare(ins, max_jumps, max_steps)


def test_plain_expands_every_fused_instruction():
    src = "a = uv(); b = a.x * a.y + 0.5; if (b > 0.3) { b = b * 2; } float3(b, a.y, 1)"
    p2 = optimize(compile_source(src, lint=False).unwrap(), 2)[0]
    assert all(int(i.op) <= max(registry.Op) for i in plain(p2.instructions))
