"""SPEC §7 rules on hand-assembled programs: stack, registers, jumps, sentinels."""

from __future__ import annotations

import math

import numpy as np
import pytest

from psl.compiler import compile_source
from psl.registry import LIMITS, Op
from psl.vm import Inputs, execute
from tests.vm_support.programs import (
    assemble,
    bop,
    call,
    condjump,
    const,
    jump,
    push,
    run,
    run1,
    setvar,
    src1,
)

NAN = math.nan


def test_final_value_zeroes_nan_lanes():
    # float3 colour: alpha (sentinel) becomes 0
    out = run1(assemble(const(0.25, 0.5, 0.75, NAN)))
    assert out.tolist() == [0.25, 0.5, 0.75, 0.0]


def test_empty_program_pops_an_unwritten_slot():
    assert run1(np.zeros((2, 4), np.float32)).tolist() == [0, 0, 0, 0]


def test_unset_register_reads_zero4():
    # dimension 4: adding a float4 keeps all lanes (a sentinel lane would stay NaN -> 0)
    out = run1(assemble(push(7), const(1, 2, 3, 4), bop("+")))
    assert out.tolist() == [1, 2, 3, 4]


def test_pop_order_left_then_right():
    out = run1(assemble(const(10), const(4), bop("-")))
    assert out[0] == 6.0


def test_register_number_wraps_mod_256():
    out = run1(assemble(const(3), setvar(258), push(2)))
    assert out[0] == 3.0


def test_end_of_program_is_first_zero_opcode():
    slots = assemble(const(1), const(2))
    slots[2] = 0  # second instruction's opcode slot -> end
    assert run1(slots)[0] == 1.0


def test_stack_ring_wraps_at_128():
    # 129 pushes: the 129th overwrites slot 0; popping once reads it back
    ins = [const(float(i)) for i in range(LIMITS.stack + 1)]
    assert run1(assemble(*ins))[0] == float(LIMITS.stack)


def test_stack_pointer_wraps_below_zero():
    # BINOP on an empty stack pops slots 127 and 126 (both zero here): 0 + 0
    # then the result is written at slot 126 and popped as the final value
    out = run1(assemble(bop("+")))
    assert out.tolist() == [0, 0, 0, 0]
    # a value left at slot 127 by a wrapped push is visible to a wrapped pop
    ins = [const(float(i)) for i in range(LIMITS.stack)]  # slots 0..127, sp = 128
    ins += [setvar(0)] * LIMITS.stack  # pop all: sp = 0
    ins += [setvar(1)]  # pop from sp = 0 -> slot 127 (= 127.0), sp wraps
    ins += [push(1)]
    assert run1(assemble(*ins))[0] == 127.0


def test_setvar_mask_assigns_lanes_without_broadcast():
    # v = (1,2,3,4); v.xy = 9  ->  x = 9, y = 0 (the scalar's sentinel lane, zeroed)
    out = run1(assemble(const(1, 2, 3, 4), setvar(0), const(9), setvar(0, 12), push(0)))
    assert out.tolist() == [9, 0, 3, 4]


def test_setvar_mask_digits_order_and_repeats():
    # v.wz = (5, 6): w = 5, z = 6 ; then v.xyyz = (1,2,3,4): y written twice, last wins
    ins = [const(0, 0, 0, 0), setvar(0), const(5, 6, NAN, NAN), setvar(0, 43),
           push(0)]
    assert run1(assemble(*ins)).tolist() == [0, 0, 6, 5]
    ins = [const(0, 0, 0, 0), setvar(0), const(1, 2, 3, 4), setvar(0, 1223), push(0)]
    assert run1(assemble(*ins)).tolist() == [1, 3, 4, 0]


def test_setvar_mask_keeps_sentinels_of_the_register():
    # r = float2(1, 2); r.x = 5 -> (5, 2, S, S): adding float4(1,1,1,1) gives NaN (0) in z, w
    ins = [const(1, 2, NAN, NAN), setvar(0), const(5), setvar(0, 1), push(0),
           const(1, 1, 1, 1), bop("+")]
    assert run1(assemble(*ins)).tolist() == [6, 3, 0, 0]


def test_nan_from_arithmetic_is_a_sentinel():
    # (0/0, 2, 3, 4) has dimension 3 (NaN counts as sentinel) ... and x + (1,1,1,1):
    # dims 3 vs 4, no cast; lanes computed then restore(mask(4)) keeps all lanes
    ins = [const(0, 2, 3, 4), const(0, 1, 1, 1), bop("/")]
    out = run1(assemble(*ins))
    assert out.tolist() == [0, 2, 3, 4]  # NaN zeroed at the end
    # (1, 1, 1, 0/0) has dimension 3: `all` checks .xyz only (w would be masked to 0)
    ins = [const(1, 1, 1, 0), const(1, 1, 1, 0), bop("/"), call("all")]
    assert run1(assemble(*ins))[0] == 1.0
    ins = [const(1, 1, 1, 0), const(1, 1, 1, 1), bop("/"), call("all")]
    assert run1(assemble(*ins))[0] == 0.0


def test_nan_scalar_has_dimension_zero_and_is_true():
    # sqrt(-1) is NaN: dimension 0; NaN counts as true for && and CONDJUMP does not jump
    ins = [const(-1), call("sqrt"), const(1), bop("&&")]
    assert run1(assemble(*ins))[0] == 1.0


def test_condjump_on_nan_does_not_jump():
    ins = [const(-1), call("sqrt"), condjump(10), const(1), jump(12), const(2)]
    assert run1(assemble(*ins))[0] == 1.0


