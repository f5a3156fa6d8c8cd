"""The formatter's guarantee, checked on every run: the new text is the same program.

Four independent checks, any of which refuses the result: the tokens the compiler sees
are identical, every comment survives in order, the `//@slider` lines give the same
slider table, and both texts compile to the same bytecode (or, for a program with
semantic errors, to the same error codes).
"""

from __future__ import annotations

import numpy as np

from psl.compiler import CompileResult, compile_source
from psl.fmt.tokens import Token
from psl.registry import LIMITS
from psl.syntax.parser import lex, utf16_length
from psl.syntax.sliders import parse_sliders


def _code_tokens(source: str) -> list[tuple[str, str]] | None:
    tokens, diag = lex(source)
    if diag is not None:
        return None
    return [(t.type, str(t)) for t in tokens]


def signature(result: CompileResult) -> bytes | tuple[str, ...]:
    if result.program is None:
        return tuple(d.code for d in result.diagnostics if d.is_error)
    # NaN lanes compare unequal as floats; their bit patterns are what the VM sees
    return np.asarray(result.program.slots(), dtype="<f4").tobytes()


def sliders(source: str) -> tuple[object, ...]:
    """The slider table and its warnings without positions: what the world reads from the
    program's `//@slider` lines (docs/spec.md §8.8)."""
    table = parse_sliders(source)
    return (tuple((s.index, s.name, s.low, s.high, s.default) for s in table.sliders),
            tuple(d.message for d in table.diagnostics))


def comments(tokens: list[Token]) -> list[str]:
    return [t.text.rstrip() for t in tokens if t.is_comment]


def difference(before: str, after: str, before_tokens: list[Token],
               after_tokens: list[Token], compiled: CompileResult | None = None) -> str | None:
    """Why `after` is not the same program as `before`, or None when it is (`compiled`:
    `before` compiled already)."""
    size = utf16_length(after)
    if size > LIMITS.source_chars:
        return (f"the formatted text would be {size} characters, past the limit of "
                f"{LIMITS.source_chars}")
    old, new = _code_tokens(before), _code_tokens(after)
    if new is None:
        return "the formatted text would not lex"
    if old != new:
        return "the tokens would change"
    if comments(before_tokens) != comments(after_tokens):
        return "a comment would be lost or changed"
    if sliders(before) != sliders(after):
        return "a slider line would change"
    if compiled is None:
        compiled = compile_source(before, lint=False)
    if signature(compiled) != signature(compile_source(after, lint=False)):
        return "the bytecode would change"
    return None
