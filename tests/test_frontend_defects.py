"""Front-end defects found by differential fuzzing, kept fixed.

1. The quoted source line and caret of a text diagnostic follow the position's own notion of
   lines (only "\\n" ends one), not str.splitlines(), which also breaks at a lone "\\r",
   "\\f", "\\v", "\\x1c"-"\\x1e", "\\x85", U+2028 and U+2029.
2. Building the AST is linear in the length of any chain (unary prefixes, binary operators,
   swizzles, else-if, statements, arguments, nested brackets): checked by counting the work
   of the parser's callbacks, not by timing (bench/frontend_chains.py has the timings).
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psl.compiler import check_source
from psl.diagnostics import render_text, source_line
from psl.registry import LIMITS
from psl.syntax import ast
from psl.syntax.parser import GRAMMAR_PATH, _Build, _make_parser, lex, parse

#: Every character other than "\n" that str.splitlines() breaks lines at.
SPLITLINES_BREAKS = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
IDS = [f"U+{ord(c):04X}" for c in SPLITLINES_BREAKS]


def test_the_list_is_every_splitlines_break():
    breaks = {chr(c) for c in range(0x110000) if len(f"a{chr(c)}b".splitlines()) == 2}
    assert breaks == {*SPLITLINES_BREAKS, "\n"}


def _rendered(source: str, index: int = 0) -> tuple[str, list[str]]:
    """(the diagnostic's `line:col`, the lines render_text prints) of diagnostic `index`."""
    diag = check_source(source).diagnostics[index]
    return f"{diag.span.line}:{diag.span.column}", render_text(diag, source, "t.psl").split("\n")


def _caret_column(caret_line: str) -> int:
    """1-based column of the first '^' under a quoted line (`  | ` gutter of width 1)."""
    return caret_line.index("^") - len("  | ") + 1


@pytest.mark.parametrize("ch", SPLITLINES_BREAKS, ids=IDS)
def test_break_on_an_earlier_line(ch):
    source = f"// one{ch}two\nlet a = sin(1, 2);\na\n"
    at, out = _rendered(source)
    assert at == "2:9"
    assert out[0] == "t.psl:2:9: error[E011]: 'sin' takes 1 argument, got 2"
    assert out[2] == "2 | let a = sin(1, 2);"
    assert out[3] == "  |         ^^^"


@pytest.mark.parametrize("ch", SPLITLINES_BREAKS, ids=IDS)
def test_break_on_the_line_quoted_as_a_space(ch):
    """The character on the diagnostic's own line: the whole line is quoted (the character
    shown as a space) and the caret is under the position. A lone "\\r" is whitespace, so the
    error can come after it; the others are E001 themselves."""
    if ch == "\r":
        source = "// c\rd\nlet a = 1;\rlet b = sin(a, 2);\nb\n"
        at, out = _rendered(source)
        assert at == "2:20"
        assert out[2] == "2 | let a = 1; let b = sin(a, 2);"
        assert out[3] == "  |                    ^^^"
        assert out[2][len("2 | ") + 19:].startswith("sin")
    else:
        source = f"// c{ch}d\nlet a = 1;{ch}let b = 2;\nb\n"
        at, out = _rendered(source)
        assert at == "2:11"
        assert out[0].startswith(f"t.psl:2:11: error[E001]: unexpected character U+{ord(ch):04X}")
        assert out[2] == "2 | let a = 1; let b = 2;"
        assert out[3] == "  |           ^"
    assert _caret_column(out[3]) == int(at.split(":")[1])


@pytest.mark.parametrize("ch", SPLITLINES_BREAKS, ids=IDS)
def test_break_later_on_the_line_does_not_matter(ch):
    source = f"let a = sin(1, 2); // x{ch}y\na\n"
    at, out = _rendered(source)
    assert at == "1:9"
    assert out[2] == "1 | let a = sin(1, 2); // x y"
    assert out[3] == "  |         ^^^"


def test_crlf_line_is_quoted_without_its_cr():
    source = "let a = 1;\r\nlet b = sin(a, 2);\r\nb\r\n"
    at, out = _rendered(source)
    assert at == "2:9"
    assert out[2] == "2 | let b = sin(a, 2);"
    assert out[3] == "  |         ^^^"


def test_position_after_the_last_line_quotes_nothing():
    """As before: the end of a text ending in a line break is not quoted (no empty line)."""
    for source in ("a.\n", "a.\r\n"):
        at, out = _rendered(source)
        assert at == "2:1"
        assert out[0] == "t.psl:2:1: error[E006]: unexpected end of program"
        assert out[1].startswith("  = help:")


def test_source_line():
    text = "a\rb\x0cc\n\u2028d\r\n\ne\x85"
    assert [source_line(text, n) for n in range(0, 6)] == [
        None, "a\rb\x0cc", "\u2028d", "", "e\x85", None]
    assert source_line("", 1) is None
    assert source_line("x\n", 2) is None
    assert source_line("x\n\n", 2) == ""


def test_check_cli_quotes_the_positions_line(tmp_path):
    src = tmp_path / "breaks.psl"
    text = "// " + "".join(SPLITLINES_BREAKS) + "\nlet a = 1;\rlet b = sin(a, 2);\nb\n"
    src.write_bytes(text.encode("utf-8"))
    proc = subprocess.run([sys.executable, "-m", "psl.cli", "check", str(src)],
                          capture_output=True, text=True, encoding="utf-8")
    assert proc.returncode == 1
    lines = proc.stdout.split("\n")
    assert lines[0] == f"{src}:2:20: error[E011]: 'sin' takes 1 argument, got 2"
    assert lines[2] == "2 | let a = 1; let b = sin(a, 2);"
    assert lines[3] == "  |                    ^^^"


def _offset(source: str, line: int, column: int) -> int:
    """The index of a 1-based (line, column), walking the text independently: lines end at
    "\n" only, columns count characters."""
    pos = 0
    for _ in range(line - 1):
        pos = source.index("\n", pos) + 1
    return pos + column - 1


def _shown(ch: str) -> str:
    c = ord(ch)
    return " " if c < 0x20 or 0x7F <= c < 0xA0 or ch in "\u2028\u2029" else ch


SOUP = ["let", "a", "=", "sin", "(", ")", ",", ";", "1", " ", "\t", "\n", "\r\n", "// c", "&",
        *SPLITLINES_BREAKS]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(SOUP), max_size=30))
