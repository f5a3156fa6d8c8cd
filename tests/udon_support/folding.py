"""Constant folding: C#'s value of an operation on constants (UdonSharp folds them with
`ConstantExpressionOptimizer`). Only the type matters to the gate; the value decides constant
`if` conditions and later constant conversions."""

from __future__ import annotations

import math
import operator
from typing import Any

from tests.udon_support.cstypes import (
    BOOL,
    FLOAT,
    INTEGERS,
    LONG,
    OBJECT,
    STRING,
    ULONG,
    CsType,
    to_float32,
    wrap_integer,
)
from tests.udon_support.syntax import CheckerError

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt,
            "<=": operator.le, ">=": operator.ge}
_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
               "%": math.fmod, "&": operator.and_, "|": operator.or_, "^": operator.xor}


def _number(value: Any) -> Any:
    """A char constant (a one-character str) as its code, as C# promotes it."""
    return ord(value) if isinstance(value, str) and len(value) == 1 else value


def _fit(value: Any, t: CsType) -> Any:
    if t in INTEGERS and isinstance(value, int):
        return wrap_integer(value, t)
    if t == FLOAT and isinstance(value, float):
        return to_float32(value)
    return value


def fold_unary(op: str, value: Any, t: CsType) -> Any:
    if op == "!":
        return not value
    v = _number(value)
    return _fit(-v if op == "-" else ~v, t)


def fold_binary(op: str, a: Any, b: Any, operand: CsType, result: CsType) -> Any:
    if result == STRING:
        return _text(a) + _text(b)
    if operand in (STRING, OBJECT) or operand.name == "UnityEngine.Object":
        return (a == b) if op == "==" else (a != b)
    x, y = _number(a), _number(b)
    if op in _COMPARE:
        return _COMPARE[op](x, y)
    if operand == BOOL:
        return {"&": x and y, "|": x or y, "^": x != y}[op]
    if isinstance(x, int) and isinstance(y, int) and op in ("/", "%"):
        if y == 0:
            raise CheckerError("constant integer division by zero")
        quotient = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)  # toward zero
        return _fit(quotient if op == "/" else x - quotient * y, result)
    if op in ("<<", ">>"):
        count = y & (63 if operand in (LONG, ULONG) else 31)
        return _fit(x << count if op == "<<" else x >> count, result)
    if op in ("/", "%") and y == 0:  # IEEE: x/0 is +-inf (nan for 0/0), x%0 is nan
        return math.copysign(math.inf, x) if op == "/" and x != 0 else math.nan
    return _fit(_ARITHMETIC[op](x, y), result)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)
