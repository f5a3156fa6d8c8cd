"""Source text -> AST, with the lexical, size, nesting and syntax checks of the contract
(docs/compiler-contract.md, stages 1-4). Never raises for bad input: returns diagnostics.

The AST is built by an inline Lark transformer while the LALR parser reduces, so building
it never recurses, however deep the input nests.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import lark
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from psl.diagnostics import Diagnostic, Span, make
from psl.registry import LIMITS
from psl.syntax import ast

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

# Readable names for Lark's terminals, used in the hints of syntax errors.
_TERMINAL_TEXT = {
    "IDENT": "a name", "NUMBER": "a number", "$END": "end of program",
    "LPAR": "'('", "RPAR": "')'", "LBRACE": "'{'", "RBRACE": "'}'", "SEMICOLON": "';'",
    "COMMA": "','", "DOT": "'.'",
}


def _span(tok: lark.Token) -> Span:
    return Span(tok.line or 1, tok.column or 1, tok.end_line or 0, tok.end_column or 0)


def _name(tok: lark.Token) -> ast.Name:
    return ast.Name(str(tok), _span(tok))


class _Build(lark.Transformer):
    """Inline callbacks: each receives already-built children. Each does work in proportion
    to the children it receives and never copies a child's tuples, so a chain of any length
    (prefixes, operators, swizzles, else-if, statements) builds in linear time
    (tests/test_frontend_defects.py counts it)."""

    def start(self, c):  # noqa: D102
        return c[0]

    def block(self, c):
        final = None
        is_return = False
        stmts = list(c)
        if stmts and isinstance(stmts[-1], tuple):
            final, is_return = stmts.pop()
        first = stmts[0].span if stmts else (final.span if final is not None else Span(0, 0))
        return ast.Block(tuple(stmts), final, first, is_return)

    def final_return(self, c):
        return (c[1], True)

    def final_expr(self, c):
        return (c[0], False)

    def fun_def(self, c):
        kw, name, *rest = c
        body = rest[-1]
        params = tuple(_name(t) for t in rest[:-1] if t is not None)
        return ast.FunDef(_name(name), params, body, _span(kw))

    def if_stmt(self, c):
        kw, cond, then, _else_kw, orelse = c
        return ast.If(cond, then, orelse, _span(kw))

    def else_block(self, c):
        return c[0]

    def while_stmt(self, c):
        kw, cond, body = c
        return ast.While(cond, body, _span(kw))

    def for_stmt(self, c):
        kw, init, cond, step, body = c
        return ast.For(init, cond, step, body, _span(kw))

    def assignment(self, c):
        kw, target, op, value = c
        return ast.Assign(target, op, value, _span(kw) if kw is not None else target.span)

    def step(self, c):
        kw, target, op = c
        return ast.Assign(target, op, None, _span(kw) if kw is not None else target.span)

    def _op(self, c):
        return _name(c[0])

    assign_op = step_op = logic_op = cmp_op = add_op = mul_op = unary_op = _op

    def chain(self, c):
        if len(c) == 1:
            return c[0]
        first = c[0]
        rest = tuple((c[i], c[i + 1]) for i in range(1, len(c), 2))
        return ast.Chain(first, rest, first.span)

    def unary(self, c):
        # `unary_op+ postfix`: Lark hands over all the prefixes at once (its `+` helper rule
        # is left-recursive and extends one list), so a chain of n prefixes costs O(n).
        *ops, operand = c
        return ast.Unary(tuple(ops), operand, ops[0].span)

    def swizzle(self, c):
        base, *parts = c
        if not parts:
            return base
        return ast.Swizzle(base, tuple(_name(t) for t in parts), base.span)

    def call(self, c):
        name, *args = c
        return ast.Call(_name(name), tuple(a for a in args if a is not None), _span(name))

    def var(self, c):
        return ast.Var(str(c[0]), _span(c[0]))

    def number(self, c):
        tok = c[0]
        return ast.Number(float(str(tok)), str(tok), _span(tok))

    def paren(self, c):
        return ast.Paren(c[0], c[0].span)


def _cache_file(kind: str) -> str | bool:
    """Where Lark keeps its analysis of the grammar between runs (building it is most of a
    `psl check`'s start-up): a file in the user's own cache folder, never a shared temp
    folder (Lark unpickles it: a file another user could write would run their code).
    False (no cache) when that folder cannot be made private. Lark checks the grammar's
    hash on load and rebuilds on any mismatch or damage."""
    import os

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "psl"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.stat()
        if st.st_mode & 0o022 or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
            return False
    except OSError:
        return False
    return str(folder / f"grammar-{kind}-lark{lark.__version__}.cache")


@functools.lru_cache(maxsize=1)
def _lark() -> lark.Lark:
    """The grammar with Lark's own contextual lexer: the reference for the scanner (and its
    terminals build it); parsing goes through `_parser`."""
    return lark.Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr",
                     lexer="contextual", cache=_cache_file("scanner"))


class _PreLexed(Lexer):
    """Hands the parser the tokens `lex` already produced (the stages before syntax need
    the whole token list first)."""

    def __init__(self, conf: object) -> None:
        pass

    def lex(self, data: list[lark.Token]):  # type: ignore[override]
        return iter(data)


def _make_parser(transformer: lark.Transformer, grammar: str | None = None,
                 cache: bool = False) -> lark.Lark:
    """The LALR parser over `lex`'s tokens, building with `transformer` while it reduces
    (tests pass an instrumented `_Build`, or a variant of grammar.lark); `cache`: keep
    Lark's analysis of grammar.lark between runs (_cache_file)."""
    return lark.Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8") if grammar is None else grammar,
        parser="lalr",
        lexer=_PreLexed,
        transformer=transformer,
        maybe_placeholders=True,
        cache=_cache_file("parser") if cache and grammar is None else False,
    )


