"""`psl export` writes code a person could have written (docs/export.md, issue 27): on the
corpus, no block-dispatch loop, every PSL function a function, every variable by its name,
and a size near the source's. That the code equals the VM is tests/test_export.py's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from psl.compiler import compile_source
from psl.export import TARGETS, build_text
from psl.export.glsl import function
from psl.export.ir import build
from psl.export.text import Options
from psl.syntax import ast

CORPUS = Path(__file__).resolve().parent / "corpus"
MANIFEST = json.loads((CORPUS / "golden" / "manifest.json").read_text())["programs"]
NAMES = sorted(MANIFEST)


def _source(name: str) -> str:
    return (CORPUS / MANIFEST[name]["source"]).read_text()


def _functions(tree: ast.Program) -> tuple[set[str], set[str]]:
    """(functions defined, functions called)."""
    defined, called = set(), set()
    work: list[object] = [tree.body]
    while work:
        node = work.pop()
        if isinstance(node, ast.FunDef):
            defined.add(node.name.text)
        elif isinstance(node, ast.Call):
            called.add(node.name.text)
        work.extend(ast.children(node))
    return defined, called & defined


@pytest.mark.parametrize("name", NAMES)
def test_no_block_dispatch(name):
    result = compile_source(_source(name))
    for target in TARGETS:
        text = build_text(result, target)
        assert "switch (psl_block)" not in text, target
        assert "psl_block" not in text, target


@pytest.mark.parametrize("name", NAMES)
def test_functions_and_variables_keep_their_names(name):
    result = compile_source(_source(name))
    assert result.ast is not None and result.program is not None
    _, called = _functions(result.ast)
    for target in ("glsl", "hlsl"):
        text = build_text(result, target)
        for fn in sorted(called):
            # (a name that is a word of either language gets a trailing _: noise_)
            assert re.search(rf"^(void|float[234]?|vec[234]) {fn}_?(_?\d+)?\(", text, re.M), \
                (target, fn)
        for var in {v.split(".")[-1] for v in result.program.variables.values()}:
            assert re.search(rf"\b(\w+_)?{re.escape(var)}\d*_?\b", text), (target, var)


@pytest.mark.parametrize("name", NAMES)
def test_size_near_the_source(name):
    """The program's own code (its functions and the main function, not the helpers)
    is at most three lines per non-blank source line."""
    source = _source(name)
    body, functions = function(build(compile_source(source)), Options())
    own, helper = [], False
    for line in functions:  # the VM's code of builtins the target has no equal of
        helper = helper or bool(re.match(r"\w+ psl_vm_\w+\(", line))
        if not helper:
            own.append(line)
        helper = helper and line != "}"
    lines = sum(1 for line in source.splitlines() if line.strip())
    assert len(body) + len(own) <= 3 * lines, (len(body), len(own))


def test_raymarch_shadertoy_is_short():
    text = build_text(compile_source(_source("scene_raymarch")), "shadertoy")
    assert len(text.splitlines()) <= 200


def test_per_program_facts_are_computed_once(monkeypatch):
    """The call sites, sizes and first names of a program are computed by the main writer
    alone, not again by each PSL function's writer (that made the export quadratic in the
    call sites: bench/results/export-scaling.md)."""
    from psl.export import build_text, functions

    counted = []
    real = functions.find_calls
    monkeypatch.setattr(functions, "find_calls",
                        lambda program: counted.append(1) or real(program))
    source = ("fun f(a) { if (a > 1) { a = a - 1; } a * 2 + uv().x }\nx = uv().y;\n"
              + "if (x > 0.5) { x = f(x); } else { x = f(x * 0.5); }\n" * 30 + "x")
    result = compile_source(source)
    build_text(result, "glsl")
    assert len(counted) == 1


def test_a_superseded_export_stops():
    """psl serve asks a running compile to stop when a newer one comes (compiles.py): the
    export stops too, instead of holding the worker until it ends."""
    import threading

    import pytest

    from psl.cancel import Cancelled, cancellable
    from psl.export import build_text

    source = ("fun f(a) { if (a > 1) { a = a - 1; } a * 2 + uv().x }\nx = uv().y;\n"
              + "if (x > 0.5) { x = f(x); } else { x = f(x * 0.5); }\n" * 20 + "x")
    result = compile_source(source)
    stop = threading.Event()
    stop.set()
    with cancellable(stop), pytest.raises(Cancelled):
        build_text(result, "glsl")
    assert build_text(result, "glsl")  # and runs to the end when nobody asks it to stop
