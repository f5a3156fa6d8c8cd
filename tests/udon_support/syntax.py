"""C# syntax through tree-sitter: parsing, literals and the declarations of a class."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import tree_sitter_c_sharp
from tree_sitter import Language, Node, Parser, Tree

from tests.udon_support.cstypes import (
    BOOL,
    CHAR,
    DECIMAL,
    DOUBLE,
    FLOAT,
    INT,
    LONG,
    STRING,
    UINT,
    ULONG,
    CsType,
    to_float32,
)


class CheckerError(Exception):
    """The checker met C# it cannot type: the gate must not pass by skipping it."""


@lru_cache(maxsize=1)
def _parser() -> Parser:
    return Parser(Language(tree_sitter_c_sharp.language()))


def parse(text: str, name: str) -> Tree:
    tree = _parser().parse(text.encode("utf-8"))
    if tree.root_node.has_error:
        bad = _first_error(tree.root_node)
        line = bad.start_point[0] + 1 if bad is not None else 0
        raise CheckerError(f"{name}: C# syntax error at line {line}")
    return tree


def _first_error(node: Node) -> Node | None:
    if node.type == "ERROR" or node.is_missing:
        return node
    for child in node.children:
        found = _first_error(child)
        if found is not None:
            return found
    return None


def text(node: Node) -> str:
    return node.text.decode("utf-8") if node.text is not None else ""


def line_of(node: Node) -> int:
    return node.start_point[0] + 1


