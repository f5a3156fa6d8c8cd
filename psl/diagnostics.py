"""Diagnostics: the catalogue of codes and their rendering (text like rustc/ruff, or JSON).

The catalogue is part of the contract with the in-world compiler: the generated C#
reports the same code, position and message text for the first error.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"  # information: what the program does that may surprise (never fails a check)


@dataclass(frozen=True)
class Kind:
    code: str
    severity: Severity
    template: str  # str.format template; fields named in braces
    summary: str


def _k(code: str, template: str, summary: str) -> Kind:
    sev = {"E": Severity.ERROR, "W": Severity.WARNING, "N": Severity.NOTE}[code[0]]
    return Kind(code, sev, template, summary)


#: Every diagnostic psl can report. Order of stages (which error is "first"):
#: lexical (E001-E002), nesting/size (E003-E004), syntax (E005-E006),
#: semantic (E010-E020, earliest position first), program limits (E030-E031).
CATALOGUE: dict[str, Kind] = {k.code: k for k in (
    _k("E001", "unexpected character {char}", "a character that is not part of PSL"),
    _k("E002", "invalid number '{text}'", "a number with more than one '.'"),
    _k("E003", "nesting too deep: more than {limit} open brackets",
       "more nested ( and { than the compiler allows"),
    _k("E004", "program text too long: {count} {what} (limit {limit})",
       "source longer than a VRChat input field holds (and the world can share)"),
    _k("E005", "unexpected {found}", "syntax error"),
    _k("E006", "unexpected end of program", "syntax error at the end"),
    _k("E010", "undefined function '{name}'", "call of a function that does not exist"),
    _k("E011", "'{name}' takes {expected} argument{s}, got {got}", "wrong argument count"),
    _k("E012", "recursive call: {cycle}", "functions cannot call themselves, even indirectly"),
    _k("E013", "'{name}' is a builtin function and cannot be redefined",
       "a function named like a builtin"),
    _k("E014", "function '{name}' is already defined at line {line}", "two functions, one name"),
    _k("E015", "functions can only be defined at the top level",
       "`fun` inside a block"),
    _k("E016", "invalid swizzle '.{text}': use letters from xyzw or rgba",
       "swizzle with other letters"),
    _k("E017", "swizzle '.{text}' is too long: at most 4 letters", "swizzle longer than 4"),
    _k("E018", "cannot assign to {what}", "unknown assignment form"),
    _k("E030", "program too large: {count} instructions after inlining (limit {limit})",
       "more instructions than the VM holds"),
    _k("E031", "too many variables: {count} registers after inlining (limit {limit})",
       "more variables than the VM has registers"),
    _k("W001", "swizzle '.{text}' mixes xyzw and rgba letters", "mixed swizzle sets"),
    _k("W002", "variable '{name}' is assigned but never read", "unused variable"),
    _k("W003", "'{name}' is a function name used as a variable", "function name as variable"),
    _k("W004", "the program has no final value: every pixel will be black",
       "no final expression"),
    _k("W005",
       "a value left inside {what} does not return from the function; it stays on the stack",
       "return inside if/while"),
    _k("W006", "variable '{name}' is never assigned, so it reads 0{suggestion}",
       "read of a variable that nothing assigns"),
    _k("W007", "variable '{name}' is read before it is assigned{where}, so it reads 0 there",
       "read that a path reaches before any assignment"),
    _k("W008", "this loop needs {need} but the VM stops every pixel after {limit} jumps: "
               "{where}",
       "constant loop bounds beyond the jump budget"),
    _k("W009", "this loop never ends: {why}; the VM stops every pixel that enters it after "
               "{limit} jumps, wherever it is",
       "a loop whose constant condition never becomes false"),
    _k("W010", "swizzle lane {lane} is past the width of {what}, so it reads 0",
       "swizzle lane beyond the value's inferred width"),
    _k("W011", "{op} mixes {left} and {right}: {effect}",
       "mixed widths in an operator or builtin, likely a mistake"),
    _k("W012", "number '{text}' is beyond float32's range: it becomes {value}",
       "a literal above float32's largest value (about 3.4e38)"),
    _k("W013", "this constant expression computes NaN, which the VM takes for a missing "
               "lane", "a constant 0/0, sqrt(-1) or the like"),
    _k("W014", "{whom} of the reference frame run{s} out of the work budget here: the VM stops "
               "a pixel after {limit} executed instructions, coloured by whatever is on top "
               "of the stack",
       "pixels that reach the VM's work budget (psl check)"),
    _k("W015", "this slider line {why}, so the world shows no slider for it",
       "a `//@slider` comment the world cannot read"),
    _k("W016", "slider '{name}': {why}", "a slider whose range or default does not fit"),
    _k("W017", "slider({index}) {why}, so it reads 0",
       "a slider read that no `//@slider` line names"),
    _k("N001", "the program's result is {what}: {effect}; alpha is the height of the "
               "screen's surface, so the screen shows it flat",
       "final value narrower than a float4 (no alpha: a flat screen)"),
    _k("N002", "width inference stopped on an internal error ({error}); the program "
               "compiles as usual, without the width checks",
       "a bug in psl's width inference"),
    _k("N003", "width inference ran out of its work budget ({budget} steps for {count} "
               "instructions) at this loop; {what}",
       "loops that cost the width inference more work than its budget"),
    _k("N004", "the original Shaderception world cannot run this program: {why}; it runs in "
               "worlds with psl's program texture",
       "a program beyond the original world's format (--pad)"),
)}


@dataclass(frozen=True)
class Span:
    line: int  # 1-based
    column: int  # 1-based, in characters
    end_line: int = 0
    end_column: int = 0

    @staticmethod
    def start() -> Span:
        return Span(1, 1, 1, 1)


@dataclass(frozen=True)
class Diagnostic:
    code: str
    span: Span
    message: str
    hint: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def severity(self) -> Severity:
        return CATALOGUE[self.code].severity

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def as_dict(self, path: str = "") -> dict[str, object]:
        d: dict[str, object] = {
            "path": path,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line or self.span.line,
            "end_column": self.span.end_column or self.span.column,
        }
        if self.hint:
            d["hint"] = self.hint
        if self.notes:
            d["notes"] = list(self.notes)
        return d


def make(code: str, span: Span, hint: str = "", **fields: object) -> Diagnostic:
    kind = CATALOGUE[code]
    return Diagnostic(code, span, kind.template.format(**fields), hint)


class PslError(Exception):
    """Raised by library entry points when a program has errors; carries all diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        first = next((d for d in diagnostics if d.is_error), diagnostics[0])
        super().__init__(f"{first.span.line}:{first.span.column}: {first.message}")


