"""The typed IR written as code a person could have written: structured `if`/`else` and
`while` instead of a block-dispatch loop, the program's own variable names, expressions
nested as in the source, and the target's own builtins where the widths make them equal
to the VM's (docs/export.md).

Control flow is recovered from the IR's block graph: every loop of PSL code has one
header and one exit (the language has no break), and every branch rejoins at its block's
immediate post-dominator, so `while (true)`, `if`/`else`, `break` and `continue` write
it. A graph of another shape raises `Unstructured` and the caller writes the dispatch
loop (psl/export/text.py) instead.

Exactness: a temporary is nested into the one expression that uses it only when no
variable it reads is written in between; taken jumps are counted as the VM counts them
(several jumps on one straight path are added at once: what is cut off there outputs the
same top of stack), and left out when the graph has no loop and fewer jumps than the
budget; with `exact`, builtins that can make a NaN keep the VM's own text, so the checks
fire exactly where the VM would see the NaN.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from psl.cancel import check_cancelled
from psl.dialect import EXPORT_PARAMETER, GLSL, HLSL
from psl.export.ir import (
    Assign,
    Binary,
    Block,
    Branch,
    Call,
    Expr,
    Jump,
    Lanes,
    Lit,
    Operand,
    Pick,
    Program,
    Ref,
    Unary,
)
from psl.export.names import LANGUAGE_WORDS, RESERVED_PREFIXES
from psl.export.text import (
    LANE,
    Language,
    Options,
    Writer,
    budget_handover,
    has_exact_path,
    write_body,
)
from psl.syntax import ast

_ARITH_PREC = {"*": 2, "/": 2, "+": 3, "-": 3}
_COMPARE = {"<": "lessThan", ">": "greaterThan", "<=": "lessThanEqual",
            ">=": "greaterThanEqual", "==": "equal", "!=": "notEqual"}
_EXIT = -1

_SHADERLAB_BLOCKS = re.compile("CGPROGRAM|ENDCG|CGINCLUDE|HLSLPROGRAM|ENDHLSL|HLSLINCLUDE",
                               re.IGNORECASE)


class _NoCall(Exception):
    """A PSL function's call that its own function cannot hold (it ends the program)."""


class Unstructured(Exception):
    """The block graph has a shape that `while`/`if` cannot write."""


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
class _Pending:
    text: Text
    width: int
    used: bool = False


def _succ(b: Block) -> list[int]:
    ends = [b.end] if isinstance(b.end, Jump) else [b.end.fall, b.end.taken]
    return [_EXIT if j.target is None else j.target for j in ends]


