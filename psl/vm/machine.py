"""The reference VM: runs program slots for every pixel of a frame (SPEC §7).

Pixels are executed in *groups*: all pixels of a group are at the same slot index and have
the same stack pointer, so one numpy operation executes an instruction for all of them.
A CONDJUMP whose condition differs between pixels splits its group in two; groups that meet
at the same slot index with the same stack pointer are merged again. The scheduler always
runs the group with the smallest slot index, so the two halves of an `if` meet at its end.
Grouping only decides how much work one numpy call does; every pixel still follows its own
path exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from psl.bytecode import (
    Instruction,
    expand,
    from_texture,
    read_slots,
    set_mask_lanes,
    steps_memory_ops,
)
from psl.registry import FUSED_BY_OP, FUSED_FIRST_OP, LIMITS, Op
from psl.vm import values
from psl.vm.builtins import Ctx
from psl.vm.calls import arity, call
from psl.vm.inputs import Inputs
from psl.vm.values import F32, V, binop, canon, concat, full, select, unop, zero_nan

STACK = LIMITS.stack
REGISTERS = LIMITS.registers
SLOTS = LIMITS.slots

_PUSHCONST, _PUSHVAR, _BINOP, _UNOP, _CALL, _SETVAR, _JUMP, _CONDJUMP = (
    int(Op.PUSHCONST), int(Op.PUSHVAR), int(Op.BINOP), int(Op.UNOP), int(Op.CALL),
    int(Op.SETVAR), int(Op.JUMP), int(Op.CONDJUMP))
_FUSED_FIRST = FUSED_FIRST_OP


@dataclass
class Stats:
    """Per-pixel execution counts of one frame (definitions: golden/manifest.json)."""

    exec_instructions: np.ndarray  # int [H][W]: loop iterations that executed an instruction
    jumps: np.ndarray  # int [H][W]: taken JUMP + taken CONDJUMP
    hit_jump_limit: np.ndarray  # bool [H][W]: stopped because jumps > max_jumps
    max_stack: int  # deepest stack pointer reached by any pixel
    registers: int  # highest PUSHVAR/SETVAR register + 1 in the program
    groups: int = 0  # how many pixel groups the scheduler ran (a cost measure)
    #: bool [H][W]: stopped because it executed max_steps instructions (the work budget);
    #: None from callers that predate the budget (read as no pixel)
    hit_work_budget: np.ndarray | None = None
    #: int [H][W]: instructions dispatched (a fused instruction once, docs/spec.md §11;
    #: without fused instructions the executed instructions); None from older callers
    dispatched: np.ndarray | None = None
    #: int [H][W]: stack and register memory operations (docs/spec.md §11.4)
    memory_ops: np.ndarray | None = None

    @property
    def spent(self) -> np.ndarray:
        return (np.zeros(self.jumps.shape, bool) if self.hit_work_budget is None
                else self.hit_work_budget)

    def summary(self) -> dict[str, float | int | bool]:
        return {
            "exec_instructions_per_pixel_mean": float(self.exec_instructions.mean()),
            "exec_instructions_per_pixel_max": int(self.exec_instructions.max()),
            "jumps_per_pixel_mean": float(self.jumps.mean()),
            "jumps_per_pixel_max": int(self.jumps.max()),
            "pixels_hit_jump_limit": int(self.hit_jump_limit.sum()),
            "hit_jump_limit": bool(self.hit_jump_limit.any()),
            "pixels_hit_work_budget": int(self.spent.sum()),
            **({} if self.dispatched is None else {
                "dispatched_per_pixel_mean": float(self.dispatched.mean()),
                "dispatched_per_pixel_max": int(self.dispatched.max())}),
            **({} if self.memory_ops is None else {
                "memory_ops_per_pixel_mean": float(self.memory_ops.mean()),
                "memory_ops_per_pixel_max": int(self.memory_ops.max())}),
            "max_stack": int(self.max_stack),
            "registers": int(self.registers),
        }


@dataclass
class Code:
    """Slots decoded once: per slot index, (op, operand data)."""

    ops: list = field(default_factory=list)
    registers: int = 0
    #: per slot index: the stack and register memory operations of the instruction there
    mem: list = field(default_factory=list)


def decode(slots: np.ndarray) -> Code:
    raw = read_slots(slots)
    p = raw.lanes
    rounded: list[int] = raw.numbers.tolist()
    masks: list[int] = raw.masks.tolist()
    # Slots after the last non-zero number all decode to (0, 0); equal constants share one
    # value (values are never modified in place).
    nonzero = np.flatnonzero(raw.numbers[:SLOTS])
    used = int(nonzero[-1]) + 1 if len(nonzero) else 0
    consts: dict[bytes, V] = {}
    code = Code()
    ops = code.ops
    # The loop runs slots 0, 2, 4, ...; an operand slot is run as an instruction only when
    # a jump targets an odd slot. Compiled code never does, so then those are not decoded.
    odd = any(rounded[i] in (_JUMP, _CONDJUMP) and rounded[i + 1] % 2
              for i in range(0, used, 2))
    mem = code.mem

    def plain(op: int, i: int) -> tuple:
        """(op, data) of the plain instruction whose operand is at slot i + 1."""
        n = rounded[i + 1]
        if op == _PUSHCONST:
            lanes = p[i + 1]
            key = lanes.tobytes()
            data = consts.get(key)
            if data is None:
                data = consts[key] = canon(lanes.reshape(4, 1).copy())
        elif op == _PUSHVAR:
            data = n % REGISTERS
        elif op == _SETVAR:
            data = (n % REGISTERS, set_mask_lanes(masks[i + 1]))
        elif op == _CALL:
            data = (n, arity(n))
        else:
            data = n
        return op, data

    for i in range(used):
        if i % 2 and not odd:
            ops.append((0, 0))  # never run
            mem.append(0)
            continue
        op = rounded[i]
        f = FUSED_BY_OP.get(op)
        if f is None:
            op, data = plain(op, i)
            ops.append((op, data))
            mem.append(_memory(op, data))
            continue
        # fused (docs/spec.md §11): its steps, decoded as plain instructions
        fields = [float(x) for x in (*p[i][1:], *p[i + 1])]
        steps = expand(op, fields)
        parts = [_decode_step(step, mask_of=set_mask_lanes, consts=consts) for step in steps]
        tail = parts[-1] if parts[-1][0] in (_JUMP, _CONDJUMP) else None
        body = parts[:-1] if tail is not None else parts
        ops.append((op, (f.weight, body, tail)))
        mem.append(steps_memory_ops(steps))
    ops.extend([(0, 0)] * (SLOTS - used))
    mem.extend([0] * (SLOTS - used))
    # Registers used: highest PUSHVAR/SETVAR register before the first opcode 0, + 1.
    regs = -1
    for i in range(0, SLOTS, 2):
        op, data = code.ops[i]
        if op == 0:
            break
        steps = ([*data[1], *([data[2]] if data[2] else [])] if op >= FUSED_FIRST_OP
                 and op in FUSED_BY_OP else [(op, data)])
        for sop, sdata in steps:
            if sop == _PUSHVAR:
                regs = max(regs, sdata)
            elif sop == _SETVAR:
                regs = max(regs, sdata[0])
    code.registers = regs + 1
    return code


def _memory(op: int, data) -> int:  # noqa: ANN001
    """Stack and register memory operations of a plain instruction (docs/spec.md §11.4;
    bytecode.memory_ops on the decoded form)."""
    if op == _PUSHCONST:
        return 1
    if op == _PUSHVAR:
        return 2
    if op == _BINOP:
        return 3
    if op == _UNOP:
        return 2
    if op == _CALL:
        return data[1] + 1
    if op == _SETVAR:
        return 2 if data[1] is None else 3
    if op == _CONDJUMP:
        return 1
    return 0


def _decode_step(ins: Instruction, mask_of, consts: dict) -> tuple:
    """(op, data) of one step of a fused instruction, as `decode` makes it for a slot."""
    op = int(ins.op)
    o = ins.operand
    n = 0 if o[0] != o[0] else int(round(o[0]))
    if op == _PUSHCONST:
        lanes = np.array(o, F32)
        key = lanes.tobytes()
        data = consts.get(key)
        if data is None:
            data = consts[key] = canon(lanes.reshape(4, 1).copy())
        return op, data
    if op == _PUSHVAR:
        return op, n % REGISTERS
    if op == _SETVAR:
        return op, (n % REGISTERS, mask_of(0))
    if op == _CALL:
        return op, (n, arity(n))
    return op, n


class Group:
    """Pixels at one slot index with one stack pointer, and their state."""

    __slots__ = ("pc", "idx", "regs", "stack", "sp", "ex", "jb", "exbase", "jbase", "jmax",
                 "exmax", "deep", "sv", "mx", "svbase", "mbase")

    def __init__(self, pc: int, idx: np.ndarray, regs: dict, stack: list, sp: int,
                 exbase: np.ndarray, jbase: np.ndarray, deep: int,
                 svbase: np.ndarray | None = None, mbase: np.ndarray | None = None):
        self.pc = pc
        self.idx = idx
        self.regs = regs
        self.stack = stack
        self.sp = sp
        self.ex = 0  # executed instructions since exbase was last brought up to date
        self.jb = 0
        self.exbase = exbase
        self.jbase = jbase
        self.jmax = int(jbase.max()) if len(jbase) else 0
        self.exmax = int(exbase.max()) if len(exbase) else 0  # the busiest pixel's count
        self.deep = deep
        # dispatches saved by fused instructions (executed - dispatched) and memory
        # operations: accumulated in sv and mx, per pixel in svbase and mbase
        self.sv = 0
        self.mx = 0
        self.svbase = np.zeros(len(idx), np.int64) if svbase is None else svbase
        self.mbase = np.zeros(len(idx), np.int64) if mbase is None else mbase

    @property
    def m(self) -> int:
        return len(self.idx)

    def settle(self) -> None:
        if self.ex:
            self.exbase = self.exbase + self.ex
            self.exmax += self.ex
            self.ex = 0
        if self.jb:
            self.jbase = self.jbase + self.jb
            self.jmax += self.jb
            self.jb = 0
        if self.sv:
            self.svbase = self.svbase + self.sv
            self.sv = 0
        if self.mx:
            self.mbase = self.mbase + self.mx
            self.mx = 0

    def subset(self, cols: np.ndarray) -> Group:
        self.settle()
        memo: dict[int, V] = {}

        def sub(v: V | None) -> V | None:
            if v is None:
                return None
            got = memo.get(id(v))
            if got is None:
                got = memo[id(v)] = select(v, cols)
            return got

        return Group(self.pc, self.idx[cols], {r: sub(v) for r, v in self.regs.items()},
                     [sub(v) for v in self.stack], self.sp, self.exbase[cols],
                     self.jbase[cols], self.deep, self.svbase[cols], self.mbase[cols])


def merge(groups: list[Group]) -> Group:
    for g in groups:
        g.settle()
    widths = [g.m for g in groups]
    keys = set().union(*(g.regs for g in groups))
    regs = {r: concat([g.regs.get(r, values.ZERO4) for g in groups], widths) for r in keys}
    stack: list[V | None] = []
    for s in range(STACK):
        col = [g.stack[s] for g in groups]
        if all(v is None for v in col):
            stack.append(None)
        else:
            stack.append(concat([values.ZERO4 if v is None else v for v in col], widths))
    first = groups[0]
    return Group(first.pc, np.concatenate([g.idx for g in groups]), regs, stack, first.sp,
                 np.concatenate([g.exbase for g in groups]),
                 np.concatenate([g.jbase for g in groups]), max(g.deep for g in groups),
                 np.concatenate([g.svbase for g in groups]),
                 np.concatenate([g.mbase for g in groups]))


class Frame:
    """One execution of a program over every pixel of a frame."""

    def __init__(self, code: Code, inputs: Inputs, max_jumps: int,
                 pixels: tuple[np.ndarray, np.ndarray] | None = None,
                 max_steps: int = LIMITS.steps):
        """`pixels`: (u, v) float32 arrays of the pixels to run, instead of every pixel of
        the frame (`psl check --stats` samples a few); results are in that order."""
        self.code = code
        self.inputs = inputs
        self.max_jumps = max_jumps
        self.max_steps = max_steps
        self.u, self.v = inputs.uv_grid() if pixels is None else pixels
        n = len(self.u)
        self.out = np.zeros((4, n), F32)
        self.exec = np.zeros(n, np.int64)
        self.jumps = np.zeros(n, np.int64)
        self.hit = np.zeros(n, bool)
        self.spent = np.zeros(n, bool)  # stopped by the work budget
        self.saved = np.zeros(n, np.int64)  # executed - dispatched (fused instructions)
        self.memory = np.zeros(n, np.int64)  # stack and register memory operations
        self.stop_pc = np.zeros(n, np.int64)  # the slot index each pixel stopped at
        self.width = np.zeros(n, np.int8)  # the result's width before its NaN lanes are zeroed
        self.deep = 0
        self.groups_run = 0
        #: when an int64 array of LIMITS.slots: per slot index, how many pixels executed the
        #: instruction there (bench/bench_sequences.py profiles programs with it)
        self.counts: np.ndarray | None = None

    def run(self) -> None:
        n = len(self.u)
        start = Group(0, np.arange(n), {}, [None] * STACK, 0, np.zeros(n, np.int64),
                      np.zeros(n, np.int64), 0)
        pending = [start]
        with np.errstate(all="ignore"):
            while pending:
                pc = min(g.pc for g in pending)
                here = [g for g in pending if g.pc == pc]
                pending = [g for g in pending if g.pc != pc]
                by_sp: dict[int, list[Group]] = {}
                for g in here:
                    by_sp.setdefault(g.sp, []).append(g)
                groups = [grp[0] if len(grp) == 1 else merge(grp) for grp in by_sp.values()]
                g = groups[0]
                pending.extend(groups[1:])
                limit = min((o.pc for o in pending if o.pc > pc), default=1 << 62)
                self.groups_run += 1
                pending.extend(self.step_group(g, limit))

    def finish(self, g: Group, hit: bool, spent: bool = False) -> None:
        g.settle()
        g.sp -= 1
        v = g.stack[g.sp % STACK]
        if v is None:
            res = np.zeros((4, 1), F32)
            self.width[g.idx] = 4
        else:
            raw = full(v)
            res = zero_nan(raw)
            self.width[g.idx] = np.count_nonzero(raw == raw, axis=0)
        self.out[:, g.idx] = res
        self.exec[g.idx] = g.exbase
        self.saved[g.idx] = g.svbase
        self.memory[g.idx] = g.mbase
        self.jumps[g.idx] = g.jbase
        self.hit[g.idx] = hit
        self.spent[g.idx] = spent
        self.stop_pc[g.idx] = g.pc
        self.deep = max(self.deep, g.deep)

    def _jumped(self, g: Group) -> list[Group] | None:
        """After a taken jump: retire pixels past the jump limit. Returns the groups
        left to run when some pixels stopped, None when all keep going."""
        if g.jmax + g.jb <= self.max_jumps:
            return None
        g.settle()
        over = g.jbase > self.max_jumps
        if over.all():
            self.finish(g, True)
            return []
        stop = g.subset(np.flatnonzero(over))
        self.finish(stop, True)
        return [g.subset(np.flatnonzero(~over))]

    def _spent(self, g: Group, weight: int = 1) -> list[Group]:
        """Before an instruction that counts as `weight` (a fused one as the instructions
        it replaces, §11), when g's busiest pixel would exceed the work budget: retire the
        pixels that would (§7.2); returns the group of the others."""
        g.settle()
        over = g.exbase + weight > self.max_steps
        if over.all():
            self.finish(g, False, True)
            return []
        stop = g.subset(np.flatnonzero(over))
        self.finish(stop, False, True)
        return [g.subset(np.flatnonzero(~over))]

    @staticmethod
    def _park(g: Group, pc: int, sp: int, ex: int, mx: int, deep: int) -> int:
        """Hand step_group's locals to g before anything reads it (a finish, a split, the
        budget): where it stopped and what it counted since the last hand-over. Returns 0,
        the counts the loop goes on from."""
        g.pc, g.sp = pc, sp
        g.ex += ex
        g.mx += mx
        g.deep = max(g.deep, deep)
        return 0

    def step_group(self, g: Group, limit: int) -> list[Group]:
        """Run g until it reaches `limit` (another group's slot index), splits or ends.
        Returns the groups still running."""
        ops = self.code.ops
        ctx = Ctx(self.u[g.idx], self.v[g.idx], self.inputs)
        stack = g.stack
        regs = g.regs
        sp = g.sp
        pc = g.pc
        ex = 0
        deep = g.deep
        zero = values.ZERO4
        # instructions this call may run before its busiest pixel reaches the budget
        room = self.max_steps - g.exmax - g.ex
        counts = self.counts
        m = g.m
        mem = self.code.mem
        mx = 0
        try:
            while True:
                if pc >= SLOTS:  # the slot loop ends (`i < LIMITS.slots`)
                    ex = mx = self._park(g, pc, sp, ex, mx, deep)
                    self.finish(g, False)
                    return []
                if pc >= limit:
                    g.pc, g.sp = pc, sp
                    return [g]
                if ex >= room:
                    ex = mx = self._park(g, pc, sp, ex, mx, deep)
                    return self._spent(g)
                op, data = ops[pc]
                if op == 0:
                    ex = mx = self._park(g, pc, sp, ex, mx, deep)
                    self.finish(g, False)
                    return []
                if counts is not None:
                    counts[pc] += m
                mx += mem[pc]
                if op >= _FUSED_FIRST and op in FUSED_BY_OP:
                    # a fused instruction (§11): its steps in order, in one dispatch; it
                    # counts as the instructions it replaces
                    weight, body, tail = data
                    if ex + weight > room:
                        mx -= mem[pc]
                        if counts is not None:
                            counts[pc] -= m
                        ex = mx = self._park(g, pc, sp, ex, mx, deep)
                        return self._spent(g, weight)
                    for sop, sdata in body:
                        sp = _step(sop, sdata, stack, sp, regs, ctx)
                        if sp > deep:
                            deep = sp
                    ex += weight - 1
                    g.sv += weight - 1
                    if tail is None:
                        ex += 1
                        pc += 2
                        continue
                    op, data = tail
                ex += 1
                if op == _PUSHCONST:
                    stack[sp % STACK] = data
                    sp += 1
                elif op == _PUSHVAR:
                    stack[sp % STACK] = regs.get(data, zero)
                    sp += 1
                elif op == _BINOP:
                    sp -= 1
                    r = stack[sp % STACK] or zero
                    sp -= 1
                    l_ = stack[sp % STACK] or zero
                    stack[sp % STACK] = binop(data, l_, r)
                    sp += 1
                elif op == _UNOP:
                    s = (sp - 1) % STACK
                    stack[s] = unop(data, stack[s] or zero)
                elif op == _CALL:
                    bid, n_args = data
                    args = []
                    for _ in range(n_args):
                        sp -= 1
                        args.append(stack[sp % STACK] or zero)
                    args.reverse()
                    stack[sp % STACK] = call(bid, args, ctx)
                    sp += 1
                elif op == _SETVAR:
                    reg, lanes = data
                    sp -= 1
                    v = stack[sp % STACK] or zero
                    if lanes is None:
                        regs[reg] = v
                    else:
                        regs[reg] = _assign_lanes(regs.get(reg, zero), v, lanes)
                elif op == _JUMP or op == _CONDJUMP:
                    if op == _CONDJUMP:
                        sp -= 1
                        z = (stack[sp % STACK] or zero).a[0] == 0  # NaN does not jump
                        if z.shape[0] > 1 and z.any() and not z.all():  # the group splits
                            ex = mx = self._park(g, pc, sp, ex, mx, deep)
                            taken = g.subset(np.flatnonzero(z))
                            stay = g.subset(np.flatnonzero(~z))
                            taken.pc = data
                            taken.jb += 1
                            stay.pc = pc + 2
                            out = [stay]
                            rest = self._jumped(taken)
                            out.extend([taken] if rest is None else rest)
                            return out
                        if not bool(z[0]):
                            pc += 2
                            continue
                    # a jump, or a conditional jump every pixel of the group takes
                    g.jb += 1
                    pc = data
                    ex = mx = self._park(g, pc, sp, ex, mx, deep)
                    rest = self._jumped(g)
                    if rest is not None:
                        return rest
                    room = self.max_steps - g.exmax - g.ex
                    continue
                # unknown opcodes do nothing
                if sp > deep:
                    deep = sp
                pc += 2
        finally:
            g.ex += ex
            g.mx += mx
            g.deep = max(g.deep, deep)


def _step(op: int, data, stack: list, sp: int, regs: dict, ctx: Ctx) -> int:  # noqa: ANN001
    """One step of a fused instruction that is not a jump, exactly as the loop of
    `Frame.step_group` runs that instruction; returns the new stack pointer."""
    zero = values.ZERO4
    if op == _PUSHCONST:
        stack[sp % STACK] = data
        return sp + 1
    if op == _PUSHVAR:
        stack[sp % STACK] = regs.get(data, zero)
        return sp + 1
    if op == _BINOP:
        r = stack[(sp - 1) % STACK] or zero
        l_ = stack[(sp - 2) % STACK] or zero
        stack[(sp - 2) % STACK] = binop(data, l_, r)
        return sp - 1
    if op == _UNOP:
        s = (sp - 1) % STACK
        stack[s] = unop(data, stack[s] or zero)
        return sp
    if op == _CALL:
        bid, n_args = data
        args = [stack[(sp - n_args + k) % STACK] or zero for k in range(n_args)]
        sp -= n_args
        stack[sp % STACK] = call(bid, args, ctx)
        return sp + 1
    if op == _SETVAR:
        reg, lanes = data
        sp -= 1
        v = stack[sp % STACK] or zero
        regs[reg] = v if lanes is None else _assign_lanes(regs.get(reg, zero), v, lanes)
        return sp
    return sp  # unknown opcodes do nothing


def _assign_lanes(cur: V, v: V, lanes: list[tuple[int, int]]) -> V:
    """SETVAR with a swizzle mask: no broadcast, the source is masked to zero first."""
    src = zero_nan(full(v))
    dst = full(cur)
    width = max(src.shape[1], dst.shape[1])
    out = np.array(np.broadcast_to(dst, (4, width)), F32)
    for k, d in lanes:
        out[d] = src[k]
    return canon(out)


#: Bytes of registers one tile of pixels may hold: `execute` runs a frame in tiles so
#: that a program with many variables at a large size stays in bounded memory.
TILE_BYTES = 96 << 20


def tile_pixels(registers: int) -> int:
    """Pixels per tile: registers and stack of a pixel are 16 bytes a value."""
    return max(4096, TILE_BYTES // (16 * (registers + 48)))


def execute(slots: np.ndarray, inputs: Inputs, max_jumps: int = LIMITS.jumps,
            code: Code | None = None,
            on_tile: Callable[[int], None] | None = None,
            tile: int | None = None, max_steps: int = LIMITS.steps
            ) -> tuple[np.ndarray, Stats]:
    """Run a program (float32 slots [n][4]) for every pixel, a tile of pixels at a time
    (each pixel runs alone, so tiles change nothing but the memory held at once).

    Returns the colours as float32 [H][W][4] (row 0 = smallest v) and the statistics;
    `on_tile(pixels)` is called after each tile with the pixels it ran; `tile` caps the
    pixels per tile (smaller tiles: more frequent progress).
    """
    code = code or decode(slots)
    h, w = inputs.height, inputs.width
    n = h * w
    u, v = inputs.uv_grid()
    out = np.empty((n, 4), F32)
    exec_ = np.empty(n, np.int64)
    jumps = np.empty(n, np.int64)
    hit = np.empty(n, bool)
    spent = np.empty(n, bool)
    saved = np.empty(n, np.int64)
    memory = np.empty(n, np.int64)
    deep = groups = 0
    step = min(tile_pixels(code.registers), tile or n)
    for a in range(0, n, step):
        b = min(n, a + step)
        frame = Frame(code, inputs, max_jumps, pixels=(u[a:b], v[a:b]), max_steps=max_steps)
        frame.run()
        out[a:b] = frame.out.T
        exec_[a:b], jumps[a:b], hit[a:b] = frame.exec, frame.jumps, frame.hit
        spent[a:b] = frame.spent
        saved[a:b], memory[a:b] = frame.saved, frame.memory
        deep, groups = max(deep, frame.deep), groups + frame.groups_run
        del frame
        if on_tile is not None:
            on_tile(b - a)
    img = out.reshape(h, w, 4)
    stats = Stats(exec_.reshape(h, w), jumps.reshape(h, w), hit.reshape(h, w), deep,
                  code.registers, groups, spent.reshape(h, w),
                  (exec_ - saved).reshape(h, w), memory.reshape(h, w))
    return img, stats


def execute_texture(texels: np.ndarray, inputs: Inputs, max_jumps: int = LIMITS.jumps,
                    max_steps: int = LIMITS.steps) -> tuple[np.ndarray, Stats]:
    """Run a program given as the program texture the world uploads (float32
    [height][width][4], `bytecode.to_texture`), read as the shader reads it."""
    return execute(from_texture(texels), inputs, max_jumps, max_steps=max_steps)
