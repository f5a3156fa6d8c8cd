"""Width names for the editor (`float`, `float3`, `float|float3`)."""

from __future__ import annotations

from collections.abc import Iterable


def width_name(ws: Iterable[int]) -> str:
    """`float`, `float3`, or `float|float3` when it depends on the path taken."""
    names = [("float" if w == 1 else f"float{w}") for w in sorted(ws)]
    return "|".join(names) if names else "no value"
