"""Width names, and the width of an expression combined from its operands' inferred
widths (an estimate by the rules of docs/language.md: the inference itself works on the
bytecode, where expressions have no positions)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

from psl.registry import ResultDim, lookup_builtin
from psl.syntax import ast

Widths = frozenset[int]


def width_name(ws: Iterable[int]) -> str:
    """`float`, `float3`, or `float|float3` when it depends on the path taken."""
    names = [("float" if w == 1 else f"float{w}") for w in sorted(ws)]
    return "|".join(names) if names else "no value"


def _widest(parts: list[Widths]) -> Widths:
    return frozenset(max(combo) for combo in itertools.product(*parts))


def expression_widths(expr: object, var: Callable[[ast.Var], Widths | None]) -> Widths | None:
    """The widths `expr` can have, or None when some part is unknown (a user function's
    result, a variable the inference did not reach)."""
    if isinstance(expr, ast.Number):
        return frozenset({1})
    if isinstance(expr, ast.Var):
        return var(expr)
    if isinstance(expr, ast.Paren):
        return expression_widths(expr.inner, var)
    if isinstance(expr, ast.Unary):
        return expression_widths(expr.operand, var)
    if isinstance(expr, ast.Swizzle):
        return frozenset({len(expr.parts[-1].text)})
    if isinstance(expr, ast.Chain):
        parts = [expression_widths(x, var) for x in (expr.first, *(x for _, x in expr.rest))]
        return None if any(p is None or not p for p in parts) else _widest(parts)  # type: ignore[arg-type]
    if isinstance(expr, ast.Call):
        builtin = lookup_builtin(expr.name.text)
        if builtin is None:
            return None
        if builtin.result in (ResultDim.FIXED, ResultDim.FULL):
            return frozenset({builtin.dim})
        args = [expression_widths(a, var) for a in expr.args]
        if not args or any(a is None or not a for a in args):
            return None
        return _widest(args)  # type: ignore[arg-type]
    return None


def calls_by_position(program: ast.Program | None) -> dict[tuple[int, int], ast.Call]:
    """(line, column) of a call's name -> the call."""
    out: dict[tuple[int, int], ast.Call] = {}
    if program is None:
        return out
    stack: list[object] = [program.body]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            out[(node.name.span.line, node.name.span.column)] = node
        stack.extend(ast.children(node))
    return out
