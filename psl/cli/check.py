"""`psl check`: errors and warnings of PSL programs, as text or JSON; with `--stats`, the
program's numbers against the VM's limits."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from psl.cli.common import display_name, optimize_option, print_diagnostics, read_source
from psl.compiler import check_source
from psl.diagnostics import Diagnostic, render_json
from psl.registry import LIMITS

if TYPE_CHECKING:
    from psl.api import ProgramStats
    from psl.infer import Inference


@click.command("check")
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text for people, json for tools")
@click.option("--no-warnings", is_flag=True, help="report errors only")
@click.option("--stats", "show_stats", is_flag=True,
              help="for programs without errors: instructions, registers and stack depth "
                   "against the VM's limits, and executed instructions per pixel")
@click.option("--widths", "show_widths", is_flag=True,
              help="for programs without errors: the inferred width of every variable "
                   "read and assignment, and of the result")
@optimize_option
def command(files: tuple[str, ...], fmt: str, no_warnings: bool, show_stats: bool,
            show_widths: bool, optimize: int) -> None:
    """Check PSL programs for errors and warnings (FILE may be - for stdin).

    With --stats or --widths, JSON output is an object {"diagnostics": [...], "stats":
    [...]} instead of the list of diagnostics.

    Exit status: 0 when no file has errors, 1 when any has, 2 for usage errors (a file
    that cannot be read is one: said on stderr, the others are still checked and shown).
    """
    failed = unreadable = False
    collected: list[tuple[str, Diagnostic]] = []
    stats: list[dict[str, object]] = []
    for path in files:
        try:
            source = read_source(path)
        except click.ClickException as exc:  # the other files are still checked and shown
            click.echo(f"error: {exc.message}", err=True)
            unreadable = True
            continue
        result = check_source(source, optimize=optimize)
        diags = [d for d in result.diagnostics if d.is_error or not no_warnings]
        failed |= bool(result.errors)
        numbers = None
        if show_stats and result.program is not None:
            from psl.api import program_stats  # loads the VM only when asked

            numbers = program_stats(result.program, unoptimized=result.unoptimized,
                                    sliders=result.sliders.values())
        inference = result.inference if show_widths else None
        if fmt == "json":
            collected.extend((display_name(path), d) for d in diags)
            entry: dict[str, object] = {"path": display_name(path)}
            if numbers is not None:
                entry.update(numbers.as_dict())
            if inference is not None:
                entry["widths"] = widths_json(inference, source)
            if len(entry) > 1:
                stats.append(entry)
        else:
            print_diagnostics(diags, source, path, err=False)
            if numbers is not None:
                click.echo(format_stats(numbers, display_name(path), optimize))
            if inference is not None:
                click.echo(format_widths(inference, source, display_name(path)))
    if fmt == "json":
        if show_stats or show_widths:
            doc = {"diagnostics": json.loads(render_json(collected)), "stats": stats}
            click.echo(json.dumps(doc, indent=2))
        else:
            click.echo(render_json(collected))
    sys.exit(2 if unreadable else 1 if failed else 0)


def _share(count: int, limit: int) -> str:
    return f"{count} of {limit} ({100 * count // limit}%)"


def _span(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _whom(pixels, k: int) -> str:
    """The sample pixels a limit stopped, as the stats lines name them."""
    if len(pixels) == k:
        return "every sample pixel"
    return f"{len(pixels)} of {k} sample pixels, " + ", ".join(f"({p.x}, {p.y})" for p in pixels)


def format_stats(s: ProgramStats, path: str, level: int = 1) -> str:
    """The text of `psl check --stats` for one program, in the style of the diagnostics."""
    sampled = s.sampled
    k = len(sampled.pixels)
    lines = [f"{path}: note: program statistics",
             f"  = instructions: {_share(s.instructions, LIMITS.instructions)}",
             f"  = registers: {_share(s.registers, LIMITS.registers)}"]
    if s.max_stack is None:
        lines.append(f"  = deepest stack: unbounded, a loop leaves values on the stack "
                     f"(a ring of {LIMITS.stack} entries; the sample pixels reached "
                     f"{sampled.max_stack})")
    elif s.max_stack > LIMITS.stack:
        lines.append(f"  = deepest stack: {s.max_stack}, more than the ring's {LIMITS.stack} "
                     f"entries: the newest values overwrite the oldest")
    else:
        lines.append(f"  = deepest stack: {_share(s.max_stack, LIMITS.stack)}")
    lo, hi = s.executed
    jlo, jhi = s.jumps
    jumps = f"{_span(jlo, jhi)} jump{'' if jhi == 1 else 's'}, budget {sampled.max_jumps}"
    if s.uniform:
        lines.append(f"  = executed: {lo} instructions per pixel ({jumps})")
    else:
        lines.append(f"  = executed: {lo}-{hi} instructions per pixel over {k} sample pixels "
                     f"({jumps})")
    dlo, dhi = s.dispatched
    mlo, mhi = s.memory_ops
    lines.append(f"  = dispatched: {_span(dlo, dhi)} instructions per pixel (a fused "
                 f"instruction once, SPEC §11); stack and register memory operations: "
                 f"{_span(mlo, mhi)}")
    if s.cut_off:
        lines.append(f"  = warning: the jump budget cut off {_whom(s.cut_off, k)}: they stop "
                     f"before the program's end, coloured by whatever is on top of the stack")
    if s.spent:
        lines.append(f"  = warning: the work budget ({sampled.max_steps} executed instructions) "
                     f"cut off {_whom(s.spent, k)}")
    before = s.unoptimized
    if before is not None:
        blo, bhi = before.executed
        bj = _span(*before.jumps)
        lines.append(f"  = optimized (-O{level}): at -O0 it would be {before.instructions} "
                     f"instructions, executing {_span(blo, bhi)} per pixel ({bj} jumps)")
    lines.append(f"  = note: counted by the reference VM at the corners and the centre of "
                 f"frame 0 of the reference settings ({sampled.width}x{sampled.height}, "
                 f"time {sampled.time:g}, SPEC §9)")
    return "\n".join(lines)


def _names(inference: Inference, source: str) -> list[tuple[int, int, str, frozenset[int]]]:
    from psl.diagnostics import source_line

    out = []
    for span, ws in sorted(inference.variables.items(), key=lambda i: (i[0].line, i[0].column)):
        text = source_line(source, span.line) or ""
        out.append((span.line, span.column, text[span.column - 1:span.end_column - 1], ws))
    return out


def _calls(inference: Inference, source: str) -> list[tuple[int, int, str, str, frozenset[int]]]:
    """(line, column, function, parameter, widths) of every parameter a call binds."""
    from psl.diagnostics import source_line

    out = []
    for span, params in sorted(inference.parameters.items(),
                               key=lambda i: (i[0].line, i[0].column)):
        text = source_line(source, span.line) or ""
        fn = text[span.column - 1:span.end_column - 1]
        out += [(span.line, span.column, fn, p, ws) for p, ws in params]
    return out


def widths_json(inference: Inference, source: str) -> dict[str, object]:
    return {"result": sorted(inference.final),
            "variables": [{"line": s.line, "column": s.column, "widths": sorted(w)}
                          for s, w in sorted(inference.variables.items(),
                                             key=lambda i: (i[0].line, i[0].column))],
            "parameters": [{"line": line, "column": column, "function": fn,
                            "parameter": p, "widths": sorted(ws)}
                           for line, column, fn, p, ws in _calls(inference, source)]}


def format_widths(inference: Inference, source: str, path: str) -> str:
    """`psl check --widths`: one line per variable use, dynamic ones marked."""
    from psl.infer.domain import describe

    lines = [f"{path}: note: inferred widths",
             f"  = result: {describe(inference.final) or 'none (no path ends)'}"]
    rows = [(line, column, name, ws) for line, column, name, ws in _names(inference, source)]
    # a call's parameters, after the variables at the same position
    rows += [(line, column, f"{fn}({p})", ws) for line, column, fn, p, ws
             in _calls(inference, source)]
    for line, column, name, ws in sorted(rows, key=lambda r: (r[0], r[1])):
        mark = "  (dynamic: depends on the path)" if len(ws) > 1 else ""
        lines.append(f"  = {line}:{column} {name}: {describe(ws)}{mark}")
    return "\n".join(lines)
