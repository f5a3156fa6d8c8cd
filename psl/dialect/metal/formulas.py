"""MSL text for every builtin and operator: the float4 expressions the Metal export's
`psl_vm_<builtin>` helpers and its exact path compute, over the same names as the HLSL
VM's (a, b, c, d the masked arguments; da.. their widths; the VM helpers psl_*, which the
Metal export takes from the HLSL VM's template, respelled: psl.dialect.metal.vm).

The formulas GLSL ES, HLSL and MSL write alike are psl.dialect.formulas'; MSL's intrinsics
that share HLSL's names and arguments are listed once below; only what MSL spells its own
way follows them. The inputs are members of the program's struct (templates/export/
metal.metal.j2): psl_in (the uniforms), psl_self, psl_camera, psl_video (textures).
"""

from __future__ import annotations

from psl.dialect.formulas import (
    HELPER_BINOPS,
    HELPER_UNOPS,
    HELPER_VECTORS,
    shared_builtins,
)
from psl.registry import BUILTINS

#: MSL intrinsics of the same name and lanes as the VM's builtin (applied to float4 a, b)
_SAME_NAME_1 = ("log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "exp",
                "exp2", "sqrt", "sinh", "cosh", "sign")
_SAME_NAME_2 = ("pow", "atan2")

_ZERO = "float4(0.0, 0.0, 0.0, 0.0)"

#: builtin name (psl.registry.BUILTINS) -> MSL float4 expression.
BUILTIN_METAL: dict[str, str] = {
    **shared_builtins("float4"),
    **{n: f"{n}(a)" for n in _SAME_NAME_1},
    **{n: f"{n}(a, b)" for n in _SAME_NAME_2},
    "rsqrt": "1.0 / sqrt(a)",
    "step": "psl_step(a, b)",
    "time": "psl_in.time",
    **HELPER_VECTORS,
    # level 0, in the VM's orientation (psl_read: templates/export/metal_helpers.metal.j2)
    "self": "psl_read(psl_self, a.xy)",
    "resolution": "float4(psl_in.resolution, 0.0, 0.0)",
    "button": "psl_in.button",
    "axis": "psl_in.axis",
    "camera": "float4(psl_read(psl_camera, a.xy).xyz, 0.0)",
    "deltatime": "psl_in.delta_time",
    "video": "float4(psl_read_video(a.xy).xyz, 0.0)",
    "all": "psl_scalar(psl_all(a, da))",
    "any": "psl_scalar(psl_any(a))",
    # The clamp rule of SPEC §8.2 (a NaN lane gives 0, as saturate does on GPUs).
    "saturate": f"psl_min(psl_max(a, {_ZERO}), float4(1.0, 1.0, 1.0, 1.0))",
    # |a| >= 10 gives +-1 in float32; the clamp keeps an exp-based tanh from inf / inf.
    "tanh": "tanh(clamp(a, float4(-10.0), float4(10.0)))",
    # the program's named sliders (psl.export.sliders' reader, a member of its struct)
    "slider": "psl_scalar(psl_slider(a.x))",
}
# AudioLink has no Metal port: its builtins read zeros, as in a build without AudioLink
# (SPEC §8.7), shaped by the sentinel rule where the exact path applies it.
BUILTIN_METAL.update({b.name: _ZERO for b in BUILTINS if b.extension == "audiolink"})

#: binary and unary operator symbol -> float4 expression (the helpers' spelling, shared)
BINOP_METAL: dict[str, str] = HELPER_BINOPS
UNOP_METAL: dict[str, str] = HELPER_UNOPS
