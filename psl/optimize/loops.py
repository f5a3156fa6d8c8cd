"""For-loop layout (docs/spec.md §10.8). A `for` compiles to

    init; C: cond; CONDJUMP E; JUMP B; I: step; JUMP C; B: body; JUMP I; E:

three taken jumps per iteration. It is laid out as

    init; C: cond; CONDJUMP E; B: body; I: step; JUMP C; E:

with one taken jump per iteration. A jump to one of the two deleted JUMPs goes to that
JUMP's target instead (an `if` ending the body jumps to `JUMP I`). Loops are rewritten from
the first CONDJUMP in instruction order on, one at a time, until none matches."""

from __future__ import annotations

from psl.optimize.code import CONDJUMP, JUMP, Code, is_jump, rebuild


def _match(code: Code, i: int) -> list[int] | None:
    """The new order of instructions when the CONDJUMP at i heads a `for` layout."""
    n = len(code)
    ops = code.ops
    if ops[i] != CONDJUMP or i + 1 >= n or ops[i + 1] != JUMP:
        return None
    e, b, inc = code.target(i), code.target(i + 1), i + 2
    if not (inc < b < e <= n) or ops[b - 1] != JUMP or ops[e - 1] != JUMP:
        return None
    if code.target(e - 1) != inc or code.target(b - 1) > i or b > e - 1:
        return None
    return [*range(0, i + 1), *range(b, e - 1), *range(inc, b), *range(e, n)]


def run(code: Code) -> Code:
    start = 0
    while True:
        n = len(code)
        for i in range(start, n):
            order = _match(code, i)
            if order is not None:
                jb, ji = i + 1, code.target(i) - 1  # the two JUMPs deleted
                args = list(code.args)
                for k in range(n):
                    if is_jump(code.ops[k]) and k not in (jb, ji):
                        t = code.target(k)
                        if t == jb or t == ji:
                            args[k] = (float(code.target(t)), *args[k][1:])
                code = rebuild(Code(code.ops, args, code.origin, code.names), order)
                start = i + 1
                break
        else:
            return code
