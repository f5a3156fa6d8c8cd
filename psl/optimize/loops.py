"""For-loop layout (docs/spec.md §10.8). A `for` compiles to

    init; C: cond; CONDJUMP E; JUMP B; I: step; JUMP C; B: body; JUMP I; E:

three taken jumps per iteration. When nothing else jumps to B, I, or the two JUMPs moved,
the loop is laid out as

    init; C: cond; CONDJUMP E; B: body; I: step; JUMP C; E:

with one taken jump per iteration. Loops are rewritten from the first CONDJUMP in
instruction order on, one at a time, until none matches."""

from __future__ import annotations

from psl.optimize.code import CONDJUMP, JUMP, Code, is_jump, rebuild


def _match(code: Code, i: int, targeted: list[int]) -> list[int] | None:
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
    # only the loop's own jumps may land on B, I, or the JUMPs being removed
    if targeted[b] != 1 or targeted[inc] != 1 or targeted[i + 1] or targeted[e - 1]:
        return None
    return [*range(0, i + 1), *range(b, e - 1), *range(inc, b), *range(e, n)]


def run(code: Code) -> Code:
    start = 0
    while True:
        n = len(code)
        targeted = [0] * (n + 1)
        for k in range(n):
            if is_jump(code.ops[k]):
                targeted[code.target(k)] += 1
        for i in range(start, n):
            order = _match(code, i, targeted)
            if order is not None:
                code = rebuild(code, order)
                start = i + 1
                break
        else:
            return code
