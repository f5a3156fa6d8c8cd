"""Stages meet at public names (issue 40): no module of psl imports a `_private` name or a
`_private` module of another package (import-linter has no rule for private names), and
the seams named in the issue hold."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PSL = ROOT / "psl"


def _package(module: str) -> str:
    """The stage a module belongs to: psl.<stage> (psl.export.ir -> psl.export)."""
    return ".".join(module.split(".")[:2])


def _private_imports() -> list[str]:
    found = []
    for path in sorted(PSL.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        here = ".".join(parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [(node.module, a.name) for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [(a.name, "") for a in node.names]
            else:
                continue
            for module, name in targets:
                if not module.startswith("psl.") or _package(module) == _package(here):
                    continue
                private_module = any(p.startswith("_") and not p.startswith("__")
                                     for p in module.split(".")[1:])
                private_name = name.startswith("_") and not name.startswith("__")
                # psl._version is the package's version file, public by convention
                if module == "psl._version":
                    private_module = False
                if private_module or private_name:
                    found.append(f"{here}: from {module} import {name}".rstrip(" import"))
    return found


def test_no_stage_imports_another_stages_private_names() -> None:
    assert _private_imports() == []


def test_cancellation_is_a_utility() -> None:
    from psl import cancel
    from psl.infer import flow

    assert not hasattr(flow, "Cancelled")  # one home: psl.cancel
    assert issubclass(cancel.Cancelled, BaseException)


def _imports_of(path: Path) -> list[tuple[str, str]]:
    """(module, name) of every absolute `from module import name` in a file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out += [(node.module, a.name) for a in node.names]
    return out


def test_export_modules_meet_at_public_names() -> None:
    """psl/export is split by what it does (structure, expressions, names, statements,
    functions, tidy): its modules use each other's public names only."""
    found = [f"{path.name}: from {module} import {name}"
             for path in sorted((PSL / "export").glob("*.py"))
             for module, name in _imports_of(path)
             if module.startswith("psl.export") and name.startswith("_")]
    assert found == []


def test_the_exporter_gets_widths_from_one_public_call() -> None:
    """psl.export.ir reads the widths of every block copy from psl.infer.block_copies, not
    by re-running the fixed point's pieces (run_block, merge_state, psl.infer.flow)."""
    import psl.infer

    used = {(m, n) for path in sorted((PSL / "export").glob("*.py"))
            for m, n in _imports_of(path) if m.startswith("psl.infer")}
    assert ("psl.infer", "block_copies") in used
    assert {m for m, _ in used} <= {"psl.infer", "psl.infer.domain"}
    assert not {n for _, n in used} & {"run_block", "merge_state", "analyse"}
    assert "run_block" not in psl.infer.__all__
