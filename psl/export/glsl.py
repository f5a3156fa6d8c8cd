"""`psl export --target glsl`: a GLSL ES 3.00 (WebGL2) fragment shader.

Builtin and operator text comes from psl.gen.glsl_builtins, the WebGL VM's: its results
are written over shared *units* (one sqrt, one log2, ... per VM step), so a call here
declares the units its expression needs, with the inputs the builtin chooses. The helper
functions are the WebGL VM's own templates (templates/glsl/_*.glsl.j2), included as they
are. Uniforms keep the WebGL VM's names (u_time, u_self, ...), so the playground's renderer
can drive either shader.
"""

from __future__ import annotations

import re

from psl.export.ir import Call, Program
from psl.export.text import Language, Options, write_body
from psl.gen.env import render
from psl.gen.glsl_builtins import BINOP_GLSL, BUILTIN_GLSL, UNIT_INPUTS, UNITS, UNOP_GLSL

TEMPLATE = "export/program.glsl.j2"
ARG_NAMES = "abcd"
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_COMPARE_DECLS = {
    "cmp_lt": "vec4 cmp_lt = psl_lt(l, r);",
    "cmp_gt": "vec4 cmp_gt = psl_lt(r, l);",
    "cmp_eq": "vec4 cmp_eq = psl_eq(l, r);",
    "cmp_le": "vec4 cmp_le = psl_le(l, r);",
    "cmp_ge": "vec4 cmp_ge = psl_le(r, l);",
    "l_true": "bvec4 l_true = psl_truthy4(l);",
    "r_true": "bvec4 r_true = psl_truthy4(r);",
}


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text))


class Glsl(Language):
    float4 = "vec4"

    def vec(self, w: int) -> str:
        return "float" if w == 1 else f"vec{w}"

    def inf(self, negative: bool) -> str:
        return f"uintBitsToFloat({'0xFF800000u' if negative else '0x7F800000u'})"

    def builtin(self, call: Call, args: list[str], target: str, width: int) -> list[str]:
        b = call.builtin
        lines = [f"vec4 {ARG_NAMES[i]} = {a};" for i, a in enumerate(args)]
        lines += [f"uint d{ARG_NAMES[i]} = {a.width}u;" for i, a in enumerate(call.args)]
        expr = BUILTIN_GLSL[b.name]
        inputs = UNIT_INPUTS.get(b.name, {})
        needed = _words(expr)
        for unit in reversed(UNITS):  # a unit's input may use earlier units
            if unit.name in needed:
                needed |= _words(inputs.get(unit.name, unit.default)) | _words(unit.eval)
        for unit in UNITS:
            if unit.name in needed:
                lines.append(f"{unit.in_type} {unit.name}_in = "
                             f"{inputs.get(unit.name, unit.default)};")
                lines.append(f"{unit.type} {unit.name} = {unit.eval};")
        take = f"({expr})" if width == 4 else f"({expr}).{'xyzw'[:width]}"
        return [*lines, f"{target} = {take};"]

    def compare(self, symbol: str, left: str, right: str) -> tuple[list[str], str]:
        expr = BINOP_GLSL[symbol]
        decls = [f"vec4 l = {left};", f"vec4 r = {right};"]
        decls += [d for name, d in _COMPARE_DECLS.items() if name in _words(expr)]
        return decls, expr

    def logical_not(self) -> tuple[list[str], str]:
        return [], UNOP_GLSL["!"]


def helpers(program: Program) -> list[str]:
    """The WebGL VM templates the exported code needs."""
    names = ["glsl/_values.glsl.j2", "glsl/_maths.glsl.j2", "glsl/_sampling.glsl.j2"]
    if program.uses_audiolink:
        names.append("glsl/_audiolink.glsl.j2")
    return names


def function(program: Program, options: Options) -> list[str]:
    return write_body(Glsl(), program, options)


def export(program: Program, options: Options, source: str = "<program>",
           shadertoy: bool = False) -> str:
    from psl.export.hlsl import notes

    n = notes(program, options)
    template = "export/shadertoy.glsl.j2" if shadertoy else TEMPLATE
    return render(template, source=source, name=options.name,
                  body=function(program, options), result=n.result, jump_note=n.jumps,
                  uses_self=program.uses_self, audiolink=program.uses_audiolink,
                  includes=helpers(program))
