"""GLSL ES 3.00's intrinsics for the builtins readable exports write natively."""

from __future__ import annotations

from psl.dialect.natives import SHARED_NATIVES

#: GLSL ES leaves the precision of these to the implementation, and SwiftShader's differ
#: from the VM's by more than 1e-3 where a program amplifies them (mod of an atan, 1/sin
#: near zero: scene_spiral, scene_line_by_moon); the WebGL VM computes them itself
#: (templates/glsl/_maths.glsl.j2), so exported GLSL calls its code.
VM_MATH = frozenset({"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "exp",
                     "exp2", "log", "log2", "log10", "pow", "sinh", "cosh", "tanh"})

_ALL = {**SHARED_NATIVES, "frac": "fract({0})", "mod": "mod({0}, {1})",
        "lerp": "mix({0}, {1}, {2})", "atan2": "atan({0}, {1})",
        "saturate": "clamp({0}, 0.0, 1.0)", "sign": "sign({0})",
        "round": "roundEven({0})", "uv": "uv", "xy": "(2.0 * (uv - 0.5)) * 10.0",
        "time": "u_time", "resolution": "u_resolution", "button": "u_button",
        "axis": "u_axis", "deltatime": "u_deltatime",
        "self": "psl_sample(u_self, {0})", "camera": "psl_sample(u_camera, {0}).xyz",
        "video": "psl_sample(u_video, vec2({0}.x, u_is_avpro ? 1.0 - {0}.y : {0}.y)).xyz"}
NATIVES: dict[str, str] = {k: v for k, v in _ALL.items() if k not in VM_MATH}
