"""`psl export --target metal`: the program as a Metal (MSL) fragment function.

MSL reads much like HLSL (float4, swizzles, vector comparisons) with GLSL's function names
(fract, mix); its builtin and operator text is the Metal dialect's (psl.dialect.metal),
and the VM's helpers are the HLSL VM's templates, respelled (psl.dialect.metal.vm). One
difference shapes the file: MSL has no writable program-scope variables, so the program's
functions, the variables they share and the helpers are members of one struct, which the
fragment function makes for each pixel (templates/export/metal.metal.j2).

No Metal compiler runs where psl is tested: tests/test_export_metal.py compiles the output
as C++ against a stand-in of the metal namespace and runs it against the VM, and checks it
against spirv-cross's MSL of the GLSL export (docs/export.md says what that leaves open).
"""

from __future__ import annotations

import re

from psl import registry
from psl.dialect.helpers import used_items
from psl.dialect.metal import DIALECT as METAL
from psl.dialect.metal.vm import builtin_cases, context, respell
from psl.export.exact import exact_parts
from psl.export.hlsl import result_and_jumps
from psl.export.ir import Call, Program
from psl.export.names import export_header
from psl.export.readable import Readable, structured_or_dispatch
from psl.export.sliders import READER, parameters, reader
from psl.export.text import Language, Options
from psl.templating import render

TEMPLATE = "export/metal.metal.j2"
_CASES = {c.id: c for c in builtin_cases()}
#: a file-scope declaration of the readable writer (HLSL's `static`): a struct member here
_STATIC = re.compile(r"^static ")


class Metal(Language):
    float4 = METAL.float4
    as_float = METAL.as_float
    loop_attr = ""

    def vec(self, w: int) -> str:
        return METAL.vec(w)

    def builtin(self, call: Call, args: list[str], target: str, width: int) -> list[str]:
        expr = METAL.builtins[call.builtin.name]
        take = f"({expr})" if width == 4 else f"({expr}).{'xyzw'[:width]}"
        return [*self.arguments(call, args), f"{target} = {take};"]

    def exact_call(self, builtin_id: int, arity: int, raws: list[str]) -> str:
        b = registry.BUILTIN_BY_ID.get(builtin_id)
        if b is None:  # an id not in the table: arity 0, zeros (SPEC §8)
            return "float4(0.0, 0.0, 0.0, 0.0)"
        return f"psl_x_{b.name}({', '.join(raws)})"

    def exact_builtin(self, b: registry.Builtin) -> list[str]:
        """The exact path's CALL of one builtin: the VM's masking and its result rule (a
        member of this program's struct, so no include guard: each program has its own)."""
        return [f"float4 psl_x_{b.name}(float4 a, float4 b, float4 c, float4 d)", "{",
                "    uint da, db, dc, dd, largest;",
                f"    psl_mask_args({b.arity}u, {'true' if b.pad else 'false'}, a, b, c, d, "
                "da, db, dc, dd, largest);",
                "    float4 largest_mask = psl_mask(largest);",
                f"    return {_CASES[b.id].code};", "}"]

    def index(self, expr: str) -> str:
        return expr

    def compare(self, symbol: str, left: str, right: str) -> tuple[list[str], str]:
        return [f"float4 l = {left};", f"float4 r = {right};"], METAL.binops[symbol]

    def logical_not(self) -> tuple[list[str], str]:
        return [], METAL.unops["!"]


class MetalReadable(Readable):
    def natives(self) -> dict[str, str]:
        return dict(METAL.natives)

    def broadcasts(self, builtin: str) -> set[int] | None:
        # MSL's functions are declared over one type T (clamp(T, T, T)): a float argument
        # of a vector call is written as the vector
        return set()


def _members(lines: list[str]) -> list[str]:
    """The readable writer's file-scope lines as members of the program's struct."""
    return [_STATIC.sub("", line) for line in lines]


def export(program: Program, options: Options, source: str = "<program>") -> str:
    result, jumps = result_and_jumps(program, options)
    exact, exact_helpers = exact_parts(Metal(), program, options)
    # the readable writer writes HLSL's `static` and `out` where MSL has members and
    # references (the dialect's words keep a program's names clear of both)
    body, functions = structured_or_dispatch(MetalReadable, Metal, program, options,
                                             glsl=False)
    ctx = context()
    code = "\n".join([*functions, *body, *exact, *exact_helpers])
    templates = list(METAL.helper_templates)
    if exact:
        templates.append("hlsl/_ops.hlsl.j2")
    helpers = [text for _, text in used_items(templates, ctx, code)]
    members = [*_members(functions), *exact_helpers]
    for text in helpers:
        members += [*text.splitlines(), ""]
    sliders = parameters(program)
    # the exact path's operations (_ops.hlsl.j2) call psl_slider, whatever the program reads
    slider_reader = reader(sliders) if exact or f"{READER}(" in code else []
    return render(TEMPLATE, header=export_header(source, "metal"), source=source,
                  sliders=sliders, slider_reader=slider_reader,
                  name=options.name, members=[respell(x) for x in members],
                  body=[respell(x) for x in body], exact=[respell(x) for x in exact],
                  exact_name=options.exact_name(), result=result, jump_note=jumps,
                  uses_self=program.uses_self)


__all__ = ["Metal", "MetalReadable", "export"]
