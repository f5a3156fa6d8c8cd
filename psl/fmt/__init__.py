"""`psl fmt`: one canonical layout for PSL programs, comments kept, bytecode unchanged.

`format_source` refuses text with lexical or syntax errors, and checks its own result
(psl/fmt/verify.py) before handing it back, so a caller that writes only what it returns
never changes what a program compiles to.
"""

from __future__ import annotations

from dataclasses import dataclass

from psl.compiler import compile_source
from psl.diagnostics import Span
from psl.fmt.layout import layout
from psl.fmt.tokens import scan
from psl.fmt.verify import difference

__all__ = ["FormatError", "format_source"]


@dataclass
class FormatError(Exception):
    """Why a text was not formatted, at a 1-based position."""

    message: str
    span: Span
    code: str = ""  # the diagnostic code when the text has a lexical or syntax error

    def __str__(self) -> str:
        code = f"[{self.code}]" if self.code else ""
        return f"{self.span.line}:{self.span.column}: error{code}: {self.message}"


def format_source(source: str) -> str:
    """The canonical text of `source` (raises FormatError, never returns a different
    program)."""
    compiled = compile_source(source, lint=False)
    if compiled.ast is None:  # (the parser refused it: lexical, size or syntax error)
        diag = compiled.diagnostics[0]
        hint = f" ({diag.hint})" if diag.hint else ""
        raise FormatError(f"{diag.message}{hint}; not formatting a program with syntax "
                          "errors", diag.span, diag.code)
    tokens, bad = scan(source)
    if bad is not None:  # (the parser would have refused it first)
        raise FormatError("unexpected character", Span(bad.line, bad.column), "E001")
    out = layout(tokens)
    if out == source:
        return out
    why = difference(source, out, tokens, scan(out)[0], compiled)
    if why is not None:
        raise FormatError(f"cannot format: {why}; the text is left unchanged", Span.start())
    return out
