"""The layering and lint rules hold: import-linter's contracts (pyproject.toml) and ruff."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)


def test_import_contracts_hold() -> None:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    proc = _run(exe, "--no-cache")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


def test_ruff_is_clean() -> None:
    proc = _run(sys.executable, "-m", "ruff", "check", "psl", "tests", "bench")
    assert proc.returncode == 0, proc.stdout + proc.stderr
