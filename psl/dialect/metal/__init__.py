"""The Metal Shading Language (MSL, C++14-based): keywords, formulas, intrinsics and the
VM helpers its exports take (the HLSL VM's, respelled: psl.dialect.metal.vm)."""

from __future__ import annotations

from psl.dialect.base import Dialect
from psl.dialect.metal import formulas, keywords, natives, vm

DIALECT = Dialect(
    name="metal",
    words=keywords.WORDS,
    # C++ keeps names with a double underscore, and a leading underscore and a capital
    prefixes=("psl_", "_"),
    renamed_prefixes=("psl_", "_"),
    reserves_double_underscore=True,
    float4="float4",
    as_float="as_type<float>",
    natives=natives.NATIVES,
    builtins=formulas.BUILTIN_METAL,
    binops=formulas.BINOP_METAL,
    unops=formulas.UNOP_METAL,
    # the HLSL VM's helpers (respelled), and the export's own (NaN test, texture reads)
    helper_templates=("hlsl/_values.hlsl.j2", "export/metal_helpers.metal.j2"),
    vm_context=vm.context,
)
