"""`psl-gen`: one subcommand per generator target (psl.gen.*.TARGET) and the Unity package."""

from __future__ import annotations

from pathlib import Path

import click

from psl import registry
from psl._version import __version__
from psl.cli.common import GuardedGroup
from psl.gen.target import Target
from psl.gen.unity import package as pkg

OUT_DIR = click.Path(file_okay=False, path_type=Path)


def _writes(name: str) -> str:
    """The files the generator psl.gen.<name> writes, for its --out help (from its TARGET,
    so the help never names fewer files than it writes)."""
    import importlib

    outputs = importlib.import_module(f"psl.gen.{name}").TARGET.outputs
    return ", ".join(sorted(outputs))


def _write(target: Target, out: Path, **options: object) -> None:
    for path in target.write(out, **options):
        click.echo(f"wrote {path}")


@click.group(cls=GuardedGroup)  # OSError (a full disk, an unwritable --out) -> a message
@click.version_option(__version__, prog_name="psl-gen")
def main() -> None:
    """Generate the in-world compiler, the VM shader, the Unity package and the docs."""


@main.command("udonsharp")
@click.option("--out", required=True, type=OUT_DIR,
              help=f"Directory to write the UdonSharp behaviours into: {_writes('udonsharp')}.")
def udonsharp(out: Path) -> None:
    """Generate the in-world UdonSharp compiler (Compiler.cs) and its helper behaviours."""
    from psl.gen.udonsharp import TARGET

    _write(TARGET, out)


@main.command("hlsl")
@click.option("--out", required=True, type=OUT_DIR,
              help=f"Directory to write {_writes('hlsl')} into.")
@click.option("--max-jumps", default=registry.LIMITS.jumps, show_default=True,
              type=click.IntRange(min=0), help="Jumps a pixel may take before the VM stops.")
@click.option("--max-steps", default=registry.LIMITS.steps, show_default=True,
              type=click.IntRange(min=0, max=2**32 - 1),
              help="Instructions a pixel may execute before the VM stops (the work budget).")
@click.option("--audiolink", is_flag=True,
              help="Define AUDIOLINK in VM.shader (the project must contain AudioLink).")
def hlsl(out: Path, max_jumps: int, max_steps: int, audiolink: bool) -> None:
    """Generate the VM shader and its HLSL include."""
    from psl.gen.hlsl import TARGET

    _write(TARGET, out, max_jumps=max_jumps, max_steps=max_steps, audiolink=audiolink)


@main.command("glsl")
@click.option("--out", required=True, type=OUT_DIR,
              help=f"Directory to write {_writes('glsl')} into.")
@click.option("--max-jumps", default=registry.LIMITS.jumps, show_default=True,
              type=click.IntRange(min=0), help="Jumps a pixel may take before the VM stops.")
@click.option("--max-steps", default=registry.LIMITS.steps, show_default=True,
              type=click.IntRange(min=0, max=2**32 - 1),
              help="Instructions a pixel may execute before the VM stops (the work budget).")
def glsl(out: Path, max_jumps: int, max_steps: int) -> None:
    """Generate the WebGL2 VM: a GLSL ES 3.00 fragment shader and its vertex shader."""
    from psl.gen.glsl import TARGET

    _write(TARGET, out, max_jumps=max_jumps, max_steps=max_steps)


@main.command("vscode")
@click.option("--out", default="editors/vscode", show_default=True, type=OUT_DIR,
              help=f"The extension's folder: writes {_writes('vscode')}.")
def vscode(out: Path) -> None:
    """Generate the VS Code extension's grammar and language configuration."""
    from psl.gen.vscode import TARGET

    _write(TARGET, out)


@main.command("docs")
@click.option("--out", default="docs", show_default=True, type=OUT_DIR,
              help=f"Folder to write the generated docs into: {_writes('docs')}.")
def docs(out: Path) -> None:
    """Generate the docs made from the registry (builtins, diagnostics, spec, editor grammar)."""
    from psl.gen.docs import TARGET

    _write(TARGET, out)


@main.command("unity-package")
@click.option("--out", default=str(pkg.DEFAULT_OUT), show_default=True, type=OUT_DIR,
              help="Directory for the .zip, .unitypackage, package.json (and vpm-listing.json).")
@click.option("--name", default=pkg.DEFAULT_NAME, show_default=True,
              help="VPM package name (lower-case reverse-DNS).")
@click.option("--version", "version", default=__version__, show_default=True,
              help="Package version (semver).")
@click.option("--base-url", default=None, metavar="URL",
              help="The https:// folder where you will upload the zip and vpm-listing.json. "
                   "With it: package.json gets url = URL/<name>-<version>.zip and a VCC "
                   "listing (vpm-listing.json, with the zip's SHA-256) is written. Without "
                   "it: no listing and no url (install from the zip or the .unitypackage).")
@click.option("--gallery", default=None, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A gallery file (one 'title | url' per line, raw text URLs) baked into the "
                   "prefab's gallery buttons and Runtime/Gallery/Gallery.txt.")
def unity_package(out: Path, name: str, version: str, base_url: str | None,
                  gallery: Path | None) -> None:
    """Build the Unity package: VPM zip, .unitypackage, package.json and, with --base-url, a
    VCC repository listing (vpm-listing.json)."""
    from psl.gen import world_programs

    try:
        entries = tuple(world_programs.read_gallery(gallery)) if gallery else ()
        result = pkg.write_package(out, pkg.PackageOptions(name=name, version=version,
                                                           base_url=base_url, gallery=entries))
    except (pkg.PackageError, world_programs.GalleryError) as exc:
        raise click.ClickException(str(exc)) from None
    for path in (result.zip, result.unitypackage, result.manifest, result.listing):
        if path is not None:
            click.echo(f"{path} ({path.stat().st_size} bytes)")
    click.echo(f"{result.files} files, {result.folders} folders")
    if result.listing is None:
        click.echo(pkg.NO_LISTING_NOTE)
        if (out / pkg.LISTING_NAME).exists():
            click.echo(f"({out / pkg.LISTING_NAME} from an earlier run was left unchanged)")
