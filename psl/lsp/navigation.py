"""Go to definition, find references, rename and the document's outline."""

from __future__ import annotations

import re

from lsprotocol import types

from psl.lsp.document import Document
from psl.lsp.symbols import Occurrence
from psl.lsp.widths import width_name
from psl.registry import KEYWORDS, lookup_builtin

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _occurrence(doc: Document, pos: types.Position) -> Occurrence | None:
    occ = doc.symbols.at(doc.index.offset(pos))
    return None if occ is None or occ.kind == "builtin" else occ


def definition(doc: Document, pos: types.Position) -> types.Location | None:
    occ = _occurrence(doc, pos)
    if occ is None:
        return None
    if occ.kind == "function":
        fn = doc.symbols.functions.get(occ.token.text)
        return None if fn is None else types.Location(doc.uri, doc.token_range(fn.name))
    target = doc.symbols.definition(occ)
    return None if target is None else types.Location(doc.uri, doc.token_range(target.token))


def references(doc: Document, pos: types.Position, declaration: bool) -> list[types.Location]:
    occ = _occurrence(doc, pos)
    if occ is None:
        return []
    group = doc.symbols.same(occ)
    first = doc.symbols.definition(occ)
    return [types.Location(doc.uri, doc.token_range(o.token)) for o in group
            if declaration or o is not first]


def prepare_rename(doc: Document, pos: types.Position) -> types.Range | None:
    occ = _occurrence(doc, pos)
    if occ is None or (occ.kind == "function" and occ.token.text not in doc.symbols.functions):
        return None
    return doc.token_range(occ.token)


class RenameError(ValueError):
    pass


def rename(doc: Document, pos: types.Position, new_name: str) -> types.WorkspaceEdit | None:
    occ = _occurrence(doc, pos)
    if occ is None:
        return None
    if not _IDENT.match(new_name) or new_name in KEYWORDS:
        raise RenameError(f"'{new_name}' is not a PSL name")
    if occ.kind == "function" and lookup_builtin(new_name) is not None:
        raise RenameError(f"'{new_name}' is a builtin function")
    if new_name == occ.token.text:
        return types.WorkspaceEdit(changes={doc.uri: []})
    clash = _collision(doc, occ, new_name)
    if clash is not None:
        line = doc.index.position(clash.token.offset).line + 1
        what = "a function" if clash.kind == "function" else \
            "a parameter" if clash.kind == "param" else "a variable"
        raise RenameError(f"'{new_name}' is already {what} (line {line}): renaming would "
                          "merge two names into one")
    edits = [types.TextEdit(doc.token_range(o.token), new_name) for o in doc.symbols.same(occ)]
    return types.WorkspaceEdit(changes={doc.uri: edits})


def _collision(doc: Document, occ: Occurrence, new_name: str) -> Occurrence | None:
    """An occurrence of `new_name` that the renamed symbol would merge with: any function
    of that name; for a function, also a variable (W003 then calls it a function); for a
    top-level variable, that name anywhere (functions see top-level names); for a function's
    variable or parameter, that name in the function or at the top level."""
    for o in doc.symbols.occurrences:
        if o.token.text != new_name or o.kind == "builtin":
            continue
        if o.kind == "function" or occ.kind == "function":
            return o
        if occ.scope == "" or o.scope in ("", occ.scope):
            return o
    return None


def document_symbols(doc: Document) -> list[types.DocumentSymbol]:
    symbols = doc.symbols
    out: list[types.DocumentSymbol] = []
    for name, fn in symbols.functions.items():
        children = [
            types.DocumentSymbol(o.token.text, types.SymbolKind.Variable,
                                 doc.token_range(o.token), doc.token_range(o.token),
                                 detail="parameter" if o.kind == "param" else "variable")
            for o in symbols.variables(name).values()]
        params = ", ".join(p.text for p in fn.params)
        out.append(types.DocumentSymbol(
            name, types.SymbolKind.Function, doc.index.range(fn.start, fn.end),
            doc.token_range(fn.name), detail=f"({params})", children=children))
    for name, occ in symbols.variables("").items():
        first = next((o for o in symbols.same(occ) if o.write), occ)
        ws = doc.width_at(first.token)
        out.append(types.DocumentSymbol(
            name, types.SymbolKind.Variable, doc.token_range(first.token),
            doc.token_range(first.token), detail=width_name(ws) if ws else ""))
    out.sort(key=lambda s: (s.range.start.line, s.range.start.character))
    return out
