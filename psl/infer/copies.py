"""The widths at every instruction of each copy of a block, for code that is written typed
(psl export): one call, `block_copies`, over a finished fixed point.

The fixed point (psl/infer/flow.py) joins what reaches an instruction over every path. A
writer of typed code needs more: the state each block is entered with, kept apart by stack
depth (a block reached with a value left in an `if`, W005, is one copy per depth) or, with
`split`, by the widths of the stack and of every live register too (a variable that is a
float3 on one path and a float4 on another: one copy per width, each typed), and what each
instruction of each copy pops, reads and pushes.
"""

from __future__ import annotations

from dataclasses import dataclass

from psl import registry
from psl.infer import domain
from psl.infer.domain import Val
from psl.infer.flow import Flow, State, merge_state, run_block
from psl.registry import Op

_PUSHCONST, _PUSHVAR, _BINOP, _UNOP, _CALL, _SETVAR, _CONDJUMP = (
    int(Op.PUSHCONST), int(Op.PUSHVAR), int(Op.BINOP), int(Op.UNOP), int(Op.CALL),
    int(Op.SETVAR), int(Op.CONDJUMP))
_SWIZZLE = registry.SWIZZLE.id
#: copies of the program's blocks that splitting by widths may make (per block, on average)
SPLIT_LIMIT = 4

#: Why a copy's instructions stop before the block's end (BlockCopy.problem).
UNDERFLOW = "pops a value that is not on the stack"
NAN_CONSTANT = "a constant expression computes NaN, which the VM takes for a missing lane"


@dataclass(frozen=True)
class Step:
    """One instruction run from one entry state: what it pops (in stack order), the
    register it reads (PUSHVAR) or updates (SETVAR, the value before), what it pushes, and
    the stack's size after it."""

    inputs: tuple[Val, ...]
    register: Val | None
    output: Val | None
    depth: int


@dataclass(frozen=True)
class BlockCopy:
    """A block entered with one state: `steps[i]` is instruction flow.starts[block] + i.
    The steps end early at `problem` (UNDERFLOW, NAN_CONSTANT), which instruction
    `problem_at` has."""

    key: tuple  # (block, stack depth), or the split key; key[0] is the block
    state: State
    steps: tuple[Step, ...]
    problem: str | None = None
    problem_at: int | None = None

    @property
    def block(self) -> int:
        return self.key[0]


@dataclass(frozen=True)
class BlockCopies:
    """Every entry state of every copy, in the order of their keys (a key has one entry
    per context the fixed point kept apart: join them), and, with `split`, the copy each
    edge goes to: (copy key, target block) -> the target's copy key."""

    entries: tuple[BlockCopy, ...]
    succ: dict[tuple[tuple, int], tuple] | None = None


def block_copies(flow: Flow, split: bool = False) -> BlockCopies | None:
    """The copies of flow's blocks with their instructions' values (see the module); None
    when `split` would make too many copies or a state has lost its stack's bottom."""
    if not split:
        # the fixed point's states, keyed by (block, stack depth)
        states = [((b, depth), st) for (b, _ctx, depth), st in sorted(flow.states.items())]
        return BlockCopies(tuple(_replay(flow, key, st) for key, st in states))
    got = _split(flow)
    if got is None:
        return None
    split_states, succ = got
    return BlockCopies(tuple(_replay(flow, key, st) for key, st in sorted(split_states.items())),
                       succ)


