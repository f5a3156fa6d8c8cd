"""What the shape generator measures with psl to put a program on a boundary: the -O0
size, and each counted loop's body before and after hoist (the numbers unroll's budget
reads, docs/spec.md §10.8)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from psl.compiler import compile_source
from psl.optimize import hoist, loops, to_code
from psl.optimize.code import BINOP, CONDJUMP, JUMP, PUSHCONST, PUSHVAR, SETVAR, Code
from psl.registry import OPTIMIZER_PIPELINE


def o0_size(src: str) -> int | None:
    """Instructions at -O0, or None when psl rejects the program."""
    result = compile_source(src)
    return len(result.program.instructions) if result.ok and result.program else None


@dataclass(frozen=True)
class Loop:
    head: int  # C: the PUSHVAR of the test
    body: int  # instructions unroll copies per trip (S - C)
    size: int  # the whole code's size


def counted_loops(code: Code) -> list[Loop]:
    """Loops with unroll's layout (§10.8), whatever their trip count or budget."""
    ops, n, found = code.ops, len(code), []
    for c in range(2, n - 3):
        if (ops[c - 2], ops[c - 1], ops[c], ops[c + 1], ops[c + 2], ops[c + 3]) != (
                PUSHCONST, SETVAR, PUSHVAR, PUSHCONST, BINOP, CONDJUMP):
            continue
        e = code.target(c + 3)
        if e - 5 >= c + 4 and e <= n and ops[e - 1] == JUMP and code.target(e - 1) == c:
            found.append(Loop(c, e - 5 - c, n))
    return found


def before_after_hoist(src: str) -> tuple[list[Loop], list[Loop]] | None:
    """The counted loops of the code unroll would see without hoist, and with it."""
    result = compile_source(src)
    if not result.ok or result.program is None:
        return None
    code = to_code(result.program)
    if code is None:
        return None
    code = loops.run(code)
    for name in OPTIMIZER_PIPELINE:
        code = importlib.import_module(f"psl.optimize.{name}").run(code)
    return counted_loops(code), counted_loops(hoist.run(code))
