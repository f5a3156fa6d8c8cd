"""Writing the typed IR as C-like shader code; HLSL and GLSL differ only in the hooks of
`Language` (type names, constructors, the builtin expressions they reuse), which take
their spelling from the target's dialect (psl.dialect).

Control flow: straight-line code per block inside `while (block >= 0) switch (block)`.
A block entered from one place only is written inline there, so most programs become a
few cases. Every taken jump counts against the budget exactly where the VM counts it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from psl.bytecode import Program as BytecodeProgram
from psl.dialect.literals import float_literal, infinity
from psl.export.ir import (
    Assign,
    Binary,
    Block,
    Call,
    Jump,
    Lanes,
    Lit,
    Operand,
    Pick,
    Program,
    Ref,
    Unary,
)
from psl.registry import LIMITS, Op

LANE = "xyzw"
_ARITH = {"+", "-", "*", "/"}
ARG_NAMES = "abcd"


@dataclass
class Options:
    name: str = "psl_program"
    max_jumps: int | None = LIMITS.jumps  # None: no jump counter
    # tests only: call psl_trace(float4) on every computed value, psl_trace_exact() when
    # the pixel takes the exact path
    trace: bool = False
    # check results that can be a NaN made by arithmetic, and run such pixels again on the
    # exact path (psl/export/exact.py); off: smaller code that keeps the static widths
    exact: bool = False
    # with `exact`: hand pixels that may reach the VM's work budget (SPEC §7.2) to the exact
    # path, which counts every instruction (off where a target leaves the exact path out)
    budget: bool = True

    def exact_name(self) -> str:
        return f"{self.name}_exact"


class Language:
    """The hooks a back end provides."""

    float4 = "float4"
    as_float = "asfloat"  # reinterprets uint bits as a float
    # the function slider(k) calls for a k that is not a constant (psl/export/sliders.py)
    slider_reader = "psl_slider"
    loop_attr = ""
    uint_suffix = "u"

    def vec(self, w: int) -> str:
        return "float" if w == 1 else f"float{w}"

    def lit(self, x: float) -> str:
        return float_literal(x, self.as_float)

    def inf(self, negative: bool) -> str:
        return infinity(self.as_float, negative)

    def arguments(self, call: Call, args: list[str]) -> list[str]:
        """Declarations of a builtin's float4 arguments `a`.. and their widths `da`.., the
        names the dialects' builtin formulas (psl.dialect.*.formulas) read."""
        return ([f"{self.float4} {ARG_NAMES[i]} = {a};" for i, a in enumerate(args)]
                + [f"uint d{ARG_NAMES[i]} = {a.width}u;" for i, a in enumerate(call.args)])

    def construct(self, w: int, parts: list[str]) -> str:
        return parts[0] if w == 1 else f"{self.vec(w)}({', '.join(parts)})"

    def builtin(self, call: Call, args: list[str], target: str, width: int) -> list[str]:
        """Lines computing `target` (already declared) from the float4 arguments."""
        raise NotImplementedError

    def compare(self, symbol: str, left: str, right: str) -> tuple[list[str], str]:
        """Declarations and the float4 expression of a comparison or logic operator on the
        float4s `l`, `r`."""
        raise NotImplementedError

    def logical_not(self) -> tuple[list[str], str]:
        raise NotImplementedError

    def zero_nan(self, text: str) -> str:
        return f"psl_zero_nan({text})"


