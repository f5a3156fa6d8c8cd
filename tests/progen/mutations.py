"""Invalid programs: a valid one with one mistake, lexical, syntactic or semantic.

Most results are wrong somewhere; a few mutations happen to give a valid program (a deleted
statement, a nesting depth or register count just under the limit), which the differential
tests want as well.
"""

from __future__ import annotations

import random

from tests.progen import tables

#: Characters and tokens to insert: outside the language, misplaced, or incomplete.
JUNK = ("&", "|", "#", "@", "$", "`", "~", "?", ":", "[", "]", "\\", "'", '"', "é", "\u00a0",
        "\x07", "😀", "1..2", "..", ".", ";", ",", "(", ")", "{", "}", "=", "==", "+", "++",
        "x", "0", "\x00", *tables.KEYWORDS)
TWO_CHAR_TOKENS = ("<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "++", "--",
                   "//")
BAD_SWIZZLES = ("xq", "xyzwx", "rgbar", "k", "xyzwxyzw", "Xy")


def tokens(text: str) -> list[tuple[int, int]]:
    """Rough token spans (start, end); good enough to break programs."""
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
        elif text[i:i + 2] in TWO_CHAR_TOKENS:
            j = i + 2
        spans.append((i, j))
        i = j
    return spans


def mutate(rng: random.Random, text: str) -> str:
    spans = tokens(text) or [(0, 0)]
    k = rng.random()
    a, b = rng.choice(spans)
    if k < 0.2:  # delete a token
        return text[:a] + text[b:]
    if k < 0.35:  # duplicate a token
        return text[:b] + " " + text[a:b] + text[b:]
    if k < 0.5:  # insert junk
        return text[:a] + rng.choice(JUNK) + text[a:]
    if k < 0.6:  # truncate
        return text[: rng.randint(0, len(text))]
    if k < 0.65:  # swap two tokens
        c, d = rng.choice(spans)
        if c < a:
            a, b, c, d = c, d, a, b
        if c >= b:
            return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
        return text[:a] + text[b:]
    return semantic_mistake(rng, text)


def semantic_mistake(rng: random.Random, text: str) -> str:
    r = rng
    limits = tables.LIMITS
    kind = r.randrange(14)
    if kind == 0:  # recursion, direct or through a second function
        if r.random() < 0.5:
            return text + "\nfun rec(a) { rec(a) + 1 }\nz = rec(1);\n"
        return text + "\nfun ping(a) { pong(a) }\nfun pong(b) { q = ping(b); q }\nz = ping(2);\n"
    if kind == 1:  # wrong argument count
        b = r.choice(tables.CALLABLE)
        count = b.arity + r.choice([-1, 1, 2]) if b.arity else 1
        return f"w = {b.name}({', '.join('1' for _ in range(count))});\n" + text
    if kind == 2:  # undefined function
        return text.replace("(", " (", 1) + f"\nk = nothere{r.randint(0, 9)}(1);\n"
    if kind == 3:  # builtin name as a function, in any case
        name = r.choice(tables.CALLABLE).name
        name = r.choice([name, name.upper(), name[:1].upper() + name[1:]])
        return f"fun {name}(a) {{ a }}\n" + text
    if kind == 4:  # duplicate definition
        return "fun dup(a) { a }\n" + text + "\nfun dup(b, c) { b }\n"
    if kind == 5:  # nested function
        return f"if (1) {{ fun inner() {{ 1 }} }}\n{text}"
    if kind == 6:  # bad swizzle
        return f"s = v.{r.choice(BAD_SWIZZLES)};\n" + text
    if kind == 7:  # bad assignment target
        b = r.choice(tables.CALLABLE)
        call = f"{b.name}({', '.join('1' for _ in range(b.arity))})"
        target = r.choice([call, "1", "(x)", "x.y.z", "(x + 1)", "f().x", "((y)).x", "2 .x"])
        return text + f"\n{target} = 3;\n"
    if kind == 8:  # number with two dots
        return text + "\nn = 1.2.3;\n"
    if kind == 9:  # nesting around the limit (sometimes just under it)
        n = limits.nesting + r.randint(-4, 6)
        return "d = " + "(" * n + "1" + ")" * n + ";\n" + text
    if kind == 10:  # registers around the limit
        n = limits.registers + r.randint(-6, 44)
        return "\n".join(f"v{i} = {i};" for i in range(n)) + "\n" + text
    if kind == 11:  # too many instructions after inlining
        return ("fun big(a) { a*a+a*a+a*a+a*a+a*a+a*a+a*a+a*a+a*a+a*a }\n"
                "fun big2(a) { big(a)+big(a)+big(a)+big(a)+big(a)+big(a)+big(a)+big(a) }\n"
                + "\n".join(f"b{i} = big2({i});" for i in range(r.randint(1, 6))) + "\n" + text)
    if kind == 12:  # a statement that is only an expression
        return text.replace(";", "; 1 + 2;", 1) if ";" in text else "1 + 2; " + text
    return "return 1;\nx = 2;\n" + text  # `return` must come last
