"""`psl compile`: a PSL program to VM bytecode (binary slots, listing or JSON)."""

from __future__ import annotations

import json
import sys

import click

from psl.bytecode import FormatError
from psl.cli.common import optimize_option, print_diagnostics, read_source
from psl.compiler import compile_source
from psl.registry import LIMITS
from psl.syntax.sliders import SliderTable
from psl.userfiles import same_file, write_bytes


def slider_rows(table: SliderTable) -> list[dict[str, object]]:
    """The slider table as JSON rows (docs/spec.md §8.8), in index order."""
    return [{"index": s.index, "name": s.name, "low": s.low, "high": s.high,
             "default": s.default} for s in table.sliders]


def with_sliders(program_json: str, table: SliderTable) -> str:
    """The program's JSON with a "sliders" member: spliced in as text, because the program's
    own JSON writes infinite operands in a form json.loads/dumps would not keep."""
    body = program_json.rstrip()
    assert body.endswith("}")
    rows = json.dumps(slider_rows(table), indent=1, allow_nan=False).replace("\n", "\n ")
    return f'{body[:-1].rstrip()},\n "sliders": {rows}\n}}\n'


@click.command("compile")
@click.argument("file")
@click.option("-o", "--output", metavar="FILE",
              help="output file (default: stdout for asm/json; required for bin on a terminal)")
@click.option("--format", "fmt", type=click.Choice(["bin", "texture", "asm", "json"]),
              default="bin", show_default=True,
              help="bin: float32 little-endian slots; texture: the program texture the world "
                   f"uploads ({LIMITS.texture_width}x{LIMITS.texture_height} float32 RGBA, "
                   "row-major); asm: listing; json: instructions and the slider table")
@click.option("--pad", is_flag=True,
              help=f"bin: the original world's format, all {LIMITS.original_slots} slots "
                   f"(programs of at most {LIMITS.original_instructions} instructions)")
@optimize_option
def command(file: str, output: str | None, fmt: str, pad: bool, optimize: int) -> None:
    """Compile a PSL program to VM bytecode."""
    if output is not None and file != "-" and same_file(output, file):
        raise click.BadParameter("the output would overwrite the source program",
                                 param_hint="-o")
    source = read_source(file)
    result = compile_source(source, optimize=optimize)
    print_diagnostics(result.diagnostics, source, file, err=True)
    if result.program is None:
        sys.exit(1)
    program = result.program
    data: bytes | str
    if pad and fmt != "bin":
        raise click.UsageError("--pad applies to --format bin only")
    if fmt == "bin":
        try:
            data = program.to_bytes(pad=pad)
        except FormatError as exc:
            click.echo(f"error: --pad: {exc}; leave out --pad for the program texture "
                       "(--format texture)", err=True)
            sys.exit(1)
    elif fmt == "texture":
        data = program.texture_bytes()
    elif fmt == "asm":
        data = program.listing()
    else:
        data = with_sliders(program.to_json(), result.sliders)
    if output is None:
        if isinstance(data, bytes):
            if sys.stdout.isatty():
                raise click.UsageError("refusing to write binary to a terminal; use -o FILE")
            sys.stdout.buffer.write(data)
        else:
            click.echo(data, nl=False)
        return
    write_bytes(output, data if isinstance(data, bytes) else data.encode("utf-8"),
                sources=[file])
