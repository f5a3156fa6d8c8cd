"""Typed AST for PSL. Every node carries the span of its first token.

Operator chains, unary prefixes and swizzles are flat tuples rather than nested nodes:
a 5000-term sum is one `Chain`, so no later pass recurses 5000 levels deep. Only
brackets nest, and the parser bounds their depth (LIMITS.nesting).
"""

from __future__ import annotations

from dataclasses import dataclass

from psl.diagnostics import Span


@dataclass(frozen=True)
class Name:
    text: str
    span: Span


# ---------------------------------------------------------------- expressions
@dataclass(frozen=True)
class Number:
    value: float  # the decimal parsed as a double; encoding rounds it to float32
    text: str
    span: Span


@dataclass(frozen=True)
class Var:
    name: str
    span: Span


@dataclass(frozen=True)
class Call:
    name: Name
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True)
class Paren:
    inner: Expr
    span: Span


@dataclass(frozen=True)
class Swizzle:
    """`base.sw1.sw2…`: one or more swizzles applied left to right."""

    base: Expr
    parts: tuple[Name, ...]
    span: Span


@dataclass(frozen=True)
class Unary:
    """`op1 op2 … operand`; applied innermost (last) first."""

    ops: tuple[Name, ...]
    operand: Expr
    span: Span


@dataclass(frozen=True)
class Chain:
    """`first op1 x1 op2 x2 …`, left-associative, all operators of one precedence level."""

    first: Expr
    rest: tuple[tuple[Name, Expr], ...]
    span: Span


Expr = Number | Var | Call | Paren | Swizzle | Unary | Chain


# ----------------------------------------------------------------- statements
@dataclass(frozen=True)
class Block:
    statements: tuple[Stmt, ...]
    final: Expr | None
    span: Span
    final_is_return: bool = False


@dataclass(frozen=True)
class FunDef:
    name: Name
    params: tuple[Name, ...]
    body: Block
    span: Span  # the `fun` keyword


@dataclass(frozen=True)
class If:
    cond: Expr
    then: Block
    orelse: Block | If | None
    span: Span


@dataclass(frozen=True)
class While:
    cond: Expr
    body: Block
    span: Span


@dataclass(frozen=True)
class For:
    init: Assign
    cond: Expr
    step: Assign
    body: Block
    span: Span


@dataclass(frozen=True)
class Assign:
    """`[let|set] target op value`; op is = += -= *= /= ++ or -- (value None for ++/--)."""

    target: Expr
    op: Name
    value: Expr | None
    span: Span


Stmt = FunDef | If | While | For | Assign


@dataclass(frozen=True)
class Program:
    body: Block
    source: str


def _opt(x: object) -> tuple[object, ...]:
    return () if x is None else (x,)


_CHILDREN = {
    Number: lambda n: (),
    Var: lambda n: (),
    Call: lambda n: n.args,
    Paren: lambda n: (n.inner,),
    Swizzle: lambda n: (n.base,),
    Unary: lambda n: (n.operand,),
    Chain: lambda n: (n.first, *(x for _, x in n.rest)),
    Block: lambda n: (*n.statements, *_opt(n.final)),
    FunDef: lambda n: (n.body,),
    If: lambda n: (n.cond, n.then, *_opt(n.orelse)),
    While: lambda n: (n.cond, n.body),
    For: lambda n: (n.init, n.cond, n.step, n.body),
    Assign: lambda n: (n.target, *_opt(n.value)),
}


def children(node: object) -> tuple[object, ...]:
    """Direct child nodes in source order (for walkers that need no per-type code)."""
    return _CHILDREN[type(node)](node)
