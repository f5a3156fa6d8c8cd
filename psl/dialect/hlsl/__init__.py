"""HLSL (Unity's flavour): keywords, formulas, intrinsics and VM helpers."""

from __future__ import annotations

from psl.dialect.base import Dialect
from psl.dialect.hlsl import formulas, keywords, natives, vm

DIALECT = Dialect(
    name="hlsl",
    words=keywords.WORDS,
    prefixes=("psl_", "SV_", "AudioLink", "audiolink_"),
    # SV_/sv_: system values; unity_ and _: Unity's inputs; AudioLink's functions
    renamed_prefixes=("psl_", "_", "SV_", "sv_", "unity_", "AudioLink", "audiolink_"),
    reserves_double_underscore=False,
    float4="float4",
    as_float="asfloat",
    natives=natives.NATIVES,
    builtins=formulas.BUILTIN_HLSL,
    binops=formulas.BINOP_HLSL,
    unops=formulas.UNOP_HLSL,
    # the VM's helpers, and the exports' own NaN test (export/_has_nan.hlsl.j2)
    helper_templates=("hlsl/_values.hlsl.j2", "export/_has_nan.hlsl.j2"),
    vm_context=vm.context,
)
