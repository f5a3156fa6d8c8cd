"""The registry's token tables (PUNCTUATION, PRECEDENCE) agree with grammar.lark: the Python
front end reads the grammar, the in-world lexer and parser are generated from the tables."""

from __future__ import annotations

import re

from psl import registry
from psl.gen import udonsharp
from psl.syntax.parser import GRAMMAR_PATH

GRAMMAR = GRAMMAR_PATH.read_text(encoding="utf-8")
#: the grammar's operator rules, loosest first (SPEC §2.2)
LEVEL_RULES = ("logic_op", "cmp_op", "add_op", "mul_op")


def rule_strings(rule: str) -> set[str]:
    line = next(line for line in GRAMMAR.splitlines() if line.startswith(f"!{rule}:"))
    return set(re.findall(r'"([^"]+)"', line))


def test_punctuation_is_the_grammars():
    code = "\n".join(line.split("//")[0] for line in GRAMMAR.splitlines()
                     if not line.lstrip().startswith("//"))
    literals = set(re.findall(r'"([^"\w]+)"', code))
    assert literals == set(registry.PUNCTUATION)


def test_precedence_levels_are_the_grammars():
    assert len(registry.PRECEDENCE) == len(LEVEL_RULES)
    for level, rule in zip(registry.PRECEDENCE, LEVEL_RULES, strict=True):
        assert set(level) == rule_strings(rule), rule
    assert {u.symbol for u in registry.UNARY_OPERATORS} == rule_strings("unary_op")


def test_generated_tables_cover_every_token():
    tables = udonsharp.token_tables()
    names = list(tables.names)
    for symbol, name in registry.PUNCTUATION.items():
        t = names.index(name)
        assert tables.widths[t] == len(symbol)
        first = ord(symbol[0])
        if len(symbol) == 1:
            assert tables.op_single[first] == t
        elif symbol[1] == "=":
            assert tables.op_with_eq[first] == t
        else:
            assert tables.op_double[first] == t
    binary = {b.symbol for b in registry.BINARY_OPERATORS}
    for symbol in binary:
        assert tables.bin_prec[names.index(registry.PUNCTUATION[symbol])] > 0
