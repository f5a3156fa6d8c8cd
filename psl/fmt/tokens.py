"""The formatter's token stream: every token of the text, comments included.

The parser's lexer drops comments and whitespace; the formatter needs the comments and
how many line breaks stood before each token. It matches with the parser's own scanner
(one regular expression built from grammar.lark's terminals, ignored ones included), so the
grammar stays the only definition of the tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

from psl.syntax.parser import scanner


@dataclass(frozen=True)
class Token:
    kind: str  # the grammar's terminal name (IDENT, NUMBER, COMMENT, FUN, ...)
    text: str
    offset: int  # index of the first character in the source
    line: int  # 1-based, lines end at "\n" as psl counts them
    column: int  # 1-based, in characters
    breaks: int  # "\n" characters in the whitespace just before this token

    @property
    def end(self) -> int:
        return self.offset + len(self.text)

    @property
    def is_comment(self) -> bool:
        return self.kind == "COMMENT"


@dataclass(frozen=True)
class BadChar:
    """A character no terminal matches (the lexer reports it as E001)."""

    offset: int
    line: int
    column: int


def scan(source: str, lenient: bool = False) -> tuple[list[Token], BadChar | None]:
    """All tokens but whitespace. Stops at the first character no terminal matches, or with
    `lenient` skips it (editors still want tokens from half-typed text)."""
    grammar = scanner()
    match, keywords = grammar.pattern.match, grammar.keywords
    out: list[Token] = []
    bad: BadChar | None = None
    pos, line, line_start, breaks, end = 0, 1, 0, 0, len(source)
    while pos < end:
        m = match(source, pos)
        if m is None:
            if bad is None:
                bad = BadChar(pos, line, pos - line_start + 1)
            if not lenient:
                break
            if source[pos] == "\n":  # (never: WS matches it; kept for safety of the count)
                line, line_start = line + 1, pos + 1
            pos += 1
            continue
        kind, text = m.lastgroup or "", m.group()
        if kind == "WS":
            newlines = text.count("\n")
            if newlines:
                breaks += newlines
                line += newlines
                line_start = pos + text.rindex("\n") + 1
        else:
            if kind == "IDENT":
                kind = keywords.get(text, kind)
            out.append(Token(kind, text, pos, line, pos - line_start + 1, breaks))
            breaks = 0
        pos = m.end()
    return out, bad


def significant(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if not t.is_comment]
