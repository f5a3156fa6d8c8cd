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
