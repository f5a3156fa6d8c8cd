"""Sliders in exports (docs/spec.md §8.8, docs/export.md "Sliders"): each slider a program's
`//@slider` lines name becomes a named parameter of the export, with its range and default
where the shader's user sees them (a Unity `Range` property, an HLSL global with its
default, a GLSL uniform, a Shadertoy constant). `slider(k)` with a constant k reads the
parameter itself; any other k goes through `psl_slider`, which applies the VM's rule to
the parameters: slider floor(k) when it is named, else 0 (a host sets every unnamed
slider to 0). The exact path's copy of the VM calls the same `psl_slider`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from psl.export.ir import Program
from psl.export.names import GENERATED, fresh_name, reserved
from psl.export.targets import TARGETS

#: The function the VM's slider formula calls (psl.dialect.*.formulas), in every export.
READER = "psl_slider"


@dataclass(frozen=True)
class Parameter:
    """A named slider as an export's parameter."""

    index: int
    label: str  # the slider's name in the program (the world's label)
    name: str  # the identifier in the export
    low: float
    high: float
    default: float

    @property
    def literal(self) -> str:
        """The default as a float literal of GLSL ES and HLSL (1.0, -0.75)."""
        text = short(self.default)
        return text if "." in text else f"{text}.0"

    @property
    def low_text(self) -> str:
        return short(self.low)

    @property
    def high_text(self) -> str:
        return short(self.high)

    @property
    def default_text(self) -> str:
        return short(self.default)

    def describe(self) -> str:
        """`slider 0 "zoom": 1..400, default 1`, for a comment."""
        return (f'slider {self.index} "{self.label}": {short(self.low)}..{short(self.high)}, '
                f"default {short(self.default)}")


def short(x: float) -> str:
    """The shortest decimal that reads back as the float32 x (1, -0.75, 0.05)."""
    return np.format_float_positional(np.float32(x), trim="-")


@functools.cache
def _template_words() -> frozenset[str]:
    # identifiers of every target's templates (vert, frag, uv, iTime, ...): a parameter is
    # a global, so it must not take one, in any target (one name across all exports)
    return frozenset().union(*(reserved(t) for t in TARGETS))


def parameters(program: Program) -> tuple[Parameter, ...]:
    """The program's named sliders, in index order, when it calls slider(); else none."""
    src = program.source
    if src is None or "slider" not in program.builtins:
        return ()
    taken: set[str] = set()
    out = []
    for s in src.sliders.sliders:
        name = fresh_name(s.name, taken)
        if name in _template_words() or GENERATED.fullmatch(name):
            taken.discard(name)
            name = fresh_name(name + "_", taken)
        out.append(Parameter(s.index, s.name, name, s.low, s.high, s.default))
    return tuple(out)


def constant_read(params: tuple[Parameter, ...], k: float) -> str | None:
    """What slider(k) reads for a constant k: a parameter's name, or None for 0."""
    if math.isnan(k):
        k = 0.0  # the VM masks a NaN lane to 0 before the call
    index = math.floor(k)
    return next((p.name for p in params if p.index == index), None)


def reader_name(function: str) -> str:
    """The reader of the program exported as `function` in HLSL, where several exported
    programs may share one file: its own (psl_program_slider). GLSL, one program a file,
    uses READER, which its copy of the VM calls too."""
    return f"{function}_slider"


def reader(params: tuple[Parameter, ...], name: str = READER) -> list[str]:
    """`float <name>(float x)`, the same text in GLSL and HLSL: slider floor(x) of the
    named ones, else 0 (NaN, unnamed or outside 0..7)."""
    choice = "0.0"
    for p in reversed(params):
        choice = f"k == {p.index}.0 ? {p.name} : {choice}"
    body = ["    float k = floor(x);", f"    return {choice};"] if params else \
        ["    return 0.0;"]
    return [f"float {name}(float x)", "{", *body, "}"]
