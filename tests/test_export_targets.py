"""The export target table is the one list of targets (issue 40): a toy target, a dialect
stub and one table entry, shows in `psl export --help`, is dispatched by build_text and
named by the naming rules, without another file knowing of it."""

from __future__ import annotations

import sys
import types
from dataclasses import replace

import pytest
from click.testing import CliRunner

from psl.cli import main as cli
from psl.compiler import compile_source
from psl.dialect import DIALECTS, GLSL
from psl.export import build_text
from psl.export.names import check_name, export_header
from psl.export.targets import TARGETS, ExportTarget


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> ExportTarget:
    # a dialect stub: GLSL's record under another name, with one word of its own
    monkeypatch.setitem(DIALECTS, "toyl", replace(GLSL, name="toyl",
                                                  words=GLSL.words | {"toyword"}))
    module = types.ModuleType("toy_export")
    module.export = lambda program, options, source: (  # type: ignore[attr-defined]
        f"toy {options.name} {program.result_width} {source}\n")
    monkeypatch.setitem(sys.modules, "toy_export", module)
    entry = ExportTarget("toy", "toyl", ".toy", "export/program.glsl.j2", "a toy shader",
                         "nothing (a test)", "toy_export", ())
    monkeypatch.setitem(TARGETS, "toy", entry)
    return entry


def test_a_toy_target_is_offered_dispatched_and_named(toy: ExportTarget) -> None:
    help_text = CliRunner().invoke(cli, ["export", "--help"]).output
    assert "toy" in help_text and "shadertoy" in help_text

    result = compile_source("uv()")
    assert build_text(result, "toy", source_name="a/b.psl") == "toy psl_program 2 b.psl\n"
    assert check_name("toyword", "toy") is not None  # the stub dialect's word
    assert check_name("gl_x", "toy") is not None  # the dialect's prefixes
    assert check_name("fine_name", "toy") is None
    assert "a toy shader" in export_header("b.psl", "toy")


def test_the_cli_exports_to_a_toy_target(toy: ExportTarget, tmp_path) -> None:
    src = tmp_path / "p.psl"
    src.write_text("uv()", encoding="utf-8")
    run = CliRunner().invoke(cli, ["export", "--target", "toy", str(src)])
    assert run.exit_code == 0, run.output
    assert run.output == "toy psl_program 2 p.psl\n"


def test_the_table_is_what_the_cli_offers() -> None:
    help_text = CliRunner().invoke(cli, ["export", "--help"]).output
    assert f"[{'|'.join(TARGETS)}]" in help_text  # every entry, in the table's order
    for entry in TARGETS.values():
        assert entry.dialect in DIALECTS
        assert callable(entry.writer())


def test_an_unknown_target_names_the_choices() -> None:
    with pytest.raises(ValueError, match=f"one of {', '.join(TARGETS)}"):
        build_text(compile_source("uv()"), "nope")
