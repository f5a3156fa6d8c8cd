"""`psl-gen hlsl`: render the VM shader (VM.cginc, VM.shader) and the display shader.

The builtin dispatch, arity/pad tables and sentinel rules come from psl.registry; the HLSL
of each builtin and the template context from the HLSL dialect (psl.dialect.hlsl).
Templates: templates/hlsl/ (OUTPUTS; docs/compiler-contract.md).
"""

from __future__ import annotations

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

TARGET = Target("hlsl", OUTPUTS, context)

__all__ = ["EXTENSION_DEFINES", "OUTPUTS", "TARGET", "BinopCase", "BuiltinCase",
           "MissingHlslError", "builtin_cases", "context"]
