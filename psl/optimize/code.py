"""The optimizer's working form of a program (docs/spec.md §10.1): parallel lists of opcodes
and operands, jump targets as instruction indices, and the helpers every pass shares
(leaders, successors, stack effects, the expression-tree scan of a block, deletion and
reordering with jump remapping). Lists of ints and 4-tuples only, so the in-world C# port
can keep the same shape in arrays."""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

from psl import registry
from psl.registry import LIMITS, Op

PUSHCONST, PUSHVAR, BINOP, UNOP, CALL, SETVAR, JUMP, CONDJUMP = (
    int(Op.PUSHCONST), int(Op.PUSHVAR), int(Op.BINOP), int(Op.UNOP), int(Op.CALL),
    int(Op.SETVAR), int(Op.JUMP), int(Op.CONDJUMP))
NAN = math.nan
Lanes = tuple[float, float, float, float]


@dataclass
class Code:
    """`ops[k]`, `args[k]` (the four operand lanes; for a jump lane 0 is the target
    *instruction index*, n for the end) and `origin[k]` (the -O0 instruction it comes from,
    for diagnostics; hoisted code gets the first occurrence's)."""

    ops: list[int]
    args: list[Lanes]
    origin: list[int]
    names: dict[int, str] = field(default_factory=dict)  # register -> variable name

    def __len__(self) -> int:
        return len(self.ops)

    def reg(self, k: int) -> int:
        return int(self.args[k][0])

    def mask(self, k: int) -> int:
        m = self.args[k][1]
        return 0 if m != m else int(m)

    def target(self, k: int) -> int:
        return int(self.args[k][0])


def register_count(code: Code) -> int:
    """Highest register named + 1 (the dataflow passes keep one fact per register)."""
    regs = [code.reg(k) for k in range(len(code)) if code.ops[k] in (PUSHVAR, SETVAR)]
    return max(regs) + 1 if regs else 0


def bits(lanes: Lanes) -> bytes:
    """Identity of a constant: its float32 bit patterns (tells -0 from 0, and NaNs apart)."""
    return struct.pack("<4f", *lanes)


def arity(builtin_id: int) -> int:
    b = registry.BUILTIN_BY_ID.get(builtin_id)
    return b.arity if b else 0


def pops(code: Code, k: int) -> int:
    """Values instruction k pops (UNOP pops one and pushes one)."""
    op = code.ops[k]
    if op in (BINOP,):
        return 2
    if op in (UNOP, SETVAR, CONDJUMP):
        return 1
    if op == CALL:
        return arity(code.reg(k))
    return 0


def pushes(code: Code, k: int) -> int:
    op = code.ops[k]
    return 1 if op in (PUSHCONST, PUSHVAR, BINOP, UNOP, CALL) else 0


def is_jump(op: int) -> bool:
    return op == JUMP or op == CONDJUMP


def leaders(code: Code) -> list[bool]:
    """leader[k]: instruction k starts a basic block (0, a jump target, after a jump);
    one entry more for the end."""
    n = len(code)
    lead = [False] * (n + 1)
    lead[0] = True
    for k in range(n):
        if is_jump(code.ops[k]):
            lead[k + 1] = True
            lead[code.target(k)] = True
    return lead


def blocks(code: Code) -> list[tuple[int, int]]:
    """Basic blocks as [start, end) in instruction order."""
    lead = leaders(code)
    n = len(code)
    starts = [k for k in range(n) if lead[k]]
    return [(s, starts[i + 1] if i + 1 < len(starts) else n) for i, s in enumerate(starts)]


def successors(code: Code, k: int) -> list[int]:
    """Instructions control may go to after k (n: the program ends)."""
    op = code.ops[k]
    if op == JUMP:
        return [code.target(k)]
    if op == CONDJUMP:
        return [k + 1, code.target(k)]
    return [k + 1]


def block_graph(code: Code) -> tuple[list[tuple[int, int]], list[list[int]], list[list[int]]]:
    """Blocks, and each block's successor and predecessor block numbers (the end is not a
    block)."""
    bl = blocks(code)
    index = {s: i for i, (s, _) in enumerate(bl)}
    succ: list[list[int]] = []
    for _s, e in bl:
        succ.append([index[t] for t in successors(code, e - 1) if t < len(code)])
    pred: list[list[int]] = [[] for _ in bl]
    for i, ss in enumerate(succ):
        for t in ss:
            if i not in pred[t]:
                pred[t].append(i)
    return bl, succ, pred


