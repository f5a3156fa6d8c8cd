"""Positions: psl counts 1-based lines split at "\\n" and 1-based columns in characters; LSP
counts 0-based lines split at "\\n", "\\r\\n" or "\\r" and columns in the negotiated code
units (UTF-16 unless the client asked for another). Everything goes through offsets into
the text, which both agree on."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from lsprotocol import types

from psl.diagnostics import Span

_LSP_BREAK = re.compile(r"\r\n|\r|\n")


def units(text: str, encoding: str) -> int:
    """Length of `text` in the client's position units."""
    if text.isascii() or encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", errors="surrogatepass"))
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def _chars_for_units(text: str, count: int, encoding: str) -> int:
    """How many characters of `text` fill `count` units (clamped to the text)."""
    if text.isascii() or encoding == types.PositionEncodingKind.Utf32:
        return min(count, len(text))
    used = 0
    for i, ch in enumerate(text):
        size = units(ch, encoding)
        if used + size > count:
            return i
        used += size
    return len(text)


#: A UTF-8 byte-order mark: the CLI reads files without it, so the server compiles what
#: follows it (psl.lsp.document.analyse) and counts psl's first line from after it.
BOM = "\ufeff"


@dataclass
class LineIndex:
    text: str
    encoding: str = types.PositionEncodingKind.Utf16
    lsp_starts: list[int] = field(init=False)
    psl_starts: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.lsp_starts = [0, *(m.end() for m in _LSP_BREAK.finditer(self.text))]
        self.psl_starts = [0, *(m.end() for m in re.finditer("\n", self.text))]
        if self.text.startswith(BOM):
            self.psl_starts[0] = 1  # psl reads the program after the BOM (as the CLI does)

    # ----------------------------------------------------------- LSP <-> offset
    def _line_end(self, line: int) -> int:
        """Offset of the end of LSP `line`, its line break excluded."""
        if line + 1 < len(self.lsp_starts):
            end = self.lsp_starts[line + 1] - 1
            if self.text[end] == "\n" and end > 0 and self.text[end - 1] == "\r":
                end -= 1
            return end
        return len(self.text)

    def offset(self, pos: types.Position) -> int:
        if pos.line >= len(self.lsp_starts):
            return len(self.text)
        start = self.lsp_starts[pos.line]
        line = self.text[start:self._line_end(pos.line)]
        return start + _chars_for_units(line, pos.character, self.encoding)

    def position(self, offset: int) -> types.Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.lsp_starts, offset) - 1
        start = self.lsp_starts[line]
        return types.Position(line, units(self.text[start:offset], self.encoding))

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(self.position(start), self.position(end))

    # ----------------------------------------------------------- psl <-> offset
    def psl_offset(self, line: int, column: int) -> int:
        """Offset of psl's 1-based (line, column); clamped into the text."""
        if line < 1:
            return 0
        if line > len(self.psl_starts):
            return len(self.text)
        start = self.psl_starts[line - 1]
        stop = self.psl_starts[line] - 1 if line < len(self.psl_starts) else len(self.text)
        return min(start + max(column, 1) - 1, stop)

    def span_range(self, span: Span) -> types.Range:
        """The LSP range of a psl span; a span without an end covers one character (or
        none at the end of a line)."""
        start = self.psl_offset(span.line, span.column)
        if span.end_line and (span.end_line, span.end_column) > (span.line, span.column):
            end = self.psl_offset(span.end_line, span.end_column)
        else:
            end = start + 1 if start < len(self.text) and self.text[start] not in "\r\n" \
                else start
        return self.range(start, end)
