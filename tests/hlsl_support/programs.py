"""Hand-written test programs for the HLSL VM: PSL sources covering every builtin and
operator with arguments of several dimensions, and hand-assembled bytecode for the corners
of SPEC §7 that the compiler never emits, and one program per fused instruction (-O2,
docs/spec.md §11)."""

from __future__ import annotations

import math

import numpy as np

from psl import bytecode, registry
from psl.registry import BINARY_OPERATORS, BUILTINS, UNARY_OPERATORS, Op

NAN = math.nan

#: argument expressions of each dimension; pixel-dependent so every pixel differs
ARGS: dict[int, list[str]] = {
    1: ["uv().x * 2 - 0.5", "0.75", "xy().y"],
    2: ["uv() * 3 - 1", "float2(0.5, uv().y)"],
    3: ["float3(uv().x, 0.25, uv().y * 4 - 2)", "float3(1, -2, 0.5) * uv().y"],
    4: ["float4(uv().y, uv().x - 0.5, 2, -1)", "time() * uv().x"],
}

#: arguments that keep a builtin inside its domain or make it interesting
SPECIAL: dict[str, list[str]] = {
    "self": ["uv()", "uv().yx * 1.5 - 0.25", "float3(uv().x, uv().y, 3)"],
    "camera": ["uv()", "uv() * 2 - 0.5", "uv().yx"],
    "video": ["uv()", "uv() * 1.3", "float4(uv().x, uv().y, 9, 9)"],
    "refract": ["float3(0, -1, 0), float3(0, 1, 0) * uv().x, 0.66",
                "normalize(float3(uv().x - 0.5, -1, 0.2)), float3(0, 1, 0), 1.5",
                "float2(0.6, -0.8), float2(0, 1), uv().x * 3"],
    "swizzle": [],
    "audiolinkdata": ["float2(uv().x * 130, uv().y * 64)", "float2(3, 2)"],
    "audiolinkdatamultiline": ["float2(uv().x * 300, 4)"],
    "audiolinklerp": ["float2(uv().x * 127.5, 1.5)"],
    "audiolinklerpmultiline": ["float2(uv().x * 255.7, 4)"],
    "audiolinkdecodedataasseconds": ["float2(uv().x * 16, 22 + uv().y)"],
    "audiolinkgetamplitudeatfrequency": ["uv().x * 2000 + 10", "0"],
    "audiolinkgetamplitudeatnote": ["uv().x * 9, uv().y * 11"],
    "audiolinkgetchronotime": ["uv().x * 8, uv().y * 4"],
    "audiolinkgetchronotimenormalized": ["uv().x * 8, uv().y * 4, 0.37"],
    "audiolinkgetchronotimeinterval": ["uv().x * 8, uv().y * 4, 0.37, 2.5"],
}


#: extra programs at the corners of builtins (quadrants, signs, zeros, infinities, overflow),
#: on top of the argument dimensions every builtin gets; `-0` is the negated constant 0
EDGES: dict[str, str] = {
    "atan2_quadrants": "atan2(uv().y * 2 - 1, uv().x * 2 - 1)",
    "atan2_axes": "atan2(float4(0, 1, 0, -1) * uv().x, float4(1, 0, -1, 0) * uv().y)",
    "atan2_signed_zeros": "atan2(float4(0, -0, -0, 0), float4(0, -1, 1, -0))",
    "atan2_infinities": "z = uv().x - uv().x; atan2(float3(1, -1, 3) / z, float3(1, 2, -1) / z)",
    "fmod_signs": "fmod(float4(uv().x * 16 - 8, -7.5, 7.5, -7.5), "
                  "float4(1.5, 2, -2, -2) * (uv().y + 0.5))",
    "fmod_vs_mod": "fmod(xy(), 3) - mod(xy(), 3)",
    "fmod_by_zero": "fmod(float2(3, uv().x), uv().y - uv().y)",
    "saturate_infinities": "z = uv().x - uv().x; saturate(float3(1, -1, 0) / z) + uv().x",
    "trunc_signs": "trunc(xy() * 0.37) + trunc(float2(-0.5, 2.5) * uv().x)",
    "radians_degrees": "degrees(radians(xy() * 36)).xyxy + radians(float4(180, -90, 0.001, 720))",
    "sinh_large": "sinh(float4(uv().x * 200 - 100, 100, -100, 0.0001))",
    "cosh_large": "cosh(float4(uv().y * 200 - 100, 100, -100, 0.0001))",
    "tanh_large": "tanh(float4(uv().x * 40 - 20, 100, -100, 9.5)) "
                  "+ tanh(float4(1, -1, 0, 2) / (uv().x - uv().x))",
    "log10_range": "log10(float4(1000, 0.01, uv().x * 1000000, 0)) + log10(xy())",
}


