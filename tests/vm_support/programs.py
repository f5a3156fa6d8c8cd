"""Build programs by hand (Op + operands) and run them on small grids."""

from __future__ import annotations

import math

import numpy as np

from psl import bytecode
from psl.compiler import compile_source
from psl.registry import BINOP_BY_SYMBOL, BUILTIN_BY_NAME, UNOP_BY_SYMBOL, Op
from psl.vm import Inputs, execute

NAN = math.nan
Ins = tuple[Op, tuple[float, ...]]


def assemble(*instructions: Ins) -> np.ndarray:
    """float32 slots [2n][4]; missing operand lanes are the padding NaN."""
    return bytecode.assemble(instructions)


def const(*lanes: float) -> Ins:
    return (Op.PUSHCONST, lanes)


def push(reg: int) -> Ins:
    return (Op.PUSHVAR, (reg,))


def setvar(reg: int, mask: float = NAN) -> Ins:
    return (Op.SETVAR, (reg, mask))


def bop(symbol: str) -> Ins:
    return (Op.BINOP, (BINOP_BY_SYMBOL[symbol].id,))


def uop(symbol: str) -> Ins:
    return (Op.UNOP, (UNOP_BY_SYMBOL[symbol].code,))


def call(name: str | int) -> Ins:
    bid = name if isinstance(name, int) else BUILTIN_BY_NAME[name].id
    return (Op.CALL, (bid,))


def jump(target_slot: int) -> Ins:
    return (Op.JUMP, (target_slot,))


def condjump(target_slot: int) -> Ins:
    return (Op.CONDJUMP, (target_slot,))


def run(slots: np.ndarray, width: int = 1, height: int = 1, max_jumps: int = 2000,
        **kw) -> np.ndarray:
    img, _ = execute(slots, Inputs(width=width, height=height, **kw), max_jumps=max_jumps)
    return img


def run1(slots: np.ndarray, **kw) -> np.ndarray:
    """Run on one pixel; the pixel's float4."""
    return run(slots, **kw)[0, 0]


def src1(source: str, **kw) -> np.ndarray:
    """Compile PSL source and run it on one pixel (uv = (0.5, 0.5))."""
    return run1(compile_source(source).unwrap().slots(), **kw)
