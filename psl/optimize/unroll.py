"""Full unrolling of counted loops (docs/spec.md §10.8). A loop laid out as

    PUSHCONST c0; SETVAR i; C: PUSHVAR i; PUSHCONST L; BINOP cmp; CONDJUMP E;
    body; S: PUSHVAR i; PUSHCONST s; BINOP op; SETVAR i; JUMP C; E:

(a `for` after `loops`, or a `while` with the step at its end) where nothing else assigns i
or jumps into the loop, and the body's jumps stay inside [body, S], runs a number of times
the compiler can compute exactly with the VM's own operators (cmp and op foldable, §10.3).
Then it becomes that many copies of the body, each reading i as the PUSHCONST of the value
it has there (c0 stepped j times, as `trips` computed it), then `PUSHCONST` of i's value
after the last step and `SETVAR i`: the copies do exactly what the iterations did, without
the test, the step and the jump back. Only when the copies with their steps would total at
most UNROLL_BUDGET instructions and the program stays within the instruction limit; loops
are tried in instruction order, one per run. It runs after hoist, last before renumber:
the passes before it work on the loop once, not on each copy."""

from __future__ import annotations

from psl.optimize import fold
from psl.optimize.code import BINOP, CONDJUMP, JUMP, PUSHCONST, PUSHVAR, SETVAR, Code, is_jump
from psl.registry import LIMITS, OPTIMIZER_TUNING

UNROLL_BUDGET = OPTIMIZER_TUNING.unroll_budget
MAX_TRIPS = OPTIMIZER_TUNING.max_trips


def trips(code: Code, c0: tuple, cmp_at: int, limit: tuple, step_at: int, s: tuple
          ) -> int | None:
    """How many times the test passes, or None when it cannot be computed exactly."""
    v = c0
    for n in range(MAX_TRIPS + 1):
        if not fold.foldable(code, cmp_at, [v, limit]):
            return None
        r = fold.evaluate(code, cmp_at, [v, limit])
        if r[0] == 0:  # CONDJUMP is taken when x is 0 (NaN is not 0)
            return n
        if not fold.foldable(code, step_at, [v, s]):
            return None
        v = fold.evaluate(code, step_at, [v, s])
        if fold.subnormal(v):
            return None
    return None


def _match(code: Code, c: int, targeted: list[int]) -> tuple[int, int, int] | None:
    """(E, S, trips) when the loop headed at C = c unrolls."""
    ops, n = code.ops, len(code)
    if c < 2 or c + 3 >= n or ops[c - 2] != PUSHCONST or ops[c - 1] != SETVAR \
            or code.mask(c - 1) or ops[c] != PUSHVAR or ops[c + 1] != PUSHCONST \
            or ops[c + 2] != BINOP or ops[c + 3] != CONDJUMP:
        return None
    i = code.reg(c - 1)
    e = code.target(c + 3)
    s = e - 5
    if s < c + 4 or code.reg(c) != i or ops[e - 1] != JUMP or code.target(e - 1) != c:
        return None
    if ops[s] != PUSHVAR or code.reg(s) != i or ops[s + 1] != PUSHCONST \
            or ops[s + 2] != BINOP or ops[s + 3] != SETVAR or code.reg(s + 3) != i \
            or code.mask(s + 3):
        return None
    if targeted[c] != 1 or any(targeted[k] for k in (c - 1, c + 1, c + 2, c + 3, s + 1,
                                                    s + 2, s + 3, e - 1)):
        return None
    for k in range(c + 4, s):
        if ops[k] == SETVAR and code.reg(k) == i:
            return None
        if is_jump(ops[k]) and not (c + 4 <= code.target(k) <= s):
            return None
    for k in list(range(0, c + 4)) + list(range(e, n)):  # nothing jumps into the loop
        if is_jump(ops[k]) and c < code.target(k) < e:
            return None
    count = trips(code, code.args[c - 2], c + 2, code.args[c + 1], s + 2, code.args[s + 1])
    if count is None:
        return None
    body = s + 4 - (c + 4)
    if count * body > UNROLL_BUDGET or n - (e - c) + count * body > LIMITS.instructions:
        return None
    return e, s, count


def run(code: Code) -> Code:
    n = len(code)
    targeted = [0] * (n + 1)
    for k in range(n):
        if is_jump(code.ops[k]):
            targeted[code.target(k)] += 1
    for c in range(n):
        m = _match(code, c, targeted)
        if m is not None:
            return _unroll(code, c, *m)
    return code


def _unroll(code: Code, c: int, e: int, s: int, count: int) -> Code:
    """`count` copies of the body C+4 … S−1, each reading the counter as the constant it
    is there, then `PUSHCONST` of the counter's value after the last step and the step's
    `SETVAR i` (i keeps its final value for code after the loop)."""
    first = c + 4  # one copy: [first, s)
    body = s - first
    shift = count * body + 2 - (e - c)  # how far E and everything after it move
    ops: list[int] = []
    args: list = []
    origin: list[int] = []

    def put(k: int, target: int | None = None) -> None:
        a = code.args[k]
        if target is not None:
            a = (float(target), *a[1:])
        ops.append(code.ops[k])
        args.append(a)
        origin.append(code.origin[k])

    def outside(t: int) -> int:
        return t if t <= c else t + shift

    for k in range(c):
        put(k, outside(code.target(k)) if is_jump(code.ops[k]) else None)
    i = code.reg(c - 1)
    v = code.args[c - 2]  # the counter's value in copy j
    for j in range(count):
        base = c + j * body  # a jump to S goes to the next copy (after the last: the SETVAR)
        for k in range(first, s):
            put(k, base + code.target(k) - first if is_jump(code.ops[k]) else None)
            if ops[-1] == PUSHVAR and code.reg(k) == i:
                ops[-1] = PUSHCONST
                args[-1] = v
        v = fold.evaluate(code, s + 2, [v, code.args[s + 1]])
    ops.append(PUSHCONST)
    args.append(v)
    origin.append(code.origin[s + 1])
    put(s + 3)
    for k in range(e, len(code)):
        put(k, outside(code.target(k)) if is_jump(code.ops[k]) else None)
    return Code(ops, args, origin, dict(code.names))
