"""The types a project sees: the API table plus the project's own UdonSharpBehaviours.

Answers the questions that decide an extern: base types, value or reference type, which
conversions are implicit or explicit, and the Udon spelling of a type in a signature.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.udon_support.cstypes import (
    ARRAY,
    NULL,
    NUMERIC,
    OBJECT,
    VALUE_TYPES,
    CsType,
    constant_fits,
    implicit_numeric,
    is_numeric,
    udon_type_name,
)
from tests.udon_support.members import SIMPLE_NAMES, TYPES, TypeInfo

BEHAVIOUR_BASE = "UdonSharp.UdonSharpBehaviour"
#: UdonSharp's Udon type for any UdonSharpBehaviour (UdonSharpUtils.UserTypeToUdonType) and
#: the type its methods are named after (GetUdonMethodName replaces the former by the latter)
UDON_BEHAVIOUR = "VRCUdonUdonBehaviour"
EVENT_RECEIVER = "VRCUdonCommonInterfacesIUdonEventReceiver"
RECEIVER_INTERFACE = "VRC.Udon.Common.Interfaces.IUdonEventReceiver"


@dataclass(frozen=True)
class Operand:
    """What conversions need to know of a value: its type and, if constant, its value."""

    type: CsType
    constant: bool = False
    value: object = None


class TypeWorld:
    def __init__(self, behaviours: dict[str, str | None]) -> None:
        # project class -> its base class as written (another project class or
        # UdonSharpBehaviour)
        self.behaviours = behaviours

    def resolve(self, name: str) -> CsType | None:
        """A type name as written in a script (simple or full), or None."""
        if name in self.behaviours:
            return CsType(name)
        full = SIMPLE_NAMES.get(name, name)
        return CsType(full) if full in TYPES else None

    def info(self, t: CsType) -> TypeInfo | None:
        if t.name in self.behaviours:
            base = self.behaviours[t.name]
            base_type = self.resolve(base) if base else None
            return TypeInfo(t.name, "behaviour", base_type.name if base_type else None)
        return TYPES.get(t.name)

    def chain(self, t: CsType) -> list[str]:
        """t and its base types, most derived first (arrays derive from System.Array)."""
        if t.is_array:
            return [t.name, ARRAY.name, OBJECT.name]
        out: list[str] = []
        info = self.info(t)
        while info is not None:
            out.append(info.full)
            info = self.info(CsType(info.base)) if info.base else None
        return out or [t.name]

    def derives(self, t: CsType, base: str) -> bool:
        return base in self.chain(t)

    def is_behaviour(self, t: CsType) -> bool:
        return t.name in self.behaviours

    def is_value_type(self, t: CsType) -> bool:
        if t in VALUE_TYPES:
            return True
        info = self.info(t)
        return info is not None and info.kind == "struct" and not t.is_array

    def is_unity_object(self, t: CsType) -> bool:
        return not t.is_array and self.derives(t, "UnityEngine.Object")

    def known(self, t: CsType) -> bool:
        if t.elem is not None:
            return self.known(t.elem)
        return self.info(t) is not None

    # ------------------------------------------------------------------ conversions

    def implicit(self, src: Operand, dst: CsType) -> bool:
        """C# implicit conversion (identity, numeric, constant, null, boxing, reference)."""
        s = src.type
        if s == dst:
            return True
        if s == NULL:
            return not self.is_value_type(dst)
        if is_numeric(s) and is_numeric(dst):
            return implicit_numeric(s, dst) or (src.constant and constant_fits(src.value, s, dst))
        if dst == OBJECT:
            return True
        if self.is_value_type(s) or self.is_value_type(dst):
            return False
        if s.is_array and dst.is_array:
            return self.implicit(Operand(s.elem), dst.elem) and not self.is_value_type(s.elem)
        if dst.name == RECEIVER_INTERFACE and (self.is_behaviour(s) or s.name == BEHAVIOUR_BASE):
            return True  # an UdonBehaviour is an IUdonEventReceiver (`(IUdonEventReceiver)this`)
        return self.derives(s, dst.name)

    def explicit(self, src: Operand, dst: CsType) -> bool:
        s = src.type
        if self.implicit(src, dst):
            return True
        if s in NUMERIC and dst in NUMERIC:
            return True
        if s == OBJECT:
            return True  # unboxing or a downcast
        return not self.is_value_type(s) and not self.is_value_type(dst) and \
            self.derives(dst, s.name)

    def better_conversion(self, src: CsType, t1: CsType, t2: CsType) -> int:
        """C# 12.6.4.5: 1 if converting src to t1 is better than to t2, -1 if worse, 0."""
        if t1 == t2:
            return 0
        if src == t1:
            return 1
        if src == t2:
            return -1
        a = self.implicit(Operand(t1), t2)
        b = self.implicit(Operand(t2), t1)
        return 1 if a and not b else -1 if b and not a else 0

    # ------------------------------------------------------------------ Udon names

    def udon(self, t: CsType) -> str:
        """A type as it appears in an extern signature (CompilerUdonInterface.GetUdonTypeName
        of the type's Udon type)."""
        if t.is_array and self.is_behaviour(t.elem):
            return "UnityEngineComponentArray"  # VRChat exposes no UdonBehaviour[]
        if self.is_behaviour(t):
            return UDON_BEHAVIOUR
        return udon_type_name(t)

    def owner(self, type_name: str) -> str:
        """The type part of a method/property extern (GetUdonMethodName)."""
        if type_name == BEHAVIOUR_BASE or type_name in self.behaviours:
            return EVENT_RECEIVER
        return self.udon(CsType(type_name))
