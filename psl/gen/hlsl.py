"""`psl-gen hlsl`: render the VM shader (VM.cginc, VM.shader) and the display shader.

The builtin dispatch, arity/pad tables and sentinel rules come from psl.registry; the HLSL
of each builtin and the template context from the HLSL dialect (psl.dialect.hlsl).
Templates: templates/hlsl/ (OUTPUTS; docs/compiler-contract.md).
"""

from __future__ import annotations

from psl.dialect import fused
from psl.dialect.hlsl.vm import (
    EXTENSION_DEFINES,
    BinopCase,
    BuiltinCase,
    MissingHlslError,
    builtin_cases,
    context,
)
from psl.gen.target import Target

#: output file name -> template (under templates/)
OUTPUTS: dict[str, str] = {
    "VM.cginc": "hlsl/VM.cginc.j2",
    "VM.shader": "hlsl/VM.shader.j2",
    "Screen.shader": "hlsl/Screen.shader.j2",
}


def vm_context(**options: object) -> dict[str, object]:
    """`context` and the fused instructions (-O2, docs/spec.md §11, psl.dialect.fused),
    which the VM runs; the exports' exact path (same dialect context) runs no fused code."""
    return {**context(**options), **fused.context()}  # type: ignore[arg-type]


TARGET = Target("hlsl", OUTPUTS, vm_context)

__all__ = ["EXTENSION_DEFINES", "OUTPUTS", "TARGET", "BinopCase", "BuiltinCase",
           "MissingHlslError", "builtin_cases", "context", "vm_context"]
