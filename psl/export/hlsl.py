"""`psl export --target hlsl`: the program as one HLSL function over the VM's inputs.

The builtin and operator text is the HLSL dialect's (psl.dialect.hlsl, the VM shader's
own); this module only supplies the HLSL spelling of the typed IR (psl.export.text).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from psl import registry
from psl.dialect import HLSL
from psl.dialect.helpers import used_items
from psl.dialect.hlsl.vm import EXTENSION_DEFINES, builtin_cases, context
from psl.export.exact import exact_parts
from psl.export.ir import Call, Program
from psl.export.names import export_header
from psl.export.sliders import READER, parameters, reader, reader_name
from psl.export.text import Language, Options
from psl.templating import render

TEMPLATE = "export/program.hlsl.j2"
_CASES = {c.id: c for c in builtin_cases()}


class Hlsl(Language):
    loop_attr = "[loop] "

    def __init__(self, slider_reader: str = READER) -> None:
        """`slider_reader`: the program's own reader of its sliders (several exported
        programs may share a file: see export)."""
        self.slider_reader = slider_reader

    def formula(self, b: registry.Builtin) -> str:
        """The VM's HLSL for builtin b; slider reads this program's parameters."""
        text = HLSL.builtins[b.name]
        return text.replace(f"{READER}(", f"{self.slider_reader}(") if b.name == "slider" \
            else text

    def builtin(self, call: Call, args: list[str], target: str, width: int) -> list[str]:
        b = call.builtin
        lines = self.arguments(call, args)
        take = _lanes(self.formula(b), width)
        define = EXTENSION_DEFINES.get(b.extension, "") if b.extension else ""
        if define:  # without the extension the VM gives zeros of the same shape
            zero = _lanes("float4(0.0, 0.0, 0.0, 0.0)", width)
            return [*lines, f"#ifdef {define}", f"{target} = {take};", "#else",
                    f"{target} = {zero};", "#endif"]
        return [*lines, f"{target} = {take};"]

    def exact_call(self, builtin_id: int, arity: int, raws: list[str]) -> str:
        b = registry.BUILTIN_BY_ID.get(builtin_id)
        if b is None:  # an id not in the table: arity 0, zeros (SPEC §8)
            return "float4(0.0, 0.0, 0.0, 0.0)"
        return f"{self.exact_name(b)}({', '.join(raws)})"

    def exact_name(self, b: registry.Builtin) -> str:
        # the program's own for slider: it reads the program's parameters
        return f"{self.slider_reader}_exact" if b.name == "slider" else f"psl_x_{b.name}"

    def exact_builtin(self, b: registry.Builtin) -> list[str]:
        """The exact path's CALL of one builtin: the VM's masking and its result rule."""
        case = _CASES[b.id]
        if b.name == "slider":
            case = replace(case, code=case.code.replace(f"{READER}(", f"{self.slider_reader}("))
        name = self.exact_name(b)
        guard = name.upper()
        lines = [f"#ifndef {guard}", f"#define {guard}",
                 f"float4 {name}(float4 a, float4 b, float4 c, float4 d)", "{",
                 "    uint da, db, dc, dd, largest;",
                 f"    psl_mask_args({b.arity}u, {'true' if b.pad else 'false'}, a, b, c, d, "
                 "da, db, dc, dd, largest);",
                 "    float4 largest_mask = psl_mask(largest);"]
        if case.extension:
            lines += [f"#ifdef {case.extension}", f"    return {case.code};", "#else",
                      f"    return {case.fallback};", "#endif"]
        else:
            lines.append(f"    return {case.code};")
        return [*lines, "}", "#endif"]

    def index(self, expr: str) -> str:
        return expr

    def compare(self, symbol: str, left: str, right: str) -> tuple[list[str], str]:
        return [f"float4 l = {left};", f"float4 r = {right};"], HLSL.binops[symbol]

    def logical_not(self) -> tuple[list[str], str]:
        return [], HLSL.unops["!"]


def _lanes(expr: str, w: int) -> str:
    return f"({expr})" if w == 4 else f"({expr}).{'xyzw'[:w]}"


@dataclass(frozen=True)
class Notes:
    result: str
    jumps: str
    self_note: str


def result_and_jumps(program: Program, options: Options) -> tuple[str, str]:
    """The header's words for the result and the jump limit (the HLSL-family exports':
    HLSL, Unity, Metal)."""
    result = f"a float{program.result_width}" if program.result_width > 1 else "a float"
    if program.result_width < 4:
        result += " (the missing lanes output 0, as the VM's)"
    if not program.counted_jumps:
        jumps = "no jumps"
    elif options.max_jumps is None:
        jumps = "off (--no-jump-limit)"
    else:
        jumps = f"{options.max_jumps} taken jumps, as the VM's"
    return result, jumps


def notes(program: Program, options: Options) -> Notes:
    result, jumps = result_and_jumps(program, options)
    self_note = ""
    if program.uses_self:
        self_note = ("self() reads _SelfTexture2D: render into a double-buffered "
                     "CustomRenderTexture (see docs/export.md).")
    return Notes(result, jumps, self_note)


def function(program: Program, options: Options) -> tuple[list[str], list[str]]:
    """See readable.structured_or_dispatch."""
    from psl.export.readable import HlslReadable, structured_or_dispatch

    return structured_or_dispatch(HlslReadable, lambda: Hlsl(reader_name(options.name)),
                                  program, options, glsl=False)


def export(program: Program, options: Options, source: str = "<program>",
           header: str | None = None, unity: bool = False) -> str:
    """The HLSL file; `header` replaces its export header (the Unity shader writes its own);
    `unity`: the sliders' defaults are the shader's Properties, not initializers."""
    n = notes(program, options)
    lang = Hlsl(reader_name(options.name))
    exact, helpers = exact_parts(lang, program, options)
    body, functions = function(program, options)
    # Only the helpers the code calls (the rule of every dialect: psl.dialect.helpers); the
    # exact path's code calls the VM's operations (_ops.hlsl.j2), which call many.
    ctx = context()
    code = "\n".join([*functions, *body, *exact, *helpers])
    if exact:
        code += render("hlsl/_ops.hlsl.j2", **ctx)
    chosen = used_items(HLSL.helper_templates, ctx, code)
    # psl_has_nan is the exports' own (VM.cginc has none): outside the VM.cginc guard
    vm_helpers = [item for item in chosen if item[0] != "psl_has_nan"]
    export_helpers = [item for item in chosen if item[0] == "psl_has_nan"]
    sliders = parameters(program)
    # the program's reader where its code calls it; psl_slider where the VM's operation
    # table (_ops.hlsl.j2, which the export never calls) names it
    slider_reader = reader(sliders, lang.slider_reader) if f"{lang.slider_reader}(" in code \
        else []
    return render(TEMPLATE, header=export_header(source, "hlsl") if header is None else header,
                  sliders=sliders, slider_reader=slider_reader, unity=unity,
                  ops_reader=reader((), READER) if exact else [],
                  source=source, name=options.name,
                  body=body, functions=functions, result=n.result, jump_note=n.jumps,
                  self_note=n.self_note, exact=exact, exact_name=options.exact_name(),
                  exact_helpers=helpers, vm_helpers=vm_helpers,
                  export_helpers=export_helpers, **ctx)


__all__ = ["Hlsl", "export", "function", "notes"]
