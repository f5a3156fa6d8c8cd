"""Width inference over a compiled program: abstract interpretation of the bytecode the VM
runs (inlined, registers allocated), to a fixed point over its control-flow graph.

The state at a program point is the operand stack, every register's value (domain.Val)
and which registers may not have been assigned yet. States are kept apart per *context*:
the set of enclosing loops that are in their first iteration. Peeling the first iteration
this way keeps the constants of a loop's start (`for (i = 0; i < 8; i++)` enters with
i = 0, so its body certainly runs) and keeps "assigned in the loop" facts for the code
after a loop that certainly ran. A context keeps the bits of the PEEL_DEPTH innermost loops
around a block only (the outer ones merge), so contexts do not double per nested loop.

The fixed point's work (instructions run) has a budget linear in the program's size
(`budget`). A loop nest that runs it out is analysed again without peeling (one context);
if that runs out too, the flow is left incomplete and the checks are skipped (N003).

Where two paths meet with different stack depths (a value left in an `if`, W005), the
stack is aligned at its top, which is where pops read; entries below the shorter one are
unknown (`deep`). The inference assumes the program ends before the jump limit; a program
that does not is reported by the loop checks instead.
"""

from __future__ import annotations

import heapq
import struct
from dataclasses import dataclass, field
from itertools import compress
from operator import ne

from psl import registry
from psl.bytecode import Instruction, jump_target, operand_number, set_mask_lanes
from psl.cancel import check_cancelled
from psl.infer import domain
from psl.infer.domain import TOP, ZERO, Val
from psl.infer.graph import Edges, Loop, basic_blocks, loop_nest
from psl.registry import LIMITS, Op

_PUSHCONST, _PUSHVAR, _BINOP, _UNOP, _CALL, _SETVAR, _JUMP, _CONDJUMP = (
    int(Op.PUSHCONST), int(Op.PUSHVAR), int(Op.BINOP), int(Op.UNOP), int(Op.CALL),
    int(Op.SETVAR), int(Op.JUMP), int(Op.CONDJUMP))


_DEPTHS = 4  # distinct stack depths kept apart at one block and context

#: first-iteration bits a context keeps: those of the innermost loops around a block, this
#: many; a `for` needs only its own bit to count its iterations, and no program of the corpus
#: or the tests nests more than two loops (their results are the same as with every bit)
PEEL_DEPTH = 2
#: the fixed point's work budget: instructions run per instruction of the program, plus a
#: floor for tiny programs. The corpus needs at most 3 per instruction, a nest of 60 `while`
#: loops 11 and one of 60 `for` loops 116 (docs/width-inference.md).
WORK_PER_INSTRUCTION = 200
WORK_FLOOR = 20_000


def budget(instructions: int) -> int:
    """Instructions the fixed point may run for a program of this many instructions."""
    return WORK_FLOOR + WORK_PER_INSTRUCTION * instructions


class OutOfBudget(Exception):
    """The fixed point ran more instructions than its budget."""


class Decoded:
    """One instruction with its operand read as the VM reads it."""

    __slots__ = ("op", "n", "const", "pairs", "arity")

    def __init__(self, op: int, n: int, const: Val | None = None,
                 pairs: list[tuple[int, int]] | None = None, arity: int = 0):
        self.op = op
        self.n = n  # register, operator id, builtin id or jump target instruction
        self.const = const  # PUSHCONST
        self.pairs = pairs  # SETVAR lanes (None: the whole register)
        self.arity = arity  # CALL


_ARITY = {b.id: b.arity for b in registry.BUILTINS}
_PACK4 = struct.Struct("<4f")


def decode(instructions: list[Instruction]) -> list[Decoded]:
    out = []
    count = len(instructions)
    consts: dict[bytes, Val] = {}
    pack = _PACK4.pack
    for ins in instructions:
        op = int(ins.op)
        o = ins.operand
        if op == _PUSHCONST:
            data = pack(*o)  # the operand is float32 already: exact, NaN-safe as a key
            v = consts.get(data)
            if v is None:
                v = consts[data] = domain.of_bytes(data)
            out.append(Decoded(op, 0, v))
            continue
        n = operand_number(o[0])
        if op == _PUSHVAR:
            out.append(Decoded(op, n % LIMITS.registers))
        elif op == _SETVAR:
            mask = set_mask_lanes(operand_number(o[1]))
            out.append(Decoded(op, n % LIMITS.registers, pairs=mask))
        elif op == _CALL:
            out.append(Decoded(op, n, arity=_ARITY.get(n, 0)))
        elif op == _JUMP or op == _CONDJUMP:
            out.append(Decoded(op, jump_target(ins, count)))
        else:
            out.append(Decoded(op, n))
    return out


