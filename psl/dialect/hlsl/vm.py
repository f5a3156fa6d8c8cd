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


def binop_cases() -> list[BinopCase]:
    missing = [o.symbol for o in registry.BINARY_OPERATORS if o.symbol not in BINOP_HLSL]
    if missing:
        raise MissingHlslError(f"binary operators without HLSL: {', '.join(missing)}")
    return [BinopCase(o.id, o.symbol, BINOP_HLSL[o.symbol]) for o in registry.BINARY_OPERATORS]


def unop_cases() -> list[dict[str, object]]:
    missing = [o.symbol for o in registry.UNARY_OPERATORS if o.symbol not in UNOP_HLSL]
    if missing:
        raise MissingHlslError(f"unary operators without HLSL: {', '.join(missing)}")
    return [
        {"code": o.code, "symbol": o.symbol, "hlsl": UNOP_HLSL[o.symbol]}
        for o in registry.UNARY_OPERATORS
    ]


def _arity_groups() -> list[tuple[int, list[int]]]:
    groups: dict[int, list[int]] = {}
    for b in sorted(registry.BUILTINS, key=lambda b: b.id):
        if b.arity > 4:  # psl_call pops into four named values
            raise ValueError(f"builtin {b.name}: the HLSL VM takes at most 4 arguments")
        if b.arity:
            groups.setdefault(b.arity, []).append(b.id)
    return sorted(groups.items())


def context(max_jumps: int = registry.LIMITS.jumps, audiolink: bool = False,
            max_steps: int = registry.LIMITS.steps) -> dict[str, object]:
    """Template variables of every HLSL output."""
    if max_jumps < 0:
        raise ValueError("max_jumps must be >= 0")
    if not 0 <= max_steps < 2**32:
        raise ValueError("max_steps must be between 0 and 2^32 - 1")
    limits = registry.LIMITS
    ctx = {
        "max_jumps": max_jumps,
        "max_steps": max_steps,
        "audiolink": audiolink,
        "slots": limits.slots,
        "registers": limits.registers,
        "stack": limits.stack,
        "texture_width": limits.texture_width,
        "texture_height": limits.texture_height,
        "op": {o.name: int(o) for o in registry.Op},
        "arity_groups": _arity_groups(),
        "padded": [b for b in sorted(registry.BUILTINS, key=lambda b: b.id) if b.pad],
        "builtin_cases": builtin_cases(),
        "binops": binop_cases(),
        "unops": unop_cases(),
        "height_scale": registry.RELIEF.height_scale,  # Screen.shader's default relief
        "max_displacement": registry.RELIEF.max_displacement,  # and its clamp
    }
    assert limits.texture_width * limits.texture_height == limits.slots
    return ctx
