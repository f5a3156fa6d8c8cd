"""Dead-store elimination (docs/spec.md §10.6): a SETVAR r after which no path reads r
(before a plain SETVAR r) is deleted together with the expression that computed its value,
when that expression is one tree of the same basic block. Expressions have no side
effects, so nothing else changes. Liveness is the usual backward dataflow: PUSHVAR r and a
masked SETVAR r read r, a plain SETVAR r kills it; nothing is live at the end."""

from __future__ import annotations

from psl.optimize.code import PUSHVAR, SETVAR, Code, Tree, block_graph, delete, scan_block
from psl.registry import LIMITS


def _use_def(code: Code, k: int) -> tuple[int, int]:
    """(register read, register killed) by instruction k; -1 for none."""
    op = code.ops[k]
    if op == PUSHVAR:
        return code.reg(k) % LIMITS.registers, -1
    if op == SETVAR:
        r = code.reg(k) % LIMITS.registers
        return (r, -1) if code.mask(k) else (-1, r)
    return -1, -1


def live_out(code: Code) -> tuple[list[tuple[int, int]], list[int]]:
    """Blocks, and the registers live at each block's end (bit r: register r)."""
    bl, succ, _pred = block_graph(code)
    live_in = [0] * len(bl)  # bit r: register r live on entry
    changed = True
    while changed:
        changed = False
        for b in range(len(bl) - 1, -1, -1):
            live = 0
            for t in succ[b]:
                live |= live_in[t]
            s, e = bl[b]
            for k in range(e - 1, s - 1, -1):
                use, kill = _use_def(code, k)
                if kill >= 0:
                    live &= ~(1 << kill)
                if use >= 0:
                    live |= 1 << use
            if live != live_in[b]:
                live_in[b] = live
                changed = True
    outs = []
    for b in range(len(bl)):
        live = 0
        for t in succ[b]:
            live |= live_in[t]
        outs.append(live)
    return bl, outs


def live_after(code: Code, s: int, e: int, live: int) -> list[int]:
    """Registers live after each instruction of block [s, e) given those live at its end."""
    after = [0] * (e - s)
    for k in range(e - 1, s - 1, -1):
        after[k - s] = live
        use, kill = _use_def(code, k)
        if kill >= 0:
            live &= ~(1 << kill)
        if use >= 0:
            live |= 1 << use
    return after


def run(code: Code) -> Code:
    bl, outs = live_out(code)
    dead: set[int] = set()
    for b, (s, e) in enumerate(bl):
        after = live_after(code, s, e, outs[b])

        def visit(k: int, operands: list[Tree], s: int = s, after: list = after) -> None:
            if code.ops[k] != SETVAR or operands[0].start < 0:
                return
            if after[k - s] >> (code.reg(k) % LIMITS.registers) & 1:
                return
            dead.add(k)
            dead.update(range(operands[0].start, operands[0].end + 1))

        scan_block(code, s, e, visit)
    return delete(code, dead) if dead else code
