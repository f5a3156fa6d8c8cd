"""Graph helpers for passes over a program's control flow: strongly connected components
and the loop nest they define."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


def components(succ: Sequence[Sequence[int]],
               nodes: Collection[int] | None = None) -> list[list[int]]:
    """Strongly connected components (Tarjan, iterative) in reverse topological order, of
    the whole graph or of the subgraph on `nodes` (edges leaving it are ignored)."""
    n = len(succ)
    inside = None if nodes is None else set(nodes)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    comps: list[list[int]] = []
    counter = 0
    for root in (range(n) if nodes is None else sorted(nodes)):
        if index[root] != -1:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, i = work[-1]
            if i < len(succ[v]):
                work[-1] = (v, i + 1)
                w = succ[v][i]
                if inside is not None and w not in inside:
                    continue
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w]:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
    return comps


#: a block's ways out: (next block, or None when the program ends; 1 when the edge is a
#: taken jump, 0 when it falls through); a conditional jump's are (fall through, jump)
Edges = tuple[tuple[int | None, int], ...]


def basic_blocks(n: int, jumps: dict[int, tuple[bool, int]]) -> tuple[list[int], list[Edges]]:
    """The basic blocks of n instructions whose jumps are `jumps` (instruction -> (is it
    conditional, target instruction; n or more ends the program)): each block's first
    instruction, plus n at the end, and each block's edges."""
    leader = [False] * (n + 1)
    leader[0] = True
    for k, (_, t) in jumps.items():
        leader[k + 1] = True
        leader[min(t, n)] = True
    starts = [k for k in range(n) if leader[k]] or [0]
    block_of = {k: b for b, k in enumerate(starts)}
    starts.append(n)
    edges: list[Edges] = []
    for b in range(len(starts) - 1):
        last = starts[b + 1] - 1
        jump = jumps.get(last)
        if jump is None:
            targets: tuple[tuple[int, int], ...] = ((last + 1, 0),)
        elif jump[0]:
            targets = ((last + 1, 0), (jump[1], 1))
        else:
            targets = ((jump[1], 1),)
        edges.append(tuple((block_of[t] if t < n else None, w) for t, w in targets))
    return starts, edges


@dataclass(frozen=True)
class Loop:
    index: int  # position in the list of loops (outer loops first)
    header: int  # the node every path into the loop enters through
    members: frozenset[int]  # nodes of the loop, inner loops' included
    parent: int | None  # the enclosing loop's index


def loop_nest(succ: Sequence[Sequence[int]], start: int = 0) -> list[Loop]:
    """The natural loops of a reducible graph, outer loops before the loops inside them.

    A loop is a strongly connected component with a cycle; its header is the member that
    is entered from outside (the start node counts as entered). The loops inside it are the
    components of the rest once the header is taken out (Bourdoncle's decomposition). The
    compiler only makes structured loops, so each has one header; for anything else the
    lowest entered node is taken.
    """
    preds: list[list[int]] = [[] for _ in succ]
    for u, vs in enumerate(succ):
        for v in vs:
            preds[v].append(u)
    loops: list[Loop] = []
    todo: list[tuple[list[int] | None, int | None]] = [(None, None)]
    while todo:
        nodes, parent = todo.pop()
        for comp in reversed(components(succ, nodes)):
            members = set(comp)
            if len(comp) == 1 and comp[0] not in succ[comp[0]]:
                continue
            entered = [v for v in comp if v == start or any(u not in members for u in preds[v])]
            header = min(entered) if entered else min(comp)
            loop = Loop(len(loops), header, frozenset(members), parent)
            loops.append(loop)
            todo.append(([v for v in comp if v != header], loop.index))
    return loops
