"""A lint over generated UdonSharp: constructs that UdonSharp 1.x rejects or that break the
rules of the in-world compiler (docs/compiler-contract.md)."""

from __future__ import annotations

import re

#: (pattern, why) -- checked on the code with comments and string literals removed.
FORBIDDEN: list[tuple[str, str]] = [
    (r"<\s*[A-Za-z_][\w\s,\[\]]*>(?!=)", "generic type or method"),
    (r"\btry\b", "try/catch"),
    (r"\bcatch\b", "try/catch"),
    (r"\bthrow\b", "throw"),
    (r"=>", "lambda or expression body"),
    (r"\bList\s*<", "List<T>"),
    (r"\bDictionary\b", "Dictionary"),
    (r"\bstruct\b", "user struct"),
    (r"\binterface\b", "interface"),
    (r"System\.Linq", "LINQ"),
    (r"\?\.", "null-conditional ?."),
    (r"\?\?", "null-coalescing ??"),
    (r"\bdelegate\b", "delegate"),
    (r"\bgoto\b", "goto"),
    (r"\bvar\b", "implicit var (keep types explicit for U#)"),
    (r"\bforeach\b", "foreach (slow in Udon)"),
    (r"\$\"", "interpolated string"),
    # UdonSharp 1.x compiles `switch` (a jump table for 4+ small int labels), so it may stay.
    (r"\[RecursiveMethod\]", "[RecursiveMethod] (the in-world compiler never recurses)"),
]


def strip_comments_and_strings(code: str) -> str:
    def repl(m: re.Match[str]) -> str:
        text = m.group(0)
        return "" if text.startswith("//") else text[0] * 2

    return re.sub(r"//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])+'", repl, code)


def method_bodies(code: str) -> list[tuple[str, str]]:
    """(name, body) of each method (for the local-function check)."""
    out = []
    pattern = (r"\n    (?:public |private |protected )(?:override )?[\w\[\]]+ (\w+)\([^)]*\)"
               r"\n    \{\n(.*?)\n    \}\n")
    for m in re.finditer(pattern, code, re.S):
        out.append((m.group(1), m.group(2)))
    return out


def lint(code: str) -> list[str]:
    """Problems found; empty when the code is fine."""
    clean = strip_comments_and_strings(code)
    problems = []
    for lineno, line in enumerate(clean.splitlines(), 1):
        for pattern, why in FORBIDDEN:
            if re.search(pattern, line):
                problems.append(f"line {lineno}: {why}: {line.strip()}")
    classes = re.findall(r"\bclass\s+(\w+)", clean)
    if len(classes) != 1:
        problems.append(f"expected exactly one class per file, found {classes}")
    for name, body in method_bodies(clean):
        # a local function: a type, a name and a parameter list followed by a block
        if re.search(r"^\s+(?:static\s+)?[\w\[\]]+\s+\w+\([^;]*\)\s*$", body, re.M):
            problems.append(f"local function inside {name}")
    # A resumable compiler keeps its state in fields and explicit stacks: no method may be
    # on a call cycle (a compile must stop at any step and go on in the next frame).
    problems.extend(f"recursion: {n} is on a call cycle"
                    for n in sorted(_recursive_methods(clean)))
    return problems


def _recursive_methods(code: str) -> set[str]:
    """Methods on a cycle of the call graph (calls found by name in method bodies)."""
    bodies = dict(method_bodies(code))
    names = set(bodies)
    # a call on another object (`player.Stop()`) is not a call of this class's `Stop`
    own_call = r"(?:(?<![\w.])|(?<=\bthis\.))(\w+)\("
    calls = {n: {c for c in re.findall(own_call, b) if c in names} for n, b in bodies.items()}
    on_cycle = set()
    for start in names:
        seen, stack = set(), list(calls[start])
        while stack:
            n = stack.pop()
            if n == start:
                on_cycle.add(start)
                break
            if n not in seen:
                seen.add(n)
                stack.extend(calls[n])
    return on_cycle
