"""`psl-gen unity-package` ships exactly what `psl-gen udonsharp` and `psl-gen hlsl` produce."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from psl.gen import udonsharp
from psl.gen.unity import package as pkg
from psl.gen.unity.csharp import parse_csharp_class

SHADERS = {"VM.shader": "Runtime/Shaders/VM.shader", "VM.cginc": "Runtime/Shaders/VM.cginc",
           "Screen.shader": "Runtime/Shaders/Screen.shader"}
SCRIPTS = {f"{c}.cs": f"Runtime/Scripts/{c}.cs" for c in udonsharp.BEHAVIOURS}


def _cli_output(command_name: str, out: Path) -> dict[str, bytes]:
    from psl.cli.gen import main

    result = CliRunner().invoke(main, [command_name, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return {p.name: p.read_bytes() for p in out.iterdir()}


@pytest.fixture(scope="module")
def real_package() -> pkg.Package:
    return pkg.build_package()


def test_hlsl_files_equal_psl_gen_hlsl(tmp_path: Path) -> None:
    package = pkg.build_package()
    produced = _cli_output("hlsl", tmp_path)
    for name, path in SHADERS.items():
        assert package.files[path] == produced[name], name


def test_scripts_equal_psl_gen_udonsharp(real_package: pkg.Package, tmp_path: Path) -> None:
    produced = _cli_output("udonsharp", tmp_path)
    for name, path in SCRIPTS.items():
        assert real_package.files[path] == produced[name], name


def test_real_scripts_match_the_prefab_contract(real_package: pkg.Package) -> None:
    """The prefab wires the compiler by field type; the real classes must offer those fields."""
    compiler = parse_csharp_class(
        "Compiler", real_package.files["Runtime/Scripts/Compiler.cs"].decode())
    types = {t for t, _ in compiler.fields}
    assert {"InputField", "Text", "Material"} <= types, compiler.fields
    assert "Compile" in compiler.methods
    example = parse_csharp_class(
        "ExampleButton", real_package.files["Runtime/Scripts/ExampleButton.cs"].decode())
    assert {"TextAsset", "string"} & {t for t, _ in example.fields}, example.fields


def _mcs_missing() -> bool:
    import shutil

    return shutil.which("mcs") is None or shutil.which("mono") is None


@pytest.mark.skipif(_mcs_missing(), reason="mono-mcs / mono-runtime not installed")
def test_package_scripts_compile_in_the_mono_harness(real_package: pkg.Package,
                                                     tmp_path: Path) -> None:
    from tests.csharp_support.build import build

    files = {name: real_package.files[path].decode() for name, path in SCRIPTS.items()}
    assert build(tmp_path, files).exists()


@pytest.mark.skipif(_mcs_missing(), reason="mono-mcs not installed")
def test_editor_script_compiles_against_api_stubs(tmp_path: Path) -> None:
    """Editor/ShaderceptionSetup.cs against the signatures it uses (tests/package_support)."""
    import subprocess

    package = pkg.build_package()
    script = tmp_path / "ShaderceptionSetup.cs"
    script.write_bytes(package.files["Editor/ShaderceptionSetup.cs"])
    stubs = Path(__file__).parent / "package_support" / "EditorStubs.cs"
    proc = subprocess.run(["mcs", "-nologo", "-target:library", "-warnaserror+",
                           f"-out:{tmp_path / 'editor.dll'}", str(stubs), str(script)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
