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
from dataclasses import replace

from psl import registry
from psl.export.exact import exact_parts
from psl.export.ir import Call, Program
from psl.export.text import Language, Options, write_body
from psl.gen.env import render
from psl.gen.glsl import builtin_cases, context
from psl.gen.glsl_builtins import BINOP_GLSL, BUILTIN_GLSL, UNIT_INPUTS, UNITS, UNOP_GLSL

TEMPLATE = "export/program.glsl.j2"
_CASES = {c.id: c for c in builtin_cases()}
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


def _units(b: registry.Builtin, expr: str) -> list[str]:
    """Declarations of the shared units (one sqrt, one log2, ...) that `expr` reads, with
    the inputs builtin `b` gives them."""
    inputs = UNIT_INPUTS.get(b.name, {})
    needed = _words(expr)
    for unit in reversed(UNITS):  # a unit's input may use earlier units
        if unit.name in needed:
            needed |= _words(inputs.get(unit.name, unit.default)) | _words(unit.eval)
    lines = []
    for unit in UNITS:
        if unit.name in needed:
            lines.append(f"{unit.in_type} {unit.name}_in = {inputs.get(unit.name, unit.default)};")
            lines.append(f"{unit.type} {unit.name} = {unit.eval};")
    return lines


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
        lines += _units(b, expr)
        take = f"({expr})" if width == 4 else f"({expr}).{'xyzw'[:width]}"
        return [*lines, f"{target} = {take};"]

    def exact_call(self, builtin_id: int, arity: int, raws: list[str]) -> str:
        b = registry.BUILTIN_BY_ID.get(builtin_id)
        if b is None:  # an id not in the table: arity 0, zeros (SPEC §8)
            return "vec4(0.0)"
        return f"psl_x_{b.name}({', '.join(raws)})"

    def exact_builtin(self, b: registry.Builtin) -> list[str]:
        """The exact path's CALL of one builtin: the VM's masking and its result rule."""
        code = _CASES[b.id].code
        guard = f"PSL_X_{b.name.upper()}"
        return [f"#ifndef {guard}", f"#define {guard}",
                f"vec4 psl_x_{b.name}(vec4 a, vec4 b, vec4 c, vec4 d)", "{",
                "    uint da, db, dc, dd, largest;",
                f"    psl_mask_args({b.arity}u, {'true' if b.pad else 'false'}, a, b, c, d, "
                "da, db, dc, dd, largest);",
                "    vec4 largest_mask = psl_mask(largest);",
                *("    " + line for line in _units(b, code)),
                f"    return {code};", "}", "#endif"]

    def index(self, expr: str) -> str:
        return f"int({expr})"

    def compare(self, symbol: str, left: str, right: str) -> tuple[list[str], str]:
        expr = BINOP_GLSL[symbol]
        decls = [f"vec4 l = {left};", f"vec4 r = {right};"]
        decls += [d for name, d in _COMPARE_DECLS.items() if name in _words(expr)]
        return decls, expr

    def logical_not(self) -> tuple[list[str], str]:
        return [], UNOP_GLSL["!"]


def helpers(program: Program, exact: bool) -> list[str]:
    """The WebGL VM templates the exported code needs; the exact path needs its CALL step."""
    names = ["glsl/_values.glsl.j2", "glsl/_maths.glsl.j2", "glsl/_sampling.glsl.j2"]
    if program.uses_audiolink or exact:
        names.append("glsl/_audiolink.glsl.j2")
    if exact:
        names += ["glsl/_operators.glsl.j2", "export/_exact.glsl.j2"]
    return names


#: Instructions above which GLSL output leaves the exact path out: SwiftShader's compiler
#: took over six minutes on apps_TableTennisPro's (1381 instructions) and over four on the
#: raymarcher's (478), and WebGL gave up,
#: so a browser would too. The HLSL and Unity outputs keep it at every size.
EXACT_LIMIT = 150


def exact_left_out(program: Program, options: Options) -> bool:
    """Whether the exact path is needed but too large for GLSL (see EXACT_LIMIT)."""
    src = program.source
    return bool(options.exact and program.checked and src is not None
                and src.program is not None and len(src.program.instructions) > EXACT_LIMIT)


def function(program: Program, options: Options) -> list[str]:
    return write_body(Glsl(), program, options)


def export(program: Program, options: Options, source: str = "<program>",
           shadertoy: bool = False) -> str:
    from psl.export.hlsl import notes

    n = notes(program, options)
    template = "export/shadertoy.glsl.j2" if shadertoy else TEMPLATE
    left_out = exact_left_out(program, options)
    if left_out:
        # no exact path to fall back to, so the NaN checks would only cost time
        options = replace(options, exact=False)
    exact, exact_fns = ([], []) if left_out else exact_parts(Glsl(), program, options)
    return render(template, source=source, name=options.name,
                  body=function(program, options), result=n.result, jump_note=n.jumps,
                  uses_self=program.uses_self,
                  audiolink=program.uses_audiolink or bool(exact),
                  includes=helpers(program, bool(exact)), exact=exact,
                  exact_name=options.exact_name(),
                  exact_helpers=exact_fns, exact_left_out=left_out,
                  exact_limit=EXACT_LIMIT,
                  **context())