def stack_depths(code: Code) -> list[set[int]] | None:
    """The stack depths instruction k can be entered with (empty: unreachable), or None
    when the program is outside what the optimizer handles: a pop below the bottom, or a
    depth of LIMITS.stack or more (the ring would wrap; this also bounds the search). Paths
    may reach one instruction with different depths (an `if` without `else` that leaves a
    value): the passes only reason inside a block."""
    n = len(code)
    need = [pops(code, k) for k in range(n)]
    net = [pushes(code, k) - need[k] for k in range(n)]
    succ = [successors(code, k) for k in range(n)]
    depths: list[set[int]] = [set() for _ in range(n + 1)]
    depths[0].add(0)
    todo = [(0, 0)]
    while todo:
        k, d = todo.pop()
        if k >= n:
            continue
        if d < need[k]:
            return None
        d += net[k]
        if d >= LIMITS.stack:
            return None
        for t in succ[k]:
            got = depths[t]
            if d not in got:
                got.add(d)
                todo.append((t, d))
    return depths


@dataclass
class Tree:
    """A value on a block's simulated stack: the contiguous instruction span [start, end]
    that computed it, or start == -1 when it comes from before the block or from code that
    is not one expression tree."""

    start: int
    end: int
    has_var: bool = False  # the span reads a register
    texture: bool = False  # the span calls a builtin that samples a texture


OUTSIDE = Tree(-1, -1, True, True)


def scan_block(code: Code, start: int, end: int, visit) -> list[Tree]:
    """Simulate the stack over one block; `visit(k, operands)` is called for every
    instruction with the Trees it pops (in push order) and returns the Tree it pushes (or
    None to let the scan build it). Returns what the block leaves on its stack."""
    stack: list[Tree] = []
    for k in range(start, end):
        n_pop = pops(code, k)
        operands: list[Tree] = []
        for _ in range(n_pop):
            operands.append(stack.pop() if stack else OUTSIDE)
        operands.reverse()
        made = visit(k, operands)
        if pushes(code, k):
            stack.append(made if made is not None else combine(code, k, operands))
    return stack


_TEXTURE = frozenset(b.id for b in registry.BUILTINS if b.reads_texture)


def combine(code: Code, k: int, operands: list[Tree]) -> Tree:
    """The Tree instruction k pushes given the Trees it popped."""
    op = code.ops[k]
    if op == PUSHCONST:
        return Tree(k, k)
    if op == PUSHVAR:
        return Tree(k, k, has_var=True)
    pos = k
    for t in reversed(operands):  # operands must end exactly where the next one starts
        if t.start < 0 or t.end != pos - 1:
            return OUTSIDE
        pos = t.start
    start = operands[0].start if operands else k
    return Tree(start, k, any(t.has_var for t in operands),
                any(t.texture for t in operands) or (op == CALL and code.reg(k) in _TEXTURE))


def rebuild(code: Code, order: list[int]) -> Code:
    """The instructions `order` (old indices, in their new order; the others are deleted),
    with every jump retargeted: a jump to a deleted instruction goes to the next kept one in
    old order (callers delete only code no kept jump can need)."""
    n = len(code)
    new_at = [-1] * (n + 1)
    for i, k in enumerate(order):
        new_at[k] = i
    new_at[n] = len(order)
    for k in range(n - 1, -1, -1):  # deleted: the next kept instruction in old order
        if new_at[k] == -1:
            new_at[k] = new_at[k + 1]
    ops, args, origin = [], [], []
    for k in order:
        a = code.args[k]
        if is_jump(code.ops[k]):
            a = (float(new_at[code.target(k)]), a[1], a[2], a[3])
        ops.append(code.ops[k])
        args.append(a)
        origin.append(code.origin[k])
    return Code(ops, args, origin, dict(code.names))


def delete(code: Code, dead: set[int]) -> Code:
    return rebuild(code, [k for k in range(len(code)) if k not in dead])
