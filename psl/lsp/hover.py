"""Hover: builtin docs, function signatures and inferred widths."""

from __future__ import annotations

import math

from lsprotocol import types

from psl.fmt.tokens import Token
from psl.lsp import builtins
from psl.lsp.document import Document, token_at
from psl.lsp.widths import width_name
from psl.registry import SWIZZLE_LANES, lookup_builtin


def _value_width(doc: Document, tok: Token, what: str) -> str:
    """The inferred width of the value computed at `tok` (by the width inference on the
    compiled program, over every call of an inlined function)."""
    ws = doc.values.get((tok.line, tok.column))
    if not ws:
        return ""
    note = " (depends on the path taken)" if len(ws) > 1 else ""
    return f"\n\n{what}: `{width_name(ws)}`{note}"


def _slider_index(doc: Document, k: int) -> int | None:
    """The constant index of the `slider(NUMBER)` call whose name is code token k."""
    code = doc.symbols.tokens
    if k < 0 or k + 3 >= len(code) or code[k].text.lower() != "slider":
        return None
    if code[k + 1].text != "(" or code[k + 2].kind != "NUMBER" or code[k + 3].text != ")":
        return None
    try:
        return math.floor(float(code[k + 2].text))
    except (ValueError, OverflowError):
        return None


def _slider(doc: Document, k: int) -> str:
    index = _slider_index(doc, k)
    return "" if index is None else "\n\n" + builtins.slider_text(doc.result.sliders, index)


def hover(doc: Document, pos: types.Position) -> types.Hover | None:
    offset = doc.index.offset(pos)
    tok = token_at(doc, offset)
    if tok is None:
        return None
    if tok.kind != "IDENT":
        # an operator: the width of what it computes (for a chain, the chain up to it);
        # the number of `slider(0)`: its slider line
        k = next((i for i, t in enumerate(doc.symbols.tokens) if t is tok), -1)
        text = (_value_width(doc, tok, f"`{tok.text}` gives") + _slider(doc, k - 2)).strip()
        if not text:
            return None
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text),
                           doc.token_range(tok))
    k = next((i for i, t in enumerate(doc.symbols.tokens) if t is tok), -1)
    text = _describe(doc, tok, k)
    if not text:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text),
                       doc.token_range(tok))


def _describe(doc: Document, tok: Token, k: int) -> str:
    code = doc.symbols.tokens
    if k > 0 and code[k - 1].text == ".":
        lanes = [SWIZZLE_LANES.get(c) for c in tok.text]
        if None in lanes:
            return ""
        return (f"swizzle `.{tok.text}`: lanes {', '.join(str(x) for x in lanes)} "
                f"-> `{width_name([len(tok.text)])}`")  # a swizzle's width is its length
    occ = doc.symbols.at(tok.offset)
    if occ is None:
        return ""
    if occ.kind == "builtin":
        b = lookup_builtin(tok.text)
        if b is None:
            return ""
        return builtins.markdown(b) + _value_width(doc, tok, "This call") + _slider(doc, k)
    if occ.kind == "function":
        fn = doc.symbols.functions.get(tok.text)
        if fn is None:
            return f"`{tok.text}`: no function of this name"
        params = ", ".join(p.text for p in fn.params)
        line = doc.index.position(fn.start).line + 1
        text = f"```psl\nfun {fn.name.text}({params})\n```\nDefined on line {line}; inlined " \
               "at every call."
        bound = doc.parameters.get((tok.line, tok.column))
        if bound:
            text += "\n\nThis call binds " + ", ".join(
                f"`{p}: {width_name(ws)}`" for p, ws in bound) + "."
        return text
    what = "parameter" if occ.kind == "param" else "variable"
    where = f" of `{occ.scope}`" if occ.scope else ""
    ws = doc.width_at(tok)
    if ws:
        note = " (depends on the path taken)" if len(ws) > 1 else ""
        width = f"`{tok.text}: {width_name(ws)}` here{note}"
    elif doc.result.inference is None and not doc.result.ok:
        width = f"`{tok.text}`: widths are inferred when the program compiles"
    elif doc.result.inference is None:  # a quick analysis (psl/lsp/analysis.py), or N003
        width = f"`{tok.text}`: no widths yet (the analysis is running, or N003 stopped it)"
    else:
        width = f"`{tok.text}`: no width inferred here (code that never runs?)"
    return f"{what}{where}\n\n{width}"
