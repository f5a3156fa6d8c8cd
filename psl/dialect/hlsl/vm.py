"""The VM shader's operations in HLSL: each builtin's and operator's case (sentinel rule
applied, extension-guarded) and the template context that templates/hlsl/ reads.

Both the VM generator (psl.gen.hlsl renders VM.cginc from it) and the HLSL/Unity exports
(which include the VM's helpers and, on the exact path, its cases) read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from psl import registry
from psl.dialect.hlsl.formulas import BINOP_HLSL, BUILTIN_HLSL, UNOP_HLSL
from psl.dialect.sentinels import with_result_rule
from psl.dialect.tables import arity_groups, binary_rows, common_context, unary_rows

#: registry extension name -> the preprocessor symbol that enables it in VM.cginc
EXTENSION_DEFINES: dict[str, str] = {"audiolink": "AUDIOLINK"}


class MissingHlslError(ValueError):
    """A registry entry has no HLSL expression in psl.dialect.hlsl.formulas."""


@dataclass(frozen=True)
class BuiltinCase:
    id: int
    name: str
    code: str  # the float4 result, sentinel rule applied
    extension: str  # preprocessor symbol guarding the case, "" for core builtins
    # Without the extension the arguments are still popped and the result is zero, shaped
    # by the same sentinel rule: the program behaves as with the extension and no data.
    fallback: str


@dataclass(frozen=True)
class BinopCase:
    id: int
    symbol: str
    code: str


def builtin_cases() -> list[BuiltinCase]:
    missing = [b.name for b in registry.BUILTINS if b.name not in BUILTIN_HLSL]
    if missing:
        raise MissingHlslError(f"builtins without an HLSL expression: {', '.join(missing)}")
    cases = []
    for b in sorted(registry.BUILTINS, key=lambda b: b.id):
        define = EXTENSION_DEFINES.get(b.extension, "") if b.extension else ""
        if b.extension and not define:
            raise MissingHlslError(f"extension {b.extension!r} has no preprocessor symbol")
        cases.append(BuiltinCase(b.id, b.name, with_result_rule(b, BUILTIN_HLSL[b.name]), define,
                                 with_result_rule(b, "float4(0.0, 0.0, 0.0, 0.0)")))
    return cases


def context(max_jumps: int = registry.LIMITS.jumps, audiolink: bool = False,
            max_steps: int = registry.LIMITS.steps) -> dict[str, object]:
    """Template variables of every HLSL output."""
    limits = registry.LIMITS
    ctx = {
        **common_context(max_jumps, max_steps),
        "audiolink": audiolink,
        "texture_width": limits.texture_width,
        "texture_height": limits.texture_height,
        "arity_groups": arity_groups(4),  # psl_call pops into four named values
        "builtin_cases": builtin_cases(),
        "binops": [BinopCase(*row) for row in binary_rows(BINOP_HLSL, MissingHlslError, "HLSL")],
        "unops": [{"code": code, "symbol": symbol, "hlsl": text}
                  for code, symbol, text in unary_rows(UNOP_HLSL, MissingHlslError, "HLSL")],
        "height_scale": registry.RELIEF.height_scale,  # Screen.shader's default relief
        "max_displacement": registry.RELIEF.max_displacement,  # and its clamp
    }
    assert limits.texture_width * limits.texture_height == limits.slots
    return ctx
