"""Names in a document: functions, their parameters and variables, found from the tokens
alone so that half-typed text still has them.

Scopes follow the language (docs/language.md, Functions) with one simplification: inside a
function, a name that is not a parameter is the top-level variable when the top-level code
uses that name anywhere (the compiler decides per call, by what the code before the call
used), and otherwise a variable of the function itself.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from psl.fmt.tokens import Token
from psl.registry import lookup_builtin

ASSIGN_OPS = frozenset({"=", "+=", "-=", "*=", "/=", "++", "--"})
TOP = ""  # the scope of top-level code


@dataclass
class Function:
    name: Token
    params: list[Token]
    start: int  # offset of `fun`
    end: int  # offset just after the closing brace (or the end of the text)
    body: int  # offset of the opening brace (or of the name while it is missing)


@dataclass(frozen=True)
class Occurrence:
    token: Token
    kind: str  # "function", "builtin", "variable" or "param"
    scope: str  # TOP or the function's name: where the name lives
    write: bool = False  # an assignment target, a parameter or a function's name
    plain: bool = False  # an assignment target without swizzle (`x = …`, `let x = …`)
    call: bool = False  # a name before '('


@dataclass
class Symbols:
    tokens: list[Token]
    functions: dict[str, Function] = field(default_factory=dict)
    occurrences: list[Occurrence] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list)

    def at(self, offset: int) -> Occurrence | None:
        """The name under (or just before) `offset`."""
        k = bisect.bisect_right(self._starts, offset) - 1
        for j in (k, k - 1):
            if 0 <= j < len(self.occurrences):
                occ = self.occurrences[j]
                if occ.token.offset <= offset <= occ.token.end:
                    return occ
        return None

    def same(self, occ: Occurrence) -> list[Occurrence]:
        """Every occurrence of the symbol `occ` names, in text order."""
        if occ.kind == "function":
            return [o for o in self.occurrences
                    if o.kind == "function" and o.token.text == occ.token.text]
        if occ.kind == "builtin":
            return []
        return [o for o in self.occurrences
                if o.kind in ("variable", "param") and o.scope == occ.scope
                and o.token.text == occ.token.text]

    def definition(self, occ: Occurrence) -> Occurrence | None:
        group = self.same(occ)
        writes = [o for o in group if o.write]
        return writes[0] if writes else (group[0] if group else None)

    def function_at(self, offset: int) -> Function | None:
        for f in self.functions.values():
            if f.start <= offset < f.end:
                return f
        return None

    def variables(self, scope: str) -> dict[str, Occurrence]:
        """Variable name -> its first occurrence, for one scope."""
        out: dict[str, Occurrence] = {}
        for o in self.occurrences:
            if o.kind in ("variable", "param") and o.scope == scope:
                out.setdefault(o.token.text, o)
        return out


def _functions(tokens: list[Token]) -> dict[str, Function]:
    out: dict[str, Function] = {}
    n = len(tokens)
    k = 0
    while k < n:
        tok = tokens[k]
        if tok.kind != "FUN" or k + 1 >= n or tokens[k + 1].kind != "IDENT":
            k += 1
            continue
        name = tokens[k + 1]
        params: list[Token] = []
        j = k + 2
        if j < n and tokens[j].text == "(":
            j += 1
            while j < n and tokens[j].text not in (")", "{", "}"):
                if tokens[j].kind == "IDENT":
                    params.append(tokens[j])
                j += 1
        while j < n and tokens[j].text not in ("{", "}") and tokens[j].kind != "FUN":
            j += 1
        body = tokens[j].offset if j < n and tokens[j].text == "{" else name.offset
        end = tokens[-1].end
        if j < n and tokens[j].text == "{":
            depth = 0
            while j < n:
                if tokens[j].text == "{":
                    depth += 1
                elif tokens[j].text == "}":
                    depth -= 1
                    if depth == 0:
                        end = tokens[j].end
                        break
                elif tokens[j].kind == "FUN" and depth == 1:
                    # an unclosed function ends where the next one starts (half-typed text)
                    end = tokens[j].offset
                    j -= 1
                    break
                j += 1
        out.setdefault(name.text, Function(name, params, tok.offset, end, body))
        k = max(j, k + 1)
    return out


def build(tokens: list[Token]) -> Symbols:
    """The symbol table of a token list (comments may be in it; they are skipped)."""
    code = [t for t in tokens if not t.is_comment]
    functions = _functions(code)
    spans = sorted((f.start, f.end, f) for f in functions.values())
    starts = [s for s, _, _ in spans]

    def owner(offset: int) -> Function | None:
        i = bisect.bisect_right(starts, offset) - 1
        if i >= 0 and spans[i][0] <= offset < spans[i][1]:
            return spans[i][2]
        return None

    # first pass: which names does top-level code use as variables?
    raw: list[tuple[int, Function | None, bool, bool, bool]] = []  # (index, owner, …)
    top_names: set[str] = set()
    n = len(code)
    for k, tok in enumerate(code):
        if tok.kind != "IDENT" or (k > 0 and code[k - 1].text == "."):
            continue
        call = k + 1 < n and code[k + 1].text == "("
        fn = owner(tok.offset)
        j = k + 1
        while j + 1 < n and code[j].text == "." and code[j + 1].kind == "IDENT":
            j += 2
        write = j < n and code[j].text in ASSIGN_OPS and not call
        plain = write and j == k + 1
        raw.append((k, fn, call, write, plain))
        if fn is None and not call:
            top_names.add(tok.text)

    table = Symbols(code, functions)
    for k, fn, call, write, plain in raw:
        tok = code[k]
        if fn is not None and tok is fn.name:
            occ = Occurrence(tok, "function", TOP, write=True)
        elif fn is not None and any(tok is p for p in fn.params):
            occ = Occurrence(tok, "param", fn.name.text, write=True)
        elif call:
            kind = "function" if tok.text in functions else (
                "builtin" if lookup_builtin(tok.text) else "function")
            occ = Occurrence(tok, kind, TOP, call=True)
        elif fn is not None and any(p.text == tok.text for p in fn.params):
            occ = Occurrence(tok, "param", fn.name.text, write, plain)
        elif fn is not None and tok.text not in top_names:
            occ = Occurrence(tok, "variable", fn.name.text, write, plain)
        else:
            occ = Occurrence(tok, "variable", TOP, write, plain)
        table.occurrences.append(occ)
    table._starts = [o.token.offset for o in table.occurrences]
    return table
