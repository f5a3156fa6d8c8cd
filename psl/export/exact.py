"""The exact path of an exported program: its bytecode written straight as float4 code with
the VM's own semantics (SPEC §7), for the pixels where the typed code cannot follow.

The typed code keeps each value's inferred width. The VM takes a NaN that arithmetic makes
(`0/0`, `sqrt(-1)`, `inf - inf`) for a missing lane and changes the value's width at run
time (SPEC §4). So the typed code checks the result of every operation that can make a NaN
from numbers (registry `keeps_numbers`); when one does, the pixel starts again here. This
copy has no stack and no dispatch on opcodes, but every value is a float4 with sentinel
lanes and every operation goes through the VM's helpers (templates/hlsl/_ops.hlsl.j2), so
it computes exactly what the VM computes. (GLSL output embeds the WebGL VM itself instead,
templates/export/_exact.glsl.j2: WebGL compilers took minutes over this written-out form.)

Every block is written once per stack depth it can be entered with, found from the code
alone (both ways of every CONDJUMP), not from the inference, which may have proven a path
impossible that a computed NaN takes. Stack entries are then plain variables. Where the
code alone allows ever deeper stacks (a value left in a loop on a path the inference
proved impossible), the stack is the VM's ring of 128 entries instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from psl import registry
from psl.compiler import CompileResult
from psl.export.text import dispatch, has_exact_path, work_budget_binds
from psl.registry import LIMITS, Op

_PUSHCONST, _PUSHVAR, _BINOP, _UNOP, _CALL, _SETVAR, _JUMP, _CONDJUMP = (
    int(Op.PUSHCONST), int(Op.PUSHVAR), int(Op.BINOP), int(Op.UNOP), int(Op.CALL),
    int(Op.SETVAR), int(Op.JUMP), int(Op.CONDJUMP))
LANE = "xyzw"


class ExactLanguage(Protocol):
    float4: str
    uint_suffix: str
    loop_attr: str

    def lit(self, x: float) -> str: ...

    def exact_call(self, builtin_id: int, arity: int, raws: list[str]) -> str: ...

    def index(self, expr: str) -> str: ...

    def exact_builtin(self, b: registry.Builtin) -> list[str]: ...


class _Unbounded(Exception):
    """The code alone does not bound the stack: the exact path uses the VM's ring."""


@dataclass
class _Walk:
    """The (block, stack depth) pairs reachable in the code, each with its case number
    (depth 0 for every block when `ring`: the stack is then the VM's ring)."""

    keys: dict[tuple[int, int], int] = field(default_factory=dict)
    registers: set[int] = field(default_factory=set)
    depth: int = 0  # the most stack entries any point holds
    ring: bool = False


def _pops_pushes(d) -> tuple[int, int]:
    op = d.op
    if op in (_PUSHCONST, _PUSHVAR):
        return 0, 1
    if op == _BINOP:
        return 2, 1
    if op == _UNOP:
        return 1, 1
    if op == _CALL:
        return d.arity, 1
    if op in (_SETVAR, _CONDJUMP):
        return 1, 0
    return 0, 0


def walk(result: CompileResult) -> _Walk:
    try:
        return _walk(result, False)
    except _Unbounded:
        return _walk(result, True)


def _walk(result: CompileResult, ring: bool) -> _Walk:
    flow = result.inference.flow  # type: ignore[union-attr]
    code = flow.code
    out = _Walk(ring=ring)
    todo = [(0, 0)] if code else []
    while todo:
        key = todo.pop()
        if key in out.keys:
            continue
        out.keys[key] = len(out.keys)
        b, depth = key
        for k in range(flow.starts[b], flow.starts[b + 1]):
            d = code[k]
            if d.op in (_PUSHVAR, _SETVAR):
                out.registers.add(d.n)
            if ring:
                continue
            pops, pushes = _pops_pushes(d)
            if depth < pops:
                raise _Unbounded  # pops below the bottom: the ring's old entries
            depth += pushes - pops
            out.depth = max(out.depth, depth)
            if depth >= LIMITS.stack:
                raise _Unbounded
        for target, _taken in flow.edges[b]:
            if target is not None:
                todo.append((target, depth))
    return out


