"""What a shading language is to psl: the record each dialect module fills in."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Dialect:
    name: str
    #: keywords, reserved words, types and built-in functions: never a user's name
    words: frozenset[str]
    #: prefixes the language (or psl's generated code in it) keeps: `--name` refuses them
    prefixes: tuple[str, ...]
    #: prefixes a program's own variable is renamed away from in readable output
    renamed_prefixes: tuple[str, ...]
    #: whether a double underscore anywhere in a name is the language's (GLSL)
    reserves_double_underscore: bool
    #: the four-float type and the bits-to-float function (literal syntax of inf)
    float4: str
    as_float: str
    #: builtin name -> the language's own intrinsic text of it ({0}, {1}, ... its arguments),
    #: where that equals the VM's result for the widths readable code uses
    natives: Mapping[str, str]
    #: the VM's formulas: builtin / binary / unary operator -> float4 expression
    builtins: Mapping[str, str]
    binops: Mapping[str, str]
    unops: Mapping[str, str]
    #: the VM's helper templates an export may take items from (psl.dialect.helpers)
    helper_templates: tuple[str, ...]
    #: the template context those helper templates read
    vm_context: Callable[[], Mapping[str, object]]

    def vec(self, width: int) -> str:
        """The type of `width` floats."""
        return "float" if width == 1 else f"{self.float4[:-1]}{width}"