@dataclass
class Graph:
    """Loops and joins of the IR's block graph."""

    program: Program
    succ: dict[int, list[int]] = field(default_factory=dict)
    loops: dict[int, set[int]] = field(default_factory=dict)  # header -> its blocks
    exits: dict[int, int | None] = field(default_factory=dict)  # header -> exit block
    ipdom: dict[int, int | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        blocks = self.program.blocks
        self.succ = {i: _succ(b) for i, b in blocks.items()}
        nodes = sorted(blocks)
        dom = _dominators(nodes, self.succ, 0)
        preds: dict[int, list[int]] = {n: [] for n in nodes}
        for n in nodes:
            for s in self.succ[n]:
                if s != _EXIT:
                    preds[s].append(n)
        for n in nodes:
            for s in self.succ[n]:
                if s == _EXIT or s not in dom.get(n, set()):
                    continue
                body = self.loops.setdefault(s, {s})
                work = [n]
                while work:  # the natural loop of the back edge n -> s
                    m = work.pop()
                    if m not in body:
                        body.add(m)
                        work.extend(preds[m])
        for h, body in self.loops.items():
            outs = {s for m in body for s in self.succ[m] if s not in body}
            if len(outs) > 1:
                raise Unstructured(f"loop at block {h} has several exits")
            self.exits[h] = next(iter(outs)) if outs else None
        # post-dominators; a loop without an exit gets an edge to the end, so that the
        # branches inside it still find where they join
        rsucc = {n: list(self.succ[n]) for n in nodes}
        for h, e in self.exits.items():
            if e is None:
                rsucc[h].append(_EXIT)
        pdom = _postdominators(nodes, rsucc)
        for n in nodes:
            strict = pdom[n] - {n}
            best = None
            for d in strict:
                if len(pdom.get(d, {d})) == len(strict):
                    best = d
            self.ipdom[n] = None if best in (None, _EXIT) else best


def _dominators(nodes: list[int], succ: dict[int, list[int]], entry: int) -> dict[int, set[int]]:
    preds: dict[int, list[int]] = {n: [] for n in nodes}
    for n in nodes:
        for s in succ[n]:
            if s != _EXIT:
                preds[s].append(n)
    every = set(nodes)
    dom = {n: set(every) for n in nodes}
    dom[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for n in nodes:
            if n == entry:
                continue
            ps = [dom[p] for p in preds[n]]
            new = (set.intersection(*ps) if ps else set()) | {n}
            if new != dom[n]:
                dom[n] = new
                changed = True
    return dom


def _postdominators(nodes: list[int], succ: dict[int, list[int]]) -> dict[int, set[int]]:
    every = set(nodes) | {_EXIT}
    pdom: dict[int, set[int]] = {n: set(every) for n in nodes}
    pdom[_EXIT] = {_EXIT}
    changed = True
    while changed:
        changed = False
        for n in reversed(nodes):
            ss = [pdom[s] for s in succ[n]]
            new = (set.intersection(*ss) if ss else set()) | {n}
            if new != pdom[n]:
                pdom[n] = new
                changed = True
    return pdom


def _paren(t: Text, limit: int) -> str:
    """t's text as an operand that binds at `limit`: parentheses where it binds looser."""
    return f"({t.text})" if t.prec > limit else t.text


_REG = re.compile(r"r(\d+)_(\d+)$")


@dataclass
class Calls:
    """What the writers of one program share: where each inlined call of a PSL function
    lies in the code, and the functions written so far."""

    sites: list[tuple]  # per instruction: the calls it was inlined through
    regions: dict[tuple, tuple[int, int]]  # call path -> its first and last instruction
    callee: dict[object, ast.FunDef]  # a call's span -> the function called
    names: dict[str, str]  # PSL function -> its name in the output
    functions: dict[str, list[str]] = field(default_factory=dict)  # output name -> lines
    by_text: dict[str, str] = field(default_factory=dict)  # body -> output name
    jumps: bool = False  # a function counts jumps: the counter is at file scope
    shared: dict[str, int] = field(default_factory=dict)  # registers used by functions
    # and the code around them (IR name -> width): declared at file scope


def _calls(program: Program) -> Calls | None:
    src = program.source
    if src is None or src.inference is None or src.ast is None:
        return None
    sites = list(src.inference.sites)
    regions: dict[tuple, tuple[int, int]] = {}
    for k, site in enumerate(sites):
        for n in range(1, len(site) + 1):
            path = tuple(site[:n])
            got = regions.get(path)
            regions[path] = (k, k) if got is None else (got[0], k)
    defs: dict[str, ast.FunDef] = {}
    callee: dict[object, ast.FunDef] = {}
    work: list[object] = [src.ast.body]
    calls: list[ast.Call] = []
    while work:
        node = work.pop()
        if isinstance(node, ast.FunDef):
            defs[node.name.text] = node
        if isinstance(node, ast.Call):
            calls.append(node)
        work.extend(ast.children(node))
    for c in calls:
        if c.name.text in defs:
            callee[c.name.span] = defs[c.name.text]
    return Calls(sites, regions, callee, {})


class Readable(Writer):
    """Writes the IR as structured code; subclasses of Language pick the spelling."""

    def __init__(self, lang, program: Program, options, glsl: bool,  # noqa: ANN001
                 graph: Graph | None = None, base: Readable | None = None) -> None:
        """`base`: the main writer a PSL function's writer comes from; the facts of the
        whole program (its calls, sizes, first names) are taken from it, not computed again
        (per call site that made the export quadratic in the program)."""
        super().__init__(lang, program, options)
        self.glsl = glsl
        self.graph = graph or Graph(program)
        self.cut_top: Operand | None = None
        self.return_width = 0
        self.decl_inline = False
        self.first_writes: set[str] = set()
        self.display: dict[str, str] = {}
        self.taken: set[str] = set()
        self.pending: dict[str, _Pending] = {}
        self.uses: dict[str, int] = {}
        self.jumps = 0  # taken jumps counted but not yet written
        self.jump_top: Operand | None = None
        self.written_size = 0
        self.total_size = base.total_size if base is not None else sum(
            len(b.body) + 1 for b in program.blocks.values())
        self.temp_count = 0
        self.count_jumps = base is None and options.max_jumps is not None and \
            program.counted_jumps and (
                bool(self.graph.loops) or self._jump_sites() >= options.max_jumps)
        self.calls = base.calls if base is not None else _calls(program)
        self.helpers: dict[tuple, list[str]] = {}  # builtins written as the VM's code
        self.depth = 0
        self.function = False  # a PSL function's body (see call)
        self.stop_block: int | None = None  # where the function's call ends (see call)
        self.stop_k = -1
        self.stopped = False  # a call inside went on at stop_block
        self.stops: dict[int, int] = {}  # the ways out of a function's call -> number
        self.ended = False  # a call inside ended every path (see after_paths)
        self.end_way: int | None = None  # with several ways out: the program's end (-1
        # while unused), and the parameter that takes the program's result
        self.end_param = ""
        self.seq_stop: int | None = None  # where the seq writing now stops
        self.locals: dict[str, str] = {}  # IR register -> name, in a function
        self.declared: set[str] = set()
        self.used_regs: set[str] = set()
        self.local_regs: set[str] = set()
        self.touched: set[str] = set()  # registers a function's body uses from outside
        if base is not None:
            self.display, self.taken = dict(base.first_names[0]), set(base.first_names[1])
            self.first_names = base.first_names
            return
        if self.calls is not None:
            for fn in sorted({f.name.text for f in self.calls.callee.values()}):
                self.calls.names[fn] = self._fresh(fn)
        self._name_variables()
        # the names every writer of this program starts from (a function's writer copies them)
        self.first_names = (dict(self.display), frozenset(self.taken))

    # ----------------------------------------------------------------- names
    def _jump_sites(self) -> int:
        n = 0
        for b in self.program.blocks.values():
            ends = [b.end] if isinstance(b.end, Jump) else [b.end.fall, b.end.taken]
            n += sum(1 for j in ends if j.counted)
        return n

    def _fresh(self, want: str) -> str:
        # GLSL reserves every name with two underscores in a row
        name = re.sub(r"_{2,}", "_", re.sub(r"\W", "_", want))
        if not name or name[0].isdigit() or name.startswith(RESERVED_PREFIXES):
            name = "v_" + name.lstrip("_")  # (gl_x -> v_gl_x: no suffix makes gl_x legal)
        if name == EXPORT_PARAMETER or name in LANGUAGE_WORDS:
            name = f"{name}v" if name.endswith("_") else f"{name}_"
        # ShaderLab ends a CGPROGRAM block at the text ENDCG, wherever it stands
        name = _SHADERLAB_BLOCKS.sub(lambda m: f"{m.group(0)[:3]}x{m.group(0)[3:]}", name)
        base, k = name, 2
        while name in self.taken:
            name = f"{base}{k}"
            k += 1
        self.taken.add(name)
        return name

    def _name_variables(self) -> None:
        src = self.program.source
        variables = dict(src.program.variables) if src is not None and src.program else {}
        widths: dict[int, list[int]] = {}
        for r in self.program.registers:
            n, w = (int(x) for x in r.name[1:].split("_"))
            widths.setdefault(n, []).append(w)
        for n in sorted(widths):
            source = variables.get(n, f"r{n}").replace(".", "_")
            for w in widths[n]:
                want = source if len(widths[n]) == 1 else f"{source}{w}"
                self.display[f"r{n}_{w}"] = self._fresh(want)
        for s in self.program.slots:
            self.display[s.name] = self._fresh(f"stack{s.name[1:].split('_')[0]}")

    def target_name(self, t: Ref) -> str:
        return self.name(t)

    def name(self, r: Ref) -> str:
        if self.function:
            got = self.locals.get(r.name)
            if got is not None:
                return got
            if _REG.match(r.name) or r.name.startswith("s"):
                assert self.calls is not None
                self.calls.shared[r.name] = r.width
                self.touched.add(r.name)
        elif _REG.match(r.name) or (r.name.startswith("s") and "_" in r.name):
            self.used_regs.add(r.name)
        got = self.display.get(r.name)
        if got is None:  # a temporary made a variable where it is computed
            self.temp_count += 1
            got = self.display[r.name] = self._fresh(f"t{self.temp_count}")
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
        return t.text if o.width == 1 else f"{_paren(t, 0)}.{LANE[j]}"

    def first(self, o: Operand, w: int) -> str:
        return self.first_text(o, w).text

    def first_text(self, o: Operand, w: int) -> Text:
        if w == o.width:
            return self.text(o)
        if isinstance(o, Lit):
            return self.text(Lit(o.lanes[:w]))
        t = self.text(o)
        return Text(f"{_paren(t, 0)}.{LANE[:w]}", 0, t.reads)

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
            return Text(f"{_paren(left, prec)} {e.symbol} {_paren(right, prec - 1)}", prec,
                        left.reads | right.reads, compound)
        if lw != rw and lw != 1 and rw != 1:
            return None  # mixed widths: the VM's lanes, written by the block code
        left, right = self.text(e.left), self.text(e.right)
        reads = left.reads | right.reads
        if e.symbol in ("&&", "||"):
            if width != 1:
                return None
            return Text(f"float({_paren(left, 6)} != 0.0 {e.symbol} "
                        f"{_paren(right, 6)} != 0.0)", 0, reads)
        if width == 1:
            return Text(f"float({_paren(left, 4)} {e.symbol} {_paren(right, 4)})", 0, reads)
        if self.glsl:
            if lw == 1:
                left = self.vec_of(left, width)
            if rw == 1:
                right = self.vec_of(right, width)
            return Text(f"{self.lang.vec(width)}({_COMPARE[e.symbol]}({left.text}, "
                        f"{right.text}))", 0, reads)
        return Text(f"{self.lang.vec(width)}({_paren(left, 4)} {e.symbol} "
                    f"{_paren(right, 4)})", 0, reads)

    def pick_text(self, e: Pick) -> Text:
        src = e.value
        if isinstance(src, Lit):
            return self.text(Lit(tuple(src.lanes[p] if p >= 0 else 0.0 for p in e.picks)))
        t = self.text(src)
        if src.width > 1 and all(p >= 0 for p in e.picks):
            return Text(f"{_paren(t, 0)}.{''.join(LANE[p] for p in e.picks)}", 0, t.reads)
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
        # with the exact path, a check must see the NaN exactly where the VM does
        if not (self.options.exact and not b.keeps_numbers) and not b.extension:
            got = self.native_text(e, width)
        return got if got is not None else self.helper_text(e, width)

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
                parts.append(t.text if a.width == 1 else f"{_paren(t, 0)}.x")
            return Text(f"{self.lang.vec(width)}({', '.join(parts)})", 0, reads)
        if b.arity == 0:
            got = natives.get(b.name)
            if got is None:
                return None
            if self.function:  # the pixel's uv is main's parameter, psl_uv elsewhere
                got = re.sub(r"\buv\b", "psl_uv", got)
            full = {"uv": 2, "xy": 2, "resolution": 2}.get(b.name, 4)
            if width == full:
                return Text(got, _prec(got))
            return Text(f"{_paren(Text(got, _prec(got)), 0)}.{LANE[:width]}", 0)
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
        if self.glsl:  # GLSL broadcasts a float only in some argument positions
            ok = {"min": {1}, "max": {1}, "clamp": {1, 2}, "lerp": {2}, "step": {0},
                  "smoothstep": {0, 1}, "mod": {1}}.get(b.name, set())
            args = [self.vec_of(t, width) if w == 1 and width > 1 and i not in ok else t
                    for i, (t, w) in enumerate(zip(args, widths, strict=True))]
        reads = frozenset().union(*(t.reads for t in args))
        text = pattern.format(*(t.text for t in args))
        return Text(text, _prec(text), reads)

    def natives(self) -> dict[str, str]:
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

    # ---------------------------------------------------------- PSL functions
    def write_list(self, items: list[Assign], blk: Block, depth: int, pad: str
                   ) -> tuple[Block, list[Assign]] | None:
        """Statements; a call of a PSL function inlined here as a whole (no jump inside)
        is written as a call of a function (see call), else its statements in place."""
        calls = self.calls
        i = 0
        while i < len(items):
            a = items[i]
            site = calls.sites[a.k] if calls is not None and a.k < len(calls.sites) else ()
            if len(site) <= depth:
                self.statement(a, pad)
                i += 1
                continue
            assert calls is not None
            path = tuple(site[:depth + 1])
            k0, k1 = calls.regions[path]
            j = i
            while j < len(items) and k0 <= items[j].k <= k1:
                j += 1
            got = self.call(path, items[i:j], blk, pad) if k0 in blk.code else False
            if got is False:
                got = self.write_list(items[i:j], blk, depth + 1, pad)
                if got is not None:
                    return got
            elif got is not True:
                return got  # the call ended in a later block: the caller goes on there
            i = j
        return None

    def region(self, first: Block, k0: int, k1: int
               ) -> tuple[list[Block], list[Block], bool] | None:
        """The blocks of a call that starts in `first` and ends in a later block: those
        between (all inside the call), and the one block where it ends; or, where paths
        leave it with different stacks (a value left in an `if`, W005), the copies of the
        code after it, one per path, and whether a path ends the program inside it."""
        blocks = self.program.blocks
        inside: list[Block] = []
        exits: set[int] = set()
        seen: set[int] = set()
        ends_program = False
        work = [s for s in self.graph.succ[first.index]]
        while work:
            b = work.pop()
            if b in seen:
                continue
            seen.add(b)
            if b == _EXIT:
                ends_program = True  # a path ends the program inside the call
                continue
            if b == first.index:
                return None
            blk = blocks[b]
            if blk.code.start == k1 + 1 or (k1 in blk.code and not (
                    blk.code.stop - 1 == k1 and isinstance(blk.end, Jump) and (
                        blk.end.target is None
                        or blocks[blk.end.target].code.start == k1 + 1))):
                # (a call may end with a jump; a block that ends the call and goes on
                # to the code after it, as other paths do, lies inside)
                exits.add(b)
                continue
            if not blk.code or blk.code.start < k0 or blk.code.stop - 1 > k1:
                return None
            inside.append(blk)
            work.extend(self.graph.succ[b])
        outs = sorted((blocks[b] for b in exits), key=lambda x: x.index)
        if not outs and not ends_program or any(b.index in self.graph.loops for b in outs):
            return None
        if (len(outs) > 1 or ends_program) and (
                self.graph.loops or any(b.code.start != k1 + 1 for b in outs)):
            return None
        return sorted(inside, key=lambda x: x.index), outs, ends_program

    def call(self, path: tuple, items: list[Assign], blk: Block, pad: str
             ) -> bool | tuple[Block, list[Assign]]:
        """Write a whole inlined call as a call of the PSL function, written once per body
        it has (named after it, a suffix from the second body on). Registers it reads
        before writing are the caller's: they become file-scope variables. False where
        the call cannot be written so (the caller writes its statements in place); for a
        call that ends in a later block, that block and its statements after the call."""
        calls = self.calls
        assert calls is not None
        fun = calls.callee.get(path[-1])
        src = self.program.source
        if fun is None or src is None or src.program is None:
            return False
        k0, k1 = calls.regions[path]
        variables = src.program.variables
        params = [p.text for p in fun.params]
        head, rest = items[:len(params)], items[len(params):]
        if len(head) != len(params) or (head and head[0].k != k0):
            return False
        if not items:
            return False
        args: dict[str, tuple[Operand, Ref]] = {}
        prefix = fun.name.text + "."
        for a in head:
            m = _REG.match(a.target.name)
            if a.declare or not m or tuple(calls.sites[a.k]) != path \
                    or not isinstance(a.expr, Ref | Lit):
                return False
            var = variables.get(int(m.group(1)), "")
            if not var.startswith(prefix):
                return False
            args[var[len(prefix):]] = (a.expr, a.target)
        if set(args) != set(params):
            return False
        # the blocks of a call with jumps inside
        inner_blocks: list[Block] = []
        last: Block | None = None
        tail: list[Assign] = []
        every = list(rest)
        ends: list[Jump | Branch] = []
        multi: list[Block] = []  # the copies of the code after the call, one per path
        many = False  # several ways out (copies of the code after, the program's end)
        if k1 not in blk.code:
            got = self.region(blk, k0, k1)
            if got is None:
                return False
            inner_blocks, outs, ends_program = got
            every += [a for b in inner_blocks for a in b.body]
            ends = [blk.end, *(b.end for b in inner_blocks)]
            if len(outs) > 1 or ends_program:
                multi = outs
                many = True
            else:
                last = outs[0]
                every += [a for a in last.body if a.k <= k1]
                tail = [a for a in last.body if a.k > k1]
        if self.options.exact and any(a.check for a in every):
            return False
        # what the body reads and writes, in order
        defined: set[str] = set()
        inner: dict[str, int] = {}
        read_first: set[str] = set()
        written: set[str] = set()
        param_regs = {t.name for _, t in args.values()}
        slots = {s.name for b in [*inner_blocks, *([last] if last else []), *multi]
                 for s in b.entry}

        def read(o: Operand | None) -> bool:
            if isinstance(o, Ref):
                inner[o.name] = inner.get(o.name, 0) + 1
                if _REG.match(o.name):
                    if o.name not in written and o.name not in param_regs:
                        read_first.add(o.name)
                elif o.name not in defined and o.name not in slots:
                    return False  # a value from outside the call (a slot, the stack)
            return True

        # a private variable is the function's own (a local) when every block of the
        # call that uses it writes it before reading it: no value crosses calls
        firsts: dict[str, list[tuple[int, bool]]] = {}  # register -> (block, read first)
        bounds = [len(rest)] + [len(b.body) for b in inner_blocks]
        edges = set()
        acc = 0
        for n in bounds:
            acc += n
            edges.add(acc)
        block_seen: set[str] = set()
        part = 0
        for n, a in enumerate(every):
            if n in edges:
                block_seen = set()
                part += 1
            ops = _operands(a.expr)
            if not all(read(o) for o in ops):
                return False
            for o in ops:
                if isinstance(o, Ref) and _REG.match(o.name) and o.name not in block_seen:
                    block_seen.add(o.name)
                    firsts.setdefault(o.name, []).append((part, True))
            if a.declare:
                defined.add(a.target.name)
            else:
                written.add(a.target.name)
                if a.target.name not in block_seen:
                    block_seen.add(a.target.name)
                    firsts.setdefault(a.target.name, []).append((part, False))
        tops: set[object] = set()
        for end in ends:
            jumps = [end] if isinstance(end, Jump) else [end.fall, end.taken]
            if isinstance(end, Branch) and not read(end.cond):
                return False
            for j in jumps:
                if not all(read(v) for _, v in j.moves):
                    return False
                if j.target is None and not many:
                    return False
                if j.counted and self.count_jumps:
                    tops.add(j.top)
        if len(tops) > 1 or any(isinstance(t, Ref) and (t.name in defined or t.name in slots)
                                for t in tops):
            return False  # a cut-off inside would output a value of the call's own
        cut = next(iter(tops)) if tops else None
        if tops and self.function and cut != self.cut_top:
            return False
        # what the code after the call reads of it: its result
        after: set[str] = set()
        tail_ops: list[Operand | None] = []
        for a in tail:
            tail_ops += _operands(a.expr)
        if last is not None:
            lend = last.end
            for j in [lend] if isinstance(lend, Jump) else [lend.fall, lend.taken]:
                tail_ops += [v for _, v in j.moves] + [j.top]
            if isinstance(lend, Branch):
                tail_ops.append(lend.cond)
            after = {o.name for o in tail_ops if isinstance(o, Ref)}
            escaping = [t for t in defined if t in after]
        else:
            escaping = [t for t in defined if self.uses.get(t, 0) > inner.get(t, 0)]
        if len(escaping) > 1 or (many and (escaping or tops or self.stops)):
            return False  # (a call with several ways out returns which one it took)
        def own(r: str) -> bool:
            # the call's first statements run before everything else in it: a write there
            # comes first on every path; else every block must write before reading
            kinds = firsts.get(r, [])
            if kinds and kinds[0][0] == 0:
                return not kinds[0][1]
            return bool(kinds) and not any(read for _, read in kinds)

        local_regs = {r for r in written if own(r) and r not in param_regs
                      and variables.get(int(_REG.match(r).group(1)), "").startswith(prefix)}
        width = 0
        if escaping:
            width = next(a.target.width for a in every if a.target.name == escaping[0])
        # the body, written by a writer of its own
        fw = type(self)(self.lang, self.program, self.options, self.glsl, self.graph, base=self)
        fw.helpers = self.helpers
        fw.function = True
        fw.depth = len(path)
        fw.uses = self.uses
        fw.count_jumps = bool(tops)
        fw.cut_top = cut
        fw.return_width = width
        outside = (read_first | written) - local_regs - param_regs
        fw.taken = set(calls.names.values()) | {self.display[r] for r in outside
                                                if r in self.display}
        params_text = []
        for pname in params:
            value, target = args[pname]
            fw.locals[target.name] = fw._fresh(pname)
            params_text.append(f"{self.lang.vec(target.width)} {fw.locals[target.name]}")
        for r in sorted(local_regs):
            var = variables.get(int(_REG.match(r).group(1)), r)[len(prefix):]
            fw.locals[r] = fw._fresh(var)
        fw.local_regs = local_regs
        # the stack slot that carries the call's value to the code after it: a local the
        # function returns (it starts as the slot, for a path that leaves no value)
        slot = last.entry[0] if last is not None and len(last.entry) == 1 \
            and not escaping and not tops else None
        slot_decl: list[str] = []
        if slot is not None:
            outer = fw.name(slot)
            fw.locals[slot.name] = fw._fresh("value")
            slot_decl = [f"    {self.lang.vec(slot.width)} {fw.locals[slot.name]} = {outer};"]
        try:
            fw.decl_inline = True
            if many:
                fw.stops = {b.index: n for n, b in enumerate(multi)}
                fw.end_way = -1
                fw.end_param = fw._fresh("result")
                fw.write_list(rest, blk, len(path), "    ")
                if fw.stopped or fw.ended:
                    return False
                fw.decl_inline = False
                fw.follow(blk, None, "    ")
            elif last is None:
                fw.write_list(rest, blk, len(path), "    ")
            else:
                self.count_uses(last)  # the caller goes on there: counted once
                fw.write_list(rest, blk, len(path), "    ")
                fw.decl_inline = False  # later writes may be in a narrower scope
                fw.stop_block, fw.stop_k = last.index, k1
                fw.follow(blk, last.index, "    ")
                if fw.write_list([a for a in last.body if a.k <= k1], last, len(path),
                                 "    ") is not None:
                    return False
                fw.flush_jumps("    ")
        except (Unstructured, _NoCall):
            return False
        if escaping:
            t = Ref(escaping[0], width)
            fw.emit("    ", f"return {fw.text(t).text};")
        if slot is not None:
            fw.emit("    ", f"return {fw.locals[slot.name]};")
            width = slot.width
        undeclared = [r for r in sorted(local_regs) if r not in fw.declared]
        decls = [f"    {self.lang.vec(w)} {fw.locals[r]} = "
                 f"{self.lang.construct(w, ['0.0'] * w)};"
                 for r in undeclared for w in [int(_REG.match(r).group(2))]]
        only_end = many and not multi  # every path ends the program: returns its result
        if many and not only_end and fw.end_way is not None and fw.end_way >= 0:
            params_text.append(f"out {self.lang.float4} {fw.end_param}")
        rtype = self.lang.vec(width) if width else self.lang.float4 if only_end \
            else "float" if many else "void"
        lines = [f"{rtype} @F({', '.join(params_text)})", "{", *slot_decl, *decls,
                 *_tidy(fw.lines),
                 "}"]
        text = "\n".join(lines)
        name = calls.by_text.get(text)
        if name is None:
            base = calls.names[fun.name.text]
            count = sum(1 for n in calls.by_text.values() if n == base or
                        n.startswith(base + "_"))
            name = base if count == 0 else self._fresh(f"{base}_{count + 1}")
            calls.by_text[text] = name
            calls.functions[name] = [line.replace("@F", name) for line in lines]
        shared = fw.touched
        if self.function:
            self.touched |= shared
        if tops:
            self.flush_jumps(pad)
            calls.jumps = True
        arg_texts = [self.text(args[p][0]) for p in params]
        call_text = f"{name}({', '.join(t.text for t in arg_texts)})"
        reads = frozenset().union(*(t.reads for t in arg_texts))
        for r in sorted(shared):
            self.flush_reads(r, pad)
        if only_end:
            self.name_pending(pad)
            self.end(None, pad, call_text)
            self.ended = True
            return next(iter(self.program.blocks.values())), []
        if many:
            return self.after_paths(multi, fw.end_way is not None and fw.end_way >= 0,
                                    call_text, fun.name.text, pad)
        if slot is not None:
            self.name_pending(pad)
            self.emit(pad, f"{self.name(slot)} = {call_text};")
        elif not escaping:
            self.emit(pad, f"{call_text};")
        else:
            t = Ref(escaping[0], width)
            uses = self.uses.get(t.name, 0) - (inner.get(t.name, 0) if last is None else 0)
            if not shared and not tops and uses == 1 and last is None:
                self.pending[t.name] = _Pending(Text(call_text, 0, reads), width)
            else:
                self.name_pending(pad)
                self.emit(pad, f"{self.lang.vec(width)} {self.name(t)} = {call_text};")
        if tops:
            u = self.lang.uint_suffix
            self.emit(pad, f"if (psl_jumps > {self.options.max_jumps}{u}) "
                           f"{self.cut_return(cut)}")
        if last is None:
            return True
        return last, tail

    def follow(self, blk: Block, stop: int, pad: str) -> None:
        """In a function's body: from the end of `blk` to the block `stop`."""
        g = self.graph
        end = blk.end
        ends = self.end_way is not None  # with several ways out every path returns
        if isinstance(end, Jump):
            self.take(end, pad)
            if end.target is None:
                raise _NoCall
            if self.seq(end.target, stop, None, pad) != ends:
                raise _NoCall
            return
        join = g.ipdom[blk.index]
        self.branch(end, join, None, pad)
        if self.last_terminated and ends:
            return
        if self.last_terminated or join is None:
            raise _NoCall
        if join != stop and self.seq(join, stop, None, pad) != ends:
            raise _NoCall

    def after_paths(self, outs: list[Block], ends: bool, call_text: str, fun: str, pad: str
                    ) -> bool | tuple[Block, list[Assign]]:
        """After a call that returned which way it left (see call): the code after it,
        one copy per way, up to where the copies join."""
        g = self.graph
        chains = []
        for b in outs:
            chain: list[int] = []
            n: int | None = b.index
            while n is not None:
                chain.append(n)
                n = g.ipdom.get(n)
            chains.append(chain)
        join = next((n for n in chains[0] if all(n in c for c in chains[1:])), None) \
            if chains and not ends else None
        ways = len(outs) + ends
        self.flush_jumps(pad)
        self.name_pending(pad)
        flag = self._fresh(f"{fun}_way")
        if ends:
            result = self._fresh(f"{fun}_result")
            f4 = self.lang.float4
            self.emit(pad, f"{f4} {result} = {self.lang.construct(4, ['0.0'] * 4)};")
            call_text = f"{call_text[:-1]}, {result})" if not call_text.endswith("()") \
                else f"{call_text[:-1]}{result})"
        self.emit(pad, f"float {flag} = {call_text};")
        done = True
        for n in range(ways):
            if n:
                self.emit(pad + "    " * (n - 1), "else")
                self.emit(pad + "    " * (n - 1), "{")
            if n < ways - 1:
                self.emit(pad + "    " * n, f"if ({flag} == {n}.0)")
                self.emit(pad + "    " * n, "{")
            deep = pad + "    " * (n + 1 if n < ways - 1 else n)
            if n < len(outs):
                arm = self.seq(outs[n].index, join, None, deep)
            else:
                self.end(None, deep, result)
                arm = True
            if not arm:
                self.flush_jumps(deep)
            done = done and arm
            if n < ways - 1:
                self.emit(pad + "    " * n, "}")
        for n in range(ways - 1, 0, -1):
            self.emit(pad + "    " * (n - 1), "}")
        if done:
            self.ended = True  # (the block given back is not written: see write_items)
            return next(iter(self.program.blocks.values())), []
        if join is None:
            raise Unstructured("the ways out of a call never join")
        if join == self.seq_stop:
            self.stopped = True
            return self.program.blocks[join], []
        return self.program.blocks[join], self.program.blocks[join].body

    def cut_return(self, top: Operand | None) -> str:
        """Leaving at the jump budget: main outputs the top of the stack, as the VM; a
        function returns at once and its caller does the same."""
        if not self.function:
            return f"return {self.result_text(top)};"
        if not self.return_width:
            return "return;"
        w = self.return_width
        return f"return {self.lang.construct(w, ['0.0'] * w)};"

    def name_pending(self, pad: str) -> None:
        """Give a name to every nested expression not yet used (before a scope opens)."""
        for temp, p in list(self.pending.items()):
            if not p.used:
                del self.pending[temp]
                out = self.name(Ref(temp, p.width))
                self.emit(pad, f"{self.lang.vec(p.width)} {out} = {p.text.text};")

    def statement(self, a: Assign, pad: str) -> None:
        t = a.target
        e = a.expr
        checked = a.check and self.options.exact
        if a.declare and not checked and self.uses.get(t.name, 0) == 1:
            got = self.inline(e, t.width)
            if got is not None:
                self.pending[t.name] = _Pending(got, t.width)
                return
        if isinstance(e, Ref | Lit | Binary | Unary | Pick | Call) and not a.declare:
            got = self.inline(e, t.width)
            if got is not None:  # the value first: it may read what it replaces
                self.flush_reads(t.name, pad)
                c = got.compound
                if c is not None and c[0] == self.name(t) and got.reads >= {t.name} \
                        and t.name not in self.local_regs - self.declared:
                    self.emit(pad, f"{c[0]} {c[1]}= {c[2]};")  # x = x + y as x += y
                    if checked:
                        self.check_exit(self.name(t), pad)
                    return
                decl = ""
                if self.function and self.decl_inline and t.name in self.local_regs \
                        and t.name not in self.declared:
                    self.declared.add(t.name)
                    decl = f"{self.lang.vec(t.width)} "
                elif not self.function and self.decl_inline and t.name in self.first_writes \
                        and t.name not in self.declared:
                    # main's first statements: declared where first assigned, unless a
                    # function turns out to share it (then it is at file scope)
                    self.declared.add(t.name)
                    decl = f"\x01{t.name}\x01{self.lang.vec(t.width)} "
                self.emit(pad, f"{decl}{self.name(t)} = {got.text};")
                if checked:
                    self.check_exit(self.name(t), pad)
                return
        if not a.declare:
            self.flush_reads(t.name, pad)
        if isinstance(e, Lanes) and e.current is not None and e.current.name == t.name:
            written = [(j, s) for j, s in enumerate(e.sources) if s is not None]
            value = self.pick_text(Pick(e.value, tuple(s for _, s in written)))
            lanes = "".join(LANE[j] for j, _ in written)
            self.emit(pad, f"{self.name(t)}.{lanes} = {value.text};")
            return
        got = None if isinstance(e, Lanes) else self.inline(e, t.width)
        if got is not None:
            decl = f"{self.lang.vec(t.width)} " if a.declare else ""
            self.emit(pad, f"{decl}{self.name(t)} = {got.text};")
        else:  # the VM's own code for it (psl/export/text.py)
            Writer.assign(self, a, pad)
            return
        if a.check and self.options.exact:
            self.check_exit(self.name(t), pad)

    def check_exit(self, name: str, pad: str) -> None:
        # one call of the exact path, in main (see body): compilers inline it per call
        zero = f"{self.lang.float4}(0.0, 0.0, 0.0, 0.0)"
        self.emit(pad, f"if (psl_has_nan({name})) {{ psl_nan = true; return {zero}; }}")

    def count_uses(self, b: Block) -> None:
        def use(o: Operand | None) -> None:
            if isinstance(o, Ref):
                self.uses[o.name] = self.uses.get(o.name, 0) + 1

        for a in b.body:
            e = a.expr
            for x in _operands(e):
                use(x)
        ends = [b.end] if isinstance(b.end, Jump) else [b.end.fall, b.end.taken]
        if isinstance(b.end, Branch):
            use(b.end.cond)
        for j in ends:
            for _, v in j.moves:
                use(v)
            if j.target is None or (j.counted and self.count_jumps):
                use(j.top)

    # --------------------------------------------------------------- control flow
    def result_text(self, top: Operand | None) -> str:
        if top is None:
            return f"{self.lang.float4}(0.0, 0.0, 0.0, 0.0)"
        if top.width == 4:
            return self.op(top)
        t = self.text(top)
        if top.width == 1:
            return f"{self.lang.float4}({t.text}, 0.0, 0.0, 0.0)"
        return f"{self.lang.float4}({t.text}, {', '.join(['0.0'] * (4 - top.width))})"

    def flush_jumps(self, pad: str) -> None:
        if self.jumps:
            self.lines += self.count_lines(self.jumps, self.jump_top, pad)
            self.jumps = 0
            self.jump_top = None

    def count_lines(self, jumps: int, top: Operand | None, pad: str) -> list[str]:
        u = self.lang.uint_suffix
        limit = self.options.max_jumps
        lines = [f"{pad}psl_jumps += {jumps}{u};"]
        handover = budget_handover(self.program, self.options, self._jump_sites())
        if handover is not None:
            # the work budget may stop this pixel: the exact path counts every instruction
            # (past the jump limit, so that every caller leaves too)
            lines.append(f"{pad}if (psl_jumps >= {handover}{u}) {{ psl_nan = true; "
                         f"psl_jumps = {limit + 1}{u}; {self.cut_return(top)} }}")
        return [*lines, f"{pad}if (psl_jumps > {limit}{u}) {self.cut_return(top)}"]

    def end(self, top: Operand | None, pad: str, text: str | None = None) -> None:
        """The program's end: a cut-off here would output the same top. In a function
        with several ways out, it gives the program's result and returns the way (its
        caller ends the program with that result); `text` is the result written."""
        if self.function and self.end_way is not None:
            self.flush_jumps(pad)
            if not self.stops:  # the only way out: the result is the function's value
                self.end_way = 0
                self.emit(pad, f"return {text or self.result_text(top)};")
                return
            self.emit(pad, f"{self.end_param} = {text or self.result_text(top)};")
            self.end_way = len(self.stops)
            self.emit(pad, f"return {self.end_way}.0;")
            return
        if self.function:
            raise _NoCall
        if self.jumps and (self.jump_top == top or (
                not isinstance(self.jump_top, Ref) and not isinstance(top, Ref)
                and self.result_text(self.jump_top) == self.result_text(top))):
            self.jumps = 0
            self.jump_top = None
        self.flush_jumps(pad)
        self.emit(pad, f"return {text or self.result_text(top)};")

    def take(self, j: Jump, pad: str) -> None:
        """The jump's count and stack moves (not where it goes)."""
        if j.counted and self.count_jumps:
            if self.jumps and self.jump_top != j.top:
                self.flush_jumps(pad)
            top = j.top
            if isinstance(top, Ref) and top.name in self.pending and j.target is not None:
                # the count is written later: the value must not see later writes
                p = self.pending.pop(top.name)
                self.emit(pad, f"{self.lang.vec(p.width)} {self.name(top)} = {p.text.text};")
            self.jumps += 1
            self.jump_top = j.top
        for slot, value in j.moves:
            self.flush_jumps(pad)
            self.flush_reads(slot.name, pad)
            self.emit(pad, f"{self.name(slot)} = {self.op(value)};")

    def seq(self, b: int | None, stop: int | None, loop: int | None, pad: str) -> bool:
        """Write from block b until `stop`; True when every path ended (break, continue or
        return) before it."""
        g = self.graph
        while True:
            check_cancelled()  # psl serve: a newer compile supersedes this export
            if b == stop and b is not None:
                return False
            if b in self.stops:
                self.flush_jumps(pad)
                self.emit(pad, f"return {self.stops[b]}.0;")
                return True
            if b is None or b == _EXIT:
                raise Unstructured("a path ends without a jump")
            if loop is not None and b == loop:
                self.flush_jumps(pad)
                self.emit(pad, "continue;")
                return True
            if loop is not None and b == g.exits[loop]:
                self.flush_jumps(pad)
                self.emit(pad, "break;")
                return True
            if b in g.loops:
                b = self.loop(b, pad)
                if b is None:
                    return True
                continue
            self.mark_written(b)
            saved, self.seq_stop = self.seq_stop, stop
            blk = self.write_items(self.program.blocks[b], pad)
            self.seq_stop = saved
            if self.ended:
                self.ended = False
                return True
            if self.stopped:
                self.stopped = False
                if blk.index != stop:
                    raise _NoCall
                return False
            b = blk.index
            end = blk.end
            if isinstance(end, Jump):
                self.take(end, pad)
                if end.target is None:
                    self.end(end.top, pad)
                    return True
                b = end.target
                continue
            join = g.ipdom[b]
            self.branch(end, join, loop, pad)
            if self.last_terminated:
                return True
            if join is None:
                raise Unstructured("branches that never join go on")
            b = join

    last_terminated = False

    def mark_written(self, b: int) -> None:
        """A block reached from arms that join only later is written in each of them
        (a value left in an `if`, W005): allowed while the code stays small."""
        self.written_size += len(self.program.blocks[b].body) + 1
        if self.written_size > 2 * self.total_size + 64:
            raise Unstructured("blocks would be written too many times")

    def cond_text(self, cond: Operand) -> str:
        t = self.text(cond)
        m = re.fullmatch(r"float\((.*)\)", t.text)
        if cond.width == 1 and m and _balanced(m.group(1)):
            return m.group(1)
        return f"{self.comp(cond, 0) if cond.width > 1 else t.text} != 0.0"

    def branch(self, end: Branch, join: int | None, loop: int | None, pad: str) -> None:
        # jumps counted before the branch are counted in its arms: where both arms come
        # out with the same count, it is written once after the if
        start = (self.jumps, self.jump_top)
        cond = self.cond_text(end.cond)
        if isinstance(self.jump_top, Ref) and self.jump_top.name in self.pending:
            self.flush_jumps(pad)
            start = (0, None)
        self.name_pending(pad)
        inner = pad + "    "
        self.emit(pad, f"if ({cond})")
        self.emit(pad, "{")
        self.jumps, self.jump_top = start
        self.take(end.fall, inner)
        fall_done = self.arm(end.fall, join, loop, inner)
        fall = (self.jumps, self.jump_top)
        fall_close = len(self.lines)
        self.emit(pad, "}")
        mark = len(self.lines)
        self.emit(pad, "else")
        self.emit(pad, "{")
        self.jumps, self.jump_top = start
        self.take(end.taken, inner)
        taken_done = self.arm(end.taken, join, loop, inner)
        taken = (self.jumps, self.jump_top)
        taken_close = len(self.lines)
        self.emit(pad, "}")
        carry: tuple[int, Operand | None] = (0, None)
        if fall_done and not taken_done:
            carry = taken
        elif taken_done and not fall_done:
            carry = fall
        elif not fall_done and fall == taken:
            carry = fall
        # an arm whose count is not the one carried out writes its own before its end
        if not taken_done and taken[0] and taken != carry:
            self.lines[taken_close:taken_close] = self.count_lines(*taken, inner)
        if not fall_done and fall[0] and fall != carry:
            self.lines[fall_close:fall_close] = self.count_lines(*fall, inner)
            mark += 2
        self.jumps, self.jump_top = carry
        if len(self.lines) == mark + 3:  # an empty else
            del self.lines[mark:]
        self.last_terminated = fall_done and taken_done

    def arm(self, j: Jump, join: int | None, loop: int | None, pad: str) -> bool:
        """One arm of a branch; its jumps not yet written stay counted (see branch)."""
        if j.target is None:
            self.end(j.top, pad)
            return True
        done = self.seq(j.target, join, loop, pad)
        self.last_terminated = False
        return done

    def loop(self, h: int, pad: str) -> int | None:
        """Write the loop headed by h; the block after it (None: it never ends)."""
        g = self.graph
        self.flush_jumps(pad)
        self.name_pending(pad)
        blk = self.program.blocks[h]
        mark = len(self.lines)
        exit_ = g.exits[h]
        self.mark_written(h)
        final = self.write_items(blk, pad + "    ")
        end = final.end
        if final is blk and len(self.lines) == mark and isinstance(end, Branch) and (
                not end.taken.moves and not end.fall.moves and end.taken.target == exit_
                and end.fall.target in g.loops[h]):
            # the header only computes the condition
            cond = self.cond_text(end.cond)
            self.emit(pad, f"{self.lang.loop_attr}while ({cond})")
            self.emit(pad, "{")
            self.seq(end.fall.target, None, h, pad + "    ")
            if self.lines[-1].strip() == "continue;":
                self.lines.pop()
            self.emit(pad, "}")
            self.take(end.taken, pad)  # leaving is a taken jump: counted here
            self.last_terminated = False
            return exit_
        self.lines[mark:mark] = [f"{pad}{self.lang.loop_attr}while (true)", pad + "{"]
        self.header_tail(final, h, pad + "    ")
        if self.lines[-1].strip() == "continue;":
            self.lines.pop()
        self.emit(pad, "}")
        self.last_terminated = False
        return exit_

    def header_tail(self, final: Block, h: int, pad: str) -> None:
        """The end of a loop header written as while (true): where its jump goes."""
        g = self.graph
        end = final.end
        if isinstance(end, Jump):
            self.take(end, pad)
            if end.target is None:
                self.end(end.top, pad)
                return
            self.seq(end.target, None, h, pad)
            return
        join = g.ipdom[final.index]
        inside = join if join is not None and join in g.loops[h] else None
        self.branch(end, inside, h, pad)
        if not self.last_terminated:
            if inside is None:
                raise Unstructured("a loop header's branches do not rejoin in the loop")
            self.seq(inside, None, h, pad)

    def write_items(self, blk: Block, pad: str) -> Block:
        """A block's statements; the block whose end comes next (another one when a PSL
        function's call that spans blocks was written as a call)."""
        self.count_uses(blk)
        items = blk.body
        while True:
            cont = self.write_list(items, blk, self.depth, pad)
            if not self.function:
                self.decl_inline = False
            if cont is None:
                return blk
            blk, items = cont
            self.mark_written(blk.index)
            if self.stopped or self.ended:
                return blk
            if blk.index in self.stops:
                self.emit(pad, f"return {self.stops[blk.index]}.0;")
                self.ended = True
                return blk
            if self.function and blk.index == self.stop_block:
                # a call inside ended where this function's call ends (the same last
                # block): the rest of that block is the caller's
                if any(a.k <= self.stop_k for a in items):
                    raise _NoCall
                self.stopped = True
                return blk

    def body(self) -> list[str]:
        """The main function's statements; `preamble` then holds what goes before it."""
        p = self.program
        lang = self.lang
        pad = "    "
        if 0 in p.blocks and 0 not in self.graph.loops:
            self.first_writes = _first_writes(p.blocks[0].body)
            self.decl_inline = True
        if not self.seq(0, None, None, pad):
            raise Unstructured("the program does not end")
        self.decl_inline = False
        shared = self.calls.shared if self.calls is not None else {}
        marker = re.compile("\x01(\\w+)\x01(\\w+) ")
        self.lines = [marker.sub(lambda m: "" if m.group(1) in shared else m.group(2) + " ", x)
                      for x in self.lines]
        decls = []
        for r in [*p.registers, *p.slots]:
            if r.name in self.used_regs and r.name not in shared \
                    and r.name not in self.declared:
                zeros = lang.construct(r.width, ["0.0"] * r.width)
                decls.append(f"{pad}{lang.vec(r.width)} {self.name(r)} = {zeros};")
        file_jumps = self.calls is not None and self.calls.jumps
        if self.count_jumps:
            decls.append(f"{pad}{'' if file_jumps else 'uint '}psl_jumps = "
                         f"0{lang.uint_suffix};")
        for r in [*p.registers, *p.slots]:
            if r.name in shared:  # file-scope variables start at zero on every pixel
                zeros = lang.construct(r.width, ["0.0"] * r.width)
                decls.append(f"{pad}{self.display[r.name]} = {zeros};")
        lines = _tidy(decls + self.lines)
        preamble: list[str] = []
        exact = has_exact_path(p, self.options)
        typed_fn: list[str] = []
        if exact:
            # the typed code is a function of its own, so that main calls the exact path
            # once, when a check found a NaN (compilers inline a function at every call)
            typed = f"{self.options.name}_typed"
            f4 = lang.float4
            typed_fn = [f"{f4} {typed}({lang.vec(2)} uv)", "{", *lines, "}", ""]
            lines = [f"{pad}psl_nan = false;", f"{pad}{f4} psl_color = {typed}(uv);",
                     f"{pad}if (psl_nan)", pad + "{",
                     *([f"{pad}    psl_trace_exact();"] if self.options.trace else []),
                     f"{pad}    return {self.options.exact_name()}(uv);", pad + "}",
                     f"{pad}return psl_color;"]
        static = "" if self.glsl else "static "
        for r in [*p.registers, *p.slots]:
            if r.name in shared:
                zeros = lang.construct(r.width, ["0.0"] * r.width)
                preamble.append(f"{static}{lang.vec(r.width)} {self.display[r.name]} = "
                                f"{zeros};")
        if file_jumps and not (self.glsl and exact):  # the WebGL VM's exact path has one
            preamble.append(f"{static}uint psl_jumps = 0{lang.uint_suffix};")
        if exact:
            preamble.append(f"{static}bool psl_nan = false;")
        if preamble:
            preamble.append("")
        for helper in self.helpers.values():
            preamble += [*helper, ""]
        if self.calls is not None:
            for fn in self.calls.functions.values():
                preamble += [*fn, ""]
        preamble += typed_fn
        if self.options.name != "psl_program" and preamble:
            # several programs in one file (the tests): their own names
            names = [*(self.calls.functions if self.calls is not None else ()),
                     *(self.display[r] for r in shared if r in self.display), "psl_jumps",
                     "psl_nan", *{f"psl_vm_{k[0]}" for k in self.helpers}]
            word = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names))) + r")\b")
            prefix = self.options.name + "_"
            preamble = [word.sub(lambda m: prefix + m.group(1), x) for x in preamble]
            lines = [word.sub(lambda m: prefix + m.group(1), x) for x in lines]
        self.preamble = preamble
        return lines

    preamble: list[str] = []


