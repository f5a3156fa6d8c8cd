"""The compiled program: instructions with numeric operands, and its encodings
(binary slots, listing, JSON) and decoding."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np

from psl import registry
from psl.registry import LIMITS, PAD_NAN_BITS, Op

PAD_NAN = np.array([PAD_NAN_BITS], dtype=np.uint32).view(np.float32)[0]
_LANE_LETTER = "xyzw"


@dataclass(frozen=True)
class Instruction:
    op: Op
    operand: tuple[float, float, float, float]  # NaN = padding lane

    def __str__(self) -> str:
        return listing_line(self)


@dataclass
class Program:
    instructions: list[Instruction]
    registers: int = 0
    #: register number -> "name" (globals) or "function.name"
    variables: dict[int, str] = field(default_factory=dict)

    def slots(self, pad: bool = False) -> np.ndarray:
        """float32 [n][4]: opcode slot then operand slot per instruction.

        Padding lanes hold the NaN with bits 0xFFC00000; with pad=True the array has all
        LIMITS.slots slots and the unused ones are zero.
        """
        n = 2 * len(self.instructions)
        out = np.zeros((LIMITS.slots if pad else n, 4), dtype=np.float32)
        for i, ins in enumerate(self.instructions):
            out[2 * i] = (float(ins.op), math.nan, math.nan, math.nan)
            out[2 * i + 1] = ins.operand
        bits = out.view(np.uint32)
        bits[np.isnan(out)] = PAD_NAN_BITS
        return out

    def to_bytes(self, pad: bool = False) -> bytes:
        return self.slots(pad).astype("<f4").tobytes()

    def listing(self) -> str:
        return "".join(listing_line(ins) + "\n" for ins in self.instructions)

    def to_json(self) -> str:
        def lane(x: float) -> float | None:
            return None if math.isnan(x) else x

        doc = {
            "format": "psl-program",
            "instructions": [
                {"op": ins.op.name, "operand": [lane(x) for x in ins.operand]}
                for ins in self.instructions
            ],
            "instruction_count": len(self.instructions),
            "registers": self.registers,
            "variables": {str(k): v for k, v in sorted(self.variables.items())},
        }
        return json.dumps(doc, indent=1) + "\n"


def _f32(x: float) -> float:
    # Literals beyond float32's range become infinity, as in the shader; no warning needed.
    with np.errstate(over="ignore"):
        return float(np.float32(x))


def format_number(x: float) -> str:
    """Shortest text that reads back as the same float32 (full precision)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return np.format_float_positional(np.float32(x), unique=True, trim="0")


def listing_line(ins: Instruction) -> str:
    o = ins.operand
    n = int(o[0]) if not math.isnan(o[0]) else 0
    if ins.op == Op.PUSHCONST:
        return "PUSHCONST (" + ", ".join(format_number(x) for x in o) + ")"
    if ins.op == Op.PUSHVAR:
        return f"PUSHVAR {n}"
    if ins.op == Op.SETVAR:
        if math.isnan(o[1]) or o[1] == 0:
            return f"SETVAR {n}"
        return f"SETVAR {n}." + "".join(_LANE_LETTER[int(d) - 1] for d in str(int(o[1])))
    if ins.op == Op.BINOP:
        b = registry.BINOP_BY_ID.get(n)
        return f"BINOP {b.symbol if b else n}"
    if ins.op == Op.UNOP:
        u = registry.UNOP_BY_CODE.get(n)
        return f"UNOP {u.symbol if u else n}"
    if ins.op == Op.CALL:
        c = registry.BUILTIN_BY_ID.get(n)
        return f"CALL {c.name if c else n}"
    return f"{ins.op.name} {n}"


def instruction(op: Op, *operand: float) -> Instruction:
    """Build an instruction; missing lanes are padding NaN; numbers rounded to float32."""
    lanes = [_f32(x) for x in operand] + [math.nan] * (4 - len(operand))
    return Instruction(op, tuple(lanes))  # type: ignore[arg-type]


class DecodeError(ValueError):
    pass


def decode(slots: np.ndarray) -> Program:
    """Slots (float32 [n][4], possibly padded) -> Program, up to the first opcode 0."""
    arr = np.asarray(slots, dtype=np.float32).reshape(-1, 4)
    if len(arr) % 2:
        raise DecodeError("a program has an even number of slots")
    out: list[Instruction] = []
    for k in range(0, len(arr), 2):
        op_lane = arr[k][0]
        if np.isnan(op_lane) or op_lane == 0:
            break
        code = int(round(float(op_lane)))
        if code not in Op.__members__.values():
            raise DecodeError(f"slot {k}: unknown opcode {code}")
        out.append(Instruction(Op(code), tuple(float(x) for x in arr[k + 1])))  # type: ignore[arg-type]
    regs = {int(i.operand[0]) for i in out if i.op in (Op.PUSHVAR, Op.SETVAR)}
    return Program(out, registers=max(regs) + 1 if regs else 0)


def from_bytes(data: bytes) -> Program:
    if len(data) % 32:
        raise DecodeError("binary length must be a multiple of 32 bytes (2 float4)")
    return decode(np.frombuffer(data, dtype="<f4"))
