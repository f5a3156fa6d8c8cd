"""Test programs that carry their expected diagnostics, in the style of clox's tests.

A case file is the program, a newline, then one or more expectation lines, each ending
with a newline:

    let a = sin(1, 2);
    a
    // expect: E011 1:9 'sin' takes 1 argument, got 2

    // expect: CODE LINE:COLUMN MESSAGE

CODE, LINE and COLUMN are the diagnostic's code and 1-based start; MESSAGE, when given, is
its exact one-line message. The lines list the program's diagnostics in order from the
first; a set's test says whether they must be all of them (tests/programs/warnings) or only
the first (tests/programs/malformed).

The program the tests compile is the text BEFORE the expectation lines and the one newline
that precedes them, byte for byte. The expectations sit after the program and are cut off,
so they never move a position or change a result: a program that ends inside a block (E006
at the end of the text), one that ends with a comment, or one whose length is the point
(E004) means the same with or without them. A program that ends with a newline shows an
empty line before its expectations; an empty program is a file that starts with one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from psl.diagnostics import Diagnostic

PREFIX = "// expect: "
_EXPECT = re.compile(r"(?P<code>[EWN]\d{3}) (?P<line>\d+):(?P<column>\d+)(?: (?P<message>.+))?")


@dataclass(frozen=True)
class Expect:
    code: str
    line: int
    column: int
    message: str | None = None  # None: any message

    @staticmethod
    def parse(text: str) -> Expect:
        """`CODE LINE:COLUMN [MESSAGE]`, with or without the `// expect: ` prefix."""
        text = text.removeprefix(PREFIX)
        m = _EXPECT.fullmatch(text)
        if m is None:
            raise ValueError(f"not an expectation: {text!r}")
        return Expect(m["code"], int(m["line"]), int(m["column"]), m["message"])

    def matches(self, diag: Diagnostic) -> bool:
        return (self.code, self.line, self.column) == (diag.code, diag.span.line,
                                                       diag.span.column) \
            and self.message in (None, diag.message)

    def __str__(self) -> str:
        tail = "" if self.message is None else f" {self.message}"
        return f"{self.code} {self.line}:{self.column}{tail}"


def describe(diag: Diagnostic) -> str:
    """A diagnostic written as an expectation, for failure messages and new case files."""
    return str(Expect(diag.code, diag.span.line, diag.span.column, diag.message))


@dataclass(frozen=True)
class Case:
    name: str
    source: str
    expected: tuple[Expect, ...]

    @property
    def first(self) -> Expect:
        return self.expected[0]


def parse_case(name: str, text: str) -> Case:
    if not text.endswith("\n"):
        raise ValueError(f"{name}: the last expectation line must end with a newline")
    lines = text[:-1].split("\n")
    expected: list[Expect] = []
    while len(lines) > 1 and lines[-1].startswith(PREFIX):
        expected.insert(0, Expect.parse(lines.pop()))
    if not expected:
        raise ValueError(f"{name}: no '{PREFIX}' line at the end")
    return Case(name, "\n".join(lines), tuple(expected))


def case_text(source: str, expected: list[Expect]) -> str:
    """The file for a case (the inverse of parse_case)."""
    return source + "\n" + "".join(f"{PREFIX}{e}\n" for e in expected)


def load_cases(directory: Path) -> list[Case]:
    # decoded from bytes: "\r\n" and a lone "\r" in a program stay as they are
    return [parse_case(p.stem, p.read_bytes().decode("utf-8"))
            for p in sorted(directory.glob("*.psl"))]
