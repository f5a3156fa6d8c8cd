"""Binary, listing and JSON encodings round-trip; padding and NaN bits follow SPEC §5."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from psl.bytecode import decode, from_bytes, parse_listing
from psl.compiler import compile_source
from psl.registry import LIMITS, PAD_NAN_BITS, Op
from tests.conftest import corpus_programs, valid_programs

PROGRAMS = corpus_programs() + valid_programs()


def same(a, b) -> bool:
    return a.op == b.op and all(
        (math.isnan(x) and math.isnan(y)) or x == y
        for x, y in zip(a.operand, b.operand, strict=True))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_binary_roundtrip(path):
    program = compile_source(path.read_text()).unwrap()
    for pad in (False, True):
        data = program.to_bytes(pad=pad)
        assert len(data) == (LIMITS.original_slots if pad else 2 * len(program.instructions)) * 16
        back = from_bytes(data)
        assert len(back.instructions) == len(program.instructions)
        assert all(same(a, b) for a, b in zip(back.instructions, program.instructions,
                                               strict=True))
        assert back.to_bytes(pad=pad) == data


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_listing_and_json_roundtrip(path):
    program = compile_source(path.read_text()).unwrap()
    parsed = parse_listing(program.listing())
    assert all(same(a, b) for a, b in zip(parsed, program.instructions, strict=True))
    doc = json.loads(program.to_json())
    assert doc["instruction_count"] == len(program.instructions)
    assert [i["op"] for i in doc["instructions"]] == [i.op.name for i in program.instructions]


def test_padding_bits_and_unused_zero():
    program = compile_source("float2(1, 2)").unwrap()
    slots = program.slots(pad=True)
    bits = slots.view(np.uint32)
    assert slots[0][0] == Op.PUSHCONST and bits[0][1] == PAD_NAN_BITS
    assert slots[1][0] == 1.0 and bits[1][1] == PAD_NAN_BITS
    assert not slots[2 * len(program.instructions):].any()


def test_numbers_are_invariant_float32():
    program = compile_source("0.1 + 12. + 3.14159265358979").unwrap()
    consts = [i.operand[0] for i in program.instructions if i.op == Op.PUSHCONST]
    assert consts == [float(np.float32(0.1)), 12.0, float(np.float32(3.14159265358979))]


def test_psl_fix_swizzle_compound_assignment():
    listing = compile_source("v = float2(1, 2);\nv.y += 1;\nv").unwrap().listing().splitlines()
    assert listing[4:10] == ["PUSHVAR 0", "PUSHCONST (2.0, 0.0, 0.0, 0.0)", "CALL swizzle",
                            "PUSHCONST (1.0, NaN, NaN, NaN)", "BINOP +", "SETVAR 0.y"]


def test_decode_stops_at_end_and_rejects_odd():
    program = compile_source("1").unwrap()
    assert len(decode(program.slots(pad=True)).instructions) == 1
    with pytest.raises(ValueError):
        decode(np.zeros((3, 4), np.float32))
