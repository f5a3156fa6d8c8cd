"""Issue 39 item 2: every C# type the package ships is declared inside its namespace
(udonsharp.NAMESPACE; the editor scripts in a namespace under it), so that another package's
`Compiler`, `SyncCode` or `GridMeshes` in the same Unity project cannot collide with ours.

Checked by parsing (tree-sitter) every .cs file of the built package, so a script or class
added later is covered without a test edit."""

from __future__ import annotations

import pytest
from tree_sitter import Node

from psl.gen import udonsharp
from tests.udon_support.scripts import generated_scripts, package_sources
from tests.udon_support.syntax import parse, text

#: what declares a type in C# (tree-sitter-c-sharp node types)
TYPE_DECLARATIONS = ("class_declaration", "struct_declaration", "interface_declaration",
                     "enum_declaration", "delegate_declaration", "record_declaration",
                     "record_struct_declaration")


def declared_types(source: str, name: str) -> list[tuple[str, str, int]]:
    """(namespace, type name, line) of every type declared in `source`, nested ones
    included; namespace "" is the global one."""
    out: list[tuple[str, str, int]] = []

    def walk(node: Node, namespace: str) -> None:
        for child in node.named_children:
            if child.type == "file_scoped_namespace_declaration":
                # C# 10: Unity 2022.3's compiler (C# 9) rejects it
                raise AssertionError(f"{name}: file-scoped namespace at line "
                                     f"{child.start_point[0] + 1}")
            if child.type == "namespace_declaration":
                ns = text(child.child_by_field_name("name"))
                walk(child, f"{namespace}.{ns}" if namespace else ns)
            elif child.type in TYPE_DECLARATIONS:
                out.append((namespace, text(child.child_by_field_name("name")),
                            child.start_point[0] + 1))
                walk(child, namespace)
            else:
                walk(child, namespace)

    walk(parse(source, name).root_node, "")
    return out


def _inside(namespace: str) -> bool:
    return namespace == udonsharp.NAMESPACE or namespace.startswith(udonsharp.NAMESPACE + ".")


@pytest.fixture(scope="module")
def sources() -> dict[str, str]:
    found = package_sources()
    assert found, "the package ships no .cs file"
    return found


def test_every_package_type_is_in_the_namespace(sources: dict[str, str]) -> None:
    outside = [f"{path}:{line}: {ns or '<global>'}.{name}"
               for path, source in sorted(sources.items())
               for ns, name, line in declared_types(source, path) if not _inside(ns)]
    assert not outside, "types outside " + udonsharp.NAMESPACE + ": " + ", ".join(outside)


def test_every_behaviour_and_editor_script_is_covered(sources: dict[str, str]) -> None:
    """The parse sees what the package ships: each behaviour in NAMESPACE itself (the prefabs'
    program assets name its file), the editor menu in EDITOR_NAMESPACE."""
    by_name = {name: ns for source_path, source in sources.items()
               for ns, name, _line in declared_types(source, source_path)}
    for cls in udonsharp.BEHAVIOURS:
        assert f"Runtime/Scripts/{cls}.cs" in sources
        assert by_name.get(cls) == udonsharp.NAMESPACE, cls
    assert by_name.get("ShaderceptionSetup") == udonsharp.EDITOR_NAMESPACE
    # the generated scripts (psl-gen udonsharp) are the package's, so they are in it too
    for file_name, source in generated_scripts().items():
        assert all(_inside(ns) for ns, _n, _l in declared_types(source, file_name)), file_name


def test_the_checker_sees_a_global_class() -> None:
    """The parse is not vacuous: a class outside any namespace, or in another one, is found."""
    src = ("namespace Other { public class A {} }\npublic class B {}\n"
           f"namespace {udonsharp.NAMESPACE} {{ public class C {{ public enum E {{ X }} }} }}\n")
    found = declared_types(src, "x.cs")
    assert [(ns, n) for ns, n, _ in found if not _inside(ns)] == [("Other", "A"), ("", "B")]
    assert {n for ns, n, _ in found if _inside(ns)} == {"C", "E"}
