"""Forwarding single-use values (docs/spec.md §10.7): `T; SETVAR r; …; PUSHVAR r` in one
basic block, where that PUSHVAR is the next instruction of the block naming r, r is dead
after it, T is a tree (§10.1) and no instruction in between assigns a register T reads,
becomes `…; T`: the value is computed where it is used, saving the SETVAR and the PUSHVAR.
Trees have no side effects and read the same registers at both places, so the value is the
same. A block's forwards are chosen in order, each one's span [T's start, the PUSHVAR]
disjoint from those chosen before (nested ones wait for the next round). A jump to T's
first instruction goes to the instruction after the SETVAR instead (T is no longer there)."""

from __future__ import annotations

from psl.optimize.code import (
    PUSHVAR,
    SETVAR,
    Code,
    Tree,
    is_jump,
    rebuild,
    scan_block,
    stack_depths,
)
from psl.optimize.dse import live_after, live_out
from psl.registry import LIMITS


def run(code: Code) -> Code:
    bl, outs = live_out(code)
    n = len(code)
    moved: dict[int, tuple[int, int]] = {}  # PUSHVAR index -> the tree that replaces it
    gone: set[int] = set()  # trees moved away and their SETVARs
    landing: dict[int, int] = {}  # a moved tree's start -> where jumps to it go instead
    for b, (s, e) in enumerate(bl):
        after = live_after(code, s, e, outs[b])
        busy_until = -1

        def visit(k: int, operands: list[Tree], s: int = s, e: int = e,
                  after: list = after) -> None:
            nonlocal busy_until
            if code.ops[k] != SETVAR or code.mask(k):
                return
            t = operands[0]
            if t.start < 0 or t.start <= busy_until:
                return
            r = code.reg(k) % LIMITS.registers
            reads = {code.reg(j) % LIMITS.registers for j in range(t.start, t.end + 1)
                     if code.ops[j] == PUSHVAR}
            for j in range(k + 1, e):
                op = code.ops[j]
                if op == PUSHVAR and code.reg(j) % LIMITS.registers == r:
                    if not (after[j - s] >> r & 1):
                        moved[j] = (t.start, t.end)
                        if j != k + 1:  # a jump to T's start now lands after the SETVAR
                            landing[t.start] = k + 1
                        gone.update(range(t.start, t.end + 1))
                        gone.add(k)
                        busy_until = j
                    return
                if op == SETVAR:
                    w = code.reg(j) % LIMITS.registers
                    if w == r or w in reads:
                        return

        scan_block(code, s, e, visit)
    if not moved:
        return code
    order: list[int] = []
    for k in range(n):
        if k in moved:
            a, z = moved[k]
            order.extend(range(a, z + 1))
        elif k not in gone:
            order.append(k)
    args = list(code.args)
    for k in range(n):
        if is_jump(code.ops[k]) and code.target(k) in landing:
            args[k] = (float(landing[code.target(k)]), *args[k][1:])
    out = rebuild(Code(code.ops, args, code.origin, code.names), order)
    return out if stack_depths(out) is not None else code