def builtin_sources() -> dict[str, str]:
    """name -> PSL source calling builtins with argument dimensions 1-4 (and mixed)."""
    out: dict[str, str] = {}
    for b in BUILTINS:
        if b.internal:
            continue
        if b.name in SPECIAL:
            for k, args in enumerate(SPECIAL[b.name]):
                out[f"{b.name}_{k}"] = f"{b.name}({args})"
            if SPECIAL[b.name] or b.arity == 0:
                continue
        if b.arity == 0:
            out[b.name] = f"{b.name}()"
            out[f"{b.name}_plus"] = f"{b.name}() + float3(1, 2, 3)"
            continue
        for dim in (1, 2, 3, 4):
            for variant in range(len(ARGS[dim])):
                args = [ARGS[dim][(variant + i) % len(ARGS[dim])] for i in range(b.arity)]
                out[f"{b.name}_d{dim}_{variant}"] = f"{b.name}({', '.join(args)})"
        mixed = [ARGS[1 + (i * 2 + 1) % 4][0] for i in range(b.arity)]
        out[f"{b.name}_mixed"] = f"{b.name}({', '.join(mixed)})"
        out[f"{b.name}_sum"] = f"{b.name}({', '.join(mixed)}) + float4(1, 2, 3, 4).xyz"
    # swizzles and swizzle assignment
    out["swizzle_read"] = "v = float4(uv().x, uv().y, 2, 3); v.wzyx + v.xxyy + v.g + v.rgb.zyx.xz.y"
    out["swizzle_of_scalar"] = "(uv().x).xyzw"
    out["swizzle_assign"] = "v = time(); v.wy = uv(); v.x = 5; v.zx += float2(1, 2); v"
    out["swizzle_assign_repeat"] = "v.xx = uv(); v.yz = 7; v"
    out.update(EDGES)
    return out


def operator_sources() -> dict[str, str]:
    out: dict[str, str] = {}
    operands = {
        "d1": "(uv().x * 2 - 1)",
        "d1b": "(uv().y - 0.5)",
        "zero": "0",
        "d2": "(uv() - 0.5)",
        "d3": "float3(uv().y, 0, -uv().x)",
        "d4": "float4(0, uv().x, 1, uv().y - 0.5)",
    }
    pairs = [("d1", "d1b"), ("d1", "d3"), ("d3", "d1"), ("d2", "d3"), ("d3", "d2"),
             ("d4", "d4"), ("d4", "d2"), ("zero", "d2"), ("d2", "zero"), ("d1", "zero")]
    for op in BINARY_OPERATORS:
        for left, right in pairs:
            out[f"binop{op.id}_{left}_{right}"] = f"{operands[left]} {op.symbol} {operands[right]}"
    for u in UNARY_OPERATORS:
        for name, operand in operands.items():
            out[f"unop{u.code}_{name}"] = f"{u.symbol}{operand}"
    out["precedence"] = "1 + 2 * uv().x - 3 / (uv().y + 1) < 2 && uv().x > 0.5 || !(uv().y < 0.3)"
    return out


def control_sources() -> dict[str, str]:
    return {
        "if_else": "if (uv().x < 0.5) { c = float3(1, 0, 0); } else if (uv().y < 0.5) "
                   "{ c = float3(0, 1, 0); } else { c = 0.25; }\nc",
        "while": "i = 0; s = 0; while (i < uv().x * 10) { s += i; i++; }\nfloat2(s, i)",
        "for": "s = 0; for (i = 0; i < uv().y * 7; i += 1) { s = s * 0.5 + i; }\ns",
        "functions": "fun f(a, b) { t = a * b; t + 1 }\nfun g(a) { f(a, a) * f(1, a) }\n"
                     "g(uv().x) + f(uv().y, 2)",
        "globals_in_function": "n = 3; fun h() { n += 1; n }\nh() + h() * uv().x",
        "nested_value_in_if": "fun k(a) { if (a > 0.5) { 7 } a * 2 }\nk(uv().x)",
        "infinite_loop": "i = 0; while (1) { i += 1; }\ni",
        "loop_until_limit_then_value": "i = 0; while (i < uv().x * 3000) { i += 1; }\ni",
        "deltatime_inputs": "deltatime() + button() * 2 + axis() * 3",
        "unassigned": "q",
        "float3_alpha_zero": "float3(1, 2, 3)",
    }


# ---- hand-assembled bytecode ----------------------------------------------------------

def assemble(*instructions: tuple) -> np.ndarray:
    """(op, operand lanes...) tuples -> float32 slots; NaN lanes use the padding NaN bits."""
    return bytecode.assemble((op, operand) for op, *operand in instructions)


C, V, B, U, K, S, J, CJ = (Op.PUSHCONST, Op.PUSHVAR, Op.BINOP, Op.UNOP, Op.CALL, Op.SETVAR,
                           Op.JUMP, Op.CONDJUMP)
UV = registry.BUILTIN_BY_NAME["uv"].id
PLUS = registry.BINOP_BY_SYMBOL["+"].id


