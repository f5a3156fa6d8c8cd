"""The VM's helpers and operations in MSL. There is no Metal VM: the Metal export takes
the HLSL VM's own templates (templates/hlsl/_values.hlsl.j2 for its helpers, _ops.hlsl.j2
for its exact path), with MSL's builtin and operator text (psl.dialect.metal.formulas) in
their cases, and respells the little HLSL in them that MSL writes otherwise (`respell`).
One source for the VM's semantics; the Metal tests compile and run the result."""

from __future__ import annotations

import re

from psl import registry
from psl.dialect.hlsl.vm import BinopCase, BuiltinCase
from psl.dialect.hlsl.vm import context as hlsl_context
from psl.dialect.metal.formulas import BINOP_METAL, BUILTIN_METAL, UNOP_METAL
from psl.dialect.sentinels import with_result_rule

_ZERO = "float4(0.0, 0.0, 0.0, 0.0)"

#: HLSL text -> its MSL spelling, for the HLSL VM's templates (and nothing else of HLSL:
#: Metal's own code never writes these)
_RESPELL: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\[(?:unroll|loop)\] "), ""),  # HLSL's loop attributes: MSL has none
    (re.compile(r"\basuint\("), "as_type<uint>("),  # (scalars only in these templates)
    (re.compile(r"\basfloat\("), "as_type<float>("),
    # out and inout parameters are references into the caller's (thread) memory
    (re.compile(r"\b(?:inout|out) (\w+) "), r"thread \1& "),
)


def respell(text: str) -> str:
    """The HLSL VM helpers' text in MSL."""
    for pattern, repl in _RESPELL:
        text = pattern.sub(repl, text)
    return text


def builtin_cases() -> list[BuiltinCase]:
    """Every builtin's MSL case with its sentinel rule (AudioLink: zeros, no extension)."""
    return [BuiltinCase(b.id, b.name, with_result_rule(b, BUILTIN_METAL[b.name]), "",
                        with_result_rule(b, _ZERO))
            for b in sorted(registry.BUILTINS, key=lambda b: b.id)]


def context() -> dict[str, object]:
    """What the HLSL VM's templates read, with MSL's cases."""
    ctx = hlsl_context()
    ctx.update(
        audiolink=False,
        builtin_cases=builtin_cases(),
        binops=[BinopCase(o.id, o.symbol, BINOP_METAL[o.symbol])
                for o in registry.BINARY_OPERATORS],
        unops=[{"code": o.code, "symbol": o.symbol, "hlsl": UNOP_METAL[o.symbol]}
               for o in registry.UNARY_OPERATORS],
    )
    return ctx
