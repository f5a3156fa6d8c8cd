"""Labelled code: what codegen emits before inlining, linking and register allocation."""

from __future__ import annotations

from dataclasses import dataclass

from psl.registry import Op

NAN = float("nan")


@dataclass(frozen=True)
class Ins:
    """A real instruction with a symbolic argument.

    PUSHCONST: `value` is the 4-lane constant. PUSHVAR/SETVAR: `name` is a variable name
    (a register key after inlining) and `mask` the SETVAR lane digits (0 for plain).
    BINOP/UNOP/CALL: `code` is the operator id, ASCII code or builtin id.
    JUMP/CONDJUMP: `label` is the target label.
    """

    op: Op
    value: tuple[float, float, float, float] = (NAN, NAN, NAN, NAN)
    name: object = None
    mask: int = 0
    code: int = 0
    label: int = -1


@dataclass(frozen=True)
class Label:
    id: int


@dataclass(frozen=True)
class CallUser:
    """A call of a user function: replaced by the function's body when inlining."""

    name: str


Item = Ins | Label | CallUser
