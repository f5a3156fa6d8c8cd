"""`psl export`: native shaders from PSL programs, equal to what the VM computes.

Front end: the compiled, inlined bytecode and its width inference (psl.compiler,
psl.infer) become a typed IR (ir.py); back ends write it as HLSL (hlsl.py), a Unity shader
(unity.py), GLSL ES 3.00 (glsl.py), a Shadertoy pass (shadertoy.py) or MSL (metal.py), each
listed once in the target table (targets.py) with its dialect (psl.dialect). See
docs/export.md.
"""

from __future__ import annotations

from psl.compiler import CompileResult, compile_source
from psl.diagnostics import PslError
from psl.export.ir import ExportError, Program, build
from psl.export.names import check_name, comment_text
from psl.export.targets import TARGETS, ExportTarget
from psl.export.targets import target as _target
from psl.export.text import Options


def lower(source: str) -> Program:
    """The typed IR of PSL source; PslError for a program with errors, ExportError for one
    that cannot be exported."""
    result = compile_source(source)
    if not result.ok:
        raise PslError(result.diagnostics)
    return build(result)


def export(source: str, target: str, options: Options | None = None,
           source_name: str = "<program>") -> str:
    """The shader text of `source` for `target` (a key of TARGETS, the target table)."""
    result = compile_source(source)
    if not result.ok:
        raise PslError(result.diagnostics)
    return build_text(result, target, options, source_name)


def build_text(result: CompileResult, target: str, options: Options | None = None,
               source_name: str = "<program>") -> str:
    """The shader text of a compiled program for `target`. A name `check_name` refuses is
    a ValueError; the source name is escaped for the generated comments."""
    return write_text(build(result), target, options, source_name)


def write_text(program: Program, target: str, options: Options | None = None,
               source_name: str = "<program>") -> str:
    """build_text for a typed IR already built (`build(result)`), for a caller that needs
    the IR too (the playground's native mode reads its slider parameters)."""
    options = options or Options()
    entry = _target(target)  # an unknown target is a ValueError naming the choices
    why = check_name(options.name, target)
    if why is not None:
        raise ValueError(f"--name: {why}")
    # a file name, never a path: the export names the program, not the machine it came from
    if not source_name.startswith("<"):
        source_name = source_name.replace("\\", "/").rsplit("/", 1)[-1] or source_name
    source_name = comment_text(source_name)
    return entry.writer()(program, options, source_name)


__all__ = ["TARGETS", "ExportError", "ExportTarget", "Options", "Program", "build_text", "export",
           "lower", "write_text"]