#: Characters shown as a space in a quoted source line, so that the caret (one column per
#: character) stays under its position: tab, the other C0 and C1 controls (a lone \r, \f,
#: \v, \x1c-\x1e, \x85 ... would move the terminal's cursor or break the line) and the
#: Unicode line and paragraph separators.
_QUOTE_BLANKS = {c: " " for c in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)}


def source_line(source: str, line: int) -> str | None:
    """The text of 1-based `line` as positions count lines: only "\n" ends a line (a lone
    "\r", "\f", "\v", "\x85", U+2028 ... do not, unlike str.splitlines). The "\r" of a
    CRLF ending is not part of the line. None past the last line; as with splitlines, a
    final "\n" does not start another line and an empty text has none."""
    lines = source.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1]
    return text[:-1] if text.endswith("\r") else text


def render_text(diag: Diagnostic, source: str, path: str) -> str:
    """`path:line:col: error[E012]: message`, then the source line and a caret."""
    sev = diag.severity.value
    out = [f"{path}:{diag.span.line}:{diag.span.column}: {sev}[{diag.code}]: {diag.message}"]
    text = source_line(source, diag.span.line)
    if text is not None:
        text = text.translate(_QUOTE_BLANKS)
        gutter = str(diag.span.line)
        width = 1
        if diag.span.end_line == diag.span.line and diag.span.end_column > diag.span.column:
            width = diag.span.end_column - diag.span.column
        out.append(f"{' ' * len(gutter)} |")
        out.append(f"{gutter} | {text}")
        out.append(f"{' ' * len(gutter)} | {' ' * (diag.span.column - 1)}{'^' * width}")
    out.extend(f"  = note: {note}" for note in diag.notes)
    if diag.hint:
        out.append(f"  = help: {diag.hint}")
    return "\n".join(out)


def render_json(items: list[tuple[str, Diagnostic]]) -> str:
    return json.dumps([d.as_dict(path) for path, d in items], indent=2)


__all__ = ["CATALOGUE", "Diagnostic", "Kind", "PslError", "Severity", "Span", "make"]
