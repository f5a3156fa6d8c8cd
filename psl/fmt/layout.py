"""The canonical layout, decided token by token (docs/editors.md lists the rules).

Working on tokens rather than the AST keeps every comment where it was written relative to
the code. The grammar makes the few decisions that need context local: `{` only ever opens
a block, `(` right after a name is a call, `+`/`-` are prefixes unless they follow an
operand, and `;` ends a statement except inside a `for (...)` header.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from psl.fmt.tokens import Token
from psl.syntax.parser import scanner

INDENT = "    "

_OPERAND_END = frozenset({"IDENT", "NUMBER"})
_NO_SPACE_BEFORE = frozenset({")", ",", ";", "."})
_NO_SPACE_AFTER = frozenset({"(", "."})
_STEP = frozenset({"++", "--"})


@functools.lru_cache(maxsize=1024)
def merges(left: str, right: str) -> bool:
    """Would `left` written straight before `right` lex as something else (`- -x` as `--`,
    `1 .x` as the number `1.`, `/ /` as a comment)?"""
    m = scanner().pattern.match(left + right)
    return m is None or m.end() != len(left)


def _ends_operand(tok: Token) -> bool:
    return tok.kind in _OPERAND_END or tok.text == ")"


@dataclass
class _Printer:
    lines: list[str] = field(default_factory=list)
    cur: str | None = None  # the line being built, indent included
    depth: int = 0  # open braces
    parens: list[bool] = field(default_factory=list)  # per open '(': is it a for header?
    prev: Token | None = None  # the previous token that is not a comment
    prev_prefix: bool = False  # was `prev` a prefix operator?
    last_comment: bool = False  # was the last thing printed a comment?
    pending_break: bool = False  # the line ends before the next token (unless it joins)
    mid: bool = False  # inside a statement: a new line here is a continuation
    after_open: bool = False  # nothing printed since a '{' (no blank line here)

    # ------------------------------------------------------------------ lines
    def flush(self) -> None:
        if self.cur is not None:
            self.lines.append(self.cur.rstrip())
            self.cur = None
        self.pending_break = False

    def new_line(self, tok: Token, level: int) -> None:
        self.flush()
        blank_ok = (tok.breaks >= 2 and self.lines and self.lines[-1] != ""
                    and not self.mid and not self.after_open and tok.text != "}")
        if blank_ok:
            self.lines.append("")  # runs of blank lines become one
        self.cur = INDENT * level

    # ----------------------------------------------------------------- tokens
    def comment(self, tok: Token) -> None:
        text = tok.text.rstrip()
        if tok.breaks == 0 and self.cur is not None and self.cur.strip():
            self.cur += " " + text  # a trailing comment stays on its line
        else:
            self.new_line(tok, self.depth + (1 if self.mid else 0))
            self.cur = (self.cur or "") + text
        self.pending_break = True
        self.last_comment = True
        self.after_open = False

    def token(self, tok: Token) -> None:
        text, prev = tok.text, self.prev
        if text == "}":
            self.depth = max(0, self.depth - 1)
            self.mid = False
        joins = (self.pending_break and not self.last_comment and prev is not None
                 and ((text == "else" and prev.text == "}")
                      or (text == "}" and prev.text == "{")))
        if joins:
            self.pending_break = False
            self.cur = (self.cur or "") + (" " if text == "else" else "") + text
        elif self.pending_break or self.cur is None or text == "}":
            self.new_line(tok, self.depth + (1 if self.mid else 0))
            self.cur = (self.cur or "") + text
        else:
            self.cur += self.separator(prev, tok) + text
        self.last_comment = False
        self.after_open = text == "{"
        self.prev_prefix = text == "!" or (text in ("+", "-")
                                           and (prev is None or not _ends_operand(prev)))
        self.prev = tok
        self.update(tok, prev)

    def separator(self, prev: Token | None, tok: Token) -> str:
        if prev is None:
            return ""
        text = tok.text
        if self.prev_prefix or prev.text in _NO_SPACE_AFTER or text in _NO_SPACE_BEFORE:
            space = False
        elif text in _STEP:
            space = not _ends_operand(prev)  # `x++` (a prefix ++ does not exist in PSL)
        elif text == "(":
            space = prev.kind != "IDENT"  # `f(` calls; `if (`, `a * (`
        else:
            space = True
        if not space and merges(prev.text, text):
            space = True
        return " " if space else ""

    def update(self, tok: Token, prev: Token | None) -> None:
        text = tok.text
        if text == "{":
            self.depth += 1
            self.pending_break, self.mid = True, False
        elif text == "}":
            self.pending_break, self.mid = True, False
        elif text == ";" and not any(self.parens):
            self.pending_break, self.mid = True, False
        else:
            self.mid = True
            if text == "(":
                self.parens.append(prev is not None and prev.kind == "FOR")
            elif text == ")" and self.parens:
                self.parens.pop()

    def result(self) -> str:
        self.flush()
        return "\n".join(self.lines) + "\n" if self.lines else ""


def layout(tokens: list[Token]) -> str:
    """The canonical text of a token stream (comments included, whitespace not)."""
    printer = _Printer()
    for tok in tokens:
        if tok.is_comment:
            printer.comment(tok)
        else:
            printer.token(tok)
    return printer.result()
