"""The typed IR written as code a person could have written: structured `if`/`else` and
`while` instead of a block-dispatch loop, the program's own variable names, expressions
nested as in the source, and the target's own builtins where the widths make them equal
to the VM's (docs/export.md).

The writer is built in layers, one module each, every one a small API over the last:
- psl/export/structure.py: the block graph's loops and joins (structuring);
- psl/export/expressions.py: operands and expressions as nested text;
- psl/export/names.py: the output names (fresh_name);
- psl/export/statements.py: statements and control flow (emission);
- psl/export/functions.py: inlined calls written back as PSL functions;
- psl/export/tidy.py: the finishing passes over the written lines;
and this module: the main function, what goes before it, and the dispatch fallback. A graph
`while`/`if` cannot write raises `Unstructured`, and the caller writes the dispatch loop
(psl/export/text.py) instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from psl.dialect import GLSL, HLSL
from psl.export.functions import Functions
from psl.export.ir import Program
from psl.export.structure import Graph, Unstructured, counted_jump_sites, first_writes
from psl.export.text import Language, Options, has_exact_path, write_body
from psl.export.tidy import tidy

__all__ = ["GlslReadable", "HlslReadable", "Readable", "Unstructured", "structured_or_dispatch"]


class Readable(Functions):
    """Writes the IR as structured code; subclasses pick the target's builtins."""

    def __init__(self, lang: Language, program: Program, options: Options, glsl: bool,
                 graph: Graph | None = None, base: Readable | None = None) -> None:
        """`base`: the main writer a PSL function's writer comes from; the facts of the
        whole program (its calls, sizes, first names) are taken from it, not computed again
        (per call site that made the export quadratic in the program)."""
        super().__init__(lang, program, options, glsl, graph, base)
        self.count_jumps = base is None and options.max_jumps is not None and \
            program.counted_jumps and (
                bool(self.graph.loops) or counted_jump_sites(program) >= options.max_jumps)
        if base is not None:
            self.display, self.taken = dict(base.first_names[0]), set(base.first_names[1])
            self.first_names = base.first_names
            return
        self.taken |= {p.name for p in self.sliders}
        if self.calls is not None:
            for fn in sorted({f.name.text for f in self.calls.callee.values()}):
                self.calls.names[fn] = self.fresh(fn)
        self._name_variables()
        # the names every writer of this program starts from (a function's writer copies them)
        self.first_names = (dict(self.display), frozenset(self.taken))

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
                self.display[f"r{n}_{w}"] = self.fresh(want)
        for s in self.program.slots:
            self.display[s.name] = self.fresh(f"stack{s.name[1:].split('_')[0]}")

    def body(self) -> list[str]:
        """The main function's statements; `preamble` then holds what goes before it."""
        p = self.program
        lang = self.lang
        pad = "    "
        if 0 in p.blocks and 0 not in self.graph.loops:
            self.first_writes = first_writes(p.blocks[0].body)
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
        lines = tidy(decls + self.lines)
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


def structured_or_dispatch(writer: type[Readable], language: Callable[[], Language],
                           program: Program, options: Options, glsl: bool
                           ) -> tuple[list[str], list[str]]:
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
