"""The WebGL VM's builtin and operator text: the GLSL dialect's formulas
(psl.dialect.glsl.formulas), named here because vm.frag's header points readers at this
module."""

from __future__ import annotations

from psl.dialect.glsl.formulas import BINOP_GLSL, BUILTIN_GLSL, UNIT_INPUTS, UNITS, UNOP_GLSL, Unit

__all__ = ["BINOP_GLSL", "BUILTIN_GLSL", "UNITS", "UNIT_INPUTS", "UNOP_GLSL", "Unit"]
