"""GLSL ES 3.00 (WebGL2, Shadertoy): keywords, formulas, intrinsics and VM helpers."""

from __future__ import annotations

from psl.dialect.base import Dialect
from psl.dialect.glsl import formulas, keywords, natives, vm

DIALECT = Dialect(
    name="glsl",
    words=keywords.WORDS,
    prefixes=("gl_", "psl_"),
    renamed_prefixes=("gl_", "psl_", "u_"),  # u_: the WebGL VM's uniforms
    reserves_double_underscore=True,
    float4="vec4",
    as_float="uintBitsToFloat",
    natives=natives.NATIVES,
    builtins=formulas.BUILTIN_GLSL,
    binops=formulas.BINOP_GLSL,
    unops=formulas.UNOP_GLSL,
    helper_templates=("glsl/_values.glsl.j2", "glsl/_maths.glsl.j2", "glsl/_sampling.glsl.j2"),
    vm_context=vm.context,
)
