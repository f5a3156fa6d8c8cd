"""`psl check`: errors and warnings of PSL programs, as text or JSON."""

from __future__ import annotations

import sys

import click

from psl.cli.common import display_name, print_diagnostics, read_source
from psl.compiler import check_source
from psl.diagnostics import Diagnostic, render_json


@click.command("check")
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text for people, json for tools")
@click.option("--no-warnings", is_flag=True, help="report errors only")
def command(files: tuple[str, ...], fmt: str, no_warnings: bool) -> None:
    """Check PSL programs for errors and warnings (FILE may be - for stdin).

    Exit status: 0 when no file has errors, 1 when any has, 2 for usage errors.
    """
    failed = False
    collected: list[tuple[str, Diagnostic]] = []
    for path in files:
        source = read_source(path)
        result = check_source(source)
        diags = [d for d in result.diagnostics if d.is_error or not no_warnings]
        failed |= bool(result.errors)
        if fmt == "json":
            collected.extend((display_name(path), d) for d in diags)
        else:
            print_diagnostics(diags, source, path, err=False)
    if fmt == "json":
        click.echo(render_json(collected))
    sys.exit(1 if failed else 0)