# ----------------------------------------------------------------------------- state
@dataclass
class State:
    stack: tuple[Val, ...]
    deep: bool  # entries below the stack's bottom are unknown
    regs: tuple[Val, ...]
    unassigned: int  # bit r: register r may not have been assigned on some path
    never: int  # bit r: register r has not been assigned on any path

    def join(self, other: State) -> State | None:
        """self joined with other; None when that is self (nothing new)."""
        changed = False
        if len(self.stack) == len(other.stack):
            stack = self.stack
            if stack != other.stack:
                stack = tuple(domain.join(a, b) for a, b in zip(stack, other.stack,
                                                                 strict=True))
                changed = stack != self.stack
            deep = self.deep or other.deep
        else:
            k = min(len(self.stack), len(other.stack))
            mine = self.stack[len(self.stack) - k:]
            theirs = other.stack[len(other.stack) - k:]
            stack = tuple(domain.join(a, b) for a, b in zip(mine, theirs, strict=True))
            deep = True
            changed = True
        changed |= deep != self.deep
        regs = self.regs
        theirs = other.regs
        if regs != theirs:
            # Most registers are equal: find the others at C speed, join only those.
            new = list(regs)
            for r in compress(range(len(regs)), map(ne, regs, theirs)):
                joined = domain.join(regs[r], theirs[r])
                if joined != regs[r]:
                    new[r] = joined
                    changed = True
            regs = tuple(new)
        unassigned = self.unassigned | other.unassigned
        never = self.never & other.never
        changed |= unassigned != self.unassigned or never != self.never
        return State(stack, deep, regs, unassigned, never) if changed else None


def merge_state(states: dict, key: object, out: State) -> bool:
    """Stores `out` at `key` in a worklist's states, joined with what is there; False when
    that adds nothing (the key need not run again)."""
    got = states.get(key)
    if got is None:
        states[key] = out
        return True
    new = got.join(out)
    if new is None:
        return False
    states[key] = new
    return True


class Seen:
    """What the recording pass saw at one instruction, joined over every context."""

    __slots__ = ("inputs", "unassigned", "always_unassigned", "outcomes")

    def __init__(self, inputs: tuple[Val, ...], unassigned: bool = False,
                 always_unassigned: bool = False, outcomes: int = 0):
        self.inputs = inputs  # the values the instruction pops (PUSHVAR: the register)
        self.unassigned = unassigned  # PUSHVAR: the register may not have been assigned
        self.always_unassigned = always_unassigned  # PUSHVAR: ... and that on every path
        self.outcomes = outcomes  # CONDJUMP: bit 0 fell through, bit 1 jumped

    def merge(self, other: Seen) -> None:
        self.inputs = tuple(domain.join(a, b) for a, b in zip(self.inputs, other.inputs,
                                                               strict=True))
        self.unassigned |= other.unassigned
        self.always_unassigned &= other.always_unassigned
        self.outcomes |= other.outcomes


@dataclass
class Flow:
    code: list[Decoded]
    # per block, its ways out: (next block, or None when the program ends; 1 when the edge
    # is a taken jump, 0 when it falls through). A CONDJUMP's are (fall through, jump).
    edges: list[Edges]
    starts: list[int]  # first instruction of each block (plus the end)
    loops: list[Loop]
    block_of: dict[int, int] = field(default_factory=dict)  # first instruction -> block
    # (block, context, stack depth or -1 for a deep stack) -> state on entry
    states: dict[tuple[int, int, int], State] = field(default_factory=dict)
    seen: dict[int, Seen] = field(default_factory=dict)  # instruction -> what was seen
    final: Val | None = None  # the popped result, None if no path ends
    ends: bool = False
    #: instructions run by the fixed point (every attempt), and the budget they had
    work: int = 0
    budget: int = 0
    #: the outermost loop of the nest that ran out the budget (None: none did); its loops
    #: were then analysed without peeling
    flattened: Loop | None = None
    #: False when the unpeeled attempt ran out too: no states, no checks
    complete: bool = True

    def header_states(self, loop: Loop, first: bool) -> list[State]:
        bit = 1 << loop.index
        return [s for (b, ctx, _), s in self.states.items()
                if b == loop.header and bool(ctx & bit) == first]


