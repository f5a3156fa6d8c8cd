"""Structuring: the loops and joins of the IR's block graph, from which the readable
writer (psl/export/readable.py) recovers `while`/`if`/`else`.

Every loop of PSL code has one header and one exit (the language has no break), and every
branch rejoins at its block's immediate post-dominator; a graph of another shape raises
`Unstructured` (the caller then writes the block-dispatch loop of psl/export/text.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from psl.export.ir import (
    Assign,
    Binary,
    Block,
    Call,
    Expr,
    Jump,
    Lanes,
    Operand,
    Pick,
    Program,
    Ref,
    Unary,
)

#: The successor that stands for the program's end.
EXIT = -1


class Unstructured(Exception):
    """The block graph has a shape that `while`/`if` cannot write."""


def counted_jump_sites(program: Program) -> int:
    """How many jumps of the program count against the jump budget."""
    n = 0
    for b in program.blocks.values():
        ends = [b.end] if isinstance(b.end, Jump) else [b.end.fall, b.end.taken]
        n += sum(1 for j in ends if j.counted)
    return n


def _succ(b: Block) -> list[int]:
    ends = [b.end] if isinstance(b.end, Jump) else [b.end.fall, b.end.taken]
    return [EXIT if j.target is None else j.target for j in ends]


@dataclass
class Graph:
    """Loops and joins of the IR's block graph."""

    program: Program
    succ: dict[int, list[int]] = field(default_factory=dict)
    loops: dict[int, set[int]] = field(default_factory=dict)  # header -> its blocks
    exits: dict[int, int | None] = field(default_factory=dict)  # header -> exit block
    ipdom: dict[int, int | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        blocks = self.program.blocks
        self.succ = {i: _succ(b) for i, b in blocks.items()}
        nodes = sorted(blocks)
        dom = _dominators(nodes, self.succ, 0)
        preds: dict[int, list[int]] = {n: [] for n in nodes}
        for n in nodes:
            for s in self.succ[n]:
                if s != EXIT:
                    preds[s].append(n)
        for n in nodes:
            for s in self.succ[n]:
                if s == EXIT or s not in dom.get(n, set()):
                    continue
                body = self.loops.setdefault(s, {s})
                work = [n]
                while work:  # the natural loop of the back edge n -> s
                    m = work.pop()
                    if m not in body:
                        body.add(m)
                        work.extend(preds[m])
        for h, body in self.loops.items():
            outs = {s for m in body for s in self.succ[m] if s not in body}
            if len(outs) > 1:
                raise Unstructured(f"loop at block {h} has several exits")
            self.exits[h] = next(iter(outs)) if outs else None
        # post-dominators; a loop without an exit gets an edge to the end, so that the
        # branches inside it still find where they join
        rsucc = {n: list(self.succ[n]) for n in nodes}
        for h, e in self.exits.items():
            if e is None:
                rsucc[h].append(EXIT)
        pdom = _postdominators(nodes, rsucc)
        for n in nodes:
            strict = pdom[n] - {n}
            best = None
            for d in strict:
                if len(pdom.get(d, {d})) == len(strict):
                    best = d
            self.ipdom[n] = None if best in (None, EXIT) else best


def _dominators(nodes: list[int], succ: dict[int, list[int]], entry: int) -> dict[int, set[int]]:
    preds: dict[int, list[int]] = {n: [] for n in nodes}
    for n in nodes:
        for s in succ[n]:
            if s != EXIT:
                preds[s].append(n)
    every = set(nodes)
    dom = {n: set(every) for n in nodes}
    dom[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for n in nodes:
            if n == entry:
                continue
            ps = [dom[p] for p in preds[n]]
            new = (set.intersection(*ps) if ps else set()) | {n}
            if new != dom[n]:
                dom[n] = new
                changed = True
    return dom


def _postdominators(nodes: list[int], succ: dict[int, list[int]]) -> dict[int, set[int]]:
    every = set(nodes) | {EXIT}
    pdom: dict[int, set[int]] = {n: set(every) for n in nodes}
    pdom[EXIT] = {EXIT}
    changed = True
    while changed:
        changed = False
        for n in reversed(nodes):
            ss = [pdom[s] for s in succ[n]]
            new = (set.intersection(*ss) if ss else set()) | {n}
            if new != pdom[n]:
                pdom[n] = new
                changed = True
    return pdom


def operands(e: Expr) -> list[Operand | None]:
    """What an assignment's expression reads (a Lit reads nothing)."""
    if isinstance(e, Ref):
        return [e]
    if isinstance(e, Binary):
        return [e.left, e.right]
    if isinstance(e, Unary | Pick):
        return [e.value]
    if isinstance(e, Call):
        return list(e.args)
    if isinstance(e, Lanes):
        return [e.value, e.current]
    return []


def first_writes(body: list[Assign]) -> set[str]:
    """Registers whose first use in these statements assigns the whole of them."""
    seen: set[str] = set()
    out: set[str] = set()
    for a in body:
        e = a.expr
        ops = operands(e)
        for o in ops:
            if isinstance(o, Ref):
                seen.add(o.name)
        t = a.target.name
        if not a.declare and t not in seen:
            seen.add(t)
            if not isinstance(e, Lanes):
                out.add(t)
    return out