@functools.lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    return _make_parser(_Build(), cache=True)


@dataclass(frozen=True)
class _Scanner:
    pattern: re.Pattern[str]
    keywords: dict[str, str]  # keyword text -> terminal name
    ignore: frozenset[str]


@functools.lru_cache(maxsize=1)
def _scanner() -> _Scanner:
    """One regular expression built from grammar.lark's terminals, so the grammar stays the
    only definition of the tokens. Lark's generic lexer is ~4x slower on large programs."""
    grammar = _lark()
    terminals = grammar.terminals
    ident = next(t for t in terminals if t.name == "IDENT").pattern.to_regexp()
    keywords = {t.pattern.value: t.name for t in terminals
                if t.pattern.type == "str" and re.fullmatch(ident, t.pattern.value)}
    regexps = [t for t in terminals if t.pattern.type == "re"]
    strings = sorted((t for t in terminals
                      if t.pattern.type == "str" and t.pattern.value not in keywords),
                     key=lambda t: -len(t.pattern.value))  # longest match first
    alternatives = [f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in [*regexps, *strings]]
    return _Scanner(re.compile("|".join(alternatives)), keywords,
                    frozenset(grammar.lexer_conf.ignore))  # (a cached Lark has no ignore_tokens)


@dataclass
class ParseResult:
    program: ast.Program | None
    diagnostics: list[Diagnostic]


def describe_char(ch: str) -> str:
    return f"'{ch}'" if 0x21 <= ord(ch) <= 0x7E else f"U+{ord(ch):04X}"


def end_span(source: str) -> Span:
    """The position just after the last character."""
    line = source.count("\n") + 1
    col = len(source) - (source.rfind("\n") + 1) + 1
    return Span(line, col, line, col)


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units, as the world's InputField and C# count it."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


#: A lone surrogate (from JSON's "\ud800" or a broken editor) is not text: nothing can
#: encode it, so it is refused here, before any stage or surface tries to.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _char_hint(ch: str) -> str:
    if "\ud800" <= ch <= "\udfff":
        return "a lone surrogate is not a character: the text was cut inside a character " \
               "(UTF-16 pair) or sent by a broken tool"
    if ch == "\ufffd":
        return "U+FFFD stands for bytes that are not UTF-8: save the file as UTF-8"
    return ""


def _bad_char(source: str, pos: int) -> Diagnostic:
    line = source.count("\n", 0, pos) + 1
    col = pos - (source.rfind("\n", 0, pos) + 1) + 1
    ch = source[pos]
    return make("E001", Span(line, col, line, col + 1), hint=_char_hint(ch),
                char=describe_char(ch))


# A Token is a str with its documented attributes (type, value, positions); setting them
# directly skips Token.__new__'s keyword handling, a third of the lexer's time.
_new_token = str.__new__


