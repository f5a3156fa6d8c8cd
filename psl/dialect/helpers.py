"""Only the VM helpers a piece of code calls: the rule every dialect's exports follow.

A helper template (templates/glsl/_*.glsl.j2, templates/hlsl/_values.hlsl.j2) is a list of
top-level items: a function with the comment above it, or one declaration. An export
keeps the items its code names, and the items those name in turn, in template order, so
a one-line program does not carry the VM's whole library.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from psl.templating import render

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def words(text: str) -> set[str]:
    return set(_WORD.findall(text))


def chunks(text: str) -> list[tuple[str, str]]:
    """The top-level items of helper code (a function with the comment above it, or one
    declaration), each with the name it defines (overloads share their name)."""
    items: list[tuple[str, str]] = []
    lines = text.splitlines()
    i = 0
    comment: list[str] = []
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            comment = []
            i += 1
            continue
        if line.startswith("//"):
            comment.append(line)
            i += 1
            continue
        head = line.split("(")[0].split("=")[0].rstrip(";").split()
        name = head[-1] if head else ""
        if line.startswith("#"):  # #define NAME ...
            name = line.split()[1] if len(line.split()) > 1 else ""
        item = [*comment, line]
        comment = []
        i += 1
        one_line = line.rstrip().endswith("}")  # `bool f(float v) { return ...; }`
        if not line.rstrip().endswith(";") and not line.startswith("#") and not one_line:
            while i < len(lines) and lines[i] != "}":
                item.append(lines[i])
                i += 1
            item.append("}")
            i += 1
        items.append((name, "\n".join(item)))
    return items


def used(templates: Iterable[str], context: Mapping[str, object], code: str) -> list[str]:
    """The items of `templates` (rendered with `context`) that `code` needs, and what they
    need in turn, in their order."""
    return [text for _, text in used_items(templates, context, code)]


def used_items(templates: Iterable[str], context: Mapping[str, object],
               code: str) -> list[tuple[str, str]]:
    """`used`, each item with the name it defines (overloads share one)."""
    items: list[tuple[str, str]] = []
    for name in templates:
        items += chunks(render(name, **context))
    defined = {n for n, _ in items}
    bodies: dict[str, list[str]] = {}
    for n, text in items:
        bodies.setdefault(n, []).append(text)
    need = words(code) & defined
    work = list(need)
    while work:
        for w in words("\n".join(bodies[work.pop()])) & defined:
            if w not in need:
                need.add(w)
                work.append(w)
    return [(n, text) for n, text in items if n in need]
