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