def _operands(e: Expr) -> list[Operand | None]:
    """What an assignment's expression reads (a Lit reads nothing)."""
    if isinstance(e, Ref):
        return [e]
    if isinstance(e, Binary):
        return [e.left, e.right]
    if isinstance(e, Unary | Pick):
        return [e.value]
    if isinstance(e, Call):
        return list(e.args)
    if isinstance(e, Lanes):
        return [e.value, e.current]
    return []


def _first_writes(body: list[Assign]) -> set[str]:
    """Registers whose first use in these statements assigns the whole of them."""
    seen: set[str] = set()
    out: set[str] = set()
    for a in body:
        e = a.expr
        ops = _operands(e)
        for o in ops:
            if isinstance(o, Ref):
                seen.add(o.name)
        t = a.target.name
        if not a.declare and t not in seen:
            seen.add(t)
            if not isinstance(e, Lanes):
                out.add(t)
    return out


def _prec(text: str) -> int:
    """0 for an operand that needs no parentheses (no space outside brackets), else 3."""
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == " " and depth == 0:
            return 3
    return 0


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _else_if(lines: list[str]) -> list[str]:
    """`else { if (c) {..} else {..} }` as `else if (c) {..} else {..}`."""
    out = list(lines)
    i = 0
    while i + 1 < len(out):
        pad = out[i][:_indent(out[i])]
        if out[i].strip() != "else" or out[i + 1] != pad + "{":
            i += 1
            continue
        j = i + 2
        while j < len(out) and out[j] != pad + "}":
            j += 1
        inner = out[i + 2:j]
        inner_pad = pad + "    "
        tops = [x.strip() for x in inner if _indent(x) == len(inner_pad)]
        if not inner or not inner[0].startswith(inner_pad + "if (") or any(
                t not in ("{", "}", "else") and not t.startswith("else if (")
                for t in tops[1:]):
            i += 1
            continue
        out[i:j + 1] = [pad + "else " + inner[0].strip(), *(x[4:] for x in inner[1:])]
    return out