def test_condjump_on_zero_jumps():
    ins = [const(0), condjump(8), const(1), jump(10), const(2)]
    assert run1(assemble(*ins))[0] == 2.0


def test_condjump_reads_only_x():
    ins = [const(1, 0, 0, 0), condjump(8), const(1), jump(10), const(2)]
    assert run1(assemble(*ins))[0] == 1.0


def test_jump_limit_stops_the_pixel():
    # an endless loop: the pixel stops after more than max_jumps jumps; the stack top is
    # what the loop pushed last
    ins = [const(5), jump(0)]
    slots = assemble(*ins)
    img, stats = execute(slots, Inputs(1, 1), max_jumps=10)
    assert img[0, 0, 0] == 5.0
    assert stats.jumps[0, 0] == 11 and bool(stats.hit_jump_limit[0, 0])
    assert stats.exec_instructions[0, 0] == 22
    img, stats = execute(slots, Inputs(1, 1))
    assert stats.jumps[0, 0] == LIMITS.jumps + 1


def test_jump_limit_per_pixel_in_divergent_loop():
    # i = 0; while (i < 20 * u) { i = i + 1 }; i  -- on 4 pixels, u = 0.125 .. 0.875
    ins = [
        const(0), setvar(0),                                    # slots 0, 2
        push(0), call("uv"), const(1, 0, 0, 0), call("swizzle"),  # 4 (loop head) .. 10
        const(20), bop("*"), bop("<"), condjump(28),            # 12 .. 18
        push(0), const(1), bop("+"), setvar(0), jump(4),        # 20 .. 28
        push(0),                                                # 30
    ]
    ins[9] = condjump(30)
    img, stats = execute(assemble(*ins), Inputs(4, 1), max_jumps=5)
    # iterations needed 3, 8, 13, 18; each takes one jump back, leaving takes one more.
    # Pixel 0 finishes (4 jumps); the others stop after their 6th jump with an empty
    # stack, so the final pop reads the never-written slot 127: zeros.
    assert img[0, :, 0].tolist() == [3, 0, 0, 0]
    assert stats.hit_jump_limit[0].tolist() == [False, True, True, True]
    assert stats.jumps[0].tolist() == [4, 6, 6, 6]


def test_unknown_builtin_returns_zero4_with_no_arguments():
    ins = [const(7), call(60)]  # id 60: unassigned -> arity 0, (0,0,0,0)
    out = run1(assemble(*ins, const(1, 1, 1, 1), bop("+")))
    assert out.tolist() == [1, 1, 1, 1]


def test_unknown_opcode_is_skipped_and_counted():
    slots = assemble(const(3), (Op.PUSHCONST, (4,)))
    slots[2, 0] = 9  # unknown opcode
    img, stats = execute(slots, Inputs(1, 1))
    assert img[0, 0, 0] == 3 and stats.exec_instructions[0, 0] == 2


def test_jump_past_the_end_stops():
    img, stats = execute(assemble(const(4), jump(4092)), Inputs(1, 1))
    assert img[0, 0, 0] == 4 and stats.jumps[0, 0] == 1


def test_round_is_half_to_even_and_frac_is_x_minus_floor():
    out = src1("round(float4(0.5, 1.5, 2.5, -0.5))")
    assert out.tolist() == [0, 2, 2, -0.0]
    out = src1("frac(float3(-0.25, 1.75, -2))")
    assert out.tolist() == [0.75, 0.75, 0, 0]


def test_round_fills_unused_lanes_with_zero():
    # FULL result: round(float2) has dimension 4 (lanes 2, 3 are round(0) = 0)
    out = src1("round(float2(1.4, 2.6)) + float4(1, 1, 1, 1)")
    assert out.tolist() == [2, 4, 1, 1]


def test_pow_is_not_padded():
    out = src1("pow(float3(3, 2, 5), 2)")
    assert out.tolist() == [9, 1, 1, 0]


def test_binop_scalar_broadcast_and_mismatch():
    assert src1("float3(1, 2, 3) * 2").tolist() == [2, 4, 6, 0]
    assert src1("2 - float2(1, 5)").tolist() == [1, -3, 0, 0]
    # float2 + float3: no cast; lane z is S + 3 = NaN, dimension of the result is 3
    assert src1("float2(1, 2) + float3(1, 1, 1)").tolist() == [2, 3, 0, 0]
    # comparisons with a sentinel lane are false, != is true
    assert src1("float2(1, 2) < float3(5, 5, 5)").tolist() == [1, 1, 0, 0]
    assert src1("float2(1, 2) != float3(5, 5, 5)").tolist() == [1, 1, 1, 0]


def test_unop_not_and_negate_keep_dimension():
    assert src1("!float3(0, 2, 0)").tolist() == [1, 0, 1, 0]
    assert src1("-float2(1, -2)").tolist() == [-1, 2, 0, 0]


def test_many_pixels_share_one_value_object_safely():
    # registers written in one branch must not leak into the other pixels
    src = "let a = 1; if (uv().x < 0.5) { a = 2; } a"
    img = run(compile_source(src).unwrap().slots(), 4, 2)
    assert img[:, :, 0].tolist() == [[2, 2, 1, 1], [2, 2, 1, 1]]


@pytest.mark.parametrize("size", [(1, 1), (3, 2), (7, 5)])
def test_uv_texel_centres(size):
    w, h = size
    img = run(assemble(call("uv")), w, h)
    u = (np.arange(w) + 0.5) / w
    v = (np.arange(h) + 0.5) / h
    np.testing.assert_array_equal(img[:, :, 0], np.tile(u, (h, 1)).astype(np.float32))
    np.testing.assert_array_equal(img[:, :, 1], np.tile(v[:, None], (1, w)).astype(np.float32))
