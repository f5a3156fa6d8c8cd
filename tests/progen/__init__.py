"""Grammar-based random PSL programs for differential tests.

    generate(seed, valid=True) -> str

`valid=True` gives a program that follows the grammar and the semantic rules (functions at
top level, defined once, called with the right arity, never recursive; valid swizzles and
assignment targets); it usually fits the VM limits but is not guaranteed to (very rarely
E030/E031). `valid=False` gives a program that is mostly wrong somewhere: a valid program
with a mutation (token deleted/duplicated/replaced, a stray character, a semantic mistake
such as recursion, a wrong argument count, a bad swizzle or target, a limit exceeded).
The same seed always gives the same text.
"""

from __future__ import annotations

import random

from psl import registry

__all__ = ["generate", "generate_many"]

_BINOPS = [b.symbol for b in registry.BINARY_OPERATORS]
_UNOPS = [u.symbol for u in registry.UNARY_OPERATORS]
_CALLABLE = [b for b in registry.BUILTINS if not b.internal]
_VARS = ["x", "y", "v", "col", "t", "uv", "p", "q", "acc", "i", "n", "tmp", "X", "_a1"]
_SWZ = "xyzwrgba"


class _Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.funcs: list[tuple[str, list[str]]] = []  # callable so far (no recursion)
        self.depth = 0
        self.budget = 0  # rough instruction budget left

    # ------------------------------------------------------------- lexical bits
    def ws(self) -> str:
        r = self.r.random()
        if r < 0.85:
            return " "
        return self.r.choice(["", "  ", "\t", "\n", "\r\n", " // note\n", "\n\t"])

    def number(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.4:
            return str(r.randint(0, 10))
        if k < 0.7:
            return f"{r.randint(0, 99)}.{r.randint(0, 999)}"
        if k < 0.8:
            return f"{r.randint(0, 9)}."
        if k < 0.88:
            return "0" + str(r.randint(0, 99))
        if k < 0.95:
            digits = "".join(r.choice("0123456789") for _ in range(r.randint(1, 12)))
            return f"{r.randint(0, 999)}.{digits}"
        return str(r.choice([0.1, 0.2, 0.3, 1e-5, 3.14159265358979, 16777217, 1e10]))\
            .replace("e-05", "").replace("e+10", "0000000000")

    def swizzle(self, n: int = 0) -> str:
        n = n or self.r.choice([1, 1, 1, 2, 2, 3, 4])
        letters = self.r.choice(["xyzw", "rgba", _SWZ])
        return "".join(self.r.choice(letters) for _ in range(n))

    def var(self) -> str:
        return self.r.choice(_VARS)

    def builtin_name(self, b: registry.Builtin) -> str:
        k = self.r.random()
        if k < 0.8:
            return b.name
        if k < 0.9:
            return b.name.upper()
        return b.name[:1].upper() + b.name[1:]

    # ------------------------------------------------------------- expressions
    def expr(self, depth: int = 0) -> str:
        r = self.r
        self.budget -= 1
        if depth > 3 or self.budget < 0:
            return self.atom()
        k = r.random()
        if k < 0.35:
            return self.atom()
        if k < 0.6:
            left, right = self.expr(depth + 1), self.expr(depth + 1)
            return f"{left}{self.ws()}{r.choice(_BINOPS)}{self.ws()}{right}"
        if k < 0.7:
            return f"{r.choice(_UNOPS)}{self.postfix(depth + 1)}"
        if k < 0.85:
            return self.call(depth + 1)
        if k < 0.93:
            return f"({self.expr(depth + 1)})"
        return f"{self.swizzle_base(self.postfix(depth + 1))}.{self.swizzle()}"

    def swizzle_base(self, text: str) -> str:
        """A number directly before `.` would swallow the dot (`5.x` is `5.` then `x`)."""
        if text[:1].isdigit():
            return f"({text})" if self.r.random() < 0.7 else text + " "
        return text

    def postfix(self, depth: int) -> str:
        k = self.r.random()
        if k < 0.5:
            return self.atom()
        if k < 0.8:
            return self.call(depth)
        return f"({self.expr(depth)})"

    def atom(self) -> str:
        k = self.r.random()
        if k < 0.4:
            return self.number()
        if k < 0.85:
            return self.var()
        return f"{self.var()}.{self.swizzle()}"

    def call(self, depth: int) -> str:
        r = self.r
        if self.funcs and r.random() < 0.3:
            name, params = r.choice(self.funcs)
            args = [self.expr(depth + 1) for _ in params]
        else:
            b = r.choice(_CALLABLE)
            name = self.builtin_name(b)
            args = [self.expr(depth + 1) for _ in range(b.arity)]
        return f"{name}({', '.join(args)})"

    # ------------------------------------------------------------- statements
    def target(self) -> str:
        v = self.var()
        if self.r.random() < 0.25:
            return f"{v}.{self.swizzle()}"
        return v

    def assignment(self) -> str:
        r = self.r
        prefix = r.choice(["", "", "let ", "set "])
        k = r.random()
        if k < 0.6:
            return f"{prefix}{self.target()}{self.ws()}={self.ws()}{self.expr()}"
        if k < 0.85:
            return f"{prefix}{self.target()} {r.choice(['+=', '-=', '*=', '/='])} {self.expr()}"
        return f"{prefix}{self.target()}{r.choice(['++', '--'])}"

    def block(self, n: int, final_ok: bool = True) -> str:
        parts = [self.statement() for _ in range(n)]
        if final_ok and self.r.random() < 0.5:
            if self.r.random() < 0.3:
                parts.append(f"return {self.expr()};")
            else:
                parts.append(self.expr())
        return "\n".join(parts)

    def statement(self) -> str:
        r = self.r
        self.budget -= 3
        if self.depth >= 3 or self.budget < 0:
            return self.assignment() + ";"
        k = r.random()
        self.depth += 1
        try:
            if k < 0.55:
                return self.assignment() + ";"
            if k < 0.75:
                s = f"if ({self.expr()}) {{\n{self.block(r.randint(0, 2))}\n}}"
                while r.random() < 0.35:
                    s += f" else if ({self.expr()}) {{ {self.block(r.randint(0, 2))} }}"
                if r.random() < 0.5:
                    s += f"\nelse {{\n{self.block(r.randint(0, 2))}\n}}"
                return s
            if k < 0.87:
                body = self.block(r.randint(0, 2), r.random() < 0.2)
                return f"while ({self.expr()}) {{\n{body}\n}}"
            init = self.assignment()
            step = self.assignment()
            return (f"for ({init}; {self.expr()}; {step}) "
                    f"{{\n{self.block(r.randint(0, 2), r.random() < 0.2)}\n}}")
        finally:
            self.depth -= 1

    def function(self, index: int) -> tuple[str, str, list[str]]:
        r = self.r
        name = r.choice(["f", "g", "Draw", "helper", "fn"]) + str(index)
        params = r.sample(["a", "b", "c", "d", "x", "pos", "size", "t"], r.randint(0, 3))
        body = self.block(r.randint(0, 3), final_ok=False)
        final = self.expr()
        body = f"{body}\n{final}" if r.random() < 0.8 else f"{body}\nreturn {final};"
        text = f"fun {name}({', '.join(params)})\n{{\n{body}\n}}"
        return name, text, params

    def program(self) -> str:
        r = self.r
        self.budget = r.randint(20, 160)
        defs: list[str] = []
        for i in range(r.choice([0, 0, 1, 1, 2, 3, 4])):
            name, text, params = self.function(i)
            defs.append(text)
            self.funcs.append((name, params))
        body = [self.statement() for _ in range(r.randint(1, 8))]
        # functions may be defined before or after their calls (top level only)
        for d in defs:
            body.insert(r.randint(0, len(body)), d)
        final = r.random()
        if final < 0.7:
            body.append(self.expr())
        elif final < 0.85:
            body.append(f"return {self.expr()};")
        text = "\n".join(body)
        if r.random() < 0.1:
            text = "// generated\n" + text + "\n"
        return text


# ----------------------------------------------------------------- invalid programs
_JUNK = ["&", "|", "#", "@", "$", "`", "~", "?", ":", "[", "]", "\\", "'", '"', "é", "\u00a0",
         "\x07", "😀", "1..2", "..", ".", ";", ",", "(", ")", "{", "}", "=", "==", "fun",
         "if", "else", "return", "let", "while", "for", "+", "++", "x", "0", "\x00"]


def _tokens(text: str) -> list[tuple[int, int]]:
    """Rough token spans (start, end) for mutation; good enough to break programs."""
    spans = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
            continue
        j = i + 1
        if c.isalnum() or c == "_":
            while j < len(text) and (text[j].isalnum() or text[j] in "_."):
                j += 1
        elif text[i:i + 2] in ("<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=",
                               "++", "--", "//"):
            j = i + 2
        spans.append((i, j))
        i = j
    return spans


def _mutate(g: _Gen, text: str) -> str:
    r = g.r
    spans = _tokens(text) or [(0, 0)]
    k = r.random()
    a, b = r.choice(spans)
    if k < 0.2:  # delete a token
        return text[:a] + text[b:]
    if k < 0.35:  # duplicate a token
        return text[:b] + " " + text[a:b] + text[b:]
    if k < 0.5:  # insert junk
        return text[:a] + r.choice(_JUNK) + text[a:]
    if k < 0.6:  # truncate
        return text[: r.randint(0, len(text))]
    if k < 0.65:  # swap two tokens
        c, d = r.choice(spans)
        if c < a:
            a, b, c, d = c, d, a, b
        if c >= b:
            return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
        return text[:a] + text[b:]
    return _semantic_mistake(g, text)


def _semantic_mistake(g: _Gen, text: str) -> str:
    r = g.r
    kind = r.randrange(14)
    if kind == 0:  # recursion, direct or through a second function
        if r.random() < 0.5:
            return text + "\nfun rec(a) { rec(a) + 1 }\nz = rec(1);\n"
        return text + "\nfun ping(a) { pong(a) }\nfun pong(b) { q = ping(b); q }\nz = ping(2);\n"
    if kind == 1:  # wrong argument count
        b = r.choice(_CALLABLE)
        args = ", ".join("1" for _ in range(b.arity + r.choice([-1, 1, 2]) if b.arity else 1))
        return f"w = {b.name}({args});\n" + text
    if kind == 2:  # undefined function
        return text.replace("(", " (", 1) + f"\nk = nothere{r.randint(0, 9)}(1);\n"
    if kind == 3:  # builtin name as a function
        return f"fun {r.choice(['sin', 'Lerp', 'UV', 'time'])}(a) {{ a }}\n" + text
    if kind == 4:  # duplicate definition
        return "fun dup(a) { a }\n" + text + "\nfun dup(b, c) { b }\n"
    if kind == 5:  # nested function
        return f"if (1) {{ fun inner() {{ 1 }} }}\n{text}"
    if kind == 6:  # bad swizzle
        sw = r.choice(["xq", "xyzwx", "rgbar", "k", "xyzwxyzw", "Xy"])
        return f"s = v.{sw};\n" + text
    if kind == 7:  # bad assignment target
        tgt = r.choice(["sin(1)", "1", "(x)", "x.y.z", "(x + 1)", "f().x", "((y)).x", "2 .x"])
        return text + f"\n{tgt} = 3;\n"
    if kind == 8:  # number with two dots
        return text + "\nn = 1.2.3;\n"
    if kind == 9:  # nesting too deep
        n = r.randint(60, 70)
        return "d = " + "(" * n + "1" + ")" * n + ";\n" + text
    if kind == 10:  # too many registers
        n = r.randint(250, 300)
        return "\n".join(f"v{i} = {i};" for i in range(n)) + "\n" + text
    if kind == 11:  # too many instructions after inlining
        return ("fun big(a) { a*a+a*a+a*a+a*a+a*a+a*a+a*a+a*a+a*a+a*a }\n"
                "fun big2(a) { big(a)+big(a)+big(a)+big(a)+big(a)+big(a)+big(a)+big(a) }\n"
                + "\n".join(f"b{i} = big2({i});" for i in range(r.randint(1, 6))) + "\n" + text)
    if kind == 12:  # a statement that is only an expression
        return text.replace(";", "; 1 + 2;", 1) if ";" in text else "1 + 2; " + text
    return "return 1;\nx = 2;\n" + text  # `return` must come last


def generate(seed: int, valid: bool = True) -> str:
    """One random program; the same (seed, valid) always gives the same text."""
    g = _Gen(seed * 2 + (0 if valid else 1))
    text = g.program()
    if valid:
        return text
    return _mutate(g, text)


def generate_many(count: int, valid: bool, start: int = 0) -> list[str]:
    return [generate(start + k, valid) for k in range(count)]
