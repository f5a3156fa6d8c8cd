"""HLSL text for every builtin and operator of the VM shader and the HLSL/Unity exports.

The VM template (templates/hlsl/VM.cginc.j2) wraps each expression in the dispatch `switch`
generated from psl.registry and applies the result-dimension rule (`ResultDim`) around it, so
an expression only computes the float4 value (sentinel lanes are added by the template).

Names available inside a builtin expression:
  a, b, c, d        the arguments after masking (and padding), float4, in source order
  da, db, dc, dd    the dimensions the arguments had before masking (uint)
  psl_uv            the pixel's texture coordinate (float2)
  helper functions  defined in VM.cginc (psl_*), Unity's inputs (_Time, ...)
Extension builtins may also use the functions of their extension's include.

Operators get `l`, `r` (binary, after the dimension-1 broadcast) or `v` (unary).
The formulas both languages write alike are psl.dialect.formulas'; only HLSL's own are here.
"""

from __future__ import annotations

from psl.dialect.formulas import (
    HELPER_BINOPS,
    HELPER_UNOPS,
    HELPER_VECTORS,
    shared_builtins,
)

#: builtin name (psl.registry.BUILTINS) -> HLSL float4 expression.
BUILTIN_HLSL: dict[str, str] = {
    **shared_builtins("float4"),
    "log": "log(a)",
    "log2": "log2(a)",
    "sin": "sin(a)",
    "cos": "cos(a)",
    "tan": "tan(a)",
    "asin": "asin(a)",
    "acos": "acos(a)",
    "atan": "atan(a)",
    "pow": "pow(a, b)",
    "exp": "exp(a)",
    "exp2": "exp2(a)",
    "sqrt": "sqrt(a)",
    "rsqrt": "1.0 / sqrt(a)",
    # HLSL's sign() returns int4: convert explicitly.
    "sign": "float4(sign(a))",
    "step": "psl_step(a, b)",
    "time": "_Time",
    **HELPER_VECTORS,
    "self": "tex2Dlod(_SelfTexture2D, float4(a.xy, 0.0, 0.0))",
    "resolution": "float4(_CustomRenderTextureWidth, _CustomRenderTextureHeight, 0.0, 0.0)",
    "button": "_InputButton",
    "axis": "_InputAxis",
    "camera": "float4(tex2Dlod(_Camera, float4(a.xy, 0.0, 0.0)).xyz, 0.0)",
    "deltatime": "unity_DeltaTime",
    # AVPro delivers the video upside down.
    "video": "float4(tex2Dlod(_Video, float4(a.x, _IsAVProInput != 0.0 ? 1.0 - a.y : a.y, "
             "0.0, 0.0)).xyz, 0.0)",
    "all": "psl_scalar(psl_all(a, da))",
    "any": "psl_scalar(psl_any(a))",
    "atan2": "atan2(a, b)",
    # The clamp rule of SPEC §8.2 (a NaN lane gives 0, as saturate does on GPUs).
    "saturate": "psl_min(psl_max(a, float4(0.0, 0.0, 0.0, 0.0)), float4(1.0, 1.0, 1.0, 1.0))",
    "sinh": "sinh(a)",
    "cosh": "cosh(a)",
    # |a| >= 10 gives +-1 in float32 (tanh is within 2^-25 of 1 from |a| = 9.1 on); the
    # clamp keeps GPUs that compute tanh from exp(2a) from reaching inf / inf = NaN.
    "tanh": "tanh(clamp(a, -10.0, 10.0))",
    "log10": "log10(a)",
    # the screen's sliders (VM.cginc's psl_slider reads its uniform array)
    "slider": "psl_scalar(psl_slider(a.x))",
    # AudioLink (compiled only with AUDIOLINK defined); names from AudioLink.cginc. The
    # scalar ones take `.x`: some AudioLink versions return float4 from the amplitude
    # functions, and `.x` of a float is the float itself.
    "audiolinkgetversion": "psl_scalar(AudioLinkGetVersion().x)",
    "audiolinkdata": "AudioLinkData(psl_to_uint2(a.xy))",
    "audiolinkdatamultiline": "AudioLinkDataMultiline(psl_to_uint2(a.xy))",
    "audiolinklerp": "AudioLinkLerp(a.xy)",
    "audiolinklerpmultiline": "AudioLinkLerpMultiline(a.xy)",
    "audiolinkdecodedataasseconds":
        "psl_scalar(AudioLinkDecodeDataAsSeconds(psl_to_uint2(a.xy)).x)",
    "audiolinkgetamplitudeatfrequency": "psl_scalar(AudioLinkGetAmplitudeAtFrequency(a.x).x)",
    "audiolinkgetamplitudeatnote": "psl_scalar(AudioLinkGetAmplitudeAtNote(a.x, b.x).x)",
    "audiolinkgetchronotime":
        "psl_scalar(AudioLinkGetChronoTime(psl_to_uint(a.x), psl_to_uint(b.x)).x)",
    "audiolinkgetchronotimenormalized":
        "psl_scalar(AudioLinkGetChronoTimeNormalized(psl_to_uint(a.x), psl_to_uint(b.x), c.x).x)",
    "audiolinkgetchronotimeinterval":
        "psl_scalar(AudioLinkGetChronoTimeInterval(psl_to_uint(a.x), psl_to_uint(b.x), c.x, "
        "d.x).x)",
}

#: binary and unary operator symbol -> float4 expression (the helpers' spelling, shared)
BINOP_HLSL: dict[str, str] = HELPER_BINOPS
UNOP_HLSL: dict[str, str] = HELPER_UNOPS
