"""Expressions: the IR's operands and expressions written inline, nested as in the source,
with the target's own builtins where the widths make them equal to the VM's, else the VM's
code for the builtin as a small helper function (docs/export.md).

Exactness: a temporary is nested into the one expression that uses it (held as `Pending`
until then) only when no variable it reads is written in between (flush_reads); with
`exact`, builtins that can make a NaN keep the VM's own text, so the checks fire exactly
where the VM would see the NaN.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from psl.export.ir import (
    Binary,
    Call,
    Expr,
    Lanes,
    Lit,
    Operand,
    Pick,
    Program,
    Ref,
    Unary,
)
from psl.export.names import fresh_name
from psl.export.sliders import constant_read, parameters
from psl.export.text import LANE, Language, Options, Writer
from psl.export.tidy import precedence

_ARITH_PREC = {"*": 2, "/": 2, "+": 3, "-": 3}
_COMPARE = {"<": "lessThan", ">": "greaterThan", "<=": "lessThanEqual",
            ">=": "greaterThanEqual", "==": "equal", "!=": "notEqual"}


@dataclass(frozen=True)
class Text:
    """An expression written inline: its text, precedence (0 binds tightest) and the
    variables it reads (IR names)."""

    text: str
    prec: int
    reads: frozenset[str] = frozenset()
    # `left op right` whose left is a plain name of the same width: (left, op, right)
    compound: tuple[str, str, str] | None = None


@dataclass
class Pending:
    """A temporary's expression waiting for its one use."""

    text: Text
    width: int
    used: bool = False


def paren(t: Text, limit: int) -> str:
    """t's text as an operand that binds at `limit`: parentheses where it binds looser."""
    return f"({t.text})" if t.prec > limit else t.text


#: A register's IR name: r<variable>_<width>.
REG = re.compile(r"r(\d+)_(\d+)$")



