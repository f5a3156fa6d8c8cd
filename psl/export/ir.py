"""The typed IR of `psl export`, built from the compiled program and its width inference.

The VM's operand stack disappears: every basic block is entered with one static stack
depth, so each stack entry becomes a typed temporary and each register becomes one typed
variable per width it holds (`r3_2` is register 3 while it is a float2). A value must have
exactly one NaN pattern where it is used, and that pattern must leave its first w lanes
numbers and the rest the sentinel (a float, float2, float3 or float4); anything else is
rejected with its position instead of being guessed (SPEC §4, §7).

NaN made by arithmetic on numbers (`sqrt(-1)`, `0/0`) is not typed: the VM cannot tell it
from a sentinel and changes the value's width at run time. Operations that can make one
are marked `check`; the written code tests their results and runs the pixel again on the
exact path (psl/export/exact.py) when one holds a NaN (docs/export.md).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from psl import registry
from psl.compiler import CompileResult
from psl.diagnostics import Span
from psl.infer import NAN_CONSTANT, BlockCopy, Decoded, Flow, block_copies, domain
from psl.infer.domain import TOP, Val
from psl.registry import LIMITS, Op

_PUSHCONST, _PUSHVAR, _BINOP, _UNOP, _CALL, _SETVAR, _JUMP, _CONDJUMP = (
    int(Op.PUSHCONST), int(Op.PUSHVAR), int(Op.BINOP), int(Op.UNOP), int(Op.CALL),
    int(Op.SETVAR), int(Op.JUMP), int(Op.CONDJUMP))
_SWIZZLE = registry.SWIZZLE.id
_BINOP_SYMBOL = {o.id: o.symbol for o in registry.BINARY_OPERATORS}
_UNOP_SYMBOL = {o.code: o.symbol for o in registry.UNARY_OPERATORS}
_F32 = struct.Struct("<4f")


class ExportError(ValueError):
    """A program that cannot be exported without changing what it computes."""

    def __init__(self, reason: str, span: Span | None = None) -> None:
        self.reason = reason
        self.span = span
        self.index: int | None = None  # the instruction, while only that is known
        where = f"{span.line}:{span.column}: " if span is not None else ""
        super().__init__(f"{where}cannot export: {reason}")


# ------------------------------------------------------------------------------ IR
@dataclass(frozen=True)
class Ref:
    """A typed variable or temporary."""

    name: str
    width: int


@dataclass(frozen=True)
class Lit:
    """A constant: its first `width` float32 lanes."""

    lanes: tuple[float, ...]

    @property
    def width(self) -> int:
        return len(self.lanes)


Operand = Ref | Lit


@dataclass(frozen=True)
class Binary:
    symbol: str
    left: Operand
    right: Operand
    width: int  # of the result


@dataclass(frozen=True)
class Unary:
    symbol: str
    value: Operand
    width: int


@dataclass(frozen=True)
class Call:
    builtin: registry.Builtin
    args: tuple[Operand, ...]
    padded_to: int  # 0: no padding; else the width every argument is cast to first
    width: int  # of the result: the first `width` lanes of the builtin's float4


@dataclass(frozen=True)
class Pick:
    """A swizzle with a constant pick: lane k of the result is lane picks[k] of the value,
    or 0 when picks[k] is -1 (a lane past the value's width reads the masked 0)."""

    value: Operand
    picks: tuple[int, ...]

    @property
    def width(self) -> int:
        return len(self.picks)


@dataclass(frozen=True)
class Lanes:
    """A masked assignment: lane j of the result is `value` lane picks[j] (-1: 0) where
    written, else lane j of `current` (a register variable, None for never assigned)."""

    current: Ref | None
    value: Operand
    sources: tuple[int | None, ...]  # per result lane: the value's lane, -1 (0), None (keep)

    @property
    def width(self) -> int:
        return len(self.sources)


Expr = Operand | Binary | Unary | Call | Pick | Lanes


@dataclass(frozen=True)
class Assign:
    target: Ref
    expr: Expr
    declare: bool  # a new temporary (declared here) rather than a variable
    k: int = -1  # the instruction it comes from
    # the operation can make a NaN from numbers (registry keeps_numbers): the code checks
    # the result and hands the pixel to the exact path (psl/export/exact.py) if it did
    check: bool = False


@dataclass(frozen=True)
class Jump:
    """Go to `target` (None: the program ends). `counted`: a taken VM jump, which counts
    against the jump budget; `top` is the stack's top then (the result if cut off)."""

    target: int | None
    counted: bool
    top: Operand | None
    moves: tuple[tuple[Ref, Operand], ...] = ()  # stack entries into the target's slots


@dataclass(frozen=True)
class Branch:
    """CONDJUMP: to `taken` when cond.x == 0, else fall through to `fall`."""

    cond: Operand
    fall: Jump
    taken: Jump


@dataclass
class Block:
    index: int
    entry: tuple[Ref, ...]  # the stack slots it is entered with
    body: list[Assign]
    end: Jump | Branch
    preds: int = 0
    code: range = range(0)  # the instructions it runs


@dataclass
class Program:
    blocks: dict[int, Block]  # reachable blocks by index; 0 is the entry
    registers: list[Ref]  # every register variable (initialised to zero)
    slots: list[Ref]  # every stack-slot variable
    result_width: int
    builtins: set[str] = field(default_factory=set)  # names of the builtins called
    counted_jumps: bool = False  # whether any jump can be taken
    source: CompileResult | None = None  # what it was built from (for the exact path)

    @property
    def checked(self) -> bool:
        """Whether any result is checked for a NaN, so the exact path is needed."""
        return any(a.check for b in self.blocks.values() for a in b.body)

    @property
    def uses_self(self) -> bool:
        return "self" in self.builtins

    @property
    def uses_audiolink(self) -> bool:
        return any(registry.BUILTIN_BY_NAME[n].extension for n in self.builtins)


# ------------------------------------------------------------------ re-running blocks
@dataclass
class _Seen:
    """Joined over every state a block is entered with: what instruction k pops, the
    register it reads or updates, and what it pushes."""

    inputs: list[Val]
    register: Val | None = None
    output: Val | None = None

    def merge(self, inputs: list[Val], register: Val | None, output: Val | None) -> None:
        self.inputs = [domain.join(a, b) for a, b in zip(self.inputs, inputs, strict=True)]
        if register is not None:
            self.register = register if self.register is None else domain.join(
                self.register, register)
        if output is not None:
            self.output = output if self.output is None else domain.join(self.output, output)


def _merge_steps(flow: Flow, copy: BlockCopy, seen: dict[int, _Seen]) -> None:
    """Joins one entry's steps into `seen` (instruction -> what it pops, reads, pushes);
    ExportError where the copy cannot be written typed."""
    start = flow.starts[copy.block]
    for i, step in enumerate(copy.steps):
        got = seen.get(start + i)
        if got is None:
            seen[start + i] = _Seen(list(step.inputs), step.register, step.output)
        else:
            got.merge(list(step.inputs), step.register, step.output)
        if step.depth >= LIMITS.stack:
            raise ExportError(f"needs {step.depth} stack entries; the VM's ring of "
                              f"{LIMITS.stack} would overwrite its oldest ones")
    if copy.problem is not None:
        exc = ExportError(copy.problem)
        if copy.problem == NAN_CONSTANT:
            exc.index = copy.problem_at  # the operation's own position, not its block's
        raise exc


# ------------------------------------------------------------------------ building
def leading_width(pattern_set: int) -> int | None:
    """w when the set is the one pattern of a float{w} (lanes >= w the sentinel)."""
    pats = domain.patterns(pattern_set)
    if len(pats) != 1:
        return None
    p = pats[0]
    for w in range(1, 5):
        if p == domain.high(w):
            return w
    return None


@dataclass
class _Builder:
    result: CompileResult
    flow: Flow
    seen: dict[tuple, dict[int, _Seen]]  # (block, depth) -> instruction -> seen
    entry: dict[tuple, tuple[Val, ...]]  # (block, depth) -> entry stack
    ids: dict[tuple, int]  # (block, depth) -> the block's number in the output
    names: dict[int, str]
    spans: list[Span | None]
    temps: int = 0
    # split by widths (psl.infer.block_copies): (block copy, target block) -> the target's copy
    succ: dict[tuple[tuple, int], tuple] | None = None
    current: tuple = ()
    registers: set[tuple[int, int]] = field(default_factory=set)
    slots: set[tuple[int, int]] = field(default_factory=set)
    builtins: set[str] = field(default_factory=set)
    counted: bool = False

    def span(self, k: int) -> Span | None:
        return self.spans[k] if 0 <= k < len(self.spans) else None

    def width(self, v: Val, k: int, what: str) -> int:
        w = leading_width(v[0])
        if w is None:
            ws = domain.width_set(v)
            if len(domain.patterns(v[0])) > 1:
                detail = f"can be {domain.describe(ws)} here (it depends on the path taken)"
                if len(ws) == 1:
                    detail = (f"is {domain.describe(ws)} with NaN lanes that differ between "
                              f"paths")
            else:
                detail = ("has a NaN lane below a number lane (a masked assignment past "
                          "its width)" if ws != {0} else "has no lanes (all NaN)")
            raise ExportError(f"{what} {detail}; exported code needs one width per point",
                              self.span(k))
        return w

    def temp(self, width: int) -> Ref:
        self.temps += 1
        return Ref(f"t{self.temps}", width)

    def reg(self, n: int, width: int) -> Ref:
        self.registers.add((n, width))
        return Ref(f"r{n}_{width}", width)

    def slot(self, i: int, width: int) -> Ref:
        self.slots.add((i, width))
        return Ref(f"s{i}_{width}", width)

    def var_name(self, n: int) -> str:
        return f"variable `{self.names.get(n, f'r{n}')}`"

    def block(self, key: tuple) -> Block:
        self.current = key
        flow = self.flow
        code = flow.code
        b = key[0]
        seen = self.seen[key]
        entry = tuple(self.slot(i, self.width(v, flow.starts[b], f"stack entry {i}"))
                      for i, v in enumerate(self.entry[key]))
        stack: list[Operand] = list(entry)
        body: list[Assign] = []
        end: Jump | Branch | None = None
        last = flow.starts[b + 1] - 1
        for k in range(flow.starts[b], last + 1):
            d: Decoded = code[k]
            s = seen[k]
            op = d.op
            if op == _PUSHCONST:
                stack.append(self.constant(s.output, k))
            elif op == _PUSHVAR:
                w = self.width(s.output, k, self.var_name(d.n))  # type: ignore[arg-type]
                t = self.temp(w)
                body.append(Assign(t, self.reg(d.n, w), True, k))
                stack.append(t)
            elif op in (_BINOP, _UNOP, _CALL):
                n_in = len(s.inputs)
                args = stack[len(stack) - n_in:]
                del stack[len(stack) - n_in:]
                expr = self.operation(d, args, s, k)
                t = self.temp(expr.width)
                body.append(Assign(t, expr, True, k, _can_make_nan(d)))
                stack.append(t)
            elif op == _SETVAR:
                value = stack.pop()
                if d.pairs is None:
                    body.append(Assign(self.reg(d.n, value.width), value, False, k))
                else:
                    body.append(self.masked(d, value, s, k))
            elif op == _JUMP:
                self.counted = True
                end = self.jump(d.n, True, stack, k)
            elif op == _CONDJUMP:
                cond = stack.pop()
                got = self.flow.seen.get(k)
                outcomes = got.outcomes if got is not None else 3
                fall = self.jump(k + 1, False, stack, k)
                if outcomes & 2:
                    self.counted = True
                    taken = self.jump(d.n, True, stack, k)
                    end = taken if outcomes == 2 else Branch(cond, fall, taken)
                else:
                    end = fall
        if end is None:
            end = self.jump(last + 1, False, stack, last)
        return Block(self.ids[key], entry, body, end, code=range(flow.starts[b], last + 1))

    def jump(self, target_k: int, counted: bool, stack: list[Operand], k: int) -> Jump:
        top = stack[-1] if stack else None
        if target_k >= len(self.flow.code):
            return Jump(None, counted, top)
        key: tuple = (self.flow.block_of[target_k], len(stack))
        if self.succ is not None:
            key = self.succ.get((self.current, key[0]), ())
        if key not in self.entry:
            return Jump(None, counted, top)  # never taken (inference), kept total
        want = self.entry[key]
        t = self.ids[key]
        moves = []
        for i, (v, have) in enumerate(zip(want, stack, strict=True)):
            slot = self.slot(i, self.width(v, k, f"stack entry {i}"))
            if slot.width != have.width:
                raise ExportError(f"stack entry {i} is {domain.describe(frozenset({have.width}))}"
                                  f" on one path and {domain.describe(frozenset({slot.width}))}"
                                  " on another", self.span(k))
            if slot != have:
                moves.append((slot, have))
        return Jump(t, counted, top, tuple(moves))

    def constant(self, v: Val | None, k: int) -> Lit:
        assert v is not None and v[1] is not None
        w = self.width(v, k, "the constant")
        return Lit(domain.lanes(v)[:w])

    def operation(self, d: Decoded, args: list[Operand], s: _Seen, k: int) -> Expr:
        assert s.output is not None
        for v, a in zip(s.inputs, args, strict=True):
            if leading_width(v[0]) != a.width and not (
                    d.op == _CALL and d.n == _SWIZZLE and a is args[-1]):
                self.width(v, k, "an operand")
        if d.op == _BINOP:
            sym = _BINOP_SYMBOL.get(d.n)
            if sym is None:
                raise ExportError(f"unknown operator id {d.n}", self.span(k))
            return Binary(sym, args[0], args[1], self.width(s.output, k, "the result"))
        if d.op == _UNOP:
            sym = _UNOP_SYMBOL.get(d.n, "+")  # other codes leave the value (SPEC §7)
            return Unary(sym, args[0], self.width(s.output, k, "the result"))
        b = registry.BUILTIN_BY_ID.get(d.n)
        if b is None:
            return Lit((0.0, 0.0, 0.0, 0.0))  # an id not in the table gives zeros
        self.builtins.add(b.name)
        if b.id == _SWIZZLE:
            pick = domain.swizzle_pick(s.inputs[1])
            if pick is None:
                raise ExportError("a swizzle whose lanes are not constant", self.span(k))
            src = args[0]
            width = self.width(s.output, k, "the swizzle")
            picks = tuple(p - 1 if 1 <= p <= 4 and p - 1 < src.width else -1
                          for p in pick[:width])
            return Pick(src, picks)
        pad = max((a.width for a in args), default=0) if b.pad else 0
        return Call(b, tuple(args), pad, self.width(s.output, k, f"the result of {b.name}"))

    def masked(self, d: Decoded, value: Operand, s: _Seen, k: int) -> Assign:
        cur_val = s.register
        assert cur_val is not None and d.pairs is not None
        cur_w = self.width(cur_val, k, self.var_name(d.n))
        # register variables start at zero, so the current one is valid even unassigned
        current = self.reg(d.n, cur_w)
        new_val = domain.setvar((cur_val[0], None), (s.inputs[0][0], None), d.pairs)
        new_w = self.width(new_val, k, f"{self.var_name(d.n)} after the assignment")
        sources: list[int | None] = [None] * new_w
        for src_lane, dst in d.pairs:
            if dst < new_w:
                sources[dst] = src_lane if src_lane < value.width else -1
        return Assign(self.reg(d.n, new_w), Lanes(current, value, tuple(sources)), False, k)


def _can_make_nan(d: Decoded) -> bool:
    if d.op == _BINOP:
        o = registry.BINOP_BY_ID.get(d.n)
        return o is not None and not o.keeps_numbers
    if d.op == _CALL:
        b = registry.BUILTIN_BY_ID.get(d.n)
        return b is not None and not b.keeps_numbers
    return False  # unary minus, not and plus give numbers for numbers


def build(result: CompileResult) -> Program:
    """The typed IR of a compiled program (compile_source with inference)."""
    try:
        return _build(result, False)
    except ExportError as exc:
        if "depends on the path" not in exc.reason and "on one path" not in exc.reason:
            raise
        try:
            return _build(result, True)
        except ExportError:
            raise exc from None


def _build(result: CompileResult, split: bool) -> Program:
    program = result.program
    inference = result.inference
    if program is None or inference is None:
        raise ExportError("the program has errors or its widths could not be inferred")
    flow = inference.flow
    if not flow.complete:
        raise ExportError("the width inference ran out of its work budget (N003)")
    if not flow.code:
        return Program({0: Block(0, (), [], Jump(None, False, None))}, [], [], 4,
                       source=result)
    spans = list(inference.spans)
    seen: dict[tuple, dict[int, _Seen]] = {}
    entry: dict[tuple, tuple[Val, ...]] = {}
    # A block reached with several stack depths (a value left in an `if`, W005) is written
    # once per depth, so each copy has a static stack; with `split`, once per width too.
    copies = block_copies(flow, split)
    if copies is None:
        raise ExportError("too many copies when split by widths")
    for copy in copies.entries:
        key, st, b = copy.key, copy.state, copy.block
        depth = -1 if st.deep else len(st.stack)
        if depth < 0 or st.deep:
            raise ExportError("paths reach one point with ever more values on the stack "
                              "(a value left in a loop block)",
                              spans[flow.starts[b]] if flow.starts[b] < len(spans) else None)
        got = entry.get(key)
        entry[key] = st.stack if got is None else tuple(
            domain.join(x, y) for x, y in zip(got, st.stack, strict=True))
        try:
            _merge_steps(flow, copy, seen.setdefault(key, {}))
        except ExportError as exc:
            at = flow.starts[b] if exc.index is None else exc.index
            raise ExportError(exc.reason, spans[at] if at < len(spans) else None) from None
    ids = {key: i for i, key in enumerate(sorted(entry))}
    builder = _Builder(result, flow, seen, entry, ids, dict(program.variables), spans,
                       succ=copies.succ)
    blocks = {ids[key]: builder.block(key) for key in sorted(entry)}
    for blk in blocks.values():
        ends = [blk.end] if isinstance(blk.end, Jump) else [blk.end.fall, blk.end.taken]
        for j in ends:
            if j.target is not None:
                blocks[j.target].preds += 1
    final = flow.final if flow.final is not None else TOP
    result_width = leading_width(final[0]) or 4
    registers = [Ref(f"r{n}_{w}", w) for n, w in sorted(builder.registers)]
    slots = [Ref(f"s{i}_{w}", w) for i, w in sorted(builder.slots)]
    return Program(blocks, registers, slots, result_width, builder.builtins, builder.counted,
                   result)


def f32(x: float) -> float:
    """x rounded to float32 (literals are written from float32 lanes)."""
    return _F32.unpack(_F32.pack(x, 0, 0, 0))[0]