def _return_slot(lines: list[str]) -> list[str]:
    """`stackN = value; return ..stackN..;` as one return (the slot is dead after it)."""
    out: list[str] = []
    for line in lines:
        m = re.fullmatch(r"( *)(stack\d+) = (.*);", out[-1]) if out else None
        r = re.fullmatch(r"( *)return (.*);", line)
        if m and r and m.group(1) == r.group(1) and \
                len(re.findall(rf"\b{m.group(2)}\b", r.group(2))) == 1:
            value = m.group(3)
            if _prec(value):
                value = f"({value})"
            word = re.compile(rf"\b{m.group(2)}\b")
            out[-1] = f"{r.group(1)}return {word.sub(lambda _m, v=value: v, r.group(2))};"
            continue
        out.append(line)
    return out


def _knr(lines: list[str]) -> list[str]:
    """Opening braces of if, else and while on their line; `} else` on one line."""
    out: list[str] = []
    for line in lines:
        s = line.strip()
        if out and _indent(out[-1]) == _indent(line):
            prev = out[-1].strip()
            if s == "{" and prev.startswith(("if (", "else", "while (", "[loop] while (",
                                             "} else")):
                out[-1] += " {"
                continue
            if s.startswith("else") and prev == "}":
                out[-1] += " " + s
                continue
        out.append(line)
    return out


