"""What the `psl` subcommands share: reading a program, printing its diagnostics."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from psl.diagnostics import Diagnostic, render_text


def optimize_option(fn):
    """`-O/--optimize 0|1` (SPEC §10): 1, the default, runs the bytecode optimizer; 0 gives
    the original compiler's code."""
    return click.option("-O", "--optimize", "optimize", type=click.IntRange(0, 1), default=1,
                        show_default=True, metavar="0|1",
                        help="optimization level: 1 optimizes the bytecode (SPEC §10), 0 "
                             "emits the original compiler's code")(fn)


def read_source(path: str) -> str:
    """Read a program; `-` is stdin. Undecodable bytes become U+FFFD so the lexer can point
    at them (E001) instead of the CLI failing with a traceback."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        p = Path(path)
        if p.is_dir():
            raise click.BadParameter(f"{path} is a folder, not a PSL file", param_hint="FILE")
        try:
            data = p.read_bytes()
        except OSError as exc:
            raise click.BadParameter(f"cannot read {path}: {exc.strerror}",
                                     param_hint="FILE") from exc
    return data.decode("utf-8-sig", errors="replace")


def display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def print_diagnostics(diags: list[Diagnostic], source: str, path: str, err: bool) -> None:
    for d in diags:
        click.echo(render_text(d, source, display_name(path)), err=err)
