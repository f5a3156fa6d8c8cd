"""Static numbers of a compiled program for `psl check --stats`: instructions, registers and
the deepest operand stack, found by a dataflow pass over the bytecode's control-flow graph.

Each instruction moves the stack pointer by a fixed amount (SPEC §7.3):

    PUSHCONST, PUSHVAR   +1
    BINOP, SETVAR        -1
    UNOP, JUMP            0   (UNOP pops one value and pushes one)
    CONDJUMP             -1   (pops the condition, on both edges)
    CALL                 1 - arity of the builtin (unknown ids: arity 0); the swizzle is no
                         exception, its pick is an argument pushed by a PUSHCONST
    other opcodes         0   (they do nothing)

The depth on entry to instruction k is the largest stack pointer of any path from the start
to k. The pass runs over basic blocks, one strongly connected component of their graph at a
time in topological order (O(instructions)). Within a loop (a component with a cycle) every
path between two blocks moves the pointer by the same amount when every cycle is balanced;
then the depths follow from one potential per block. A cycle that is not balanced pushes
more than it pops (the compiler's statements never pop more than they push; hand-made
bytecode that does is also reported as unbounded), so running it again and again deepens
the stack without bound: `while (c) { i += 1; 5 }` leaves a 5 per iteration. The stack is a
ring of LIMITS.stack entries, so such a program overwrites its oldest entries instead of
failing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from psl import registry
from psl.bytecode import Instruction, Program, jump_target, operand_number
from psl.infer.graph import basic_blocks, components
from psl.registry import Op

_EFFECT = {Op.PUSHCONST: 1, Op.PUSHVAR: 1, Op.BINOP: -1, Op.UNOP: 0, Op.SETVAR: -1,
           Op.JUMP: 0, Op.CONDJUMP: -1}
_ARITY = {b.id: b.arity for b in registry.BUILTINS}


@dataclass(frozen=True)
class StaticStats:
    instructions: int
    registers: int
    #: deepest stack pointer on any path; None when a loop deepens the stack without bound
    max_stack: int | None


def static_stats(program: Program) -> StaticStats:
    return StaticStats(len(program.instructions), program.registers,
                       max_stack_depth(program.instructions))


def stack_effect(ins: Instruction) -> int:
    """How far `ins` moves the stack pointer."""
    if ins.op == Op.CALL:
        return 1 - _ARITY.get(operand_number(ins.operand[0]), 0)  # unknown ids take no arguments
    return _EFFECT.get(ins.op, 0)


def max_stack_depth(instructions: Sequence[Instruction]) -> int | None:
    """The deepest stack pointer any execution reaches (0 for no instructions), or None
    when a loop can deepen the stack without bound. The pointer starts at 0.

    The pass works on basic blocks: each has a net effect and a peak (the highest pointer
    inside it, relative to its entry)."""
    n = len(instructions)
    if n == 0:
        return 0
    effects = [0] * n
    jumps: dict[int, tuple[bool, int]] = {}
    for k, ins in enumerate(instructions):
        op = ins.op
        if op == Op.CALL:
            effects[k] = 1 - _ARITY.get(operand_number(ins.operand[0]), 0)
        else:
            effects[k] = _EFFECT.get(op, 0)
            if op == Op.JUMP or op == Op.CONDJUMP:
                jumps[k] = (op == Op.CONDJUMP, jump_target(ins, n))
    starts, edges = basic_blocks(n, jumps)
    nets: list[int] = []
    peaks: list[int] = []
    for b in range(len(starts) - 1):
        d = peak = 0
        for e in effects[starts[b]: starts[b + 1]]:
            d += e
            if d > peak:
                peak = d
        nets.append(d)
        peaks.append(peak)
    succ = [tuple(t for t, _ in e if t is not None) for e in edges]
    return _deepest(succ, nets, peaks)


def _deepest(succ: list[tuple[int, ...]], nets: list[int], peaks: list[int]) -> int | None:
    """Longest-path depths over the blocks' graph, one strongly connected component at a
    time in topological order; block 0 is entered with depth 0."""
    depth: list[int | None] = [None] * len(succ)  # entry depth; None: not reached (yet)
    depth[0] = 0
    deepest = 0
    for comp in reversed(components(succ)):  # Tarjan gives reverse topological order
        entries = [v for v in comp if depth[v] is not None]
        if not entries:
            continue  # unreachable
        members = set(comp)
        if len(comp) > 1 or comp[0] in succ[comp[0]]:
            # A loop: potentials along a spanning tree of the component; every edge inside
            # it must agree with them (every cycle balanced), else the stack is unbounded.
            pot = {comp[0]: 0}
            todo = [comp[0]]
            while todo:
                u = todo.pop()
                p = pot[u] + nets[u]
                for t in succ[u]:
                    if t in members:
                        if t not in pot:
                            pot[t] = p
                            todo.append(t)
                        elif pot[t] != p:
                            return None
            base = max(depth[v] - pot[v] for v in entries)  # type: ignore[operator]
            for v in comp:
                depth[v] = base + pot[v]
        for v in comp:
            d = depth[v]
            assert d is not None
            deepest = max(deepest, d + peaks[v])
            out = d + nets[v]
            for t in succ[v]:
                if t not in members:
                    got = depth[t]
                    depth[t] = out if got is None else max(got, out)
    return deepest