def bytecode_programs() -> dict[str, np.ndarray]:
    """Corners of SPEC §7 the compiler never emits."""
    progs: dict[str, tuple] = {
        "empty": (),
        "unknown_builtin": ((K, 63), (K, UV), (B, PLUS)),
        "unknown_binop": ((K, UV), (K, UV), (B, 13)),
        "unknown_unop": ((K, UV), (U, 7)),
        "dim0_values": ((C, NAN, NAN, NAN, NAN), (U, ord("!")), (C, NAN, NAN, NAN, NAN),
                        (C, 2), (B, PLUS), (B, PLUS)),
        "dim0_plus_scalar": ((C, NAN, NAN, NAN, NAN), (C, 2), (B, 3)),
        "holey_value": ((C, 1, NAN, 3, NAN), (K, UV), (B, PLUS)),
        "holey_pad": ((C, NAN, 5, NAN, NAN), (C, 1, 2, 3), (K, 21)),
        "setvar_mask_5digits": ((K, UV), (S, 3, 12342), (V, 3)),
        "setvar_mask_10000": ((C, 9), (S, 1), (K, UV), (S, 1, 10000), (V, 1)),
        "setvar_mask_bad_digits": ((K, UV), (S, 2, 5061), (V, 2)),
        "setvar_mask_fraction": ((K, UV), (S, 2, 21.7), (V, 2)),
        "setvar_mask_negative": ((C, 4), (S, 2), (K, UV), (S, 2, -12), (V, 2)),
        "register_wrap": ((K, UV), (S, 300), (V, 44)),
        "operand_rounding": ((1.4, 3), (2.5, 0), (C, 2), (B, 2.5)),
        "odd_jump_target": ((C, 1), (J, 5), (K, UV)),
        "jump_past_end": ((K, UV), (J, 9000), (C, 5)),
        "condjump_nan": ((K, UV), (C, NAN), (CJ, 8), (C, 2), (B, PLUS)),
        "condjump_negative_zero": ((K, UV), (C, -0.0), (CJ, 8), (C, 2), (B, PLUS)),
        "stack_underflow": ((B, PLUS),),
        # entries written before the underflow, and past it: only the unwritten read zero
        "stack_underflow_between_writes": ((K, UV), (S, 1), (B, PLUS), (V, 1), (B, PLUS),
                                           (C, 2), (B, PLUS), (B, PLUS), (B, PLUS)),
        # an underflow into entries that only a deep stack wrote (the ring wrapped)
        "stack_underflow_aliased": tuple([(K, UV)] * 130 + [(S, 1)] * 130
                                         + [(B, PLUS)] * 3 + [(C, 3)] * 2 + [(B, PLUS)] * 4),
        "stack_overflow": tuple([(K, UV)] * 140 + [(B, PLUS)] * 3),
        "swizzle_odd_masks": ((K, UV), (C, 0.5, 5, 2, -1), (K, 29)),
        "swizzle_gap": ((C, 1, 2, 3, 4), (C, 4, 0, 1, 0), (K, 29)),
        "call_pops_missing_args": ((K, registry.BUILTIN_BY_NAME["float4"].id),),
        "huge_constants": ((C, 3e38), (C, 3e38), (B, PLUS), (C, -1e-45), (B, 3)),
    }
    return {name: assemble(*ins) for name, ins in progs.items()}


def fused_program(f: registry.Fused) -> np.ndarray:
    """A program that sets registers 1-3, then runs fused instruction f with fields that
    exercise each step (V 1-3, K constants, W .zxy/.wzyx picks, B + and *, U -, C sin/abs,
    S registers 2-3, J/G to the end) and adds registers 2 and 3 to what it leaves."""
    ins = bytecode.instruction
    plus = registry.BINOP_BY_SYMBOL["+"].id
    times = registry.BINOP_BY_SYMBOL["*"].id
    head = [ins(Op.PUSHCONST, 0.25, 0.5, 0.75, 1.0), ins(Op.SETVAR, 1),
            ins(Op.PUSHCONST, 2.0, -3.0, 5.0, NAN), ins(Op.SETVAR, 2),
            ins(Op.PUSHCONST, -1.5, 3.0, 0.125, 8.0), ins(Op.SETVAR, 3),
            # operands below the fused instruction
            ins(Op.PUSHVAR, 1), ins(Op.PUSHVAR, 2), ins(Op.PUSHVAR, 3)]
    end = 2 * (len(head) + 1)  # the instruction after the fused one
    fields: list[float] = []
    for k, t in enumerate(f.tokens):
        fields.append({"V": float(1 + k % 3), "K": 0.5 + k, "W": (3120.0, 4321.0)[k % 2],
                       "B": float((plus, times)[k % 2]), "U": float(ord("-")),
                       "C": float(registry.BUILTIN_BY_NAME[("sin", "abs")[k % 2]].id),
                       "S": float(2 + k % 2), "J": float(end), "G": float(end)}[t])
    fused = bytecode.Instruction(registry.FusedOp(f.op),  # type: ignore[arg-type]
                                 tuple([*fields, *[0.0] * (7 - len(fields))]))
    tail = [ins(Op.PUSHVAR, 2), ins(Op.BINOP, plus), ins(Op.PUSHVAR, 3), ins(Op.BINOP, plus)]
    return bytecode.Program([*head, fused, *tail], 4, {}).slots()


def fused_programs() -> dict[str, np.ndarray]:
    """One program per fused instruction of the registry (-O2, docs/spec.md §11), by name."""
    return {f.name: fused_program(f) for f in registry.FUSED}
