"""Loops nested `depth` deep in one function: the shape that made the width inference's work
double with every level (issue 21). Shared by tests/test_inference_budget.py and
bench/bench_nests.py."""

from __future__ import annotations

KINDS = ("while", "for", "mixed")


def nest(kind: str, depth: int) -> str:
    """`kind` is while, for, or mixed (while, for and if in turn)."""
    heads = []
    for k in range(depth):
        shape = kind if kind != "mixed" else ("while", "for", "if")[k % 3]
        if shape == "while":
            heads.append("while (a) {")
        elif shape == "for":
            heads.append(f"for (let i{k} = 0; i{k} < 2; i{k}++) {{")
        else:
            heads.append("if (a > 0) {")
    body = "\n".join(heads) + "\na = a - 1;\n" + "}\n" * depth
    return f"fun f(a) {{\n{body}a\n}}\nfloat4(f(3), f(uv().x), 0, 1)\n"
