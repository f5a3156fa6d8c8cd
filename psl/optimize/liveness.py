"""Liveness (docs/spec.md §10.6), the backward dataflow `dse` and `forward` decide on:
PUSHVAR r and a masked SETVAR r read r, a plain SETVAR r kills it; nothing is live at the
end. Registers are bits of an int (bit r: register r)."""

from __future__ import annotations

from collections.abc import Collection

from psl.optimize.code import PUSHVAR, SETVAR, Code, block_graph
from psl.registry import LIMITS


def use_def(code: Code, k: int) -> tuple[int, int]:
    """(register read, register killed) by instruction k; -1 for none."""
    op = code.ops[k]
    if op == PUSHVAR:
        return code.reg(k) % LIMITS.registers, -1
    if op == SETVAR:
        r = code.reg(k) % LIMITS.registers
        return (r, -1) if code.mask(k) else (-1, r)
    return -1, -1


def live_out(code: Code) -> tuple[list[tuple[int, int]], list[int]]:
    """Blocks, and the registers live at each block's end."""
    bl, succ, _pred = block_graph(code)
    live_in = [0] * len(bl)  # registers live on entry
    changed = True
    while changed:
        changed = False
        for b in range(len(bl) - 1, -1, -1):
            live = 0
            for t in succ[b]:
                live |= live_in[t]
            s, e = bl[b]
            for k in range(e - 1, s - 1, -1):
                use, kill = use_def(code, k)
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


def live_after(code: Code, s: int, e: int, live: int,
               without: Collection[int] = ()) -> list[int]:
    """Registers live after each instruction of block [s, e) given those live at its end,
    the instructions `without` left out (deleted: they read and kill nothing)."""
    after = [0] * (e - s)
    for k in range(e - 1, s - 1, -1):
        after[k - s] = live
        if k in without:
            continue
        use, kill = use_def(code, k)
        if kill >= 0:
            live &= ~(1 << kill)
        if use >= 0:
            live |= 1 << use
    return after
