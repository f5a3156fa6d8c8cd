"""Completion and signature help. Both work from the tokens before the cursor, so they
answer on half-typed text that does not parse."""

from __future__ import annotations

from lsprotocol import types

from psl.lsp import builtins
from psl.lsp.document import Document
from psl.lsp.symbols import TOP
from psl.lsp.widths import width_name
from psl.registry import KEYWORDS, SLIDERS, SWIZZLE_SETS, lookup_builtin

#: offered after '.': single lanes first, then the usual groups
_SWIZZLES = (*SWIZZLE_SETS[0], *SWIZZLE_SETS[1], "xy", "xyz", "xyzw", "rgb", "rgba")


def _swizzles() -> list[types.CompletionItem]:
    return [types.CompletionItem(s, kind=types.CompletionItemKind.Field,
                                 detail=f"swizzle -> {width_name([len(s)])}",
                                 sort_text=f"{len(s)}{k:02d}")
            for k, s in enumerate(_SWIZZLES)]


def completion(doc: Document, pos: types.Position) -> types.CompletionList:
    offset = doc.index.offset(pos)
    if doc.in_comment(offset):
        return types.CompletionList(is_incomplete=False, items=[])
    before = doc.code_before(offset)
    # the name being typed, if any, is not a finished token to look behind
    if before and before[-1].kind == "IDENT" and before[-1].end == offset:
        before = before[:-1]
    if before and before[-1].text == "." and (
            before[-1].end == offset or _only_name_between(doc, before[-1].end, offset)):
        return types.CompletionList(is_incomplete=False, items=_swizzles())
    # `slider(` or `slider(3`: the slider indices (the number being typed set aside)
    call = before[:-1] if before and before[-1].kind == "NUMBER" and \
        before[-1].end == offset else before
    if len(call) >= 2 and call[-1].text == "(" and call[-2].text.lower() == "slider":
        return types.CompletionList(is_incomplete=False, items=_slider_indices(doc))
    items: list[types.CompletionItem] = []
    for kw in KEYWORDS:
        items.append(types.CompletionItem(kw, kind=types.CompletionItemKind.Keyword,
                                          sort_text=f"3{kw}"))
    for b in builtins.PUBLIC:
        items.append(types.CompletionItem(
            b.name, kind=types.CompletionItemKind.Function,
            detail=f"{builtins.signature(b)} -> {builtins.result_text(b)}",
            documentation=types.MarkupContent(types.MarkupKind.Markdown, builtins.markdown(b)),
            sort_text=f"2{b.name}"))
    symbols = doc.symbols
    for name, fn in symbols.functions.items():
        items.append(types.CompletionItem(
            name, kind=types.CompletionItemKind.Function,
            detail=f"fun {name}({', '.join(p.text for p in fn.params)})", sort_text=f"1{name}"))
    scopes = [TOP]
    here = symbols.function_at(offset)
    if here is not None:
        scopes.insert(0, here.name.text)
    seen: set[str] = set()
    for scope in scopes:
        for name, occ in symbols.variables(scope).items():
            if name in seen or occ.token.end == offset:  # (not the name being typed)
                continue
            seen.add(name)
            ws = doc.width_at(occ.token)
            detail = ("parameter" if occ.kind == "param" else "variable") + (
                f": {width_name(ws)}" if ws else "")
            items.append(types.CompletionItem(name, kind=types.CompletionItemKind.Variable,
                                              detail=detail, sort_text=f"0{name}"))
    return types.CompletionList(is_incomplete=False, items=items)


def _slider_indices(doc: Document) -> list[types.CompletionItem]:
    """`slider(`: the indices, labelled with the names the `//@slider` lines give; the named
    ones first."""
    table = doc.result.sliders
    return [types.CompletionItem(
        str(k), kind=types.CompletionItemKind.Value,
        detail=builtins.slider_label(table, k),
        documentation=types.MarkupContent(types.MarkupKind.Markdown,
                                          builtins.slider_text(table, k)),
        sort_text=f"{0 if table.by_index(k) else 1}{k}")
        for k in range(SLIDERS.count)]


def _only_name_between(doc: Document, start: int, end: int) -> bool:
    return doc.text[start:end].isidentifier()


def signature_help(doc: Document, pos: types.Position) -> types.SignatureHelp | None:
    offset = doc.index.offset(pos)
    before = doc.code_before(offset)
    depth, commas = 0, 0
    for k in range(len(before) - 1, -1, -1):
        text = before[k].text
        if text in (")", "}"):
            depth += 1
        elif text == "{":
            return None
        elif text == "(":
            if depth == 0:
                if k == 0 or before[k - 1].kind != "IDENT":
                    return None
                return _signature(doc, before[k - 1].text, commas)
            depth -= 1
        elif text == "," and depth == 0:
            commas += 1
        elif text == ";" and depth == 0:
            return None
    return None


def _signature(doc: Document, name: str, active: int) -> types.SignatureHelp | None:
    fn = doc.symbols.functions.get(name)
    if fn is not None:
        params = [p.text for p in fn.params]
        label, documentation = f"{name}({', '.join(params)})", "user function (inlined)"
    else:
        b = lookup_builtin(name)
        if b is None or b.internal:
            return None
        params, label = builtins.params(b), builtins.signature(b)
        documentation = f"{b.doc}. Result: {builtins.result_text(b)}."
    # parameters as [start, end) offsets into the label: the text "a" would also match the
    # "a" in "clamp"
    spans, at = [], len(name) + 1
    for p in params:
        spans.append(types.ParameterInformation((at, at + len(p))))
        at += len(p) + 2
    info = types.SignatureInformation(label, documentation=documentation, parameters=spans)
    return types.SignatureHelp([info], active_signature=0,
                               active_parameter=min(active, max(len(params) - 1, 0)))
