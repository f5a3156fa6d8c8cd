"""How the server describes builtins (from psl.registry)."""

from __future__ import annotations

from psl.registry import BUILTINS, SLIDERS, Builtin, ResultDim
from psl.syntax.sliders import SliderTable

PARAMS = ("a", "b", "c", "d")


def params(b: Builtin) -> list[str]:
    return list(PARAMS[:b.arity])


def signature(b: Builtin) -> str:
    return f"{b.name}({', '.join(params(b))})"


def result_text(b: Builtin) -> str:
    if b.result is ResultDim.LARGEST:
        return "as wide as its widest argument"
    if b.result is ResultDim.FULL or b.dim == 4:
        return "float4"
    return "float" if b.dim == 1 else f"float{b.dim}"


def markdown(b: Builtin) -> str:
    extra = " (AudioLink)" if b.extension else ""
    return (f"```psl\n{signature(b)}\n```\n{b.doc}{extra}\n\n"
            f"Result: {result_text(b)}.")


#: what completion offers; the compiler's internal `swizzle` is left out
PUBLIC: tuple[Builtin, ...] = tuple(b for b in BUILTINS if not b.internal)


def slider_text(table: SliderTable, index: int) -> str:
    """What `slider(index)` reads, from the program's `//@slider` lines."""
    if not 0 <= index < SLIDERS.count:
        return f"slider({index}): outside the {SLIDERS.count} sliders (0-{SLIDERS.count - 1}), " \
               "reads 0"
    s = table.by_index(index)
    if s is None:
        return (f"slider({index}): no `//{SLIDERS.marker}` line names it, so it reads 0 "
                f"(name it: `//{SLIDERS.marker} {index} amount 0..1 = 0.5`)")
    return (f"slider({index}) **{s.name}**: {s.low:g}..{s.high:g}, starts at {s.default:g} "
            f"(line {s.span.line})")


def slider_label(table: SliderTable, index: int) -> str:
    """A completion item's detail for the index: the slider's name and range."""
    s = table.by_index(index)
    return f"{s.name} {s.low:g}..{s.high:g} = {s.default:g}" if s else "unnamed: reads 0"