class Expressions(Writer):
    """Writes operands and expressions as nested text; the statement and control-flow
    writers (psl/export/statements.py) build on it."""

    def __init__(self, lang: Language, program: Program, options: Options, glsl: bool) -> None:
        super().__init__(lang, program, options)
        self.glsl = glsl
        self.display: dict[str, str] = {}  # IR name -> output name
        self.taken: set[str] = set()  # output names in use
        self.pending: dict[str, Pending] = {}
        self.uses: dict[str, int] = {}  # IR name -> reads counted so far
        self.temp_count = 0
        self.helpers: dict[tuple, list[str]] = {}  # builtins written as the VM's code
        self.function = False  # a PSL function's body (psl/export/functions.py)
        self.used_regs: set[str] = set()
        self.sliders = parameters(program)  # globals: no variable may take their names

    # ----------------------------------------------------------------- names
    def fresh(self, want: str) -> str:
        """A new output name like `want` (psl.export.names.fresh_name)."""
        return fresh_name(want, self.taken)

    def target_name(self, t: Ref) -> str:
        return self.name(t)

    def name(self, r: Ref) -> str:
        """The output name of a register, a stack slot or a temporary (see display_name);
        main declares those it uses (used_regs)."""
        if REG.match(r.name) or (r.name.startswith("s") and "_" in r.name):
            self.used_regs.add(r.name)
        return self.display_name(r)

    def display_name(self, r: Ref) -> str:
        got = self.display.get(r.name)
        if got is None:  # a temporary made a variable where it is computed
            self.temp_count += 1
            got = self.display[r.name] = self.fresh(f"t{self.temp_count}")
        return got

    # -------------------------------------------------------------- operands
    def text(self, o: Operand) -> Text:
        if isinstance(o, Lit):
            return Text(Writer.op(self, o), 0)
        p = self.pending.get(o.name)
        if p is not None:  # read twice only within one statement: the same value
            p.used = True
            return p.text
        reads = frozenset({o.name}) if o.name in self.display else frozenset()
        return Text(self.name(o), 0, reads)

    def op(self, o: Operand) -> str:
        return self.text(o).text

    def comp(self, o: Operand, j: int) -> str:
        if isinstance(o, Lit):
            return self.lang.lit(o.lanes[j])
        t = self.text(o)
        return t.text if o.width == 1 else f"{paren(t, 0)}.{LANE[j]}"

    def first(self, o: Operand, w: int) -> str:
        return self.first_text(o, w).text

    def first_text(self, o: Operand, w: int) -> Text:
        if w == o.width:
            return self.text(o)
        if isinstance(o, Lit):
            return self.text(Lit(o.lanes[:w]))
        t = self.text(o)
        return Text(f"{paren(t, 0)}.{LANE[:w]}", 0, t.reads)

    def vec_of(self, t: Text, w: int) -> Text:
        """A float broadcast to w lanes where the language does not do it itself."""
        if w == 1:
            return t
        return Text(f"{self.lang.vec(w)}({t.text})", 0, t.reads)


    # ----------------------------------------------------------- expressions
    def inline(self, e: Expr, width: int) -> Text | None:
        """e as one expression, or None where only the VM's block of code computes it."""
        if isinstance(e, Ref | Lit):
            return self.text(e)
        if isinstance(e, Unary):
            if e.symbol == "+":
                return self.text(e.value)
            v = self.text(e.value)
            if e.symbol == "-":
                inner = f"({v.text})" if v.prec > 1 or v.text.startswith("-") else v.text
                return Text(f"-{inner}", 1, v.reads)
            if e.value.width == 1:
                return Text(f"float({v.text} == 0.0)", 0, v.reads)
            zero = self.lang.construct(e.value.width, ["0.0"] * e.value.width)
            if self.glsl:
                return Text(f"{self.lang.vec(width)}(equal({v.text}, {zero}))", 0, v.reads)
            return Text(f"{self.lang.vec(width)}({v.text} == 0.0)", 0, v.reads)
        if isinstance(e, Binary):
            return self.binary_text(e, width)
        if isinstance(e, Pick):
            return self.pick_text(e)
        if isinstance(e, Call):
            return self.call_text(e, width)
        if isinstance(e, Lanes):
            return None
        return None

    def binary_text(self, e: Binary, width: int) -> Text | None:
        lw, rw = e.left.width, e.right.width
        if e.symbol in _ARITH_PREC:
            prec = _ARITH_PREC[e.symbol]
            if lw != rw and lw != 1 and rw != 1:
                m = min(lw, rw)
                left, right = self.first_text(e.left, m), self.first_text(e.right, m)
            else:
                left, right = self.text(e.left), self.text(e.right)
            compound = (left.text, e.symbol, right.text) if (
                left.prec == 0 and lw == width and len(left.reads) == 1) else None
            return Text(f"{paren(left, prec)} {e.symbol} {paren(right, prec - 1)}", prec,
                        left.reads | right.reads, compound)
        if lw != rw and lw != 1 and rw != 1:
            return None  # mixed widths: the VM's lanes, written by the block code
        left, right = self.text(e.left), self.text(e.right)
        reads = left.reads | right.reads
        if e.symbol in ("&&", "||"):
            if width != 1:
                return None
            return Text(f"float({paren(left, 6)} != 0.0 {e.symbol} "
                        f"{paren(right, 6)} != 0.0)", 0, reads)
        if width == 1:
            return Text(f"float({paren(left, 4)} {e.symbol} {paren(right, 4)})", 0, reads)
        if self.glsl:
            if lw == 1:
                left = self.vec_of(left, width)
            if rw == 1:
                right = self.vec_of(right, width)
            return Text(f"{self.lang.vec(width)}({_COMPARE[e.symbol]}({left.text}, "
                        f"{right.text}))", 0, reads)
        return Text(f"{self.lang.vec(width)}({paren(left, 4)} {e.symbol} "
                    f"{paren(right, 4)})", 0, reads)

    def pick_text(self, e: Pick) -> Text:
        src = e.value
        if isinstance(src, Lit):
            return self.text(Lit(tuple(src.lanes[p] if p >= 0 else 0.0 for p in e.picks)))
        t = self.text(src)
        if src.width > 1 and all(p >= 0 for p in e.picks):
            return Text(f"{paren(t, 0)}.{''.join(LANE[p] for p in e.picks)}", 0, t.reads)
        if src.width == 1 and all(p == 0 for p in e.picks):
            return t if e.width == 1 else self.vec_of(t, e.width)
        if t.prec > 0:  # the value is read more than once: give it a name
            return Text(self.lang.construct(e.width, [
                (f"({t.text})" if src.width == 1 else f"({t.text}).{LANE[p]}")
                if p >= 0 else "0.0" for p in e.picks]), 0, t.reads)
        parts = [(t.text if src.width == 1 else f"{t.text}.{LANE[p]}") if p >= 0 else "0.0"
                 for p in e.picks]
        return Text(self.lang.construct(e.width, parts), 0, t.reads)

    def call_text(self, e: Call, width: int) -> Text | None:
        got = None
        b = e.builtin
        if b.name == "slider" and width == 1:
            return self.slider_text(e)
        # with the exact path, a check must see the NaN exactly where the VM does
        if not (self.options.exact and not b.keeps_numbers) and not b.extension:
            got = self.native_text(e, width)
        return got if got is not None else self.helper_text(e, width)

    def slider_text(self, e: Call) -> Text:
        """slider(k): the named parameter for a constant k (0 for an unnamed one), else the
        export's reader (psl/export/sliders.py)."""
        arg = e.args[0]
        if isinstance(arg, Lit):
            return Text(constant_read(self.sliders, arg.lanes[0]) or self.lang.lit(0.0), 0)
        t = self.text(arg)
        x = t.text if arg.width == 1 else f"{paren(t, 0)}.x"
        return Text(f"{self.lang.slider_reader}({x})", 0, t.reads)

    def helper_text(self, e: Call, width: int) -> Text:
        """The VM's own code for a builtin, as a small function of the argument widths
        (written once per program and widths; the VM's float4 result, lanes picked)."""
        b = e.builtin
        widths = tuple(a.width for a in e.args)
        key = (b.name, widths, e.padded_to)
        name = f"psl_vm_{b.name}"
        if key not in self.helpers:
            plain = Writer(self.lang, self.program, self.options)
            refs = [Ref(f"x{i}", w) for i, w in enumerate(widths)]
            call = Call(b, tuple(refs), e.padded_to, 4)
            args = [plain.pad4(r, e.padded_to) for r in refs]
            f4 = self.lang.float4
            params = ", ".join(f"{self.lang.vec(r.width)} {r.name}" for r in refs)
            self.helpers[key] = [f"{f4} {name}({params})", "{", f"    {f4} r;",
                                 *("    " + x for x in self.lang.builtin(call, args, "r", 4)),
                                 "    return r;", "}"]
        texts = [self.text(a) for a in e.args]
        reads = frozenset().union(*(t.reads for t in texts))
        text = f"{name}({', '.join(t.text for t in texts)})"
        return Text(text if width == 4 else f"{text}.{LANE[:width]}", 0, reads)

    def native_text(self, e: Call, width: int) -> Text | None:
        b = e.builtin
        natives = self.natives()
        if b.name in ("float2", "float3", "float4"):
            parts, reads = [], frozenset()
            for a in e.args:
                t = self.text(a)
                reads |= t.reads
                parts.append(t.text if a.width == 1 else f"{paren(t, 0)}.x")
            return Text(f"{self.lang.vec(width)}({', '.join(parts)})", 0, reads)
        if b.arity == 0:
            got = natives.get(b.name)
            if got is None:
                return None
            if self.function:  # the pixel's uv is main's parameter, psl_uv elsewhere
                got = re.sub(r"\buv\b", "psl_uv", got)
            full = {"uv": 2, "xy": 2, "resolution": 2}.get(b.name, 4)
            if width == full:
                return Text(got, precedence(got))
            return Text(f"{paren(Text(got, precedence(got)), 0)}.{LANE[:width]}", 0)
        pattern = natives.get(b.name)
        if pattern is None:
            return None
        widths = [a.width for a in e.args]
        if b.name in ("self", "camera", "video"):  # a texture read at a float2
            if widths != [2] or width != (4 if b.name == "self" else 3):
                return None
            t = self.text(e.args[0])
            arg = t.text if b.name != "video" or t.prec == 0 else f"({t.text})"
            text = pattern.format(arg)
            return Text(text, 0, t.reads)
        if b.name in ("length", "normalize", "dot", "distance", "reflect", "cross"):
            if len(set(widths)) != 1 or widths[0] < 2 or (b.name == "cross" and widths[0] != 3):
                return None
        elif not all(w == width or (b.pad and w == 1) for w in widths):
            return None
        if b.name == "clamp" and not (isinstance(e.args[1], Lit) and isinstance(e.args[2], Lit)
                                      and e.args[1].lanes[0] <= e.args[2].lanes[0]):
            pattern = "min(max({0}, {1}), {2})"
        args = [self.text(a) for a in e.args]
        ok = self.broadcasts(b.name)
        if ok is not None:
            args = [self.vec_of(t, width) if w == 1 and width > 1 and i not in ok else t
                    for i, (t, w) in enumerate(zip(args, widths, strict=True))]
        reads = frozenset().union(*(t.reads for t in args))
        text = pattern.format(*(t.text for t in args))
        return Text(text, precedence(text), reads)

    def broadcasts(self, builtin: str) -> set[int] | None:
        """The argument positions where the target's `builtin` takes a float for a vector;
        None: every position (HLSL). A float elsewhere is written as a vector."""
        if self.glsl:  # GLSL broadcasts a float only in some argument positions
            return {"min": {1}, "max": {1}, "clamp": {1, 2}, "lerp": {2}, "step": {0},
                    "smoothstep": {0, 1}, "mod": {1}}.get(builtin, set())
        return None

    def natives(self) -> dict[str, str]:
        """The target's own builtins as format patterns (psl.dialect: GLSL.natives, ..)."""
        raise NotImplementedError

    # ------------------------------------------------------------ statements
    def flush_reads(self, name: str, pad: str) -> None:
        """Give a name to every nested expression not yet used that reads `name`, before
        `name` is written."""
        for temp, p in list(self.pending.items()):
            if not p.used and name in p.text.reads:
                del self.pending[temp]
                out = self.name(Ref(temp, p.width))
                self.emit(pad, f"{self.lang.vec(p.width)} {out} = {p.text.text};")


    def name_pending(self, pad: str) -> None:
        """Give a name to every nested expression not yet used (before a scope opens)."""
        for temp, p in list(self.pending.items()):
            if not p.used:
                del self.pending[temp]
                out = self.name(Ref(temp, p.width))
                self.emit(pad, f"{self.lang.vec(p.width)} {out} = {p.text.text};")
