"""`psl export --target glsl`: a GLSL ES 3.00 (WebGL2) fragment shader.

Builtin and operator text comes from the GLSL dialect (psl.dialect.glsl), the WebGL VM's:
its results are written over shared *units* (one sqrt, one log2, ... per VM step), so a
call here declares the units its expression needs, with the inputs the builtin chooses.
The helper functions are the WebGL VM's own templates (templates/glsl/_*.glsl.j2): only
the items the code calls (psl.dialect.helpers), or all of them for the exact path.
Uniforms keep the WebGL VM's names (u_time, u_self, ...), so the playground's renderer can
drive either shader.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from psl import registry
from psl.dialect import GLSL
from psl.dialect.glsl.formulas import UNIT_INPUTS, UNITS
from psl.dialect.glsl.vm import context
from psl.dialect.helpers import used, words
from psl.export.ir import Call, Program
from psl.export.names import export_header
from psl.export.sliders import READER, parameters, reader
from psl.export.text import Language, Options, has_exact_path
from psl.templating import render

TEMPLATE = "export/program.glsl.j2"
_COMPARE_DECLS = {
    "cmp_lt": "vec4 cmp_lt = psl_lt(l, r);",
    "cmp_gt": "vec4 cmp_gt = psl_lt(r, l);",
    "cmp_eq": "vec4 cmp_eq = psl_eq(l, r);",
    "cmp_le": "vec4 cmp_le = psl_le(l, r);",
    "cmp_ge": "vec4 cmp_ge = psl_le(r, l);",
    "l_true": "bvec4 l_true = psl_truthy4(l);",
    "r_true": "bvec4 r_true = psl_truthy4(r);",
}


def _units(b: registry.Builtin, expr: str) -> list[str]:
    """Declarations of the shared units (one sqrt, one log2, ...) that `expr` reads, with
    the inputs builtin `b` gives them."""
    inputs = UNIT_INPUTS.get(b.name, {})
    needed = words(expr)
    for unit in reversed(UNITS):  # a unit's input may use earlier units
        if unit.name in needed:
            needed |= words(inputs.get(unit.name, unit.default)) | words(unit.eval)
    lines = []
    for unit in UNITS:
        if unit.name in needed:
            lines.append(f"{unit.in_type} {unit.name}_in = {inputs.get(unit.name, unit.default)};")
            lines.append(f"{unit.type} {unit.name} = {unit.eval};")
    return lines


class Glsl(Language):
    float4 = GLSL.float4
    as_float = GLSL.as_float

    def vec(self, w: int) -> str:
        return GLSL.vec(w)

    def builtin(self, call: Call, args: list[str], target: str, width: int) -> list[str]:
        b = call.builtin
        lines = self.arguments(call, args)
        expr = GLSL.builtins[b.name]
        lines += _units(b, expr)
        take = f"({expr})" if width == 4 else f"({expr}).{'xyzw'[:width]}"
        return [*lines, f"{target} = {take};"]

    def compare(self, symbol: str, left: str, right: str) -> tuple[list[str], str]:
        expr = GLSL.binops[symbol]
        decls = [f"vec4 l = {left};", f"vec4 r = {right};"]
        decls += [d for name, d in _COMPARE_DECLS.items() if name in words(expr)]
        return decls, expr

    def logical_not(self) -> tuple[list[str], str]:
        return [], GLSL.unops["!"]


def helpers(program: Program, exact: bool) -> list[str]:
    """The WebGL VM templates the exported code needs; the exact path needs all of the
    VM's builtins and its operators."""
    names = list(GLSL.helper_templates)
    if program.uses_audiolink or exact:
        names.append("glsl/_audiolink.glsl.j2")
    if exact:
        names.append("glsl/_operators.glsl.j2")
    return names


def used_helpers(includes: list[str], code: str) -> list[str]:
    """Only the helper items `code` needs (and what they need in turn), in their order."""
    return used(includes, context(), code)


def code_slots(program: Program) -> list[str]:
    """The program's slots as uvec4 arguments of their float32 bits, so that the constant
    array holds exactly the VM's program texture, NaN lanes included."""
    assert program.source is not None and program.source.program is not None
    bits = program.source.program.slots().astype(np.float32).view(np.uint32)
    return [", ".join(f"0x{int(x):08X}u" for x in row) for row in bits]


#: Instructions above which GLSL output leaves the exact path out. With the WebGL VM
#: embedded, SwiftShader compiles the raymarchers' shaders (478 instructions) in ~9 s and
#: renders them equal to the VM; apps_TableTennisPro's (1381) took ~45 s and then rendered
#: 364 of 4096 pixels of its typed path wrong (zeros), though none took the exact path.
#: The cause was not found; below the limit is what the tests have seen work.
EXACT_LIMIT = 500


def too_large(program: Program) -> bool:
    """Whether the program is over EXACT_LIMIT instructions for a GLSL exact path."""
    src = program.source
    return bool(src is not None and src.program is not None
                and len(src.program.instructions) > EXACT_LIMIT)


def function(program: Program, options: Options) -> tuple[list[str], list[str]]:
    """See readable.structured_or_dispatch."""
    from psl.export.readable import GlslReadable, structured_or_dispatch

    return structured_or_dispatch(GlslReadable, Glsl, program, options, glsl=True)


def export(program: Program, options: Options, source: str = "<program>",
           shadertoy: bool = False) -> str:
    from psl.export.hlsl import notes

    n = notes(program, options)
    template = "export/shadertoy.glsl.j2" if shadertoy else TEMPLATE
    left_out = has_exact_path(program, options) and too_large(program)
    # without an exact path to fall back to, the NaN checks (and the work budget's
    # handover) would only cost time
    options = replace(options, exact=options.exact and program.checked and not left_out,
                      budget=options.budget and not left_out)
    exact = has_exact_path(program, options)
    body, functions = function(program, options)
    includes = helpers(program, exact)
    # without the exact path only the helpers the code calls are written
    chosen = [] if exact else used_helpers(includes, "\n".join([*functions, *body]))
    sliders = parameters(program)
    # the exact path's copy of the VM calls psl_slider, whatever the program reads
    slider_reader = reader(sliders) if exact or f"{READER}(" in "\n".join(
        [*functions, *body]) else []
    return render(template, header=export_header(source, "shadertoy" if shadertoy else "glsl"),
                  sliders=sliders, slider_reader=slider_reader,
                  source=source, name=options.name,
                  body=body, functions=functions, result=n.result, jump_note=n.jumps,
                  uses_self=program.uses_self,
                  audiolink=program.uses_audiolink or exact,
                  includes=includes if exact else [], chosen=chosen, exact=exact,
                  exact_name=options.exact_name(),
                  code=code_slots(program) if exact else [],
                  exact_left_out=left_out, exact_limit=EXACT_LIMIT,
                  **{**context(), "max_jumps": options.max_jumps})
