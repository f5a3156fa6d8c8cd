"""Labelled code: what codegen emits before inlining, linking and register allocation."""

from __future__ import annotations

from dataclasses import dataclass, field

from psl.diagnostics import Span
from psl.registry import Op

NAN = float("nan")


@dataclass(slots=True)  # not frozen: a frozen dataclass is built 4x slower, and the
class Ins:               # compiler makes thousands (nothing changes one once made)
    """A real instruction with a symbolic argument.

    PUSHCONST: `value` is the 4-lane constant. PUSHVAR/SETVAR: `name` is a variable name
    (a register key after inlining) and `mask` the SETVAR lane digits (0 for plain).
    BINOP/UNOP/CALL: `code` is the operator id, ASCII code or builtin id.
    JUMP/CONDJUMP: `label` is the target label.
    `span`: the source the instruction comes from (for diagnostics on the inlined code;
    not part of the instruction's identity).
    """

    op: Op
    value: tuple[float, float, float, float] = (NAN, NAN, NAN, NAN)
    name: object = None
    mask: int = 0
    code: int = 0
    label: int = -1
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Label:
    id: int


@dataclass(frozen=True)
class CallUser:
    """A call of a user function: replaced by the function's body when inlining."""

    name: str
    span: Span | None = field(default=None, compare=False)  # the call's name


Item = Ins | Label | CallUser
