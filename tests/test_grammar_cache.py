"""Lark's analysis of grammar.lark is kept between runs (most of `psl check`'s start-up) in
the user's own cache folder, and only there: Lark unpickles the file, so a folder another
user could write is never used."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = "fun f(a) { a * 2 }\nx = f(uv().x);\nfloat3(x, 0, 1)\n"


def _check(cache_home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "psl.cli", "compile", "--format", "asm", "-"],
                          input=PROGRAM, capture_output=True, text=True, env=env, timeout=120)


def test_the_cache_is_private_and_changes_nothing(tmp_path: Path) -> None:
    first = _check(tmp_path)
    assert first.returncode == 0, first.stderr
    folder = tmp_path / "psl"
    files = sorted(p.name for p in folder.iterdir())
    assert files and all(name.startswith("grammar-") for name in files)
    assert folder.stat().st_mode & 0o077 == 0  # the user's alone
    second = _check(tmp_path)  # from the cache
    assert (second.returncode, second.stdout) == (0, first.stdout)


def test_a_folder_others_can_write_is_not_used(tmp_path: Path) -> None:
    folder = tmp_path / "psl"
    folder.mkdir()
    folder.chmod(0o777)
    (folder / "planted").write_text("x")
    got = _check(tmp_path)
    assert got.returncode == 0, got.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["planted"]  # nothing read or written


def test_a_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    good = _check(tmp_path)
    for f in (tmp_path / "psl").iterdir():
        f.write_bytes(b"not a pickle")
    again = _check(tmp_path)
    assert (again.returncode, again.stdout) == (0, good.stdout)
