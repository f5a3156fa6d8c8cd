"""Read listings (ours or the original compiler's) back into instructions.

The original printed constants with one decimal and names as the user wrote them, so
`matches_original` compares constants to within that rounding and names case-insensitively.
"""

from __future__ import annotations

import math
import re

from psl import registry
from psl.compiler.program import Instruction, instruction
from psl.registry import Op

_LINE = re.compile(r"^\s*([A-Z]+)\s*(.*?)\s*$")
_LANES = {ch: str(n) for ch, n in registry.SWIZZLE_LANES.items()}


class ListingError(ValueError):
    pass


def _num(text: str) -> float:
    if text == "NaN":
        return math.nan
    return float(text)


def parse_line(line: str) -> Instruction:
    m = _LINE.match(line)
    if not m or m.group(1) not in Op.__members__:
        raise ListingError(f"not an instruction: {line!r}")
    op, arg = Op[m.group(1)], m.group(2)
    if op == Op.PUSHCONST:
        lanes = [_num(x.strip()) for x in arg.strip("()").split(",")]
        if len(lanes) != 4:
            raise ListingError(f"PUSHCONST needs 4 lanes: {line!r}")
        return instruction(op, *lanes)
    if op == Op.SETVAR and "." in arg:
        reg, sw = arg.split(".", 1)
        return instruction(op, int(reg), int("".join(_LANES[c] for c in sw)))
    if op == Op.BINOP:
        return instruction(op, registry.BINOP_BY_SYMBOL[arg].id)
    if op == Op.UNOP:
        return instruction(op, registry.UNOP_BY_SYMBOL[arg].code)
    if op == Op.CALL:
        b = registry.lookup_builtin(arg)
        return instruction(op, b.id if b else int(arg))
    return instruction(op, int(arg))


def parse_listing(text: str) -> list[Instruction]:
    return [parse_line(line) for line in text.splitlines() if line.strip()]


def same_as_original(ours: Instruction, theirs: Instruction) -> bool:
    """Equal up to the original listing's one-decimal rounding of constants."""
    if ours.op != theirs.op:
        return False
    for a, b in zip(ours.operand, theirs.operand, strict=True):
        if math.isnan(a) or math.isnan(b):
            if math.isnan(a) != math.isnan(b):
                return False
        elif ours.op == Op.PUSHCONST:
            if abs(a - b) > 0.05 + 1e-6 * abs(a):
                return False
        elif a != b:
            return False
    return True
