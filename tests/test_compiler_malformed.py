"""Malformed programs: exactly the expected first diagnostic, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from psl.compiler import compile_source
from tests.conftest import malformed_cases

CASES = malformed_cases()


def test_there_are_enough_cases():
    assert len(CASES) >= 30


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_first_diagnostic(case):
    result = compile_source(case["source"])
    assert result.diagnostics, "expected a diagnostic"
    first = result.diagnostics[0]
    assert (first.code, first.span.line, first.span.column) == (
        case["code"], case["line"], case["column"]), first.message
    if first.is_error:
        assert result.program is None
    assert first.message and "\n" not in first.message


def test_check_cli_format(tmp_path):
    src = tmp_path / "bad.psl"
    src.write_text("let a = 1;\nlet b = sin(a, 2);\nb\n")
    proc = subprocess.run([sys.executable, "-m", "psl.cli", "check", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0] == f"{src}:2:9: error[E011]: 'sin' takes 1 argument, got 2"
    assert lines[2] == "2 | let b = sin(a, 2);"
    assert lines[3] == "  |         ^^^"
    assert "Traceback" not in proc.stderr


def test_check_cli_json_and_stdin():
    proc = subprocess.run([sys.executable, "-m", "psl.cli", "check", "--format", "json", "-"],
                          input="x = 1.2.3;", capture_output=True, text=True)
    assert proc.returncode == 1
    import json

    [d] = json.loads(proc.stdout)
    assert (d["path"], d["code"], d["line"], d["column"]) == ("<stdin>", "E002", 1, 5)


def test_check_cli_clean_and_usage(tmp_path):
    ok = tmp_path / "ok.psl"
    ok.write_text("uv().xyxy\n")
    assert subprocess.run([sys.executable, "-m", "psl.cli", "check", str(ok)]).returncode == 0
    proc = subprocess.run([sys.executable, "-m", "psl.cli", "check", str(tmp_path / "nope")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_non_utf8_file_is_a_diagnostic(tmp_path):
    bad = tmp_path / "latin1.psl"
    bad.write_bytes(b"x = 1;\n\xe9")
    proc = subprocess.run([sys.executable, "-m", "psl.cli", "check", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "2:1: error[E001]: unexpected character U+FFFD" in proc.stdout


def test_compile_refuses_to_overwrite_source(tmp_path):
    src = tmp_path / "p.psl"
    src.write_text("1")
    proc = subprocess.run([sys.executable, "-m", "psl.cli", "compile", str(src), "-o", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert src.read_text() == "1"
