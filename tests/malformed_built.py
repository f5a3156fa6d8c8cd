"""Malformed programs built by code: the ones made of thousands of repeated characters (too
long, too deep, too many), which would be unreadable files, and the ones sized by a
registry limit. Same expectation syntax as the files (tests/expectations.py)."""

from __future__ import annotations

from collections.abc import Callable

from psl.registry import LIMITS
from tests.expectations import Case, Expect

NESTING = LIMITS.nesting
CHARS = LIMITS.source_chars

#: name -> (program builder, expected first diagnostic)
BUILT: dict[str, tuple[Callable[[], str], str]] = {
    "three_thousand_terms": (
        # six inlined calls of a 3000-term sum: 6 * 5999 + 5 + 2 instructions
        lambda: ("fun f() { " + "+".join(["1"] * 3000) + " }\nx = "
                 + " + ".join(["f()"] * 6) + ";\nx"),
        f"E030 1:1 program too large: 36001 instructions after inlining "
        f"(limit {LIMITS.instructions})"),
    "deep_parens": (
        lambda: "(" * 3000 + "1" + ")" * 3000,
        f"E003 1:{NESTING + 1} nesting too deep: more than {NESTING} open brackets"),
    "nesting_one_too_deep": (
        lambda: "(" * (NESTING + 1) + "1" + ")" * (NESTING + 1),
        f"E003 1:{NESTING + 1} nesting too deep: more than {NESTING} open brackets"),
    # `(1)` closes at once, so only the braces stay open: the 65th `if` opens one too many
    "nesting_braces": (
        lambda: "if (1) {" * 70 + "1" + "}" * 70,
        f"E003 1:{8 * NESTING + 4} nesting too deep: more than {NESTING} open brackets"),
    "too_many_registers": (
        lambda: "\n".join(f"v{i} = {i};" for i in range(300)) + "\nv0",
        f"E031 1:1 too many variables: 300 registers after inlining "
        f"(limit {LIMITS.registers})"),
    "too_long_text": (
        lambda: "// " + "x" * 40000 + "\n1",
        f"E004 1:1 program text too long: 40005 characters (limit {CHARS})"),
    "too_long_by_one": (
        lambda: "1" + " " * CHARS,
        f"E004 1:1 program text too long: {CHARS + 1} characters (limit {CHARS})"),
    # under the limit in code points, over it in UTF-16 code units (what C# counts)
    "too_long_utf16": (
        lambda: "//" + "\U0001F600" * (CHARS // 2 - 1) + "\n1",
        f"E004 1:1 program text too long: {CHARS + 2} characters (limit {CHARS})"),
}


def built_cases() -> list[Case]:
    return [Case(name, build(), (Expect.parse(expect),))
            for name, (build, expect) in BUILT.items()]
