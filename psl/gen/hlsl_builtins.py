"""The VM shader's builtin and operator text: the HLSL dialect's formulas
(psl.dialect.hlsl.formulas), named here because the spec points readers at this module."""

from __future__ import annotations

from psl.dialect.hlsl.formulas import BINOP_HLSL, BUILTIN_HLSL, UNOP_HLSL

__all__ = ["BINOP_HLSL", "BUILTIN_HLSL", "UNOP_HLSL"]
