"""Malformed programs: exactly the expected first diagnostic, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from psl.compiler import compile_source
from psl.diagnostics import CATALOGUE, Severity
from tests.conftest import PROGRAMS, malformed_cases
from tests.expectations import Case, Expect, case_text, describe, parse_case

CASES = malformed_cases()


def test_there_are_enough_cases():
    assert len(CASES) >= 53
    assert len({c.name for c in CASES}) == len(CASES)


def test_every_error_code_has_a_case():
    errors = {code for code, kind in CATALOGUE.items() if kind.severity is Severity.ERROR}
    assert errors <= {c.first.code for c in CASES}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_first_diagnostic(case: Case):
    result = compile_source(case.source)
    assert result.diagnostics, "expected a diagnostic"
    first = result.diagnostics[0]
    assert case.first.matches(first), f"expected {case.first}, got {describe(first)}"
    if first.is_error:
        assert result.program is None
    assert first.message and "\n" not in first.message


def test_case_files_round_trip():
    """Each file is exactly its program plus its expectation lines (nothing else is lost)."""
    for path in sorted((PROGRAMS / "malformed").glob("*.psl")):
        text = path.read_bytes().decode("utf-8")
        case = parse_case(path.stem, text)
        assert case_text(case.source, list(case.expected)) == text


@pytest.mark.parametrize(("text", "source", "expected"), [
    ("a.\n// expect: E006 1:3 unexpected end of program\n", "a.",
     [Expect("E006", 1, 3, "unexpected end of program")]),
    ("\n// expect: W004 1:1\n", "", [Expect("W004", 1, 1)]),
    ("x\r\n\n// expect: W002 1:1\n// expect: W004 1:1\n", "x\r\n",
     [Expect("W002", 1, 1), Expect("W004", 1, 1)]),
    # only the lines at the end are expectations; the text before is program
    ("// expect: E001 1:1\n1\n// expect: W004 2:1\n", "// expect: E001 1:1\n1",
     [Expect("W004", 2, 1)]),
])
def test_expectation_format(text, source, expected):
    case = parse_case("t", text)
    assert (case.source, list(case.expected)) == (source, expected)
    assert case_text(source, expected) == text


@pytest.mark.parametrize("text", ["1\n", "1\n// expect: E001 1:1", "\n// expect: E1 1:1\n",
                                  "\n// expect: E001 1\n"])
def test_expectation_format_errors(text):
    with pytest.raises(ValueError):
        parse_case("t", text)


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
