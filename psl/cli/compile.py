"""`psl compile`: a PSL program to VM bytecode (binary slots, listing or JSON)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from psl.cli.common import optimize_option, print_diagnostics, read_source
from psl.compiler import compile_source


@click.command("compile")
@click.argument("file")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="output file (default: stdout for asm/json; required for bin on a terminal)")
@click.option("--format", "fmt", type=click.Choice(["bin", "asm", "json"]), default="bin",
              show_default=True,
              help="bin: float32 little-endian slots; asm: listing; json: instructions")
@click.option("--pad", is_flag=True, help="bin: pad to all 4092 slots (the material upload)")
@optimize_option
def command(file: str, output: str | None, fmt: str, pad: bool, optimize: int) -> None:
    """Compile a PSL program to VM bytecode."""
    if output is not None and file != "-" and Path(output).resolve() == Path(file).resolve():
        raise click.BadParameter("the output would overwrite the source program",
                                 param_hint="-o")
    source = read_source(file)
    result = compile_source(source, optimize=optimize)
    print_diagnostics(result.diagnostics, source, file, err=True)
    if result.program is None:
        sys.exit(1)
    program = result.program
    data: bytes | str
    if fmt == "bin":
        data = program.to_bytes(pad=pad)
    elif fmt == "asm":
        data = program.listing()
    else:
        data = program.to_json()
    if output is None:
        if isinstance(data, bytes):
            if sys.stdout.isatty():
                raise click.UsageError("refusing to write binary to a terminal; use -o FILE")
            sys.stdout.buffer.write(data)
        else:
            click.echo(data, nl=False)
        return
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(output, mode) as fh:
        fh.write(data)
