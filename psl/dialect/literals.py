"""Float literal syntax, which GLSL ES and HLSL share but for the bits-to-float function
an infinity is written with."""

from __future__ import annotations

import math
import struct

_F32 = struct.Struct("<f")


def infinity(as_float: str, negative: bool) -> str:
    """An infinity: neither language has a literal for it, so its float32 bits."""
    return f"{as_float}({'0xFF800000u' if negative else '0x7F800000u'})"


def float_literal(x: float, as_float: str) -> str:
    """`x` as the shortest literal that reads back as the same float32 (parenthesised when
    negative, so it can stand after any operator)."""
    if math.isinf(x):
        return infinity(as_float, x < 0)
    if x == int(x) and abs(x) < 1e7:
        text = f"{int(x)}.0"
    else:
        text = repr(x)
        for digits in range(6, 18):
            short = f"{x:.{digits}g}"
            if _F32.unpack(_F32.pack(float(short)))[0] == x:
                text = short
                break
        if "." not in text and "e" not in text:
            text += ".0"
    return f"({text})" if text.startswith("-") else text
