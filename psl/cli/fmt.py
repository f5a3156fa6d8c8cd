"""`psl fmt`: rewrite PSL files in the canonical layout (docs/editors.md)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import click

BOM = "\ufeff"


def _read(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        p = Path(path)
        if p.is_dir():
            raise click.UsageError(f"{path} is a folder, not a PSL file")
        try:
            data = p.read_bytes()
        except OSError as exc:
            raise click.UsageError(f"cannot read {path}: {exc.strerror}") from None
    # Strict: a byte that is not UTF-8 (say in a comment, where the lexer takes anything)
    # would otherwise be written back as U+FFFD.
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data[:exc.start].decode("utf-8")
        line = text.count("\n") + 1
        column = len(text) - (text.rfind("\n") + 1) + 1
        raise _NotUtf8(f"{line}:{column}: error: not UTF-8 (byte 0x{data[exc.start]:02x}); "
                       "not formatting it") from None


class _NotUtf8(Exception):
    pass


def _write_atomic(path: Path, text: str) -> None:
    """Replace `path` in one step (a crash leaves the old or the new file, never half)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
            sources[path] = _read(path)
        except _NotUtf8 as exc:
            click.echo(f"{'<stdin>' if path == '-' else path}:{exc}", err=True)
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
            _write_atomic(Path(path), (BOM if bom else "") + formatted)
            click.echo(f"reformatted {name}", err=True)
    sys.exit(status)
