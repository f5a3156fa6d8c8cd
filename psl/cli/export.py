"""`psl export`: a PSL program as a native shader (HLSL, Unity, GLSL, Shadertoy)."""

from __future__ import annotations

import sys

import click

from psl.cli.common import display_name, print_diagnostics, read_source
from psl.export.targets import TARGETS
from psl.userfiles import same_file, write_text


class _TargetChoice(click.Choice):
    """The target table's names, read when the command runs (a target added to the table
    after this module was imported is offered too)."""

    def __init__(self) -> None:
        super().__init__([])

    @property  # type: ignore[override]
    def choices(self) -> tuple[str, ...]:
        return tuple(TARGETS)

    @choices.setter
    def choices(self, value: object) -> None:  # click.Choice.__init__ assigns it
        pass


@click.command("export")
@click.argument("file")
@click.option("--target", type=_TargetChoice(),
              required=True, help="the kind of shader to write")
@click.option("-o", "--output", metavar="FILE",
              help="output file (default: stdout)")
@click.option("--no-jump-limit", is_flag=True,
              help="drop the VM's jump budget (loops then run to their end)")
@click.option("--exact", is_flag=True,
              help="add the VM-exact path: pixels where arithmetic makes a NaN (which the "
                   "VM takes for a missing lane) run again with the VM's semantics")
@click.option("--no-exact-path", is_flag=True, hidden=True,
              help="the default now: no exact path (kept so old command lines work)")
@click.option("--name", default="psl_program", show_default=True,
              help="name of the generated function")
def command(file: str, target: str, output: str | None, no_jump_limit: bool,
            exact: bool, no_exact_path: bool, name: str) -> None:
    """Export a PSL program as a native shader that computes what the VM computes."""
    from psl.compiler import compile_source
    from psl.export import ExportError, Options, build_text
    from psl.export.names import check_name

    why = check_name(name, target)
    if why is not None:
        raise click.BadParameter(why, param_hint="--name")
    if output is not None and file != "-" and same_file(output, file):
        raise click.BadParameter("the output would overwrite the source program",
                                 param_hint="-o")
    source = read_source(file)
    result = compile_source(source)
    errors = [d for d in result.diagnostics if d.is_error]
    if result.program is None:
        print_diagnostics(errors or result.diagnostics, source, file, err=True)
        sys.exit(1)
    options = Options(name=name, max_jumps=None if no_jump_limit else Options().max_jumps,
                      exact=exact and not no_exact_path)
    try:
        text = build_text(result, target, options, display_name(file))
    except ExportError as exc:
        click.echo(f"{display_name(file)}:{exc}" if exc.span else
                   f"{display_name(file)}: {exc}", err=True)
        sys.exit(1)
    if output is None:
        click.echo(text, nl=False)
    else:
        write_text(output, text, sources=[file])
