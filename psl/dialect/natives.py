"""Builtins both languages have as an intrinsic of the same name and arguments, for readable
exports where the widths make the intrinsic equal to the VM ({0}, {1}, ... the arguments)."""

from __future__ import annotations

SHARED_NATIVES: dict[str, str] = {n: f"{n}({{0}})" for n in (
    "sin", "cos", "tan", "asin", "acos", "atan", "exp", "exp2", "log", "log2", "sqrt", "abs",
    "floor", "ceil", "trunc", "sinh", "cosh", "radians", "degrees", "length", "normalize")}
SHARED_NATIVES.update({n: f"{n}({{0}}, {{1}})" for n in (
    "pow", "min", "max", "step", "dot", "distance", "reflect", "cross")})
SHARED_NATIVES.update({"clamp": "clamp({0}, {1}, {2})",
                       "smoothstep": "smoothstep({0}, {1}, {2})",
                       "rsqrt": "1.0 / sqrt({0})", "tanh": "tanh(clamp({0}, -10.0, 10.0))"})
