"""Forwarding single-use values (docs/spec.md §10.6): `T; SETVAR r; …; PUSHVAR r` in one
basic block, where that PUSHVAR is the next instruction of the block naming r, r is dead
after it, T is a tree (§10.1) and no instruction between T and the read (but the SETVAR r
itself) assigns a register T reads,
becomes `…; T`: the value is computed where it is used, saving the SETVAR and the PUSHVAR.
Trees have no side effects and read the same registers at both places, so the value is the
same. A block's candidates are taken in order; a tree may hold the read of one taken
before it (`a = x * 2; b = a + 1; … b` becomes `… x * 2 + 1`), and then it also reads what
that one reads. A jump to a moved or deleted instruction goes to the first instruction
after it that stays where it was.

The pipeline runs this inside `dse` (psl/optimize/dse.py), which first deletes the block's
dead stores (`Plan.dead`); `run` is forwarding alone."""

from __future__ import annotations

from dataclasses import dataclass, field

from psl.optimize.code import (
    PUSHVAR,
    SETVAR,
    Code,
    Tree,
    is_jump,
    scan_block,
    stack_depths,
)
from psl.optimize.liveness import live_after, live_out
from psl.registry import LIMITS


@dataclass
class Plan:
    """What the pass does, by old index."""

    moved: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # read -> (start,
    # end, SETVAR) of the tree that replaces it
    reads_of: dict[int, set[int]] = field(default_factory=dict)  # read -> registers it reads
    owner: dict[int, int] = field(default_factory=dict)  # moved tree's instruction -> read
    setvars: set[int] = field(default_factory=set)  # the SETVARs whose value moved
    dead: set[int] = field(default_factory=set)  # deleted (dse)


def choose(code: Code, s: int, e: int, after: list[int], plan: Plan) -> None:
    """Block [s, e)'s forwards into `plan`, given the registers live after each of its
    instructions (`after`, with plan.dead left out); a deleted instruction is not a read."""

    def visit(k: int, operands: list[Tree]) -> None:
        if code.ops[k] != SETVAR or code.mask(k) or k in plan.dead:
            return
        t = operands[0]
        if t.start < 0:
            return
        r = code.reg(k) % LIMITS.registers
        reads: set[int] = set()
        for j in range(t.start, t.end + 1):
            if code.ops[j] == PUSHVAR:
                # a read an earlier candidate moved its tree to: that tree's reads
                reads |= plan.reads_of.get(j, {code.reg(j) % LIMITS.registers})
        # a store that pops T after other code: that code must not assign what T reads
        # either (T's value is computed later now)
        for j in range(t.end + 1, k):
            if (j not in plan.dead and code.ops[j] == SETVAR
                    and code.reg(j) % LIMITS.registers in reads):
                return
        for j in range(k + 1, e):
            if j in plan.dead:
                continue  # deleted: it names no register
            op = code.ops[j]
            if op == PUSHVAR and code.reg(j) % LIMITS.registers == r:
                if not (after[j - s] >> r & 1):
                    plan.moved[j] = (t.start, t.end, k)
                    plan.reads_of[j] = reads
                    for q in range(t.start, t.end + 1):
                        plan.owner[q] = j
                    plan.setvars.add(k)
                return
            if op == SETVAR:
                w = code.reg(j) % LIMITS.registers
                if w == r or w in reads:
                    return

    scan_block(code, s, e, visit)


def build(code: Code, plan: Plan) -> Code | None:
    """The code with `plan` applied, or None when it breaks §10.1 (a stack of 128)."""
    n = len(code)
    if not plan.moved and not plan.dead:
        return code
    moved, owner = plan.moved, plan.owner
    gone = plan.setvars | plan.dead
    order: list[int] = []

    def put(a: int, z: int) -> None:
        for q in range(a, z + 1):
            if q in moved:
                put(moved[q][0], moved[q][1])
            else:
                order.append(q)

    for k in range(n):
        if k not in owner and k not in gone:  # (else written where it is read, or deleted)
            put(k, k)

    def in_place(k: int) -> bool:
        """Does instruction k (old index) stay where it was? A tree stays when it moves to
        the instruction right after its SETVAR, the SETVAR right after the tree, and that
        read stays. (A tree whose SETVAR pops it later, after other code, moves past that
        code: a jump to the tree must land on that code.)"""
        while k in owner:
            j = owner[k]
            if j != moved[j][2] + 1 or moved[j][1] + 1 != moved[j][2]:
                return False
            k = j
        return k not in gone

    new_at = [-1] * (n + 1)
    for i, k in enumerate(order):
        new_at[k] = i
    new_at[n] = len(order)

    def first_of(k: int) -> int:
        """The new index of what old index k now begins with (a read: its tree's start)."""
        while k in moved:
            k = moved[k][0]
        return new_at[k]

    targets: dict[int, int] = {}
    for k in range(n):
        if is_jump(code.ops[k]):
            t = code.target(k)
            if t not in targets:
                land = t
                while land < n and not in_place(land):
                    land += 1
                targets[t] = first_of(land)
    ops = [code.ops[k] for k in order]
    args = [code.args[k] if not is_jump(code.ops[k])
            else (float(targets[code.target(k)]), *code.args[k][1:]) for k in order]
    out = Code(ops, args, [code.origin[k] for k in order], dict(code.names))
    return out if stack_depths(out) is not None else None


def run(code: Code) -> Code:
    bl, outs = live_out(code)
    plan = Plan()
    for b, (s, e) in enumerate(bl):
        choose(code, s, e, live_after(code, s, e, outs[b]), plan)
    out = build(code, plan)
    return code if out is None else out
