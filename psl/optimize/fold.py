"""Constant folding (docs/spec.md §10.3): an operation whose operands are all constants
pushed right before it, in one basic block, becomes one PUSHCONST of its result, computed
by the reference VM's own operator code. Left to right, so folds cascade
(`float3(0, 0, -1)` folds the `-` first, then the constructor)."""

from __future__ import annotations

import numpy as np

from psl import registry
from psl.optimize.code import (
    BINOP,
    CALL,
    NAN,
    PUSHCONST,
    UNOP,
    Code,
    Lanes,
    arity,
    leaders,
    rebuild,
)
from psl.vm.calls import call
from psl.vm.values import F32, V, binop, canon, full, unop

_DIVIDE = registry.BINOP_BY_SYMBOL["/"].id
_TINY = float(np.finfo(np.float32).tiny)  # smallest normal float32


def subnormal(lanes: Lanes) -> bool:
    return any(x == x and x != 0 and abs(x) < _TINY for x in lanes)


def _power_of_two(x: float) -> bool:
    """±2^k with 2^k and 2^-k normal float32 (so x's reciprocal is exact too)."""
    if x != x or x == 0 or abs(x) == float("inf"):
        return False
    m, e = np.frexp(abs(x))
    return bool(m == 0.5) and -125 <= e - 1 <= 126


def foldable(code: Code, k: int, operands: list[Lanes]) -> bool:
    """May instruction k be folded on these constant operands?"""
    op = code.ops[k]
    n = code.reg(k)
    if op == BINOP:
        b = registry.BINOP_BY_ID.get(n)
        if b is None or not b.foldable:
            return False
        if n == _DIVIDE and not all(x != x or _power_of_two(x) for x in operands[1]):
            return False
    elif op == UNOP:
        u = registry.UNOP_BY_CODE.get(n)
        if u is None or not u.foldable:
            return False
    elif op == CALL:
        c = registry.BUILTIN_BY_ID.get(n)
        if c is None or not c.foldable:
            return False
    else:
        return False
    return not any(subnormal(lanes) for lanes in operands)


def _value(lanes: Lanes) -> V:
    return canon(np.array(lanes, F32).reshape(4, 1))


def evaluate(code: Code, k: int, operands: list[Lanes]) -> Lanes:
    """The VM's result of instruction k on constant operands, as PUSHCONST lanes."""
    op, n = code.ops[k], code.reg(k)
    vals = [_value(x) for x in operands]
    with np.errstate(all="ignore"):
        if op == BINOP:
            v = binop(n, vals[0], vals[1])
        elif op == UNOP:
            v = unop(n, vals[0])
        else:
            v = call(n, vals, None)  # type: ignore[arg-type] - foldable builtins read no input
    lanes = full(v)[:, 0]
    return tuple(NAN if x != x else float(x) for x in lanes)  # type: ignore[return-value]


def run(code: Code) -> Code:
    lead = leaders(code)
    order: list[int] = []  # kept instructions (old indices)
    args = list(code.args)
    for k in range(len(code)):
        op = code.ops[k]
        need = 2 if op == BINOP else 1 if op == UNOP else arity(code.reg(k)) if op == CALL \
            else -1
        if need >= 1 and len(order) >= need and not lead[k]:
            window = order[-need:]
            # (kept instructions between them were folded away: none was a leader)
            if all(code.ops[j] == PUSHCONST for j in window) and \
                    not any(lead[j] for j in window[1:]):
                operands = [args[j] for j in window]
                if foldable(code, k, operands):
                    res = evaluate(code, k, operands)
                    if not subnormal(res):
                        first = window[0]
                        args[first] = res
                        if need > 1:
                            del order[-(need - 1):]
                        continue
        order.append(k)
    return rebuild(Code(code.ops, args, code.origin, code.names), order)

