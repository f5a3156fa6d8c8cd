"""Emission's last pass: the finishing touches on the lines the readable writer wrote
(psl/export/readable.py), each a small text rewrite that keeps the code's meaning — empty
`if`s dropped, `else { if }` as `else if`, a stack slot's last value returned at once, and
K&R braces.
"""

from __future__ import annotations

import re


def precedence(text: str) -> int:
    """0 for an operand that needs no parentheses (no space outside brackets), else 3."""
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == " " and depth == 0:
            return 3
    return 0


def balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _else_if(lines: list[str]) -> list[str]:
    """`else { if (c) {..} else {..} }` as `else if (c) {..} else {..}`."""
    out = list(lines)
    i = 0
    while i + 1 < len(out):
        pad = out[i][:_indent(out[i])]
        if out[i].strip() != "else" or out[i + 1] != pad + "{":
            i += 1
            continue
        j = i + 2
        while j < len(out) and out[j] != pad + "}":
            j += 1
        inner = out[i + 2:j]
        inner_pad = pad + "    "
        tops = [x.strip() for x in inner if _indent(x) == len(inner_pad)]
        if not inner or not inner[0].startswith(inner_pad + "if (") or any(
                t not in ("{", "}", "else") and not t.startswith("else if (")
                for t in tops[1:]):
            i += 1
            continue
        out[i:j + 1] = [pad + "else " + inner[0].strip(), *(x[4:] for x in inner[1:])]
    return out


def _return_slot(lines: list[str]) -> list[str]:
    """`stackN = value; return ..stackN..;` as one return (the slot is dead after it)."""
    out: list[str] = []
    for line in lines:
        m = re.fullmatch(r"( *)(stack\d+) = (.*);", out[-1]) if out else None
        r = re.fullmatch(r"( *)return (.*);", line)
        if m and r and m.group(1) == r.group(1) and \
                len(re.findall(rf"\b{m.group(2)}\b", r.group(2))) == 1:
            value = m.group(3)
            if precedence(value):
                value = f"({value})"
            word = re.compile(rf"\b{m.group(2)}\b")
            out[-1] = f"{r.group(1)}return {word.sub(lambda _m, v=value: v, r.group(2))};"
            continue
        out.append(line)
    return out


def _knr(lines: list[str]) -> list[str]:
    """Opening braces of if, else and while on their line; `} else` on one line."""
    out: list[str] = []
    for line in lines:
        s = line.strip()
        if out and _indent(out[-1]) == _indent(line):
            prev = out[-1].strip()
            if s == "{" and prev.startswith(("if (", "else", "while (", "[loop] while (",
                                             "} else")):
                out[-1] += " {"
                continue
            if s.startswith("else") and prev == "}":
                out[-1] += " " + s
                continue
        out.append(line)
    return out


def tidy(lines: list[str]) -> list[str]:
    """Every pass, in the order each expects the others to have run."""
    return _knr(_return_slot(_else_if(_drop_empty(lines))))


def _drop_empty(lines: list[str]) -> list[str]:
    """`if (c) { ... break; } else { rest }` as `if (!c) break;`-free code is left to the
    reader; here only `if (c) { X } else { }` pairs that came out empty are removed."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        if s.startswith("if (") and i + 2 < len(lines) and lines[i + 1].strip() == "{" \
                and lines[i + 2].strip() == "}" and not (
                    i + 3 < len(lines) and lines[i + 3].strip() == "else"):
            i += 3
            continue
        out.append(lines[i])
        i += 1
    return out

