"""templates/ ship inside the wheel: build it, install it in a fresh venv, use it."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

import psl

ROOT = Path(__file__).resolve().parent.parent


def _dependency_dirs() -> list[str]:
    """The folders the running interpreter imports psl's dependencies from."""
    import click
    import jinja2
    import lark
    import numpy
    import PIL

    return sorted({str(Path(m.__file__).resolve().parents[1])
                   for m in (click, jinja2, lark, numpy, PIL)})


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(work), str(ROOT)], check=True)
    [wheel] = work.glob("shaderception_psl-*.whl")
    env_dir = work / "venv"
    # A bare venv (no pip, no system site-packages: Debian's python and a venv both work);
    # the running interpreter's pip installs the wheel into it, and a .pth file lends it the
    # dependencies the tests already have, so the test needs no network.
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "psl_test_deps.pth").write_text("\n".join(_dependency_dirs()) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps",
                    "-q", str(wheel)], check=True)
    return env_dir


def test_wheel_contains_templates(installed):
    py = installed / "bin" / "python"
    code = (
        "import psl, psl.resources as r, psl.gen.env as e;"
        "assert 'site-packages' in psl.__file__, psl.__file__;"
        "print(r.templates_dir());"
        "e.environment().get_template('docs/builtins.md.j2')"
    )
    out = subprocess.run([str(py), "-c", code], check=True, capture_output=True, text=True,
                         cwd=installed)
    assert "_data" in out.stdout
    shipped = Path(out.stdout.strip())
    expected = [p.relative_to(ROOT / "templates") for p in (ROOT / "templates").rglob("*")
                if p.is_file()]
    assert expected
    missing = [str(p) for p in expected if not (shipped / p).is_file()]
    assert not missing, f"templates missing from the wheel: {missing}"


def test_distribution_name_and_the_optimizer_halves(installed, tmp_path):
    """The wheel installs as shaderception-psl (the index's "psl" is another project) and
    carries the optimizer's C# halves beside their modules (psl/optimize/*.cs.j2): the
    installed psl-gen renders the in-world compiler."""
    py = installed / "bin" / "python"
    name = subprocess.run([str(py), "-c", "import importlib.metadata as m, psl;"
                           "print(m.distribution('shaderception-psl').metadata['Name'])"],
                          check=True, capture_output=True, text=True, cwd=installed)
    assert name.stdout.strip() == "shaderception-psl"
    gen = installed / "bin" / "psl-gen"
    subprocess.run([str(gen), "udonsharp", "--out", str(tmp_path)], check=True,
                   capture_output=True, cwd=installed)
    assert "private bool PutIns(" in (tmp_path / "Compiler.cs").read_text()


def test_console_scripts(installed):
    gen = installed / "bin" / "psl-gen"
    assert subprocess.run([str(gen), "--help"], capture_output=True, cwd=installed).returncode == 0
    cli = installed / "bin" / "psl"
    out = subprocess.run([str(cli), "--version"], capture_output=True, text=True, cwd=installed)
    assert out.returncode == 0 and psl.__version__ in out.stdout


def test_install_hints_never_name_the_other_psl():
    """Every install hint (README, docs, the editors, `psl lsp`'s message) installs this
    project: from the checkout (`pip install .`, `'.[extra]'`) or by its distribution name,
    never `pip install psl` (the Public Suffix List on the public index)."""
    import re

    name = re.search(r'^name = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert name is not None and name.group(1) == "shaderception-psl"
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "editors" / "vscode").glob("*.*")),
             *sorted((ROOT / "psl").rglob("*.py"))]
    hints = []
    for path in files:
        if path.suffix not in (".md", ".py", ".js", ".json"):
            continue
        for m in re.finditer(r"pip install ([^\n`]*)", path.read_text(encoding="utf-8")):
            hints.append((path.name, m.group(1)))
    assert any(name == "README.md" for name, _ in hints)
    for name, hint in hints:
        target = hint.split()[-1].strip("'\"),;") if hint.split() else ""
        assert not re.fullmatch(r"psl(\[[\w,]+\])?", target), (name, hint)


def test_readme_layering_is_the_contracts():
    """The README's layering chain is the import-linter layers of pyproject.toml."""
    import re

    layers = re.search(r"layers = \[(.*?)\]", (ROOT / "pyproject.toml").read_text(), re.S)
    assert layers is not None
    want = [x.strip().strip('",') for x in layers.group(1).split("\n") if x.strip()]
    readme = " ".join((ROOT / "README.md").read_text().split())
    chain = re.search(r"`cli` → (.*?); nothing imports upwards", readme)
    assert chain is not None
    got = ["cli", *(part.strip().strip("`") for part in chain.group(1).split("→"))]
    assert got == want