def analyse(instructions: list[Instruction], registers: int,
            limit: int | None = None) -> Flow:
    """The fixed point of the program's states; `limit`: the work budget (default
    budget(len(instructions)))."""
    code = decode(instructions)
    starts, edges = basic_blocks(len(code), {k: (d.op == _CONDJUMP, d.n)
                                             for k, d in enumerate(code)
                                             if d.op == _JUMP or d.op == _CONDJUMP})
    loops = loop_nest([tuple(t for t, _ in e if t is not None) for e in edges])
    flow = Flow(code, edges, starts, loops, {k: b for b, k in enumerate(starts[:-1])})
    flow.budget = budget(len(code)) if limit is None else limit
    if not code:
        flow.final, flow.ends = ZERO, True
        return flow
    nblocks = len(edges)
    member = [0] * nblocks  # bit l: block in loop l
    header_of = [-1] * nblocks
    innermost = [-1] * nblocks  # the innermost loop around each block
    for lp in loops:  # outer loops first, so inner ones overwrite
        header_of[lp.header] = lp.index
        for b in lp.members:
            member[b] |= 1 << lp.index
            innermost[b] = lp.index
    keep = [0] * nblocks  # bits a context keeps at each block
    for b in range(nblocks):
        lp, depth = innermost[b], 0
        while lp >= 0 and depth < PEEL_DEPTH:
            keep[b] |= 1 << lp
            parent = loops[lp].parent
            lp, depth = (-1 if parent is None else parent), depth + 1
    nreg = max(registers, 1 + max((d.n for d in code if d.op in (_PUSHVAR, _SETVAR)),
                                  default=-1))
    visits = [0] * nblocks
    try:
        _solve(flow, member, header_of, keep, nreg, visits)
        return flow
    except OutOfBudget:
        pass
    # Flatten the nest where most of the work went: its loops merge every iteration.
    busiest = max(range(nblocks), key=visits.__getitem__)
    lp = innermost[busiest]
    while lp >= 0 and loops[lp].parent is not None:
        lp = loops[lp].parent  # type: ignore[assignment]
    nest = loops[lp] if lp >= 0 else None
    flow.flattened = nest if nest is not None else loops[0] if loops else None
    for b in (nest.members if nest is not None else range(nblocks)):
        keep[b] = 0
    flow.states.clear()
    try:
        _solve(flow, member, header_of, keep, nreg, visits)
    except OutOfBudget:
        flow.states.clear()
        flow.complete = False
    return flow


def _solve(flow: Flow, member: list[int], header_of: list[int], keep: list[int], nreg: int,
           visits: list[int]) -> None:
    """Iterate the states to a fixed point and record what each instruction sees; raise
    OutOfBudget when this attempt runs more than flow.budget instructions."""
    start = State((), False, (ZERO,) * nreg, (1 << nreg) - 1, (1 << nreg) - 1)

    def context(u: int, v: int, ctx: int) -> int:
        ctx &= member[v]  # leaving a loop ends its first iteration
        h = header_of[v]
        if h >= 0:
            bit = 1 << h
            ctx = ctx & ~bit if member[u] & bit else ctx | bit
        return ctx & keep[v]

    starts = flow.starts
    limit = flow.work + flow.budget  # each attempt gets the whole budget
    states = flow.states
    runs: dict[tuple[int, int, int], dict[int, Seen]] = {}
    ends: dict[tuple[int, int, int], Val] = {}
    depths: dict[tuple[int, int], set[int]] = {}  # (block, context) -> stack depths kept
    ctx0 = context(-1, 0, 0) if header_of[0] >= 0 else 0
    key0 = (0, ctx0, 0)
    states[key0] = start
    heap = [key0]
    queued = {key0}
    runs_left = 64  # block runs before the next look at whether the caller gave up
    while heap:
        key = heapq.heappop(heap)
        queued.discard(key)
        b, ctx, _depth = key
        size = starts[b + 1] - starts[b]
        if flow.work + size > limit:
            raise OutOfBudget
        flow.work += size
        visits[b] += 1
        runs_left -= 1
        if not runs_left:
            runs_left = 64
            check_cancelled()
        # What this run sees replaces what the key's earlier runs saw: the last run of a
        # key is the one with its final state.
        runs[key] = rec = {}
        for target, out in run_block(flow, b, states[key], rec):
            if target is None:
                value = out.stack[-1] if out.stack else (TOP if out.deep else ZERO)
                ends[key] = value
                continue
            nctx = context(b, target, ctx)
            # Paths that leave different numbers of values on the stack (a value left in an
            # `if`, W005) are kept apart, so each path's final value stays exact; past a few
            # depths (a loop that leaves a value per iteration) they share one deep state.
            kept = depths.setdefault((target, nctx), set())
            depth = -1 if out.deep else len(out.stack)
            if depth not in kept and len(kept) >= _DEPTHS:
                depth = -1
                out = State(out.stack, True, out.regs, out.unassigned, out.never)
            kept.add(depth)
            nk = (target, nctx, depth)
            if not merge_state(states, nk, out):
                continue
            if nk not in queued:
                queued.add(nk)
                heapq.heappush(heap, nk)
    seen = flow.seen
    for _key, rec in sorted(runs.items()):
        for k, got in rec.items():
            s = seen.get(k)
            if s is None:
                seen[k] = got
            else:
                s.merge(got)
    for value in ends.values():
        flow.final = value if flow.final is None else domain.join(flow.final, value)
        flow.ends = True


