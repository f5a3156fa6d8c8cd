"""Constant propagation (docs/spec.md §10.4): a PUSHVAR r where r holds the same constant on
every path becomes a PUSHCONST of it. A register holds (0, 0, 0, 0) before its first SETVAR
(SPEC §7.1); a plain SETVAR r of a constant value makes r hold it; any other SETVAR r
(masked ones too) makes r unknown. A value is constant when PUSHCONST pushed it, when it is
a register holding a constant, or when an operation `fold` would fold (§10.3) computed it
from constant operands: `let a = 1 / 32; let b = a * 2;` makes b hold 1 / 16 in one run."""

from __future__ import annotations

import struct

from psl.optimize import dataflow, fold
from psl.optimize.code import (
    BINOP,
    CALL,
    PUSHCONST,
    PUSHVAR,
    SETVAR,
    UNOP,
    Code,
    bits,
    pops,
    pushes,
    register_count,
)

NONE = b""
ZERO = bits((0.0, 0.0, 0.0, 0.0))


def folded(code: Code, k: int, popped: list[bytes]) -> bytes:
    """The constant operation k computes from the constants `popped` (push order), or NONE
    when one is not constant or fold would not fold it."""
    if not popped or NONE in popped or code.ops[k] not in (BINOP, UNOP, CALL):
        return NONE
    operands = [struct.unpack("<4f", c) for c in popped]
    if not fold.foldable(code, k, operands):
        return NONE
    result = fold.evaluate(code, k, operands)
    return NONE if fold.subnormal(result) else bits(result)


def run(code: Code) -> Code:
    ops = list(code.ops)
    args = list(code.args)

    def transfer(start: int, end: int, state: list, rewrite: bool) -> None:
        stack: list[bytes] = []  # the constant each value on the block's stack is, or NONE
        for k in range(start, end):
            op = ops[k]
            if op == PUSHVAR:
                c = state[int(args[k][0])]
                if rewrite and c != NONE:
                    ops[k] = PUSHCONST
                    args[k] = struct.unpack("<4f", c)
                stack.append(c)
                continue
            if op == PUSHCONST:
                stack.append(bits(args[k]))
                continue
            popped = [stack.pop() if stack else NONE for _ in range(pops(code, k))]
            if op == SETVAR:
                r = int(args[k][0])
                m = args[k][1]
                state[r] = popped[0] if (m != m or m == 0) else NONE
            if pushes(code, k):
                stack.append(folded(code, k, popped[::-1]))

    dataflow.solve(code, [ZERO] * register_count(code), transfer, NONE)
    return Code(ops, args, list(code.origin), dict(code.names))