class _Slots:
    """The stack as variables x0, x1, ...: the depth at every point is known."""

    def __init__(self, writer: ExactWriter, depth: int) -> None:
        self.w = writer
        self.depth = depth

    def pop(self, pad: str) -> str:
        self.depth -= 1
        return f"x{self.depth}"

    def push(self, pad: str, expr: str) -> None:
        self.w.emit(pad, f"x{self.depth} = {expr};")
        self.depth += 1

    def key(self, target: int) -> tuple[int, int]:
        return target, self.depth

    def top(self) -> str | None:
        return f"x{self.depth - 1}" if self.depth else None


class _Ring:
    """The stack as the VM's ring of LIMITS.stack entries with a wrapping pointer."""

    def __init__(self, writer: ExactWriter) -> None:
        self.w = writer
        self.temps = 0

    def at(self, sp: str) -> str:
        return f"psl_stk[{self.w.lang.index(f'({sp}) % {LIMITS.stack}u')}]"

    def pop(self, pad: str) -> str:
        self.temps += 1
        name = f"p{self.temps}"
        self.w.emit(pad, "psl_sp -= 1u;")
        self.w.emit(pad, f"{self.w.lang.float4} {name} = {self.at('psl_sp')};")
        return name

    def push(self, pad: str, expr: str) -> None:
        self.w.emit(pad, f"{self.at('psl_sp')} = {expr};")
        self.w.emit(pad, "psl_sp += 1u;")

    def key(self, target: int) -> tuple[int, int]:
        return target, 0

    def top(self) -> str | None:
        return self.at("psl_sp - 1u")  # the final pop reads this entry (SPEC §7)


