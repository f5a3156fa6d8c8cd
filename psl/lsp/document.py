"""What the server knows about one open document: its text, tokens, names and, when it
compiles, the compiler's diagnostics and inferred widths. Built once per text and shared
by every feature."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from lsprotocol import types

from psl.compiler import CompileResult, compile_source
from psl.diagnostics import Span
from psl.fmt.tokens import Token, scan
from psl.lsp.symbols import Symbols, build
from psl.lsp.text import BOM, LineIndex
from psl.registry import DEFAULT_OPTIMIZE_LEVEL, LIMITS


@dataclass(eq=False)
class Document:
    uri: str
    text: str
    index: LineIndex
    tokens: list[Token]  # comments included; characters that do not lex are skipped
    result: CompileResult

    @functools.cached_property
    def symbols(self) -> Symbols:
        return build(self.tokens)

    @functools.cached_property
    def widths(self) -> dict[tuple[int, int], frozenset[int]]:
        """(line, column) of a variable read or assignment -> its inferred widths."""
        inference = self.result.inference
        return _by_position(inference.variables if inference else {})

    @functools.cached_property
    def values(self) -> dict[tuple[int, int], frozenset[int]]:
        """(line, column) of an expression's token (a number, an operator, a builtin call's
        name, swizzle letters) -> the inferred widths of the value computed there."""
        inference = self.result.inference
        return _by_position(inference.values if inference else {})

    @functools.cached_property
    def parameters(self) -> dict[tuple[int, int], list[tuple[str, frozenset[int]]]]:
        """(line, column) of a user function's call -> the widths it binds to each
        parameter."""
        inference = self.result.inference
        if inference is None:
            return {}
        return {(s.line, s.column): ps for s, ps in inference.parameters.items()}

    def width_at(self, tok: Token) -> frozenset[int] | None:
        return self.widths.get((tok.line, tok.column))

    def token_range(self, tok: Token) -> types.Range:
        return self.index.range(tok.offset, tok.end)

    def code_before(self, offset: int) -> list[Token]:
        """The tokens that end at or before `offset`, comments left out."""
        return [t for t in self.tokens if t.end <= offset and not t.is_comment]

    def in_comment(self, offset: int) -> bool:
        return any(t.is_comment and t.offset < offset <= t.end for t in self.tokens)


def _by_position(widths: dict[Span, frozenset[int]]) -> dict[tuple[int, int], frozenset[int]]:
    out: dict[tuple[int, int], frozenset[int]] = {}
    for span, ws in widths.items():
        key = (span.line, span.column)
        out[key] = out.get(key, frozenset()) | ws
    return out


#: Past this many characters (4x the program limit) the tokens are left out: the compiler
#: reports E004 at once, and scanning megabytes would hold the server for seconds.
MAX_SCANNED = 4 * LIMITS.source_chars


def analyse(uri: str, text: str, encoding: str = types.PositionEncodingKind.Utf16,
            lint: bool = True, optimize: int = DEFAULT_OPTIMIZE_LEVEL) -> Document:
    """`lint=False`: without width inference and its checks (quick, for answering requests
    while the full analysis runs: psl/lsp/analysis.py). `optimize`: the level the program is
    compiled at (SPEC §10, §11); diagnostics and widths are the same at every level (they
    come from the -O0 code)."""
    # a leading BOM is the file's, not the program's (psl's CLI drops it): the program
    # compiled is what follows it, and the tokens are scanned with it read as a space (same
    # offsets); LineIndex counts psl's first line from after it
    bom = text.startswith(BOM)
    program = text[1:] if bom else text
    scanned = " " + program if bom else text
    tokens = scan(scanned, lenient=True)[0] if len(text) <= MAX_SCANNED else []
    return Document(uri, text, LineIndex(text, encoding), tokens,
                    compile_source(program, lint=lint, optimize=optimize))


def token_at(doc: Document, offset: int) -> Token | None:
    """The code token under `offset` (or ending at it: the cursor is just after a name)."""
    best = None
    for tok in doc.tokens:
        if tok.offset > offset:
            break
        if not tok.is_comment and tok.offset <= offset <= tok.end:
            best = tok  # a token starting at `offset` wins over one ending there
    return best
