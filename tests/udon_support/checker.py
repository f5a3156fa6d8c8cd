"""Every Udon extern an UdonSharp 1.x behaviour calls, found by typing its C# source.

`check_project({file name: C# text})` returns, per file, the extern sites (extern name,
line, source text) that UdonSharp would emit for the behaviours in it. The walk mirrors
UdonSharp's binder (vrchat-community/UdonSharp, Editor/Compiler/Binder): what it binds is what
it emits, so the checker types every expression (locals, fields, parameters, literals,
promotion, constants) and records an extern where UdonSharp's bound node calls one. A
construct it does not model raises `CheckerError` with its line: the gate must never pass
because something was skipped.

Not modelled (UdonSharp does not emit them as Udon code, or the scripts do not use them):
field initializers (UdonSharp stores them as heap defaults, they run as C# in the editor),
switch, foreach, properties, generics, interpolated strings, lambdas, `?.`, `??`.
"""

from __future__ import annotations

from collections.abc import Mapping

from tree_sitter import Node

from tests.udon_support.binder import (
    BEHAVIOUR,
    FRAME_CHECK,
    FRAME_POP,
    FRAME_PUSH,
    Binder,
    MethodSig,
    Site,
    Value,
)
from tests.udon_support.cstypes import KEYWORDS, CsType
from tests.udon_support.syntax import CheckerError, ClassDecl, classes, field_, line_of, parse, text
from tests.udon_support.typeworld import TypeWorld

__all__ = ["FRAME_CHECK", "FRAME_POP", "FRAME_PUSH", "CheckerError", "Project", "Site",
           "check_project"]


class Project:
    """The behaviours of all given files: calls between them are not externs of the callee."""

    def __init__(self, sources: Mapping[str, str], exposed: frozenset[str] | None = None):
        # exposed: Udon's node list, for UdonSharp's fallback to an exposed signature on a
        # base type (BoundExternInvocation.FindAlternateInvocation); None = no fallback
        self.exposed = exposed
        self.classes: dict[str, ClassDecl] = {}
        for name, source in sources.items():
            for cls in classes(parse(source, name), name):
                if cls.name in self.classes:
                    raise CheckerError(f"class {cls.name} is declared in "
                                       f"{self.classes[cls.name].file} and {name}")
                self.classes[cls.name] = cls
        self.world = TypeWorld({c.name: c.base for c in self.classes.values()})
        self.methods: dict[str, dict[str, list[MethodSig]]] = {
            c.name: self._methods(c) for c in self.classes.values()}
        self._consts: dict[tuple[str, str], Value | None] = {}

    def behaviours(self, file: str) -> list[ClassDecl]:
        return [c for c in self.classes.values()
                if c.file == file and self.world.derives(CsType(c.name), BEHAVIOUR)]

    def type_of(self, node: Node) -> CsType:
        kind = node.type
        if kind == "predefined_type":
            return CsType(KEYWORDS[text(node)])
        if kind == "array_type":
            return self.type_of(field_(node, "type")).array()
        if kind in ("identifier", "qualified_name"):
            found = self.world.resolve(text(node))
            if found is not None:
                return found
        raise CheckerError(f"cannot type type {text(node)!r} at line {line_of(node)} "
                           "(add it to tests/udon_support/members.py)")

    def _methods(self, cls: ClassDecl) -> dict[str, list[MethodSig]]:
        out: dict[str, list[MethodSig]] = {}
        for m in cls.methods:
            params = [(n, self.type_of(t)) for n, t in m.params]
            out.setdefault(m.name, []).append(MethodSig(m, params, self.type_of(m.returns_node)))
        return out

    def field_type(self, cls: str, name: str) -> CsType | None:
        decl = self.classes[cls].fields.get(name)
        return self.type_of(decl.type_node) if decl else None

    def const(self, cls: str, name: str) -> Value:
        """The value of a const field (evaluated once, emitting nothing)."""
        key = (cls, name)
        if key not in self._consts:
            decl = self.classes[cls].fields[name]
            self._consts[key] = None  # a cycle reads None and fails below
            if decl.init is None:
                raise CheckerError(f"const {name} without a value")
            checker = Binder(self, self.classes[cls], constant_only=True)
            value = checker.convert(checker.expr(decl.init), self.type_of(decl.type_node),
                                    decl.init)
            if not value.constant:
                raise CheckerError(f"const {name} is not constant at line {line_of(decl.init)}")
            self._consts[key] = value
        found = self._consts[key]
        if found is None:
            raise CheckerError(f"const {name} depends on itself")
        return found

    def check(self, file: str) -> list[Site]:
        sites: list[Site] = []
        for cls in self.behaviours(file):
            sites.extend(Binder(self, cls).run())
        return sites


def check_project(sources: Mapping[str, str],
                  exposed: frozenset[str] | None = None) -> dict[str, list[Site]]:
    project = Project(sources, exposed)
    return {name: project.check(name) for name in sources}
