"""How the server describes builtins (from psl.registry)."""

from __future__ import annotations

from psl.registry import BUILTINS, Builtin, ResultDim

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