def snippet(node: Node, limit: int = 70) -> str:
    """The node's source on one line, shortened: names the site in gate messages."""
    flat = " ".join(text(node).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def named(node: Node) -> list[Node]:
    """Named children without comments (tree-sitter puts comments anywhere), plus `this` and
    `base`, which tree-sitter-c-sharp leaves anonymous but are expressions."""
    return [c for c in node.children
            if (c.is_named and c.type != "comment") or c.type in ("this", "base")]


def field_(node: Node, name: str) -> Node:
    child = node.child_by_field_name(name)
    if child is None:
        raise CheckerError(f"missing {name} in {node.type} at line {line_of(node)}")
    return child


# ------------------------------------------------------------------------------ literals

_ESCAPES = {"'": "'", '"': '"', "\\": "\\", "0": "\0", "a": "\a", "b": "\b", "f": "\f",
            "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _unescape(seq: str) -> str:
    kind = seq[1]
    if kind in _ESCAPES:
        return _ESCAPES[kind]
    if kind in "uxU":
        return chr(int(seq[2:], 16))
    raise CheckerError(f"unknown escape sequence {seq}")


def _string_parts(node: Node) -> str:
    out = []
    for child in node.children:
        if child.type in ("string_literal_content", "character_literal_content"):
            out.append(text(child))
        elif child.type == "escape_sequence":
            out.append(_unescape(text(child)))
    return "".join(out)


_INT_RE = re.compile(r"^(0[xX][0-9a-fA-F_]+|0[bB][01_]+|[0-9_]+)([uUlL]*)$")


def integer_literal(raw: str) -> tuple[CsType, int]:
    """C# 6.4.5.3: the first of int, uint, long, ulong (per suffix) that holds the value."""
    match = _INT_RE.match(raw)
    if match is None:
        raise CheckerError(f"cannot read integer literal {raw}")
    digits, suffix = match.group(1).replace("_", ""), match.group(2).lower()
    value = int(digits, 0) if digits[:2].lower() in ("0x", "0b") else int(digits)
    order = {"": (INT, UINT, LONG, ULONG), "u": (UINT, ULONG), "l": (LONG, ULONG)}.get(
        suffix, (ULONG,))
    limits = {INT: 2**31 - 1, UINT: 2**32 - 1, LONG: 2**63 - 1, ULONG: 2**64 - 1}
    for t in order:
        if value <= limits[t]:
            return t, value
    raise CheckerError(f"integer literal {raw} is too large")


def real_literal(raw: str) -> tuple[CsType, object]:
    body = raw.replace("_", "")
    suffix = body[-1].lower() if body[-1].isalpha() else ""
    if suffix in ("f", "d", "m"):
        body = body[:-1]
    value = float(body)
    if suffix == "f":
        return FLOAT, to_float32(value)
    return (DECIMAL, value) if suffix == "m" else (DOUBLE, value)


def literal(node: Node) -> tuple[CsType, object]:
    """Type and value of a literal node (None for `null`, typed by the caller)."""
    kind = node.type
    if kind == "integer_literal":
        return integer_literal(text(node))
    if kind == "real_literal":
        return real_literal(text(node))
    if kind == "character_literal":
        return CHAR, _string_parts(node)
    if kind == "string_literal":
        return STRING, _string_parts(node)
    if kind == "verbatim_string_literal":
        return STRING, text(node)[2:-1].replace('""', '"')
    if kind == "boolean_literal":
        return BOOL, text(node) == "true"
    raise CheckerError(f"unsupported literal {kind} at line {line_of(node)}")


# --------------------------------------------------------------------------- declarations


@dataclass
class FieldDecl:
    name: str
    type_node: Node
    const: bool
    init: Node | None


@dataclass
class MethodDecl:
    name: str
    returns_node: Node
    params: list[tuple[str, Node]]
    recursive: bool
    node: Node


@dataclass
class ClassDecl:
    name: str
    base: str | None
    file: str
    node: Node
    fields: dict[str, FieldDecl] = field(default_factory=dict)
    methods: list[MethodDecl] = field(default_factory=list)


def class_nodes(tree: Tree) -> list[Node]:
    """The top-level classes of a file (also inside namespaces)."""
    found: list[Node] = []
    _collect(tree.root_node, found)
    return found


def _collect(node: Node, found: list[Node]) -> None:
    for child in named(node):
        if child.type == "class_declaration":
            found.append(child)
        elif child.type in ("namespace_declaration", "declaration_list",
                            "file_scoped_namespace_declaration"):
            _collect(child, found)


def class_base(node: Node) -> str | None:
    """The first type of a class's base list, as written."""
    for child in node.named_children:
        if child.type == "base_list":
            types = named(child)
            return text(types[0]) if types else None
    return None


def classes(tree: Tree, file: str) -> list[ClassDecl]:
    return [_class(node, file) for node in class_nodes(tree)]


def _attributes(node: Node) -> set[str]:
    names = set()
    for lst in (c for c in node.named_children if c.type == "attribute_list"):
        for attr in (c for c in lst.named_children if c.type == "attribute"):
            names.add(text(field_(attr, "name")).rsplit(".", 1)[-1].removesuffix("Attribute"))
    return names


def _modifiers(node: Node) -> set[str]:
    return {text(c) for c in node.named_children if c.type == "modifier"}


def _class(node: Node, file: str) -> ClassDecl:
    cls = ClassDecl(text(field_(node, "name")), class_base(node), file, node)
    for member in named(field_(node, "body")):
        where = f"{file}:{line_of(member)}"
        if member.type == "field_declaration":
            mods = _modifiers(member)
            if "static" in mods and "const" not in mods:
                raise CheckerError(f"cannot type static field at {where} (UdonSharp has none)")
            decl = next(c for c in member.named_children if c.type == "variable_declaration")
            for var in (c for c in decl.named_children if c.type == "variable_declarator"):
                fname = text(field_(var, "name"))
                cls.fields[fname] = FieldDecl(fname, field_(decl, "type"), "const" in mods,
                                              declarator_value(var))
        elif member.type == "method_declaration":
            params = []
            for p in (c for c in field_(member, "parameters").named_children
                      if c.type == "parameter"):
                if any(c.type == "modifier" for c in p.named_children):
                    raise CheckerError(f"cannot type ref/out/params parameter at {where}")
                params.append((text(field_(p, "name")), field_(p, "type")))
            cls.methods.append(MethodDecl(text(field_(member, "name")),
                                          field_(member, "returns"), params,
                                          "RecursiveMethod" in _attributes(member), member))
        else:
            raise CheckerError(f"cannot type class member {member.type} at {where}")
    return cls


def declarator_value(var: Node) -> Node | None:
    """The initializer of a variable_declarator (the node after `=`), if any."""
    seen_eq = False
    for child in var.children:
        if seen_eq and child.is_named and child.type != "comment":
            return child
        if child.type == "=":
            seen_eq = True
    return None
