"""The VM's formulas written once, where GLSL ES and HLSL spell them alike (SPEC §8).

Each dialect's builtin table (psl.dialect.glsl.formulas, psl.dialect.hlsl.formulas) starts
from `shared_builtins` and adds only what its language writes differently: a type name
(`vec4` / `float4`) is the one hole here, and a formula that reads a dialect's own
sub-expression (a dot product, a length) takes it as an argument.

Why written out (lerp as a + (b - a) * c, frac as a - floor(a), ...) rather than the
intrinsic of the same name: compilers may evaluate intrinsics differently, and SPEC §8
defines the formula.
"""

from __future__ import annotations

from psl.registry import DEGREES_PER_RADIAN, RADIANS_PER_DEGREE


def lerp(a: str, b: str, t: str) -> str:
    """SPEC §8's lerp: `a + (b - a) * t`."""
    return f"{a} + ({b} - {a}) * {t}"


def reflect(dot: str) -> str:
    """reflect(a, b) given the dialect's text of dot(a, b)."""
    return f"a - 2.0 * {dot} * b"


def not_equal(equal: str) -> str:
    """`!=` given the dialect's text of `==` (1.0 where equal)."""
    return f"1.0 - {equal}"


def shared_builtins(vec4: str) -> dict[str, str]:
    """Builtin name -> result expression of a, b, c, d, for the builtins both languages
    write the same way; `vec4` is the language's four-float type."""
    return {
        "abs": "abs(a)",
        "floor": "floor(a)",
        "ceil": "ceil(a)",
        "frac": "a - floor(a)",
        "mod": "a - b * floor(a / b)",
        "min": "psl_min(a, b)",
        "max": "psl_max(a, b)",
        "clamp": "psl_min(psl_max(a, b), c)",
        "lerp": lerp("a", "b", "c"),
        "smoothstep": "psl_smoothstep(a, b, c)",
        "float2": f"{vec4}(a.x, b.x, 0.0, 0.0)",
        "float3": f"{vec4}(a.x, b.x, c.x, 0.0)",
        "float4": f"{vec4}(a.x, b.x, c.x, d.x)",
        "swizzle": "psl_swizzle(a, b)",
        "uv": f"{vec4}(psl_uv, 0.0, 0.0)",
        # SPEC's 20u - 10, evaluated in the original's float32 order: 2 * (u - 0.5) * 10.
        "xy": f"{vec4}((2.0 * (psl_uv - 0.5)) * 10.0, 0.0, 0.0)",
        "round": "psl_round_even(a)",
        # Written out as SPEC §8.2 gives it: compilers expand the intrinsic fmod differently
        # (DXC as frac(abs(a / b)) * b with a's sign, C's fmodf exactly).
        "fmod": "a - b * trunc(a / b)",
        "trunc": "trunc(a)",
        # One multiplication by the float32 constant (registry), as HLSL lowers them.
        "radians": f"a * {RADIANS_PER_DEGREE!r}",
        "degrees": f"a * {DEGREES_PER_RADIAN!r}",
    }


#: binary arithmetic operator -> expression of l, r (comparisons and logic are per dialect)
ARITHMETIC: dict[str, str] = {"+": "l + r", "-": "l - r", "*": "l * r", "/": "l / r"}

#: unary operators both languages write alike -> expression of v
SIGNS: dict[str, str] = {"-": "-v", "+": "v"}

#: Binary and unary operators over the HLSL VM's helpers (psl_lt, psl_eq, psl_and ...): the
#: HLSL VM and the Metal export, which takes the HLSL VM's helpers (psl.dialect.metal.vm),
#: write them alike. float4 expressions of l, r and of v.
HELPER_BINOPS: dict[str, str] = {
    **ARITHMETIC,
    "<": "psl_lt(l, r)",
    ">": "psl_lt(r, l)",
    "==": "psl_eq(l, r)",
    "<=": "psl_le(l, r)",
    ">=": "psl_le(r, l)",
    "!=": not_equal("psl_eq(l, r)"),
    "&&": "psl_and(l, r)",
    "||": "psl_or(l, r)",
}
HELPER_UNOPS: dict[str, str] = {**SIGNS, "!": "psl_not(v)"}
#: The vector builtins over the same helpers (psl_dot, psl_length, psl_refract).
HELPER_VECTORS: dict[str, str] = {
    "dot": "psl_scalar(psl_dot(a, b))",
    "cross": "float4(cross(a.xyz, b.xyz), 0.0)",
    "distance": "psl_scalar(psl_length(a - b))",
    "normalize": "a / psl_length(a)",
    "length": "psl_scalar(psl_length(a))",
    "reflect": reflect("psl_dot(a, b)"),
    "refract": "psl_refract(a, b, c)",
}
