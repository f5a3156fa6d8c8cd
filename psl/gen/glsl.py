"""`psl-gen glsl`: render the WebGL2 VM, a GLSL ES 3.00 fragment shader (vm.frag) and the
vertex shader that draws it (vm.vert).

The fourth implementation of SPEC §7-8, beside the Python reference VM, the HLSL VM and the
in-world compiler's tables: the builtin dispatch, arity/pad tables, sentinel rules, opcodes
and limits come from psl.registry; the GLSL of each builtin and the template context from
the GLSL dialect (psl.dialect.glsl). psl/web/static/render.js runs the shader
(docs/webgl-vm.md). Templates: templates/glsl/ (OUTPUTS; docs/compiler-contract.md).
"""

from __future__ import annotations

from psl.dialect import fused
from psl.dialect.glsl.vm import (
    ARG_NAMES,
    MODE_COLOR,
    MODE_COST,
    Case,
    MissingGlslError,
    builtin_cases,
    call_variants,
    context,
    textured,
)
from psl.gen.target import Target

#: output file name -> template (under templates/)
OUTPUTS: dict[str, str] = {
    "vm.frag": "glsl/vm.frag.j2",
    "vm.vert": "glsl/vm.vert.j2",
}


def vm_context(**options: object) -> dict[str, object]:
    """`context` and the fused instructions (-O2, docs/spec.md §11, psl.dialect.fused),
    which the VM runs; the exports' exact path (same dialect context) runs no fused code."""
    return {**context(**options), **fused.context()}  # type: ignore[arg-type]


TARGET = Target("glsl", OUTPUTS, vm_context)

__all__ = ["ARG_NAMES", "MODE_COLOR", "MODE_COST", "OUTPUTS", "TARGET", "Case",
           "MissingGlslError", "builtin_cases", "call_variants", "context", "textured",
           "vm_context"]