def run_block(flow: Flow, b: int, st: State, seen: dict[int, Seen]
              ) -> list[tuple[int | None, State]]:
    """Run block b from state st, noting in `seen` what each instruction pops; the
    successor blocks with their states (None: the end of the program, with the state
    before the result's pop)."""
    code = flow.code
    stack = list(st.stack)
    deep = st.deep
    regs = list(st.regs)
    unassigned = st.unassigned
    never = st.never
    empty = TOP if deep else ZERO
    push = stack.append
    end = flow.starts[b + 1]
    for k in range(flow.starts[b], end):
        d = code[k]
        op = d.op
        if op == _PUSHVAR:
            n = d.n
            v = regs[n]
            seen[k] = Seen((v,), bool(unassigned >> n & 1), bool(never >> n & 1))
            push(v)
        elif op == _PUSHCONST:
            push(d.const)  # type: ignore[arg-type]
        elif op == _BINOP:
            r = stack.pop() if stack else empty
            left = stack.pop() if stack else empty
            seen[k] = Seen((left, r))
            push(domain.binop(d.n, left, r))
        elif op == _CALL:
            args = [stack.pop() if stack else empty for _ in range(d.arity)]
            args.reverse()
            seen[k] = Seen(tuple(args))
            push(domain.call(d.n, args))
        elif op == _SETVAR:
            v = stack.pop() if stack else empty
            n = d.n
            regs[n] = v if d.pairs is None else domain.setvar(regs[n], v, d.pairs)
            unassigned &= ~(1 << n)
            never &= ~(1 << n)
            seen[k] = Seen((v,))
        elif op == _UNOP:
            v = stack.pop() if stack else empty
            seen[k] = Seen((v,))
            push(domain.unop(d.n, v))
        elif op == _JUMP:
            return [(flow.edges[b][0][0], _state(stack, deep, regs, unassigned, never))]
        elif op == _CONDJUMP:
            c = stack.pop() if stack else empty
            after = _state(stack, deep, regs, unassigned, never)
            jumped = domain.jumps(c)
            seen[k] = Seen((c,), outcomes=(1 if jumped is not True else 0)
                           | (2 if jumped is not False else 0))
            (fall, _), (target, _) = flow.edges[b]
            out: list[tuple[int | None, State]] = []
            if jumped is not True:
                out.append((fall, after))
            if jumped is not False:
                out.append((target, after))
            return out
        if len(stack) > LIMITS.stack:  # the ring overwrites its oldest entries
            del stack[0]
            deep = True
            empty = TOP
    return [(flow.edges[b][0][0], _state(stack, deep, regs, unassigned, never))]


def _state(stack: list[Val], deep: bool, regs: list[Val], unassigned: int,
           never: int) -> State:
    return State(tuple(stack), deep, tuple(regs), unassigned, never)
