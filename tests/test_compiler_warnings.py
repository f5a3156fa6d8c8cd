"""Warnings and notes (W…, N…): code, position and message of every diagnostic of the programs in
tests/programs/warnings, through the library and `psl check`; a warning never stops
compilation, and `psl check` exits 0 when there are only warnings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from psl.compiler import check_source, compile_source
from psl.diagnostics import CATALOGUE, Severity
from psl.registry import DEFAULT_OPTIMIZE_LEVEL
from tests.conftest import warning_cases
from tests.expectations import Case, Expect, describe

CASES = warning_cases()
# N002 reports a bug in psl itself; no program can produce it (test_width_inference fakes it)
WARNINGS = {code for code, kind in CATALOGUE.items()
            if kind.severity is not Severity.ERROR and code != "N002"}


def psl(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "psl.cli", *args], input=input,
                          capture_output=True, text=True)


def _severity(code: str) -> str:
    return CATALOGUE[code].severity.value


def write_cases(directory: Path) -> list[Path]:
    paths = []
    for case in CASES:
        path = directory / f"{case.name}.psl"
        path.write_bytes(case.source.encode("utf-8"))  # bytes: "\n" stays "\n" everywhere
        paths.append(path)
    return paths


def test_every_warning_code_has_a_case():
    covered = {e.code for case in CASES for e in case.expected}
    assert WARNINGS <= covered, f"no case for {sorted(WARNINGS - covered)}"
    # each code also alone in a program, so no other warning explains a pass
    alone = {case.expected[0].code for case in CASES
             if len({e.code for e in case.expected}) == 1}
    assert WARNINGS <= alone, f"not alone in any case: {sorted(WARNINGS - alone)}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_all_diagnostics(case: Case):
    result = check_source(case.source)  # what `psl check` reports (N004 included)
    got = [describe(d) for d in result.diagnostics]
    assert len(got) == len(case.expected), got
    for expect, diag in zip(case.expected, result.diagnostics, strict=True):
        assert expect.matches(diag), f"expected {expect}, got {describe(diag)}"
        assert diag.code in WARNINGS and not diag.is_error
    # a warning does not stop compilation
    assert result.ok and result.program is not None


def test_check_cli_json(tmp_path):
    paths = write_cases(tmp_path)
    proc = psl("check", "--format", "json", *map(str, paths))
    assert proc.returncode == 0, proc.stdout + proc.stderr  # warnings only: success
    reported: dict[str, list[Expect]] = {str(p): [] for p in paths}
    for d in json.loads(proc.stdout):
        assert d["severity"] in ("warning", "note")
        reported[d["path"]].append(Expect(d["code"], d["line"], d["column"], d["message"]))
    for case, path in zip(CASES, paths, strict=True):
        assert reported[str(path)] == list(case.expected), case.name


def test_check_cli_text(tmp_path):
    paths = write_cases(tmp_path)
    proc = psl("check", *map(str, paths))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    headlines = [line for line in proc.stdout.splitlines() if line.startswith(str(tmp_path))]
    assert headlines == [f"{path}:{e.line}:{e.column}: {_severity(e.code)}[{e.code}]: {e.message}"
                         for case, path in zip(CASES, paths, strict=True)
                         for e in case.expected]


def test_check_cli_no_warnings_flag():
    case = next(c for c in CASES if c.name == "every_warning")
    proc = psl("check", "--no-warnings", "-", input=case.source)
    assert proc.returncode == 0 and proc.stdout == ""


def test_compile_cli_writes_the_program(tmp_path):
    """`psl compile` prints the warnings and still writes the program."""
    case = next(c for c in CASES if c.name == "every_warning")
    out = tmp_path / "prog.bin"
    proc = psl("compile", "-", "-o", str(out), input=case.source)
    assert proc.returncode == 0
    # at the default level (registry.DEFAULT_OPTIMIZE_LEVEL)
    assert out.read_bytes() == compile_source(
        case.source, optimize=DEFAULT_OPTIMIZE_LEVEL).unwrap().to_bytes()
    assert [line for line in proc.stderr.splitlines() if line.startswith("<stdin>:")] == [
        f"<stdin>:{e.line}:{e.column}: {_severity(e.code)}[{e.code}]: {e.message}"
        for e in case.expected]
