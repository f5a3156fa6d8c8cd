"""Hoisting of input expressions (docs/spec.md §10.9). An expression tree that reads no
register and samples no texture (constants, arithmetic, and builtins of the pixel and the
frame such as `time()`, `uv()`, `sin`) has one value for the whole run of a pixel: nothing a
program does changes the pixel, the frame's inputs or a constant. Such a tree is computed
once at the start of the program into a fresh register, and every occurrence becomes one
PUSHVAR, when that pays: occurrences inside a loop count 16 times. Texture reads are never
moved (a GPU's sample can depend on the control flow around it)."""

from __future__ import annotations

from psl.optimize.code import (
    JUMP,
    NAN,
    PUSHVAR,
    SETVAR,
    Code,
    Tree,
    bits,
    blocks,
    combine,
    delete,
    is_jump,
    pushes,
    scan_block,
)
from psl.registry import LIMITS, OPTIMIZER_TUNING

LOOP_WEIGHT = OPTIMIZER_TUNING.loop_weight


def _pure(t: Tree) -> bool:
    return t.start >= 0 and not t.has_var and not t.texture


def candidates(code: Code) -> list[tuple[int, int]]:
    """Maximal pure trees of two or more instructions, in instruction order."""
    found: list[tuple[int, int]] = []
    for s, e in blocks(code):
        def visit(k: int, operands: list[Tree]) -> Tree | None:
            parent = combine(code, k, operands) if pushes(code, k) else None
            if parent is None or not _pure(parent):
                for t in operands:
                    if _pure(t) and t.end > t.start:
                        found.append((t.start, t.end))
            return parent

        for t in scan_block(code, s, e, visit):
            if _pure(t) and t.end > t.start:
                found.append((t.start, t.end))
    return sorted(found)


def run(code: Code) -> Code:
    n = len(code)
    in_loop = [False] * n
    for k in range(n):
        if is_jump(code.ops[k]) and code.target(k) <= k:
            for j in range(code.target(k), k + 1):
                in_loop[j] = True
    classes: dict[tuple, list[tuple[int, int]]] = {}
    for s, e in candidates(code):
        key = tuple((code.ops[j], bits(code.args[j])) for j in range(s, e + 1))
        classes.setdefault(key, []).append((s, e))
    used = {code.reg(k) for k in range(n) if code.ops[k] in (PUSHVAR, SETVAR)}
    free = [r for r in range(LIMITS.registers) if r not in used]
    size = n
    chosen: list[tuple[int, list[tuple[int, int]]]] = []  # (register, occurrences)
    for occ in classes.values():  # dicts keep first-occurrence order
        length = occ[0][1] - occ[0][0] + 1
        score = sum((length - 1) * (LOOP_WEIGHT if in_loop[s] else 1) for s, _ in occ)
        grow = (length + 1) - len(occ) * (length - 1)
        if score <= length + 1 or not free or size + grow > LIMITS.instructions:
            continue
        size += grow
        chosen.append((free.pop(0), occ))
    if not chosen:
        return code
    ops, args, origin = list(code.ops), list(code.args), list(code.origin)
    names = dict(code.names)
    prefix_ops: list[int] = []
    prefix_args: list = []
    prefix_origin: list[int] = []
    dead: set[int] = set()
    for number, (reg, occ) in enumerate(chosen):
        s0, e0 = occ[0]
        prefix_ops += code.ops[s0:e0 + 1] + [SETVAR]
        prefix_args += code.args[s0:e0 + 1] + [(float(reg), NAN, NAN, NAN)]
        prefix_origin += code.origin[s0:e0 + 1] + [code.origin[s0]]
        names[reg] = f"(hoisted {number})"
        for s, e in occ:
            ops[s] = PUSHVAR
            args[s] = (float(reg), NAN, NAN, NAN)
            dead.update(range(s + 1, e + 1))
    body = delete(Code(ops, args, origin, names), dead)
    m = len(prefix_ops)
    body_args = [(a[0] + m, *a[1:]) if is_jump(op) else a
                 for op, a in zip(body.ops, body.args, strict=True)]
    assert JUMP not in prefix_ops
    return Code(prefix_ops + body.ops, prefix_args + body_args,  # type: ignore[arg-type]
                prefix_origin + body.origin, names)

