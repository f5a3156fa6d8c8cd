"""Copy propagation (docs/spec.md §10.5): after a plain SETVAR p of a value pushed by
PUSHVAR a (a != p, and no SETVAR a between the push and the SETVAR), p is a copy of a until
p or a is assigned again. A PUSHVAR p where p is a copy of the same a on every path reads a
instead. This removes the parameter bindings inlining makes (`PUSHVAR a; SETVAR p`): the
SETVAR is then dead and dead-store elimination deletes it with its push."""

from __future__ import annotations

from psl.optimize import dataflow
from psl.optimize.code import PUSHVAR, SETVAR, Code, pops, pushes, register_count

NONE = -1


def run(code: Code) -> Code:
    args = list(code.args)
    ops = code.ops
    regs = register_count(code)

    def transfer(start: int, end: int, state: list, rewrite: bool) -> None:
        stack: list[int] = []  # the register each value on the stack still equals, or NONE
        for k in range(start, end):
            op = ops[k]
            if op == PUSHVAR:
                # the value equals r (not r's source: facts then only ever get lost, so the
                # analysis converges; a chain of copies resolves one link per run)
                r = int(args[k][0])
                src = state[r]
                if rewrite and src != NONE:
                    args[k] = (float(src), *args[k][1:])  # type: ignore[assignment]
                stack.append(r)
                continue
            popped = [stack.pop() if stack else NONE for _ in range(pops(code, k))]
            if op == SETVAR:
                p = int(args[k][0])
                m = args[k][1]
                # p changes: copies of p and copies into p end, and values pushed from p
                # are no longer p's value
                for q in range(regs):
                    if state[q] == p:
                        state[q] = NONE
                state[p] = NONE
                for i, v in enumerate(stack):
                    if v == p:
                        stack[i] = NONE
                a = popped[0]
                if (m != m or m == 0) and a != NONE and a != p:
                    state[p] = a
            if pushes(code, k):
                stack.append(NONE)

    dataflow.solve(code, [NONE] * regs, transfer, NONE)
    return Code(list(ops), args, list(code.origin), dict(code.names))
