"""Forward "must" dataflow over basic blocks, shared by constant and copy propagation
(docs/spec.md §10.2): a fact per register, met by equality (two different facts meet to
"none"). Blocks are visited in instruction order, repeatedly, until nothing changes; a block
no path reaches yet is skipped."""

from __future__ import annotations

from collections.abc import Callable

from psl.optimize.code import Code, block_graph

#: `transfer(start, end, state, rewrite)` updates `state` (a list, one fact per register)
#: over instructions [start, end); with rewrite=True it may also change the code.
Transfer = Callable[[int, int, list, bool], None]


def solve(code: Code, entry: list, transfer: Transfer, none: object) -> None:
    bl, _succ, pred = block_graph(code)
    outs: list[list | None] = [None] * len(bl)
    ins: list[list | None] = [None] * len(bl)
    changed = True
    while changed:
        changed = False
        for b, (s, e) in enumerate(bl):
            state = _meet(entry if b == 0 else None, [outs[p] for p in pred[b]], none)
            if state is None:
                continue
            ins[b] = list(state)
            transfer(s, e, state, False)
            if outs[b] != state:
                outs[b] = state
                changed = True
    for b, (s, e) in enumerate(bl):
        if ins[b] is not None:
            transfer(s, e, list(ins[b]), True)  # type: ignore[arg-type]


def _meet(entry: list | None, outs: list, none: object) -> list | None:
    got = [o for o in outs if o is not None]
    if entry is not None:
        got.append(entry)
    if not got:
        return None
    state = list(got[0])
    for o in got[1:]:
        for r, fact in enumerate(o):
            if state[r] != fact:
                state[r] = none
    return state