@dataclass
class Writer:
    lang: Language
    program: Program
    options: Options
    lines: list[str] = field(default_factory=list)
    inlined: set[int] = field(default_factory=set)

    # ------------------------------------------------------------------ operands
    def op(self, o: Operand) -> str:
        if isinstance(o, Ref):
            return o.name
        return self.lang.construct(o.width, [self.lang.lit(x) for x in o.lanes])

    def comp(self, o: Operand, j: int) -> str:
        if isinstance(o, Lit):
            return self.lang.lit(o.lanes[j])
        return o.name if o.width == 1 else f"{o.name}.{LANE[j]}"

    def first(self, o: Operand, w: int) -> str:
        """The first w lanes of o (w <= o.width)."""
        if w == o.width:
            return self.op(o)
        if isinstance(o, Lit):
            return self.op(Lit(o.lanes[:w]))
        return f"{o.name}.{LANE[:w]}"

    def pad4(self, o: Operand, to: int = 0, fill: str = "0.0") -> str:
        """o as a float4: a float broadcast into lanes < to (padding), then `fill`."""
        if o.width == 1 and to > 1:
            parts, lanes = [self.comp(o, 0)] * to, to
        elif o.width == 4:
            return self.op(o)
        else:  # a wider value keeps its lanes; the sentinel lanes become `fill`
            parts, lanes = [self.op(o)], o.width
        parts += [fill] * (4 - lanes)
        return f"{self.lang.float4}({', '.join(parts)})"

    # --------------------------------------------------------------- expressions
    def target_name(self, t: Ref) -> str:
        return t.name

    def assign(self, a: Assign, pad: str) -> None:
        t = a.target
        decl = f"{self.lang.vec(t.width)} " if a.declare else ""
        e = a.expr
        if isinstance(e, Ref | Lit):
            self.emit(pad, f"{decl}{self.target_name(t)} = {self.op(e)};")
            return
        if isinstance(e, Binary):
            self.binary(e, t, decl, pad)
        elif isinstance(e, Unary):
            if e.symbol == "!":
                decls, expr = self.lang.logical_not()
                self.block_expr(t, decl, pad, [f"{self.lang.float4} v = {self.pad4(e.value)};",
                                               *decls], expr)
            elif e.symbol == "-":
                self.emit(pad, f"{decl}{self.target_name(t)} = -{self.op(e.value)};")
            else:
                self.emit(pad, f"{decl}{self.target_name(t)} = {self.op(e.value)};")
        elif isinstance(e, Call):
            if decl:
                self.emit(pad, f"{decl}{self.target_name(t)};")
            args = [self.pad4(a, e.padded_to) for a in e.args]
            self.emit(pad, "{")
            for line in self.lang.builtin(e, args, self.target_name(t), t.width):
                self.emit(pad + "    ", line)
            self.emit(pad, "}")
        elif isinstance(e, Pick):
            self.emit(pad, f"{decl}{self.target_name(t)} = {self.pick(e)};")
        elif isinstance(e, Lanes):
            self.emit(pad, f"{decl}{self.target_name(t)} = {self.lanes(e)};")
        if self.options.trace and a.declare and not isinstance(e, Ref | Lit):
            self.emit(pad, f"psl_trace({self.pad4(t)});")
        if a.check and self.options.exact:
            self.check_exit(self.target_name(t), pad)

    def check_exit(self, name: str, pad: str) -> None:
        """A NaN the VM would take for a missing lane: this pixel needs the exact path."""
        self.emit(pad, f"if (psl_has_nan({name}))")
        self.emit(pad, "{")
        self.emit(pad, "    psl_block = -2;")
        self.emit(pad, "    break;")
        self.emit(pad, "}")

    def block_expr(self, t: Ref, decl: str, pad: str, decls: list[str], expr: str) -> None:
        if decl:
            self.emit(pad, f"{decl}{self.target_name(t)};")
        self.emit(pad, "{")
        for line in decls:
            self.emit(pad + "    ", line)
        self.emit(pad + "    ", f"{self.target_name(t)} = {self.lanes_of(expr, t.width)};")
        self.emit(pad, "}")

    @staticmethod
    def lanes_of(expr: str, w: int) -> str:
        return f"({expr})" if w == 4 else f"({expr}).{LANE[:w]}"

    def binary(self, e: Binary, t: Ref, decl: str, pad: str) -> None:
        lw, rw = e.left.width, e.right.width
        if e.symbol in _ARITH:
            if lw != rw and lw != 1 and rw != 1:  # lanes past the narrower become NaN
                m = min(lw, rw)
                text = f"{self.first(e.left, m)} {e.symbol} {self.first(e.right, m)}"
            else:  # equal widths, or one float broadcast: the languages' own promotion
                text = f"{self.op(e.left)} {e.symbol} {self.op(e.right)}"
            self.emit(pad, f"{decl}{self.target_name(t)} = {text};")
            return
        w = max(lw, rw)
        # Lanes where one side is the sentinel: && and || see NaN as true, as 1.0 is;
        # comparisons with NaN are false (!= true), written as constants below.
        logic = e.symbol in ("&&", "||")
        fill = "1.0" if logic else "0.0"
        if lw == 1 and rw != 1:  # a float is broadcast to the other side's width
            left, right, narrow = self.pad4(e.left, w), self.pad4(e.right), w
        elif rw == 1 and lw != 1:
            left, right, narrow = self.pad4(e.left), self.pad4(e.right, w), w
        else:
            left, right, narrow = self.pad4(e.left, 0, fill), self.pad4(e.right, 0, fill), \
                min(lw, rw)
        decls, expr = self.lang.compare(e.symbol, left, right)
        if logic or narrow == w:
            self.block_expr(t, decl, pad, decls, expr)
            return
        const = "1.0" if e.symbol == "!=" else "0.0"
        if decl:
            self.emit(pad, f"{decl}{self.target_name(t)};")
        self.emit(pad, "{")
        for line in decls:
            self.emit(pad + "    ", line)
        head = self.lanes_of(expr, narrow)
        parts = [head] + [const] * (w - narrow)
        self.emit(pad + "    ", f"{self.target_name(t)} = {self.lang.construct(w, parts)};")
        self.emit(pad, "}")

    def pick(self, e: Pick) -> str:
        src = e.value
        if src.width > 1 and isinstance(src, Ref) and all(p >= 0 for p in e.picks):
            return f"{src.name}.{''.join(LANE[p] for p in e.picks)}"
        parts = [self.comp(src, p) if p >= 0 else "0.0" for p in e.picks]
        return self.lang.construct(e.width, parts)

    def lanes(self, e: Lanes) -> str:
        parts = []
        for j, s in enumerate(e.sources):
            if s is None:
                assert e.current is not None
                parts.append(self.comp(e.current, j))
            elif s < 0:
                parts.append("0.0")
            else:
                parts.append(self.comp(e.value, s))
        return self.lang.construct(e.width, parts)

    # -------------------------------------------------------------- control flow
    def emit(self, pad: str, line: str) -> None:
        self.lines.append(pad + line)

    def result(self, top: Operand | None) -> str:
        if top is None:  # popping the empty stack reads a zero entry (SPEC §7)
            return f"{self.lang.float4}(0.0, 0.0, 0.0, 0.0)"
        return self.lang.zero_nan(self.pad4(top))

    def jump(self, j: Jump, pad: str) -> None:
        limit = self.options.max_jumps
        u = self.lang.uint_suffix
        if j.counted and limit is not None:
            self.emit(pad, f"psl_jumps += 1{u};")
            handover = budget_handover(self.program, self.options)
            if handover is not None:  # the work budget: the exact path counts it
                self.emit(pad, f"if (psl_jumps >= {handover}{u})")
                self.emit(pad, "{")
                self.emit(pad, "    psl_block = -2;")
                self.emit(pad, "    break;")
                self.emit(pad, "}")
            self.emit(pad, f"if (psl_jumps > {limit}{u})")
            self.emit(pad, "{")
            self.emit(pad, f"    psl_result = {self.result(j.top)};")
            self.emit(pad, "    psl_block = -1;")
            self.emit(pad, "    break;")
            self.emit(pad, "}")
        for slot, value in j.moves:
            self.emit(pad, f"{slot.name} = {self.op(value)};")
        if j.target is None:
            self.emit(pad, f"psl_result = {self.result(j.top)};")
            self.emit(pad, "psl_block = -1;")
            self.emit(pad, "break;")
            return
        target = self.program.blocks[j.target]
        if target.preds == 1 and target.index != 0 and target.index not in self.inlined:
            self.inlined.add(target.index)
            self.block(target, pad)
            return
        self.emit(pad, f"psl_block = {j.target};")
        self.emit(pad, "break;")

    def block(self, b: Block, pad: str) -> None:
        for a in b.body:
            self.assign(a, pad)
        end = b.end
        if isinstance(end, Jump):
            self.jump(end, pad)
            return
        self.emit(pad, f"if ({self.comp(end.cond, 0)} == 0.0)")
        self.emit(pad, "{")
        self.jump(end.taken, pad + "    ")
        self.emit(pad, "}")
        self.emit(pad, "else")
        self.emit(pad, "{")
        self.jump(end.fall, pad + "    ")
        self.emit(pad, "}")

    def body(self) -> list[str]:
        """The function body's statements (indented four spaces)."""
        p = self.program
        lang = self.lang
        pad = "    "
        for r in [*p.registers, *p.slots]:
            zeros = lang.construct(r.width, ["0.0"] * r.width)
            self.emit(pad, f"{lang.vec(r.width)} {r.name} = {zeros};")
        self.emit(pad, f"{lang.float4} psl_result = {lang.float4}(0.0, 0.0, 0.0, 0.0);")
        if p.counted_jumps and self.options.max_jumps is not None:
            self.emit(pad, f"uint psl_jumps = 0{lang.uint_suffix};")

        def cases() -> Iterator[tuple[int, Callable[[str], None]]]:
            # blocks written inline are found while writing their predecessors: write in
            # order and skip the ones already written
            for b in sorted(p.blocks):
                blk = p.blocks[b]
                if b in self.inlined or (blk.preds == 1 and b != 0):
                    continue  # written inline where it is entered
                yield b, lambda inner, blk=blk: self.block(blk, inner)

        dispatch(self.emit, lang.loop_attr, pad, cases())
        if has_exact_path(p, self.options):
            self.emit(pad, "if (psl_block == -2)")
            self.emit(pad, "{")
            if self.options.trace:
                self.emit(pad, "    psl_trace_exact();")
            self.emit(pad, f"    return {self.options.exact_name()}(uv);")
            self.emit(pad, "}")
        self.emit(pad, "return psl_result;")
        return self.lines


