"""What the `psl` subcommands share: reading a program, printing its diagnostics, and the
boundary where a failing file, a full disk or an impossible size becomes a clear error."""

from __future__ import annotations

import errno
import math
import os
import sys

import click

from psl.diagnostics import Diagnostic, render_text
from psl.registry import DEFAULT_OPTIMIZE_LEVEL, OPTIMIZE_LEVELS
from psl.userfiles import MAX_SOURCE_BYTES, UserFileError, decode_source, read_stream
from psl.userfiles import read_source as read_file


def optimize_option(fn):
    """`-O/--optimize 0|1|2` (SPEC §10, §11) on every command that compiles: 2, the default
    (registry.DEFAULT_OPTIMIZE_LEVEL), fuses instructions after the -O1 optimizer; 1 runs
    the optimizer alone; 0 gives the original compiler's code."""
    levels = "|".join(str(k) for k in OPTIMIZE_LEVELS)
    return click.option("-O", "--optimize", "optimize",
                        type=click.IntRange(min(OPTIMIZE_LEVELS), max(OPTIMIZE_LEVELS)),
                        default=DEFAULT_OPTIMIZE_LEVEL, show_default=True, metavar=levels,
                        help="optimization level: 2 also fuses instructions into "
                             "superinstructions (SPEC §11), 1 optimizes the bytecode "
                             "(SPEC §10), 0 emits the original compiler's code")(fn)


def read_source(path: str, strict: bool = False) -> str:
    """Read a program; `-` is stdin. Bounded (MAX_SOURCE_BYTES) and regular files only;
    undecodable bytes become U+FFFD (unless `strict`) so the lexer can point at them."""
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None) if sys.stdin is not None else None
            data = read_stream(stdin, MAX_SOURCE_BYTES, "<stdin>", "PSL file")
            return decode_source(data, "<stdin>", strict)
        return read_file(path, strict)
    except UserFileError as exc:
        raise click.ClickException(str(exc)) from None


def display_name(path: str) -> str:
    """A path as text: bytes of the name that are not UTF-8 (surrogate escapes from the
    command line) as \\xNN, so every output (JSON included) stays valid."""
    if path == "-":
        return "<stdin>"
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def print_diagnostics(diags: list[Diagnostic], source: str, path: str, err: bool) -> None:
    for d in diags:
        click.echo(render_text(d, source, display_name(path)), err=err)


class Finite(click.ParamType):
    """A finite float (click's FLOAT takes nan and inf), optionally within bounds."""

    name = "float"

    def __init__(self, low: float | None = None, high: float | None = None,
                 low_open: bool = False) -> None:
        self.low, self.high, self.low_open = low, high, low_open

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        try:
            x = float(value)
        except (TypeError, ValueError):
            self.fail(f"'{value}' is not a number", param, ctx)
        if not math.isfinite(x):
            self.fail(f"'{value}' is not a finite number", param, ctx)
        if self.low is not None and (x < self.low or (self.low_open and x == self.low)):
            self.fail(f"{value} must be {'above' if self.low_open else 'at least'} "
                      f"{self.low:g}", param, ctx)
        if self.high is not None and x > self.high:
            self.fail(f"{value} must be at most {self.high:g}", param, ctx)
        return x


def _silence_stdout() -> None:
    # After stdout failed (a full disk), point it at /dev/null so the interpreter's final
    # flush does not print a second error.
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


def guarded_invoke(invoke, ctx: click.Context):  # type: ignore[no-untyped-def]
    """Run a command so that no OSError, MemoryError or RecursionError leaves it as a
    traceback: each becomes `Error: ...` and exit status 1."""
    def flush() -> None:
        try:
            if sys.stdout is not None and not sys.stdout.closed:
                sys.stdout.flush()
        except ValueError:  # closed under us (the language server closes it at exit)
            pass
        except OSError as exc:
            _silence_stdout()
            if exc.errno == errno.EPIPE:
                sys.exit(1)
            raise click.ClickException(f"cannot write the output: {exc.strerror}") from None

    try:
        result = invoke(ctx)
    except SystemExit:
        flush()
        raise
    except UserFileError as exc:
        raise click.ClickException(str(exc)) from None
    except MemoryError:
        raise click.ClickException("out of memory: the input or the requested size is too "
                                   "large for this machine") from None
    except RecursionError:
        raise click.ClickException("the input is nested too deeply to handle") from None
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            _silence_stdout()
            sys.exit(1)
        where = f"{exc.filename}: " if exc.filename else ""
        if exc.errno in (errno.ENOSPC, errno.EIO) and not exc.filename:
            _silence_stdout()
            where = "cannot write the output: "
        raise click.ClickException(f"{where}{exc.strerror or exc}") from None
    flush()
    return result


class GuardedGroup(click.Group):
    """A click group whose commands run inside `guarded_invoke` (for `psl-gen`)."""

    def invoke(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        return guarded_invoke(super().invoke, ctx)
