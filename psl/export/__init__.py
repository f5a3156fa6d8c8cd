"""`psl export`: native shaders from PSL programs, equal to what the VM computes.

Front end: the compiled, inlined bytecode and its width inference (psl.compiler,
psl.infer) become a typed IR (ir.py); back ends write it as HLSL (hlsl.py), a Unity shader
(unity.py), GLSL ES 3.00 (glsl.py) or a Shadertoy pass (shadertoy.py). See docs/export.md.
"""

from __future__ import annotations

from psl.compiler import CompileResult, compile_source
from psl.diagnostics import PslError
from psl.export.ir import ExportError, Program, build
from psl.export.names import check_name, comment_text
from psl.export.text import Options

TARGETS = ("hlsl", "unity", "glsl", "shadertoy")


def lower(source: str) -> Program:
    """The typed IR of PSL source; PslError for a program with errors, ExportError for one
    that cannot be exported."""
    result = compile_source(source)
    if not result.ok:
        raise PslError(result.diagnostics)
    return build(result)


def export(source: str, target: str, options: Options | None = None,
           source_name: str = "<program>") -> str:
    """The shader text of `source` for `target` (one of TARGETS)."""
    result = compile_source(source)
    if not result.ok:
        raise PslError(result.diagnostics)
    return build_text(result, target, options, source_name)


def build_text(result: CompileResult, target: str, options: Options | None = None,
               source_name: str = "<program>") -> str:
    """The shader text of a compiled program for `target`. A name `check_name` refuses is
    a ValueError; the source name is escaped for the generated comments."""
    options = options or Options()
    if target in TARGETS:
        why = check_name(options.name, target)
        if why is not None:
            raise ValueError(f"--name: {why}")
    # a file name, never a path: the export names the program, not the machine it came from
    if not source_name.startswith("<"):
        source_name = source_name.replace("\\", "/").rsplit("/", 1)[-1] or source_name
    source_name = comment_text(source_name)
    program = build(result)
    if target == "hlsl":
        from psl.export import hlsl
        return hlsl.export(program, options, source_name)
    if target == "unity":
        from psl.export import unity
        return unity.export(program, options, source_name)
    if target == "glsl":
        from psl.export import glsl
        return glsl.export(program, options, source_name)
    if target == "shadertoy":
        from psl.export import shadertoy
        return shadertoy.export(program, options, source_name)
    raise ValueError(f"unknown target {target!r}; one of {', '.join(TARGETS)}")


__all__ = ["TARGETS", "ExportError", "Options", "Program", "build_text", "export", "lower"]