def _tidy(lines: list[str]) -> list[str]:
    return _knr(_return_slot(_else_if(_drop_empty(lines))))


def _drop_empty(lines: list[str]) -> list[str]:
    """`if (c) { ... break; } else { rest }` as `if (!c) break;`-free code is left to the
    reader; here only `if (c) { X } else { }` pairs that came out empty are removed."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        if s.startswith("if (") and i + 2 < len(lines) and lines[i + 1].strip() == "{" \
                and lines[i + 2].strip() == "}" and not (
                    i + 3 < len(lines) and lines[i + 3].strip() == "else"):
            i += 3
            continue
        out.append(lines[i])
        i += 1
    return out


def structured_or_dispatch(writer: type[Readable], language: type[Language], program: Program,
                           options: Options, glsl: bool) -> tuple[list[str], list[str]]:
    """The main function's body and what goes before it (PSL functions, variables they
    share): structured code where the block graph allows it, else the block-dispatch loop
    (text.write_body)."""
    try:
        readable = writer(language(), program, options, glsl=glsl)
        return readable.body(), readable.preamble
    except Unstructured:
        return write_body(language(), program, options), []


class GlslReadable(Readable):
    def natives(self) -> dict[str, str]:
        return dict(GLSL.natives)


class HlslReadable(Readable):
    def natives(self) -> dict[str, str]:
        return dict(HLSL.natives)
