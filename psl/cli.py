"""`psl` command line: thin wrappers over the library (check, compile, run)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from psl import __version__
from psl.compiler import check_source, compile_source
from psl.diagnostics import Diagnostic, render_json, render_text


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


class _Main(click.Group):
    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name == "run":  # the VM pulls in more code; load it only when asked for
            from psl.vm.cli import command

            return command
        return super().get_command(ctx, name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), "run"])


@click.group(cls=_Main)
@click.version_option(__version__, prog_name="psl")
def main() -> None:
    """psl: check, compile and run PSL programs (the Shaderception shading language)."""


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text for people, json for tools")
@click.option("--no-warnings", is_flag=True, help="report errors only")
def check(files: tuple[str, ...], fmt: str, no_warnings: bool) -> None:
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


@main.command(name="compile")
@click.argument("file")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="output file (default: stdout for asm/json; required for bin on a terminal)")
@click.option("--format", "fmt", type=click.Choice(["bin", "asm", "json"]), default="bin",
              show_default=True,
              help="bin: float32 little-endian slots; asm: listing; json: instructions")
@click.option("--pad", is_flag=True, help="bin: pad to all 4092 slots (the material upload)")
def compile_cmd(file: str, output: str | None, fmt: str, pad: bool) -> None:
    """Compile a PSL program to VM bytecode."""
    if output is not None and file != "-" and Path(output).resolve() == Path(file).resolve():
        raise click.BadParameter("the output would overwrite the source program",
                                 param_hint="-o")
    source = read_source(file)
    result = compile_source(source)
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


if __name__ == "__main__":  # python -m psl.cli
    main()
