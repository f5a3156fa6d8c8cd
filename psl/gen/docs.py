"""`psl-gen docs`: documentation generated from the registry and the diagnostic catalogue."""

from __future__ import annotations

from pathlib import Path

import click

from psl import registry
from psl.diagnostics import CATALOGUE
from psl.gen.env import render, write_outputs


def _result(b: registry.Builtin) -> str:
    if b.result is registry.ResultDim.LARGEST:
        return "largest"
    if b.result is registry.ResultDim.MASK:
        return "mask"
    if b.result is registry.ResultDim.FULL:
        return "float4"
    return str(b.dim)


def render_docs() -> dict[str, str]:
    return {
        "builtins.md": render("docs/builtins.md.j2", builtins=registry.BUILTINS,
                              result=_result),
        "diagnostics.md": render("docs/diagnostics.md.j2",
                                 catalogue=list(CATALOGUE.values())),
        # A TextMate grammar (VS Code, Sublime, GitHub linguist) for editing PSL.
        "editors/psl.tmLanguage.json": render(
            "docs/psl.tmLanguage.json.j2",
            core=[b.name for b in registry.BUILTINS if not b.extension],
            extension=[b.name for b in registry.BUILTINS if b.extension]),
    }


@click.command(name="docs")
@click.option("--out", type=click.Path(file_okay=False), default="docs", show_default=True,
              help="folder to write builtins.md and diagnostics.md into")
def command(out: str) -> None:
    """Generate docs/builtins.md and docs/diagnostics.md."""
    for path in write_outputs(Path(out), render_docs()):
        click.echo(f"wrote {path}")