def lex(source: str) -> tuple[list[lark.Token], Diagnostic | None]:
    """Stages 1-3: size, lexing, token count, nesting."""
    if not source.isascii():
        lone = _SURROGATE.search(source)
        if lone is not None:
            return [], _bad_char(source, lone.start())
    size = utf16_length(source)
    if size > LIMITS.source_chars:
        return [], make("E004", Span.start(), count=size, what="characters",
                        limit=LIMITS.source_chars)
    scanner = _scanner()
    match, keywords, ignore = scanner.pattern.match, scanner.keywords, scanner.ignore
    tokens: list[lark.Token] = []
    bad: Diagnostic | None = None
    pos, line, line_start, end = 0, 1, 0, len(source)
    while pos < end:
        m = match(source, pos)
        if m is None:
            bad = _bad_char(source, pos)
            break
        kind, text, nxt = m.lastgroup, m.group(), m.end()
        if kind in ignore:
            newlines = text.count("\n")
            if newlines:
                line += newlines
                line_start = pos + text.rindex("\n") + 1
        else:
            if kind == "IDENT":
                kind = keywords.get(text, kind)
            col = pos - line_start + 1
            tok = _new_token(lark.Token, text)
            tok.type, tok.value, tok.start_pos, tok.end_pos = kind, text, pos, nxt
            tok.line = tok.end_line = line
            tok.column, tok.end_column = col, col + len(text)
            tokens.append(tok)
        pos = nxt
    for tok in tokens:
        if tok.type == "NUMBER" and tok.count(".") > 1:
            return tokens, make("E002", _span(tok), text=str(tok),
                                hint="a number has at most one '.'")
    if bad is not None:
        return tokens, bad
    if len(tokens) > LIMITS.tokens:
        return tokens, make("E004", _span(tokens[LIMITS.tokens]), count=len(tokens),
                            what="tokens", limit=LIMITS.tokens)
    depth = 0
    for tok in tokens:
        kind = tok.type  # (comparing the Token itself goes through its slow __eq__)
        if kind == "LPAR" or kind == "LBRACE":
            depth += 1
            if depth > LIMITS.nesting:
                return tokens, make("E003", _span(tok), limit=LIMITS.nesting)
        elif (kind == "RPAR" or kind == "RBRACE") and depth > 0:
            depth -= 1
    return tokens, None


def _expected_hint(exc: UnexpectedInput) -> str:
    expected = sorted(getattr(exc, "expected", None) or getattr(exc, "accepts", None) or ())
    names = []
    for term in expected:
        if term in _TERMINAL_TEXT:
            names.append(_TERMINAL_TEXT[term])
            continue
        pattern = _lark().get_terminal(term).pattern
        if pattern.type == "str":
            names.append(f"'{pattern.value}'")
    names = sorted(set(names))
    if not names:
        return ""
    if len(names) > 8:
        return "expected one of " + ", ".join(names[:8]) + ", …"
    return "expected " + (names[0] if len(names) == 1 else "one of " + ", ".join(names))


def parse(source: str) -> ParseResult:
    """Parse a whole program. Syntax errors stop at the first one (LALR has no recovery)."""
    tokens, diag = lex(source)
    if diag is not None:
        return ParseResult(None, [diag])
    try:
        body = _parser().parse(tokens)  # type: ignore[arg-type]
    except UnexpectedToken as exc:
        hint = _expected_hint(exc)
        if exc.token.type == "$END":
            return ParseResult(None, [make("E006", end_span(source), hint=hint)])
        t = exc.token
        return ParseResult(None, [make("E005", _span(t), found=f"'{t}'", hint=hint)])
    return ParseResult(ast.Program(body, source), [])


# ----------------------------------------------------------------- public seams
# What other stages read of the grammar, named publicly so none imports a private name:
# psl.fmt re-tokenizes with the scanner, psl.gen.docs writes the editors' word pattern.
Scanner = _Scanner


def scanner() -> Scanner:
    """The token scanner built from grammar.lark's terminals (one regular expression; see
    `_scanner`)."""
    return _scanner()


def terminal_regexp(name: str) -> str:
    """The regular expression of grammar.lark's terminal `name` (IDENT, NUMBER, ...)."""
    return _lark().get_terminal(name).pattern.to_regexp()