def _replay(flow: Flow, key: tuple, st: State) -> BlockCopy:
    """Block key[0] run from st, instruction by instruction."""
    code = flow.code
    stack = list(st.stack)
    regs = list(st.regs)
    steps: list[Step] = []
    for k in range(flow.starts[key[0]], flow.starts[key[0] + 1]):
        d = code[k]
        op = d.op
        inputs: list[Val] = []
        register = None
        out: Val | None = None
        if op == _PUSHCONST:
            out = d.const
        elif op == _PUSHVAR:
            out = register = regs[d.n]
        elif op in (_BINOP, _UNOP, _CALL, _SETVAR, _CONDJUMP):
            count = {_BINOP: 2, _CALL: d.arity}.get(op, 1)
            if len(stack) < count:
                return BlockCopy(key, st, tuple(steps), UNDERFLOW, k)
            inputs = stack[len(stack) - count:]
            del stack[len(stack) - count:]
            if op == _BINOP:
                out = domain.binop(d.n, inputs[0], inputs[1])
            elif op == _UNOP:
                out = domain.unop(d.n, inputs[0])
            elif op == _CALL:
                out = domain.call(d.n, inputs)
            if out is not None and out[1] is not None and op != _SETVAR:
                # A constant folded to NaN in a lane the operation's widths give a number
                # (0/0, asin(5)): the VM takes it for a sentinel, so the width would differ.
                bare = [(v[0], None) for v in inputs]
                if op == _CALL and d.n == _SWIZZLE:
                    bare[1] = inputs[1]
                shape = (domain.binop(d.n, *bare) if op == _BINOP else
                         domain.unop(d.n, bare[0]) if op == _UNOP else domain.call(d.n, bare))
                if out[0] != shape[0]:
                    return BlockCopy(key, st, tuple(steps), NAN_CONSTANT, k)
            if op == _SETVAR:
                register = regs[d.n]
                regs[d.n] = inputs[0] if d.pairs is None else domain.setvar(
                    regs[d.n], inputs[0], d.pairs)
        if out is not None:
            stack.append(out)
        steps.append(Step(tuple(inputs), register, out, len(stack)))
    return BlockCopy(key, st, tuple(steps))


def _split(flow: Flow) -> tuple[dict[tuple, State], dict[tuple[tuple, int], tuple]] | None:
    """The program's states kept apart by the widths (NaN patterns) of the stack and of
    every live register (the VM decides at run time; the copies decide by the path taken,
    which is the same). None when the copies would be too many or a state has lost its
    stack's bottom."""
    if not flow.states:
        return None
    nreg = len(next(iter(flow.states.values())).regs)
    init = State((), False, (domain.ZERO,) * nreg, (1 << nreg) - 1, (1 << nreg) - 1)

    live = _live(flow)

    def key(b: int, st: State) -> tuple:
        # registers that are dead here (written before any read) do not split the block
        return (b, len(st.stack), tuple(v[0] for v in st.stack),
                tuple(v[0] if live[b] >> n & 1 else -1 for n, v in enumerate(st.regs)))

    states: dict[tuple, State] = {key(0, init): init}
    succ: dict[tuple[tuple, int], tuple] = {}
    work = [key(0, init)]
    limit = SPLIT_LIMIT * len(flow.edges) + 64
    while work:
        k = work.pop()
        if states[k].deep:
            return None
        for target, out in run_block(flow, k[0], states[k], {}):
            if target is None:
                continue
            nk = key(target, out)
            succ[(k, target)] = nk
            if not merge_state(states, nk, out):
                continue
            if len(states) > limit:
                return None
            if nk not in work:
                work.append(nk)
    return states, succ


def _live(flow: Flow) -> list[int]:
    """Per block, the registers (bits) that may be read before they are written."""
    code = flow.code
    nb = len(flow.edges)
    use = [0] * nb
    defs = [0] * nb
    for b in range(nb):
        u = d = 0
        for k in range(flow.starts[b], flow.starts[b + 1]):
            ins = code[k]
            bit = 1 << ins.n
            if ins.op == _PUSHVAR or (ins.op == _SETVAR and ins.pairs is not None):
                if not d & bit:
                    u |= bit  # a masked assignment reads the lanes it keeps
            elif ins.op == _SETVAR:
                d |= bit
        use[b], defs[b] = u, d
    live = [0] * nb
    changed = True
    while changed:
        changed = False
        for b in reversed(range(nb)):
            out = 0
            for t, _ in flow.edges[b]:
                if t is not None:
                    out |= live[t]
            new = use[b] | (out & ~defs[b])
            if new != live[b]:
                live[b] = new
                changed = True
    return live
