"""The front end never raises: random token soups and mutated corpus programs give a
program or diagnostics."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psl.compiler import compile_source
from tests.conftest import corpus_programs

TOKENS = ["fun", "let", "set", "if", "else", "while", "for", "return", "x", "y", "f", "sin",
          "float2", "uv", "time", "1", "2.5", "0.", "1.2.3", "(", ")", "{", "}", ",", ";", ".",
          "xy", "q", "+", "-", "*", "/", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "!", "=",
          "+=", "-=", "*=", "/=", "++", "--", "&", "#", "é", "\n", "//c\n"]
CORPUS = [p.read_text() for p in corpus_programs()]


def _ok(source: str) -> None:
    result = compile_source(source)
    assert result.program is not None or result.errors


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=60))
def test_token_soup(tokens):
    _ok(" ".join(tokens))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CORPUS), st.data())
def test_mutated_corpus(source, data):
    n = data.draw(st.integers(1, 4))
    text = source
    for _ in range(n):
        pos = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["delete", "insert", "dup"]))
        if kind == "delete":
            text = text[:pos] + text[pos + data.draw(st.integers(1, 10)):]
        elif kind == "insert":
            text = text[:pos] + data.draw(st.sampled_from(TOKENS)) + text[pos:]
        else:
            end = min(len(text), pos + data.draw(st.integers(1, 40)))
            text = text[:end] + text[pos:end] + text[end:]
    _ok(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_arbitrary_text(text):
    _ok(text)


def _lark_tokens(source: str) -> list[tuple]:
    from psl.syntax.parser import _lark

    return [(t.type, str(t), t.line, t.column) for t in _lark().lex(source)]


def _our_tokens(source: str) -> list[tuple]:
    from psl.syntax.parser import lex

    tokens, diag = lex(source)
    assert diag is None or diag.code != "E001"
    return [(t.type, str(t), t.line, t.column) for t in tokens]


def test_scanner_equals_lark_lexer_on_corpus():
    for source in CORPUS:
        assert _our_tokens(source) == _lark_tokens(source)


LEXABLE = [t for t in TOKENS if t not in ("&", "#", "é")]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(LEXABLE), max_size=40), st.lists(st.sampled_from(
    ["", " ", "\n", "\t", "\r\n"]), min_size=40, max_size=40))
def test_scanner_equals_lark_lexer(tokens, gaps):
    source = "".join(t + g for t, g in zip(tokens, gaps, strict=False))
    assert _our_tokens(source) == _lark_tokens(source)
