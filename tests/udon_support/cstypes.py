"""C# types as UdonSharp 1.x sees them: names, numeric promotion, conversions, Udon names.

Only the rules of the C# specification that decide which Udon extern UdonSharp calls are
modelled: the predefined numeric types, implicit numeric and constant conversions, binary
numeric promotion (which operator overload Roslyn picks) and the Udon spelling of a type.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass


@dataclass(frozen=True)
class CsType:
    """A type by its .NET full name ("System.Int32", "UnityEngine.Vector4", a project class)."""

    name: str
    elem: CsType | None = None  # the element type of an array
    #: an `out` parameter of this type (Udon spells it `<type>Ref`)
    ref: bool = False

    @property
    def is_array(self) -> bool:
        return self.elem is not None

    def deref(self) -> CsType:
        return CsType(self.name, self.elem) if self.ref else self

    def array(self) -> CsType:
        return CsType(self.name + "[]", self)

    def __str__(self) -> str:
        if self.elem is not None:
            return f"{self.elem}[]"
        return KEYWORD_OF.get(self.name, self.name)


KEYWORDS: dict[str, str] = {
    "bool": "System.Boolean", "byte": "System.Byte", "sbyte": "System.SByte",
    "short": "System.Int16", "ushort": "System.UInt16", "int": "System.Int32",
    "uint": "System.UInt32", "long": "System.Int64", "ulong": "System.UInt64",
    "char": "System.Char", "float": "System.Single", "double": "System.Double",
    "decimal": "System.Decimal", "string": "System.String", "object": "System.Object",
    "void": "System.Void",
}
KEYWORD_OF = {v: k for k, v in KEYWORDS.items()}

BOOL = CsType("System.Boolean")
SBYTE, BYTE = CsType("System.SByte"), CsType("System.Byte")
SHORT, USHORT = CsType("System.Int16"), CsType("System.UInt16")
INT, UINT = CsType("System.Int32"), CsType("System.UInt32")
LONG, ULONG = CsType("System.Int64"), CsType("System.UInt64")
CHAR = CsType("System.Char")
FLOAT, DOUBLE, DECIMAL = CsType("System.Single"), CsType("System.Double"), CsType("System.Decimal")
STRING, OBJECT, VOID = CsType("System.String"), CsType("System.Object"), CsType("System.Void")
ARRAY = CsType("System.Array")
TYPE = CsType("System.Type")
NULL = CsType("<null>")  # the type of the `null` literal before it is converted

#: integer types with their bit width and signedness (char is not one for UdonSharp)
INTEGERS: dict[CsType, tuple[int, bool]] = {
    SBYTE: (8, True), BYTE: (8, False), SHORT: (16, True), USHORT: (16, False),
    INT: (32, True), UINT: (32, False), LONG: (64, True), ULONG: (64, False),
}
FLOATS = (FLOAT, DOUBLE, DECIMAL)
NUMERIC = (*INTEGERS, CHAR, *FLOATS)
VALUE_TYPES = (BOOL, *NUMERIC)

# C# spec 10.2.3, implicit numeric conversions (source -> targets).
_IMPLICIT: dict[CsType, tuple[CsType, ...]] = {
    SBYTE: (SHORT, INT, LONG, FLOAT, DOUBLE, DECIMAL),
    BYTE: (SHORT, USHORT, INT, UINT, LONG, ULONG, FLOAT, DOUBLE, DECIMAL),
    SHORT: (INT, LONG, FLOAT, DOUBLE, DECIMAL),
    USHORT: (INT, UINT, LONG, ULONG, FLOAT, DOUBLE, DECIMAL),
    INT: (LONG, FLOAT, DOUBLE, DECIMAL),
    UINT: (LONG, ULONG, FLOAT, DOUBLE, DECIMAL),
    LONG: (FLOAT, DOUBLE, DECIMAL),
    ULONG: (FLOAT, DOUBLE, DECIMAL),
    CHAR: (USHORT, INT, UINT, LONG, ULONG, FLOAT, DOUBLE, DECIMAL),
    FLOAT: (DOUBLE,),
    DOUBLE: (),
    DECIMAL: (),
}

#: the operand types of the predefined binary arithmetic operators, in the order in which
#: overload resolution prefers them (each converts implicitly to the later ones)
OPERATOR_TYPES = (INT, UINT, LONG, ULONG, FLOAT, DOUBLE, DECIMAL)


def is_numeric(t: CsType) -> bool:
    return t in NUMERIC


def is_integer(t: CsType) -> bool:
    return t in INTEGERS


def implicit_numeric(src: CsType, dst: CsType) -> bool:
    return src == dst or dst in _IMPLICIT.get(src, ())


def constant_fits(value: object, src: CsType, dst: CsType) -> bool:
    """C# 10.2.11: an int constant converts to a smaller or unsigned integer type in range,
    a long constant to ulong when not negative."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    if src == INT and dst in INTEGERS:
        bits, signed = INTEGERS[dst]
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        return lo <= value <= hi
    return src == LONG and dst == ULONG and value >= 0


def unary_promoted(t: CsType) -> CsType | None:
    """The operand type of a predefined unary/shift operator (sbyte, short, char... -> int)."""
    if t in (SBYTE, BYTE, SHORT, USHORT, CHAR, INT):
        return INT
    if t in (UINT, LONG, ULONG, FLOAT, DOUBLE, DECIMAL):
        return t
    return None


def udon_type_name(t: CsType) -> str:
    """Udon's spelling of a type: the full name without dots (nested-type '+' dropped too)."""
    if t.ref:
        return udon_type_name(t.deref()) + "Ref"
    if t.elem is not None:
        return udon_type_name(t.elem) + "Array"
    return t.name.replace(".", "").replace("+", "")


def short_name(t: CsType) -> str:
    """The .NET type name without namespace ("Single"): UdonSharp picks Convert.To<that>."""
    return t.name.rsplit(".", 1)[-1]


# ---------------------------------------------------------------------------- constants


def wrap_integer(value: int, t: CsType) -> int:
    """Two's-complement wrap-around, as unchecked C# arithmetic does."""
    bits, signed = INTEGERS[t]
    value &= (1 << bits) - 1
    if signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def to_float32(value: float) -> float:
    if math.isnan(value) or math.isinf(value):
        return value
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def convert_constant(value: object, src: CsType, dst: CsType) -> object:
    """The value of a numeric constant converted to `dst` (C# explicit-conversion rules)."""
    if src == CHAR:
        value = ord(value) if isinstance(value, str) else value
    if dst == CHAR:
        return chr(int(value) & 0xFFFF)
    if dst in INTEGERS:
        if isinstance(value, float):
            if math.isnan(value) or math.isinf(value):
                return 0  # unspecified in C#; only its type matters to the gate
            value = int(value)  # truncation toward zero
        return wrap_integer(int(value), dst)
    if dst == FLOAT:
        return to_float32(float(value))
    return float(value)