@dataclass
class ExactWriter:
    lang: ExactLanguage
    result: CompileResult
    max_jumps: int | None
    lines: list[str] = field(default_factory=list)
    #: the work budget, when it can stop a pixel of this program (work_budget_binds)
    max_steps: int | None = None

    def emit(self, pad: str, line: str) -> None:
        self.lines.append(pad + line)

    def vec(self, lanes: np.ndarray) -> str:
        parts = ["psl_S" if math.isnan(x) else self.lang.lit(float(x)) for x in lanes]
        return f"{self.lang.float4}({', '.join(parts)})"

    def zero(self) -> str:
        return f"{self.lang.float4}(0.0, 0.0, 0.0, 0.0)"

    def end(self, pad: str, stack: _Slots | _Ring) -> None:
        top = stack.top()
        self.emit(pad, f"psl_result = {f'psl_zero_nan({top})' if top else self.zero()};")
        self.emit(pad, "psl_block = -1;")
        self.emit(pad, "break;")

    def go(self, pad: str, target: int | None, stack: _Slots | _Ring, counted: bool) -> None:
        u = self.lang.uint_suffix
        if counted and self.max_jumps is not None:
            self.emit(pad, f"psl_jumps += 1{u};")
            self.emit(pad, f"if (psl_jumps > {self.max_jumps}{u})")
            self.emit(pad, "{")
            self.end(pad + "    ", stack)
            self.emit(pad, "}")
        if target is None:
            self.end(pad, stack)
            return
        self.emit(pad, f"psl_block = {self.keys[stack.key(target)]};")
        self.emit(pad, "break;")

    def block(self, b: int, stack: _Slots | _Ring, pad: str) -> None:
        flow = self.result.inference.flow  # type: ignore[union-attr]
        lang = self.lang
        u = lang.uint_suffix
        last = flow.starts[b + 1] - 1
        for k in range(flow.starts[b], last + 1):
            d = flow.code[k]
            op = d.op
            if self.max_steps is not None:  # SPEC §7.2: stop before the (budget + 1)th
                top = stack.top()
                result = f"psl_zero_nan({top})" if top else self.zero()
                self.emit(pad, f"if (psl_steps >= {self.max_steps}{u}) {{ psl_result = "
                               f"{result}; psl_block = -1; break; }} psl_steps += 1{u};")
            if op == _PUSHCONST:
                stack.push(pad, self.vec(self.slots[2 * k + 1]))
            elif op == _PUSHVAR:
                stack.push(pad, f"R{d.n}")
            elif op == _BINOP:
                r = stack.pop(pad)
                left = stack.pop(pad)
                stack.push(pad, f"psl_apply_binop({d.n}{u}, {left}, {r})")
            elif op == _UNOP:
                stack.push(pad, f"psl_apply_unop({d.n}{u}, {stack.pop(pad)})")
            elif op == _CALL:
                a = d.arity
                raws = [stack.pop(pad) for _ in range(a)][::-1] + [self.zero()] * (4 - a)
                stack.push(pad, lang.exact_call(d.n, a, raws))
            elif op == _SETVAR:
                v = stack.pop(pad)
                if d.pairs is None:
                    self.emit(pad, f"R{d.n} = {v};")
                elif d.pairs:
                    self.emit(pad, "{")
                    self.emit(pad, f"    {lang.float4} src = psl_zero_nan({v});")
                    for src, dst in d.pairs:
                        self.emit(pad, f"    R{d.n}.{LANE[dst]} = src.{LANE[src]};")
                    self.emit(pad, "}")
            elif op == _JUMP:
                self.go(pad, self.target(d.n), stack, True)
                return
            elif op == _CONDJUMP:
                c = stack.pop(pad)
                self.emit(pad, f"if (!psl_truthy({c}.x))")
                self.emit(pad, "{")
                self.go(pad + "    ", self.target(d.n), stack, True)
                self.emit(pad, "}")
                self.go(pad, self.target(k + 1), stack, False)
                return
        self.go(pad, self.target(last + 1), stack, False)

    def target(self, k: int) -> int | None:
        flow = self.result.inference.flow  # type: ignore[union-attr]
        return flow.block_of[k] if k < len(flow.code) else None

    def body(self) -> list[str]:
        found = walk(self.result)
        self.keys = found.keys
        self.slots = self.result.program.slots()  # type: ignore[union-attr]
        lang = self.lang
        pad = "    "
        zero = self.zero()
        for n in sorted(found.registers):
            self.emit(pad, f"{lang.float4} R{n} = {zero};")
        for i in range(found.depth):
            self.emit(pad, f"{lang.float4} x{i} = {zero};")
        if found.ring:
            self.emit(pad, f"{lang.float4} psl_stk[{LIMITS.stack}];")
            self.emit(pad, f"for (int s = 0; s < {LIMITS.stack}; s++) psl_stk[s] = {zero};")
            self.emit(pad, f"uint psl_sp = 0{lang.uint_suffix};")
        self.emit(pad, f"{lang.float4} psl_result = {zero};")
        if self.max_jumps is not None:
            self.emit(pad, f"uint psl_jumps = 0{lang.uint_suffix};")
        if work_budget_binds(self.result.program, self.max_jumps):  # type: ignore[arg-type]
            self.max_steps = LIMITS.steps
            self.emit(pad, f"uint psl_steps = 0{lang.uint_suffix};")
        if not found.keys:  # an empty program pops the empty stack: zeros
            self.emit(pad, "return psl_result;")
            return self.lines

        def write(b: int, depth: int) -> Callable[[str], None]:
            return lambda inner: self.block(b, _Ring(self) if found.ring
                                            else _Slots(self, depth), inner)

        dispatch(self.emit, lang.loop_attr, pad,
                 ((case, write(b, depth)) for (b, depth), case
                  in sorted(found.keys.items(), key=lambda kv: kv[1])))
        self.emit(pad, "return psl_result;")
        return self.lines


def exact_builtins(program) -> list[registry.Builtin]:
    """The builtins the exact path of an IR Program calls, in id order."""
    result = program.source
    if result is None or result.inference is None:
        return []
    ids = {d.n for d in result.inference.flow.code if d.op == _CALL}
    return [registry.BUILTIN_BY_ID[i] for i in sorted(ids) if i in registry.BUILTIN_BY_ID]


def write_exact(lang: ExactLanguage, result: CompileResult, max_jumps: int | None
                ) -> list[str]:
    """The statements of a function body that returns what the VM outputs (psl_S and
    psl_uv set by the caller)."""
    return ExactWriter(lang, result, max_jumps).body()


def exact_parts(lang: ExactLanguage, program, options) -> tuple[list[str], list[str]]:
    """(the exact path's body, its builtin functions) for an IR Program, both [] when no
    result is checked or options leave the path out."""
    if not (has_exact_path(program, options) and program.source is not None):
        return [], []
    helpers: list[str] = []
    for b in exact_builtins(program):
        helpers += lang.exact_builtin(b)
    return write_exact(lang, program.source, options.max_jumps), helpers
