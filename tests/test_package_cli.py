"""`psl-gen unity-package`: determinism, defaults, the console script and error handling."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from psl.cli.gen import main as psl_gen
from psl.gen.unity import package as pkg


def _outputs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


BASE_URL = "https://vpm.psl-tests.org/shaderception/"


@pytest.mark.parametrize("base_url, count", [(None, 3), (BASE_URL, 4)])
def test_two_runs_are_byte_identical(tmp_path: Path, base_url: str | None, count: int) -> None:
    options = pkg.PackageOptions(base_url=base_url)
    a, b = tmp_path / "a", tmp_path / "b"
    pkg.write_package(a, options)
    pkg.write_package(b, options)
    first = _outputs(a)
    assert first == _outputs(b)
    assert len(first) == count
    # and running again into the same folder replaces our own files with the same bytes
    pkg.write_package(a, options)
    assert _outputs(a) == first


def test_options_change_names_and_guids(tmp_path: Path) -> None:
    out = pkg.write_package(tmp_path, pkg.PackageOptions(name="com.example.psl-test",
                                                         version="2.3.4-beta.1"))
    assert out.zip.name == "com.example.psl-test-2.3.4-beta.1.zip"
    assert out.unitypackage.name == "com.example.psl-test-2.3.4-beta.1.unitypackage"
    manifest = json.loads(out.manifest.read_text())
    assert manifest["name"] == "com.example.psl-test" and manifest["version"] == "2.3.4-beta.1"
    default = pkg.build_package()
    other = pkg.build_package(pkg.PackageOptions(name="com.example.psl-test"))
    assert not {e.guid for e in default.tree.entries.values()} & {
        e.guid for e in other.tree.entries.values()}


def test_listing_keeps_other_versions(tmp_path: Path) -> None:
    for version in ("1.0.0", "1.1.0"):
        pkg.write_package(tmp_path, pkg.PackageOptions(version=version, base_url=BASE_URL))
    listing = json.loads((tmp_path / "vpm-listing.json").read_text())
    assert list(listing["packages"][pkg.DEFAULT_NAME]["versions"]) == ["1.0.0", "1.1.0"]


@pytest.mark.parametrize("args, message", [
    (["--name", "Not A Name"], "invalid package name"),
    (["--version", "1.2"], "invalid version"),
    (["--base-url", "ftp://x"], "invalid base URL"),
    (["--base-url", "https://"], "invalid base URL"),
    (["--base-url", "vpm.example.org/x"], "invalid base URL"),
])
def test_bad_options_are_clear_errors(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(psl_gen, ["unity-package", "--out", str(tmp_path / "d"), *args])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "d").exists()


def test_refuses_to_overwrite_foreign_files(tmp_path: Path) -> None:
    foreign = tmp_path / "package.json"
    foreign.write_text('{"name": "my-web-app", "version": "1.0.0"}\n')
    with pytest.raises(pkg.PackageError, match="refusing to overwrite"):
        pkg.write_package(tmp_path)
    assert foreign.read_text() == '{"name": "my-web-app", "version": "1.0.0"}\n'
    foreign.unlink()
    (tmp_path / "vpm-listing.json").write_text("not json at all")
    with pytest.raises(pkg.PackageError, match="refusing to overwrite"):
        pkg.write_package(tmp_path, pkg.PackageOptions(base_url=BASE_URL))
    assert not list(tmp_path.glob("*.zip"))


def test_defaults_via_console_script(tmp_path: Path) -> None:
    exe = shutil.which("psl-gen")
    if exe is None:
        pytest.skip("the psl-gen console script is not installed (pip install -e .)")
    result = subprocess.run([exe, "unity-package"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    dist = tmp_path / "dist"
    names = sorted(p.name for p in dist.iterdir())
    version = pkg.PackageOptions().version
    assert names == sorted([f"{pkg.DEFAULT_NAME}-{version}.zip",
                            f"{pkg.DEFAULT_NAME}-{version}.unitypackage",
                            "package.json"])
    assert "files" in result.stdout
    assert "no vpm-listing.json written" in result.stdout and "--base-url" in result.stdout
    # the console script and the library produce the same bytes
    lib = pkg.write_package(tmp_path / "lib")
    assert lib.zip.read_bytes() == (dist / lib.zip.name).read_bytes()
    assert lib.unitypackage.read_bytes() == (dist / lib.unitypackage.name).read_bytes()
