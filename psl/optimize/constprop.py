"""Constant propagation (docs/spec.md §10.4): a PUSHVAR r where r holds the same constant on
every path becomes a PUSHCONST of it. A register holds (0, 0, 0, 0) before its first SETVAR
(SPEC §7.1); a plain SETVAR r of a value pushed by PUSHCONST c, or by PUSHVAR a while a holds
c, makes r hold c; any other SETVAR r (masked ones too) makes r unknown."""

from __future__ import annotations

import struct

from psl.optimize import dataflow
from psl.optimize.code import PUSHCONST, PUSHVAR, SETVAR, Code, bits, pops, pushes, register_count

NONE = b""
ZERO = bits((0.0, 0.0, 0.0, 0.0))


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
                stack.append(NONE)

    dataflow.solve(code, [ZERO] * register_count(code), transfer, NONE)
    return Code(ops, args, list(code.origin), dict(code.names))