def has_exact_path(program: Program, options: Options) -> bool:
    """Whether the exported code has the exact path: it checks results for a NaN (asked
    for, and some operation can make one) or the work budget can stop a pixel."""
    return (options.exact and program.checked) or budget_handover(program, options) is not None


def _runs(program: BytecodeProgram) -> tuple[int, int]:
    """(the longest run from the start, the longest run from any jump target): a run is what
    a pixel can execute without a taken jump, up to and including the next JUMP (always
    taken) or the program's end."""
    ins = program.instructions
    n = len(ins)
    jumps = [k for k, i in enumerate(ins) if i.op == Op.JUMP]

    def run(t: int) -> int:
        after = next((k for k in jumps if k >= t), None)
        return (n if after is None else after + 1) - t

    targets = {int(i.operand[0]) // 2 for i in ins if i.op in (Op.JUMP, Op.CONDJUMP)}
    return run(0), max((run(t) for t in targets if t < n), default=0)


def work_budget_binds(program: BytecodeProgram | None, max_jumps: int | None) -> bool:
    """Whether the VM's work budget (SPEC §7.2) can stop a pixel of this program: a pixel
    takes at most max_jumps + 1 jumps, and executes at most one run (see _runs) from the
    start and one after each of them."""
    if program is None or max_jumps is None:
        return False
    loops = any(i.op in (Op.JUMP, Op.CONDJUMP) and i.operand[0] <= 2 * k
                for k, i in enumerate(program.instructions))
    if not loops:  # every instruction runs at most once: fewer than the budget
        return False
    first, most = _runs(program)
    return first + (max_jumps + 1) * most > LIMITS.steps


def budget_handover(program: Program, options: Options, jump_sites: int = 0) -> int | None:
    """The taken-jump count from which typed code hands a pixel to the exact path (None
    when the budget cannot stop a pixel, or the export is not asked to be VM-exact: a
    plain export is a shader for people, whose loops stop at the jump limit only). With j
    jumps counted and up to jump_sites more taken on a straight path before the next count
    is written, a pixel executed at most first + (j + jump_sites) x most instructions and
    runs at most `most` more before its next jump; below the threshold that stays within
    the budget."""
    source = program.source.program if program.source is not None else None
    if not (options.exact and options.budget) or not program.counted_jumps or \
            not work_budget_binds(source, options.max_jumps):
        return None
    first, most = _runs(source)  # type: ignore[arg-type]
    return max(0, (LIMITS.steps - first) // max(1, most) - 1 - jump_sites)


def dispatch(emit: Callable[[str, str], None], loop_attr: str, pad: str,
             cases: Iterable[tuple[int, Callable[[str], None]]]) -> None:
    """The block loop both the typed code and the exact path run: `psl_block` names the
    next case, a negative one ends the loop. Each case is written by its callable, given
    the case body's indentation; cases are written in the order given (a case's writer may
    decide what later ones are)."""
    emit(pad, "int psl_block = 0;")
    emit(pad, f"{loop_attr}while (psl_block >= 0)")
    emit(pad, "{")
    emit(pad, "    switch (psl_block)")
    emit(pad, "    {")
    for case, write in cases:
        emit(pad, f"    case {case}:")
        emit(pad, "    {")
        write(pad + "        ")
        emit(pad, "    }")
    emit(pad, "    default:")
    emit(pad, "        psl_block = -1;")
    emit(pad, "        break;")
    emit(pad, "    }")
    emit(pad, "}")


def write_body(lang: Language, program: Program, options: Options) -> list[str]:
    return Writer(lang, program, options).body()