def test_caret_is_under_the_positions_character(parts):
    source = "".join(parts)
    for diag in check_source(source).diagnostics:
        out = render_text(diag, source, "t.psl").split("\n")
        if len(out) < 4 or not out[1].endswith(" |"):
            continue  # nothing quoted
        gutter = len(str(diag.span.line)) + 3
        quoted, caret = out[2][gutter:], out[3][gutter:]
        assert caret.index("^") == diag.span.column - 1
        pos = _offset(source, diag.span.line, diag.span.column)
        line_end = source.find("\n", pos)
        line_end = len(source) if line_end < 0 else line_end
        if source[pos:line_end] in ("", "\r"):
            assert len(quoted) <= diag.span.column - 1  # the position is past the line's text
        else:
            assert quoted[diag.span.column - 1] == _shown(source[pos])


# ------------------------------------------------------------------- linear AST building
def _size(value: object) -> int:
    """Elements a callback's result holds: 1, plus the length of each of its tuples."""
    if dataclasses.is_dataclass(value):
        return 1 + sum(len(v) for f in dataclasses.fields(value)
                       if isinstance(v := getattr(value, f.name), tuple))
    return len(value) if isinstance(value, tuple) else 1


class _Counting(_Build):
    """_Build whose callbacks add up their work: the children received plus the size of the
    node built. A callback that copies its child's tuples (as the unary one did, prepending
    one operator to a copy of the operand's) makes the total quadratic in a chain's length.
    Lark's own helper rules (`x*`, `x+`) extend one list in place: one unit each."""

    def __init__(self) -> None:
        super().__init__()
        self.work = 0
        for name, member in vars(_Build).items():
            if callable(member) and not name.startswith("_"):
                setattr(self, name, self._counted(getattr(self, name)))
        default = self.__default__

        def counted_default(data, children, meta):
            self.work += 1
            return default(data, children, meta)

        self.__default__ = counted_default  # type: ignore[method-assign]

    def _counted(self, method):
        def wrapper(children):
            result = method(children)
            self.work += len(children) + _size(result)
            return result

        return wrapper


@pytest.fixture(scope="module")
def counting_parser():
    transformer = _Counting()
    return transformer, _make_parser(transformer)


def _work(counting_parser, source: str) -> int:
    transformer, parser = counting_parser
    tokens, diag = lex(source)
    assert diag is None, diag
    transformer.work = 0
    parser.parse(tokens)
    return transformer.work


