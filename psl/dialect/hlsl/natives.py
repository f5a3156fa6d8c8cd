"""HLSL's intrinsics (and Unity's inputs) for the builtins readable exports write natively."""

from __future__ import annotations

from psl.dialect.natives import SHARED_NATIVES

NATIVES: dict[str, str] = {
    **SHARED_NATIVES, "frac": "frac({0})", "lerp": "lerp({0}, {1}, {2})",
    "atan2": "atan2({0}, {1})", "saturate": "saturate({0})", "uv": "uv",
    "xy": "(2.0 * (uv - 0.5)) * 10.0", "time": "_Time",
    "resolution": "float2(_CustomRenderTextureWidth, _CustomRenderTextureHeight)",
    "button": "_InputButton", "axis": "_InputAxis", "deltatime": "unity_DeltaTime",
    "self": "tex2Dlod(_SelfTexture2D, float4({0}, 0.0, 0.0))",
    "camera": "tex2Dlod(_Camera, float4({0}, 0.0, 0.0)).xyz",
    "video": "tex2Dlod(_Video, float4({0}.x, _IsAVProInput != 0.0 ? 1.0 - {0}.y "
             ": {0}.y, 0.0, 0.0)).xyz"}
