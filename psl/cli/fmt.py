"""`psl fmt`: rewrite PSL files in the canonical layout (docs/editors.md)."""

from __future__ import annotations

import sys

import click

from psl.userfiles import (
    MAX_SOURCE_BYTES,
    UserFileError,
    decode_source,
    read_bytes,
    read_stream,
    write_text,
)

BOM = "\ufeff"


def _stdin():  # type: ignore[no-untyped-def]
    return getattr(sys.stdin, "buffer", None) if sys.stdin is not None else None


@click.command("fmt")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--check", is_flag=True,
              help="Write nothing; exit 1 and name the files that would change.")
def command(files: tuple[str, ...], check: bool) -> None:
    """Format PSL files in place in the canonical layout (`-`: stdin to stdout).

    Comments are kept, and a file is written only when its new text compiles to the same
    bytecode. Files with syntax errors are left alone. Exit status: 0 done (or, with
    --check, nothing to change), 1 a file would change (--check) or could not be
    formatted, 2 usage errors.
    """
    from psl.fmt import FormatError, format_source

    sources: dict[str, str | None] = {}
    status = 0
    for path in files:  # every file read (or a usage error) before any write
        try:
            data = read_stream(_stdin(), MAX_SOURCE_BYTES) if path == "-" else \
                read_bytes(path, MAX_SOURCE_BYTES, "PSL file")
        except UserFileError as exc:  # unreadable: a usage error, before anything is written
            raise click.UsageError(str(exc)) from None
        try:
            # strict: a byte that is not UTF-8 (say in a comment, where the lexer takes
            # anything) would otherwise be written back as U+FFFD
            sources[path] = decode_source(data, "<stdin>" if path == "-" else path,
                                          strict=True)
        except UserFileError as exc:
            click.echo(str(exc), err=True)
            sources[path], status = None, 1
    for path, text in sources.items():
        if text is None:
            continue
        name = "<stdin>" if path == "-" else path
        bom = text.startswith(BOM)  # kept: it is the file's, not the program's
        source = text[1:] if bom else text
        try:
            formatted = format_source(source)
        except FormatError as exc:
            click.echo(f"{name}:{exc}", err=True)
            status = 1
            continue
        changed = formatted != source
        if check:
            if changed:
                click.echo(f"would reformat {name}", err=True)
                status = 1
        elif path == "-":
            click.echo((BOM if bom else "") + formatted, nl=False)
        elif changed:
            try:
                write_text(path, (BOM if bom else "") + formatted)
            except UserFileError as exc:
                click.echo(str(exc), err=True)
                status = 1
                continue
            click.echo(f"reformatted {name}", err=True)
    sys.exit(status)
