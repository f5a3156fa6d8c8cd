"""Dead stores (docs/spec.md §10.6), with forwarding in the same pass: a SETVAR r after which
no path reads r (before a plain SETVAR r) is deleted together with the expression that
computed its value, when that expression is one tree of the same basic block (expressions
have no side effects, so nothing else changes). Then, on each block without those, the
single-use values are forwarded (psl/optimize/forward.py): one liveness for both, the
block's reads and kills recounted without the deleted instructions."""

from __future__ import annotations

from psl.optimize import forward
from psl.optimize.code import SETVAR, Code, Tree, scan_block
from psl.optimize.liveness import live_after, live_out
from psl.registry import LIMITS


def dead_stores(code: Code, s: int, e: int, after: list[int]) -> set[int]:
    """The instructions of block [s, e) dse deletes: each dead SETVAR and its tree."""
    dead: set[int] = set()

    def visit(k: int, operands: list[Tree]) -> None:
        if code.ops[k] != SETVAR or operands[0].start < 0:
            return
        if after[k - s] >> (code.reg(k) % LIMITS.registers) & 1:
            return
        dead.add(k)
        dead.update(range(operands[0].start, operands[0].end + 1))

    scan_block(code, s, e, visit)
    return dead


def run(code: Code) -> Code:
    bl, outs = live_out(code)
    plan = forward.Plan()
    for b, (s, e) in enumerate(bl):
        dead = dead_stores(code, s, e, live_after(code, s, e, outs[b]))
        plan.dead |= dead
        forward.choose(code, s, e, live_after(code, s, e, outs[b], dead), plan)
    out = forward.build(code, plan)
    return code if out is None else out