NEST = 16
CHAINS = {
    "unary_alternating": lambda n: "".join("-+!"[i % 3] for i in range(n)) + "1",
    "unary_spaced": lambda n: "- " * n + "1",
    "unary_bang": lambda n: "!" * n + "x",
    "unary_in_sum": lambda n: "1" + "+-!1" * n,
    "sum_chain": lambda n: "1" + "+1" * n,
    "mixed_chain": lambda n: "1" + "*1+1<1&&1" * n,
    "swizzle_chain": lambda n: "x" + ".x" * n,
    "swizzle_after_unary": lambda n: "-" * 1 + "x" + ".xy" * n,
    "else_if_chain": lambda n: "let a = 1;\nif (a) { 1 }" + " else if (a) { 1 }" * n,
    "nested_parens": lambda n: "+".join(["(" * NEST + "1" + ")" * NEST] * n),
    "nested_unary_parens": lambda n: "+".join(["(-" * NEST + "1" + ")" * NEST] * n),
    "statements": lambda n: "a=1;" * n + "a",
    "call_args": lambda n: "f(1" + ",-1" * n + ")",
    "fun_params": lambda n: "fun f(a" + ",a" * n + "){1}f(1)",
    "blocks": lambda n: "while (1) { a = 1; }" * n + "a",
}


@pytest.mark.parametrize("name", list(CHAINS))
def test_building_the_ast_is_linear(counting_parser, name):
    make = CHAINS[name]
    unit = len(make(2)) - len(make(1))
    budget = LIMITS.source_chars // 2  # characters of the longest program (keeps it quick)
    n = min(500, (budget - len(make(1)) + unit) // (4 * unit))
    assert n >= 20 and len(make(4 * n)) <= budget
    w1, w2, w4 = (_work(counting_parser, make(k)) for k in (n, 2 * n, 4 * n))
    # linear: doubling the chain at most doubles the work (plus a constant); quadratic
    # building would make it about 4 times
    assert w2 <= 2 * w1 + 64, (w1, w2)
    assert w4 <= 2 * w2 + 64, (w2, w4)


@pytest.mark.parametrize("unit", [("(", ")"), ("(-", ")"), ("f(", ")"), ("(x.x+", ").y"),
                                  ("while (1) {", "}"), ("if (1) {} else { if (1) {", "}}")])
def test_building_nested_brackets_is_linear_in_depth(counting_parser, unit):
    opening, closing = unit
    d = LIMITS.nesting // (4 * (opening.count("(") + opening.count("{")))
    w1, w2, w4 = (_work(counting_parser, opening * k + "1" + closing * k)
                  for k in (d, 2 * d, 4 * d))
    assert w2 <= 2 * w1 + 64, (w1, w2)
    assert w4 <= 2 * w2 + 64, (w2, w4)


def test_counter_sees_a_quadratic_callback():
    """The measure works: the previous right-recursive unary rule, whose callback prepended
    one operator to a copy of the operand's, is flagged by the same comparison."""
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    new_rule = re.search(r"^\?unary: unary_op\+ postfix +-> unary$", grammar, re.M)
    assert new_rule is not None
    old_grammar = grammar.replace(new_rule.group(), "?unary: unary_op unary -> unary")

    class _OldUnary(_Counting):
        def __init__(self) -> None:
            super().__init__()
            self.unary = self._counted(self._old_unary)

        @staticmethod
        def _old_unary(c):
            op, operand = c
            if isinstance(operand, ast.Unary):
                return ast.Unary((op, *operand.ops), operand.operand, op.span)
            return ast.Unary((op,), operand, op.span)

    old = _OldUnary()
    old_parser = (old, _make_parser(old, old_grammar))
    source = "let a = -+!-x.y;\na"
    assert old_parser[1].parse(lex(source)[0]) == parse(source).program.body
    w1, w2 = (_work(old_parser, "- " * k + "1") for k in (2000, 4000))
    assert w2 > 3 * w1, (w1, w2)


def test_unary_ast_is_flat_and_in_source_order():
    result = parse("let a = -+!-x.y;\na")
    assert not result.diagnostics
    [assign] = result.program.body.statements
    node = assign.value
    assert isinstance(node, ast.Unary)
    assert [op.text for op in node.ops] == ["-", "+", "!", "-"]
    assert (node.span.line, node.span.column) == (1, 9)
    assert [(op.span.column) for op in node.ops] == [9, 10, 11, 12]
    assert isinstance(node.operand, ast.Swizzle)
    assert [p.text for p in node.operand.parts] == ["y"]


def test_long_chains_at_the_source_limit_check():
    """Chains as long as the source limit allows give a program or diagnostics, never an
    exception (the front end does not recurse along them)."""
    limit = LIMITS.source_chars
    for source in ("".join("-+!"[i % 3] for i in range(limit - 1)) + "1",
                   "1" + "+1" * ((limit - 1) // 2), "x" + ".x" * ((limit - 1) // 2)):
        assert len(source) <= limit
        result = check_source(source)
        # since the program texture (16,384 instructions) these fit; the original world's
        # 2,046 do not (N004)
        assert not result.errors and "N004" in {d.code for d in result.diagnostics}
